// Runs the whole-simulation tables under tests/data/sim (queue order, nominated pods, preemption, PDBs): each case
// is a scenario run in scheduler mode; the expected parts of the result are compared. One test per case.
#include <gtest/gtest.h>

#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using io::Json;

void RunCase(const Json& c) {
  Json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", c.at("objects")}};
  list["items"].push_back(
      {{"apiVersion", "kplace.dev/v1alpha1"},
       {"kind", "Simulation"},
       {"spec",
        {{"mode", "scheduler"},
         {"seed", c.value("seed", 0)},
         {"kubernetesVersion", c.value("kubernetesVersion", VersionText(testing::kTableDefaultMinor))}}}});
  sim::SimResult result = sim::Run(io::ParseScenarioJson(list));
  Json got = io::ResultToJson(result);
  const Json& want = c.at("want");
  if (want.contains("pods")) {
    for (const auto& [key, fields] : want["pods"].items()) {
      ASSERT_TRUE(got["pods"].contains(key)) << "no result for " << key;
      for (const auto& [field, value] : fields.items())
        EXPECT_EQ(got["pods"][key].value(field, Json()), value) << key << "." << field;
    }
  }
  if (want.contains("preempted")) {
    EXPECT_EQ(got["preempted"], want["preempted"]);
  }
  if (want.contains("nominated")) {
    EXPECT_EQ(got["nominated"], want["nominated"]);
  }
  if (want.contains("bindOrder")) {
    Json order = result.bind_order;
    if (c.value("bindOrderPrefix", false) || want.value("bindOrderPrefix", false))
      order.erase(order.begin() + static_cast<std::ptrdiff_t>(std::min(order.size(), want["bindOrder"].size())),
                  order.end());
    EXPECT_EQ(order, want["bindOrder"]);
  }
  auto find = [&](const std::string& key) -> const sim::PodResult* {
    for (const auto& p : result.pods)
      if (p.key == key) return &p;
    return nullptr;
  };
  if (want.contains("attempts")) {
    for (const auto& [key, n] : want["attempts"].items()) {
      const sim::PodResult* p = find(key);
      ASSERT_TRUE(p) << key;
      EXPECT_EQ(static_cast<int>(p->attempts.size()), n.get<int>()) << key;
    }
  }
  if (want.contains("attemptMessages")) {
    for (const auto& [key, messages] : want["attemptMessages"].items()) {
      const sim::PodResult* p = find(key);
      ASSERT_TRUE(p) << key;
      Json got_messages = Json::array();
      for (const auto& a : p->attempts) got_messages.push_back(a.message);
      EXPECT_EQ(got_messages.dump(1), messages.dump(1)) << key;
    }
  }
}

class SimTable : public ::testing::TestWithParam<testing::TableCase> {};

TEST_P(SimTable, Case) { testing::RunTableCase(GetParam(), RunCase); }

INSTANTIATE_TEST_SUITE_P(SimTables, SimTable, ::testing::ValuesIn(testing::ListTableCases("sim")),
                         [](const ::testing::TestParamInfo<testing::TableCase>& i) {
                           return testing::TableCaseName(i.param);
                         });

}  // namespace
}  // namespace kplace
