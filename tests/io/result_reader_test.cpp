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

// With several scheduler profiles each scheduled pod names its profile; it comes back.
TEST(ResultReaderTest, ProfilesComeBack) {
  const io::Json table =
      io::Json::parse(testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/tests/data/sim/profiles.json"));
  io::Json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", table["cases"][0]["objects"]}};
  const io::Json written = io::ResultToJson(sim::Run(io::ParseScenarioJson(list)));
  ASSERT_EQ(written["pods"]["default/pod1"].value("profile", ""), "match-node3");
  const sim::SimResult read = io::ResultFromJson(written);
  EXPECT_EQ(io::Dump(io::ResultToJson(read)), io::Dump(written));
  auto it = std::find_if(read.pods.begin(), read.pods.end(), [](const auto& p) { return p.key == "default/pod2"; });
  ASSERT_NE(it, read.pods.end());
  EXPECT_EQ(it->profile, "match-node2");
}

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

// Karpenter's NodePool events are objects of the events' shape, in karpenter mode's `events` and in cluster mode's
// `events` and each round's `karpenterEvents`, and read back as they were.
TEST(ResultReaderTest, NodePoolEventsAreObjectsAndComeBack) {
  auto scenario = [](const std::string& mode) {
    return R"({"apiVersion":"v1","kind":"List","items":[
      {"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},"spec":{"mode":")" +
           mode + R"("}},
      {"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"empty"},
       "spec":{"template":{"spec":{"requirements":[
         {"key":"node.kubernetes.io/instance-type","operator":"In","values":["nope"]}]}}}},
      {"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},
       "spec":{"template":{"spec":{"requirements":[]}}}},
      {"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"small"},
       "spec":{"capacity":{"cpu":"2","memory":"4Gi","pods":"10"},
               "offerings":[{"zone":"zone-a","capacityType":"on-demand","price":1}]}},
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},
       "spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}]},
       "status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]}}]})";
  };
  const io::Json want = {{"type", "Warning"},
                         {"reason", "NoCompatibleInstanceTypes"},
                         {"pod", ""},
                         {"object", "NodePool/empty"},
                         {"source", "karpenter"},
                         {"message", "NodePool requirements filtered out all compatible available instance types"}};

  const io::Json k = io::ResultToJson(sim::Run(io::ParseScenario(scenario("karpenter"))));
  ASSERT_TRUE(k.contains("events")) << k.dump();
  EXPECT_EQ(k["events"], io::Json::array({want}));
  const sim::SimResult kr = io::ResultFromJson(k);
  ASSERT_TRUE(kr.karpenter.has_value());
  ASSERT_EQ(kr.karpenter->events.size(), 1u);
  EXPECT_EQ(kr.karpenter->events[0].object, "NodePool/empty");
  EXPECT_EQ(kr.karpenter->events[0].reason, "NoCompatibleInstanceTypes");
  EXPECT_EQ(io::Dump(io::ResultToJson(kr)), io::Dump(k));

  const io::Json c = io::ResultToJson(sim::Run(io::ParseScenario(scenario("cluster"))));
  ASSERT_TRUE(c["events"].is_array());
  EXPECT_NE(std::find(c["events"].begin(), c["events"].end(), want), c["events"].end()) << c["events"].dump();
  ASSERT_FALSE(c["rounds"].empty());
  EXPECT_EQ(c["rounds"][0]["karpenterEvents"], io::Json::array({want}));
  const sim::SimResult cr = io::ResultFromJson(c);
  ASSERT_FALSE(cr.rounds.empty());
  ASSERT_TRUE(cr.rounds[0].provision.has_value());
  ASSERT_EQ(cr.rounds[0].provision->events.size(), 1u);
  EXPECT_EQ(cr.rounds[0].provision->events[0].object, "NodePool/empty");
  EXPECT_EQ(io::Dump(io::ResultToJson(cr)), io::Dump(c));
}

}  // namespace
}  // namespace kplace
