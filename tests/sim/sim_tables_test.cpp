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
  list["items"].push_back({{"apiVersion", "kplace.dev/v1alpha1"},
                           {"kind", "Simulation"},
                           {"spec",
                            {{"mode", "scheduler"},
                             {"seed", c.value("seed", 0)},
                             {"kubernetesVersion", c.value("kubernetesVersion", "1.35")}}}});
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

struct Case {
  std::string file;
  std::size_t index;
};

std::vector<Case> AllCases() {
  std::vector<Case> out;
  for (const auto& file : testing::ListTables("sim")) {
    Json t = testing::LoadJson(testing::DataPath(file));
    for (std::size_t i = 0; i < t["cases"].size(); ++i) out.push_back({file, i});
  }
  return out;
}

class SimTable : public ::testing::TestWithParam<Case> {};

TEST_P(SimTable, Case) {
  Json t = testing::LoadJson(testing::DataPath(GetParam().file));
  const Json& c = t["cases"][GetParam().index];
  SCOPED_TRACE(GetParam().file + ": " + c.value("name", ""));
  try {
    RunCase(c);
  } catch (const std::exception& e) {
    FAIL() << "exception: " << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(SimTables, SimTable, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           std::string f = i.param.file.substr(i.param.file.find('/') + 1);
                           return testing::TestName(f.substr(0, f.size() - 5) + "_" + std::to_string(i.param.index));
                         });

}  // namespace
}  // namespace kplace
