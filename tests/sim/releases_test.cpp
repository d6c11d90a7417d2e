// What changes between the releases kplace reproduces, end to end through the parser and the run: 1.36's
// NodeDeclaredFeatures and BalancedAllocation, 1.37's quiet DynamicResources PostFilter and nominated gated pods.
#include <gtest/gtest.h>

#include <string>

#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"
#include "tests/testing/items.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using io::Json;

Json Node(const std::string& name, Json extra = Json::object()) { return testing::NodeItem(name, std::move(extra)); }
Json Pod(const std::string& name, Json spec = Json::object()) { return testing::PodItem(name, std::move(spec)); }

// A pod whose container restarts the whole pod on exit code 42: it needs RestartAllContainersOnContainerExits.
Json RestartAllPod(const std::string& name) {
  Json p = Pod(name);
  p["spec"]["containers"][0]["restartPolicy"] = "Never";
  p["spec"]["containers"][0]["restartPolicyRules"] =
      Json::array({{{"action", "RestartAllContainers"}, {"exitCodes", {{"operator", "In"}, {"values", {42}}}}}});
  return p;
}

Json Declaring(const std::string& name) {
  return Node(name, {{"status", {{"declaredFeatures", {"RestartAllContainersOnContainerExits"}}}}});
}

sim::SimResult RunAt(const std::string& version, Json items, const sim::RunOptions& options = {}) {
  items.push_back(Json{{"kind", "Simulation"},
                       {"metadata", {{"name", "s"}}},
                       {"spec", {{"mode", "scheduler"}, {"kubernetesVersion", version}}}});
  return sim::Run(io::ParseScenarioJson(Json{{"kind", "List"}, {"items", items}}), options);
}

// A copy, so that a result temporary may die first.
sim::PodResult Find(const sim::SimResult& r, const std::string& key) {
  for (const auto& p : r.pods)
    if (p.key == key) return p;
  throw std::runtime_error("no pod " + key);
}

TEST(Releases, NodeDeclaredFeaturesPlacesOnADeclaringNode) {
  for (const char* v : {"1.36", "1.37"}) {
    auto r = RunAt(v, {Node("a"), Declaring("b"), Node("c"), RestartAllPod("p")});
    EXPECT_EQ(Find(r, "default/p").node, "b") << v;
  }
}

TEST(Releases, NodeDeclaredFeaturesMessageIsUnresolvableAndLast) {
  // Node a is too small as well: NodeResourcesFit reports it first, so NodeDeclaredFeatures (the last Filter) never
  // sees it; c passes every other filter and lacks the feature. Neither can be helped by preemption (a's whole
  // allocatable is below the request, 1.34 on).
  Json small = Node("a", {{"status", {{"allocatable", {{"cpu", "500m"}}}}}});
  auto r37 = RunAt("1.37", {small, Node("c"), RestartAllPod("p")});
  EXPECT_EQ(Find(r37, "default/p").unschedulable,
            "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's required features. "
            "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
  auto r36 = RunAt("1.36", {small, Node("c"), RestartAllPod("p")});
  EXPECT_EQ(Find(r36, "default/p").unschedulable,
            "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) didn't match Pod's required features. "
            "no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for "
            "scheduling.");
}

TEST(Releases, RestartAllContainersIsRejectedBefore136AndIgnoredBy134) {
  try {
    RunAt("1.35", {Node("a"), RestartAllPod("p")});
    FAIL() << "1.35 accepted the RestartAllContainers action";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("spec.containers[0].restartPolicyRules[0].action: Unsupported value: "
                                         "\"RestartAllContainers\": supported values: \"Restart\""),
              std::string::npos)
        << e.what();
  }
  // 1.34 drops the fields its gates do not allow; 1.33 has no restart rules and forbids restartPolicy here.
  EXPECT_EQ(Find(RunAt("1.34", {Node("a"), RestartAllPod("p")}), "default/p").node, "a");
  EXPECT_THROW(RunAt("1.33", {Node("a"), RestartAllPod("p")}), InputError);
}

TEST(Releases, GatedNominatedPodHoldsItsRoomFrom137) {
  // held: gated, priority 10, nominated to a with 3 cpu of a's 4. A pod of lower or equal priority that needs 2 cpu
  // fits a in 1.36 (the gated pod is not in the nominator) and not in 1.37; a higher-priority one ignores it.
  Json held = Pod("held", {{"priority", 10}, {"schedulingGates", {{{"name", "wait"}}}}});
  held["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "3";
  held["status"] = {{"nominatedNodeName", "a"}};
  auto two_cpu = [](const std::string& name, int priority) {
    Json p = Pod(name, {{"priority", priority}});
    p["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "2";
    return p;
  };
  for (int priority : {0, 10}) {
    auto r36 = RunAt("1.36", {Node("a"), held, two_cpu("p", priority)});
    EXPECT_EQ(Find(r36, "default/p").node, "a") << priority;
    auto r37 = RunAt("1.37", {Node("a"), held, two_cpu("p", priority)});
    EXPECT_EQ(Find(r37, "default/p").node, "") << priority;
    EXPECT_EQ(Find(r37, "default/held").node, "");
  }
  EXPECT_EQ(Find(RunAt("1.37", {Node("a"), held, two_cpu("p", 11)}), "default/p").node, "a");
}

TEST(Releases, BalancedAllocationScoresTheChangeFrom136) {
  // A pod of 1 cpu / 3Gi. a (4 cpu, 8Gi) already holds 3 cpu, no memory: with the pod 1.0 / 0.375 (std 0.3125 -> 68),
  // without 0.75 / 0 (std 0.375 -> 62). b (4 cpu, 8Gi) holds nothing: 0.25 / 0.375 (std 0.0625 -> 93), without 0 / 0
  // (100). 1.35 scores the balance with the pod: a 68, b 93. 1.36: a 50 + (50 + 68 - 62) / 2 = 78, b 50 + (50 + 93 -
  // 100) / 2 = 71: the pod makes a more balanced and b less.
  Json busy = Pod("busy", {{"nodeName", "a"}});
  busy["spec"]["containers"][0]["resources"]["requests"] = {{"cpu", "3"}, {"memory", "0"}};
  Json p = Pod("p");
  p["spec"]["containers"][0]["resources"]["requests"] = {{"cpu", "1"}, {"memory", "3Gi"}};
  auto score_of = [](const sim::PodResult& pr, const std::string& node) {
    for (const auto& s : pr.explanations.at(0).scores)
      if (s.node == node)
        for (const auto& ps : s.plugins)
          if (std::string(ps.plugin) == "NodeResourcesBalancedAllocation") return ps.normalized;
    return std::int64_t{-1};
  };
  sim::RunOptions explain;
  explain.explain.insert("default/p");
  auto r35 = RunAt("1.35", {Node("a"), Node("b"), busy, p}, explain);
  auto r36 = RunAt("1.36", {Node("a"), Node("b"), busy, p}, explain);
  const auto& p35 = Find(r35, "default/p");
  const auto& p36 = Find(r36, "default/p");
  ASSERT_FALSE(p35.explanations.empty());
  EXPECT_EQ(score_of(p35, "a"), 68);
  EXPECT_EQ(score_of(p35, "b"), 93);
  EXPECT_EQ(score_of(p36, "a"), 78);
  EXPECT_EQ(score_of(p36, "b"), 71);
}

// A node Karpenter launches registers with its kubelet's declared features: in cluster mode the daemonset-overhead
// preset's app, given a RestartAllContainers rule, still lands on the node launched for it (1.37), as it does
// without the rule (tests/golden/daemonset-overhead.json).
TEST(Releases, LaunchedNodesDeclareTheirKubeletsFeatures) {
  Json doc = Json::parse(testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/presets/daemonset-overhead.json"));
  Json& app = doc["items"][7];
  ASSERT_EQ(app["metadata"]["name"], "app");
  app["spec"]["containers"][0]["restartPolicy"] = "Never";
  app["spec"]["containers"][0]["restartPolicyRules"] =
      Json::array({{{"action", "RestartAllContainers"}, {"exitCodes", {{"operator", "In"}, {"values", {42}}}}}});
  const auto result = sim::Run(io::ParseScenarioJson(doc));
  const auto& pod = Find(result, "default/app");
  EXPECT_EQ(pod.node, "default-0");
  EXPECT_EQ(pod.node_claim, "default-0");
}

// KubeSchedulerConfiguration v1's extension points of workload-aware scheduling (placementGenerate and placementScore
// from 1.36, podGroupPostFilter from 1.37) are accepted; their plugins are behind gates that are off by default, so
// the run is the same as without them.
TEST(Releases, WorkloadAwareExtensionPointsAreAcceptedAndChangeNothing) {
  Json config = {{"apiVersion", "kubescheduler.config.k8s.io/v1"},
                 {"kind", "KubeSchedulerConfiguration"},
                 {"profiles",
                  {{{"schedulerName", "default-scheduler"},
                    {"plugins",
                     {{"placementGenerate", {{"enabled", {{{"name", "TopologyPlacementGenerator"}}}}}},
                      {"placementScore", {{"enabled", {{{"name", "PodGroupPodsCount"}, {"weight", 1}}}}}},
                      {"podGroupPostFilter", {{"enabled", {{{"name", "GangScheduling"}}}}}}}}}}}};
  auto with = RunAt("1.37", {config, Node("a"), Declaring("b"), RestartAllPod("p"), Pod("q")});
  auto without = RunAt("1.37", {Node("a"), Declaring("b"), RestartAllPod("p"), Pod("q")});
  EXPECT_EQ(Find(with, "default/p").node, "b");
  EXPECT_EQ(Find(with, "default/q").node, Find(without, "default/q").node);
}

// The preset that shows it: the cache goes to node-a under 1.37 and to node-b under 1.35 (tests/golden/README.md).
TEST(Releases, BalancedAllocationPresetMovesTheCacheBetween135And137) {
  for (const auto& [version, node] :
       {std::pair{"1.37", "node-a"}, std::pair{"1.36", "node-a"}, std::pair{"1.35", "node-b"}}) {
    Json doc = Json::parse(testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/presets/balanced-allocation.json"));
    doc["items"][0]["spec"]["kubernetesVersion"] = version;
    EXPECT_EQ(Find(sim::Run(io::ParseScenarioJson(doc)), "default/cache").node, node) << version;
  }
}

}  // namespace
}  // namespace kplace
