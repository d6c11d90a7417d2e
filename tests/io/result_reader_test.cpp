// core/io/result_reader: the inverse of result_writer. Over every preset in every mode it runs in, run -> write ->
// read -> write gives the same bytes; and what the writer leaves out (result_reader.h) stays out.
#include "core/io/result_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

struct Case {
  std::string preset;
  Mode mode;
};

const char* ModeName(Mode m) {
  return m == Mode::Scheduler ? "scheduler" : m == Mode::Karpenter ? "karpenter" : "cluster";
}

std::vector<Case> Cases() {
  std::vector<Case> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(KPLACE_SOURCE_DIR) + "/presets"))
    if (e.path().extension() == ".json")
      for (Mode m : {Mode::Scheduler, Mode::Karpenter, Mode::Cluster}) out.push_back({e.path().stem().string(), m});
  std::sort(out.begin(), out.end(),
            [](const Case& a, const Case& b) { return a.preset != b.preset ? a.preset < b.preset : a.mode < b.mode; });
  return out;
}

class ResultReaderTest : public ::testing::TestWithParam<Case> {};

TEST_P(ResultReaderTest, WriteReadWriteGivesTheSameBytes) {
  Scenario sc =
      io::ParseScenario(testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/presets/" + GetParam().preset + ".json"));
  sc.simulation.mode = GetParam().mode;
  sim::RunOptions options;
  options.explain_all = true;  // explanations are not written: they must not matter
  sim::SimResult run;
  try {
    run = sim::Run(std::move(sc), options);
  } catch (const InputError& e) {
    GTEST_SKIP() << "the preset does not run in this mode: " << e.what();
  }
  const io::Json written = io::ResultToJson(run);
  const sim::SimResult read = io::ResultFromJson(written);
  EXPECT_EQ(io::Dump(io::ResultToJson(read)), io::Dump(written));
  // And once more from the text, as the app reads a background run's answer.
  EXPECT_EQ(io::Dump(io::ResultToJson(io::ResultFromJson(io::Json::parse(io::Dump(written))))), io::Dump(written));

  // What is not written does not come back (result_reader.h lists it).
  EXPECT_TRUE(read.nodes.empty());
  EXPECT_TRUE(read.bind_order.empty());
  EXPECT_EQ(read.karpenter.has_value(), GetParam().mode == Mode::Karpenter);
  for (const auto& p : read.pods) {
    EXPECT_FALSE(p.bound_at_start) << p.key;
    EXPECT_TRUE(p.explanations.empty()) << p.key;
    EXPECT_LE(p.attempts.size(), 1u) << p.key;
  }
  // Every pod the writer lists comes back with its place.
  for (const auto& p : run.pods) {
    if (p.bound_at_start || run.karpenter) continue;
    auto it = std::find_if(read.pods.begin(), read.pods.end(), [&](const auto& q) { return q.key == p.key; });
    if (it == read.pods.end()) continue;  // terminal
    EXPECT_EQ(it->node, p.node) << p.key;
    EXPECT_EQ(it->unschedulable, p.unschedulable) << p.key;
    EXPECT_EQ(it->preempted_by, p.preempted_by) << p.key;
  }
  EXPECT_EQ(read.events.size(), run.events.size());
  EXPECT_EQ(read.node_claims.size(), run.node_claims.size());
  EXPECT_EQ(read.rounds.size(), run.rounds.size());
}

INSTANTIATE_TEST_SUITE_P(Presets, ResultReaderTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           return testing::TestName(i.param.preset + "_" + ModeName(i.param.mode));
                         });

TEST(ResultReaderTest, WrongTypesReadAsAbsent) {
  const sim::SimResult r = io::ResultFromJson(io::Json::parse(
      R"({"pods": {"a/b": 3, "a/c": {"node": 1}}, "preemptions": {}, "events": [1, {"type": 2}], "nominated": [],
          "preempted": "x", "warnings": [1, "w"]})"));
  ASSERT_EQ(r.pods.size(), 2u);
  EXPECT_EQ(r.pods[0].key, "a/b");
  EXPECT_EQ(r.pods[1].node, "");
  EXPECT_EQ(r.events.size(), 2u);
  EXPECT_TRUE(r.preempted.empty());
  EXPECT_EQ(r.warnings, std::vector<std::string>{"w"});
  EXPECT_TRUE(io::ResultFromJson(io::Json()).karpenter.has_value());  // no preemptions: karpenter mode's shape
}

}  // namespace
}  // namespace kplace
