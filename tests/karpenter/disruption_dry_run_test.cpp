// The disruption dry run in a run's result (core/karpenter/disruption/dry_run.*, sim): which cluster it sees in
// karpenter and cluster modes, nominated nodes, admitted priorities, budgets with schedules.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"

namespace kplace {
namespace {

using nlohmann::json;

json Sim(const std::string& mode, const std::string& now) {
  json s = {{"apiVersion", "kplace.dev/v1alpha1"},
            {"kind", "Simulation"},
            {"metadata", {{"name", "s"}}},
            {"spec", {{"mode", mode}}}};
  if (!now.empty()) s["spec"]["now"] = now;
  return s;
}

json Pool(const json& budgets = json()) {
  json d = {{"consolidateAfter", "0s"}};
  if (!budgets.is_null()) d["budgets"] = budgets;
  return {{"apiVersion", "karpenter.sh/v1"},
          {"kind", "NodePool"},
          {"metadata", {{"name", "default"}}},
          {"spec", {{"disruption", d}, {"template", {{"spec", {{"requirements", json::array()}}}}}}}};
}

json Type() {
  return {{"apiVersion", "kplace.dev/v1alpha1"},
          {"kind", "InstanceType"},
          {"metadata", {{"name", "m5.large"}}},
          {"spec",
           {{"capacity", {{"cpu", "2"}, {"memory", "8Gi"}, {"pods", "29"}}},
            {"offerings", {{{"zone", "us-east-1a"}, {"capacityType", "on-demand"}, {"price", 0.096}}}}}}};
}

json ManagedNode(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata",
           {{"name", name},
            {"labels",
             {{"karpenter.sh/nodepool", "default"},
              {"kubernetes.io/hostname", name},
              {"node.kubernetes.io/instance-type", "m5.large"},
              {"topology.kubernetes.io/zone", "us-east-1a"},
              {"karpenter.sh/capacity-type", "on-demand"}}}}},
          {"status", {{"allocatable", {{"cpu", "2"}, {"memory", "8Gi"}, {"pods", "29"}}}}}};
}

json PodOn(const std::string& name, const std::string& node) {
  json p = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", name}, {"namespace", "default"}}},
      {"spec",
       {{"containers", {{{"name", "c"}, {"image", "nginx"}, {"resources", {{"requests", {{"cpu", "500m"}}}}}}}}}}};
  if (!node.empty()) p["spec"]["nodeName"] = node;
  return p;
}

sim::SimResult RunItems(const json& items) {
  sim::RunOptions options;
  options.disruption = &karpenter::disruption::DryRun;
  options.apply_disruption = &sim::ApplyDisruption;
  return sim::Run(io::ParseScenario(json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}}.dump()), options);
}

const karpenter::disruption::NodeReport* NodeNamed(const sim::SimResult& r, const std::string& name) {
  for (const auto& n : r.disruption->nodes)
    if (n.name == name) return &n;
  return nullptr;
}

TEST(DisruptionDryRun, OnlyWhenTheCallerAsks) {
  // The page's app runs without it (sim::RunOptions::disruption).
  EXPECT_FALSE(sim::Run(io::ParseScenario(json{{"apiVersion", "v1"},
                                               {"kind", "List"},
                                               {"items", {Sim("karpenter", ""), Pool(), Type(), ManagedNode("node-a")}}}
                                              .dump()))
                   .disruption);
}

TEST(DisruptionDryRun, OnlyForClustersKarpenterManages) {
  json node = ManagedNode("node-a");
  node["metadata"]["labels"].erase("karpenter.sh/nodepool");
  EXPECT_FALSE(RunItems({Sim("karpenter", ""), Pool(), Type(), node}).disruption);
  EXPECT_FALSE(RunItems({Sim("cluster", ""), Pool(), Type(), node}).disruption);
  EXPECT_FALSE(RunItems({Sim("scheduler", ""), Pool(), Type(), ManagedNode("node-a")}).disruption);
  EXPECT_TRUE(RunItems({Sim("karpenter", ""), Pool(), Type(), ManagedNode("node-a")}).disruption);
}

TEST(DisruptionDryRun, KarpenterModeANodeNominatedForAPendingPodIsNoCandidate) {
  sim::SimResult empty = RunItems({Sim("karpenter", ""), Pool(), Type(), ManagedNode("node-a")});
  ASSERT_TRUE(empty.disruption);
  ASSERT_EQ(empty.disruption->commands.size(), 1u);
  EXPECT_EQ(empty.disruption->commands[0].nodes, std::vector<std::string>{"node-a"});
  // A pending pod (kube-scheduler marked it unschedulable) that Karpenter's round places on node-a: node-a is
  // nominated, so Emptiness leaves it.
  json pending = PodOn("web", "");
  pending["status"] = {{"phase", "Pending"},
                       {"conditions", {{{"type", "PodScheduled"}, {"status", "False"}, {"reason", "Unschedulable"}}}}};
  sim::SimResult nominated = RunItems({Sim("karpenter", ""), Pool(), Type(), ManagedNode("node-a"), pending});
  ASSERT_TRUE(nominated.disruption);
  EXPECT_TRUE(nominated.disruption->commands.empty());
  EXPECT_EQ(NodeNamed(nominated, "node-a")->blocked, "node is nominated for a pending pod");
}

TEST(DisruptionDryRun, ClusterModeSeesTheSettledCluster) {
  // kube-scheduler binds the pending pod to node-a: node-a is no longer empty when the controller looks.
  sim::SimResult r = RunItems({Sim("cluster", ""), Pool(), Type(), ManagedNode("node-a"), PodOn("web", "")});
  ASSERT_TRUE(r.disruption);
  const auto* a = NodeNamed(r, "node-a");
  ASSERT_TRUE(a && a->candidate);
  EXPECT_FALSE(a->empty);
  EXPECT_EQ(a->reschedulable_pods, std::vector<std::string>{"default/web"});
  EXPECT_TRUE(r.disruption->commands.empty());
  // Single-node consolidation: its pod needs a new m5.large, which is not cheaper.
  ASSERT_EQ(a->methods.size(), 3u);
  EXPECT_EQ(a->methods[2].method, "Consolidation");
  EXPECT_TRUE(a->methods[2].considered);
  EXPECT_EQ(a->methods[2].outcome, "Can't replace with a cheaper node");
}

TEST(DisruptionDryRun, KarpenterModeTheRoundsNodeClaimsAreInFlight) {
  // A pending 2-cpu pod that only a new m5.large can take. The dry run sees the round's NodeClaim launched and in
  // flight: consolidating node-a, the simulation puts the pending pod there (tried after initialized nodes; an error
  // on a pending pod does not count) rather than creating a NodeClaim for it, so node-a's web pod alone needs a new
  // m5.large, which is not cheaper. Without the in-flight NodeClaim it would have taken two new NodeClaims.
  json pending = PodOn("batch", "");
  pending["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "2";
  pending["status"] = {{"phase", "Pending"},
                       {"conditions", {{{"type", "PodScheduled"}, {"status", "False"}, {"reason", "Unschedulable"}}}}};
  sim::SimResult r =
      RunItems({Sim("karpenter", ""), Pool(), Type(), ManagedNode("node-a"), PodOn("web", "node-a"), pending});
  ASSERT_TRUE(r.disruption);
  ASSERT_EQ(r.karpenter->claims.size(), 1u);
  const std::string claim = r.karpenter->claims[0].name;
  const auto* in_flight = NodeNamed(r, claim);
  ASSERT_TRUE(in_flight);
  EXPECT_FALSE(in_flight->candidate);
  EXPECT_EQ(in_flight->blocked, "nodeclaim does not have an associated node");
  const auto* a = NodeNamed(r, "node-a");
  ASSERT_TRUE(a && a->candidate);
  ASSERT_EQ(a->methods.size(), 3u);
  EXPECT_EQ(a->methods[2].outcome, "Can't replace with a cheaper node");
  EXPECT_TRUE(r.disruption->commands.empty());
}

TEST(DisruptionDryRun, EvictionCostUsesTheAdmittedPriority) {
  // A pod whose PriorityClass is very low costs nothing to evict (1 + priority / 2^25 < 0): its node is empty.
  json pc = {{"apiVersion", "scheduling.k8s.io/v1"},
             {"kind", "PriorityClass"},
             {"metadata", {{"name", "scavenger"}}},
             {"value", -67108864}};
  json pod = PodOn("batch", "node-a");
  pod["spec"]["priorityClassName"] = "scavenger";
  sim::SimResult r = RunItems({Sim("karpenter", ""), Pool(), Type(), ManagedNode("node-a"), pc, pod});
  ASSERT_TRUE(r.disruption);
  const auto* a = NodeNamed(r, "node-a");
  ASSERT_TRUE(a && a->candidate);
  EXPECT_TRUE(a->empty);
  EXPECT_DOUBLE_EQ(a->disruption_cost, 1.0);
  ASSERT_EQ(r.disruption->commands.size(), 1u);
}

TEST(DisruptionDryRun, ABudgetOfZeroDuringBusinessHours) {
  const json budgets = {{{"nodes", "0"}, {"schedule", "0 9 * * mon-fri"}, {"duration", "8h"}}, {{"nodes", "10%"}}};
  // Thursday 10:00 UTC: inside the window, nothing may be disrupted; the NodePool says so.
  sim::SimResult busy =
      RunItems({Sim("karpenter", "2026-11-26T10:00:00Z"), Pool(budgets), Type(), ManagedNode("node-a")});
  ASSERT_TRUE(busy.disruption);
  EXPECT_TRUE(busy.disruption->commands.empty());
  EXPECT_EQ(busy.disruption->budgets.at("default").at("Empty").allowed, 0);
  bool blocked = false;
  for (const auto& e : busy.disruption->events)
    blocked = blocked || (e.object == "NodePool/default" && e.reason == "DisruptionBlocked" &&
                          e.message == "No allowed disruptions for disruption reason Empty due to blocking budget");
  EXPECT_TRUE(blocked);
  // Saturday: the window is closed; 10% of one node rounds up to 1.
  sim::SimResult weekend =
      RunItems({Sim("karpenter", "2026-11-28T10:00:00Z"), Pool(budgets), Type(), ManagedNode("node-a")});
  ASSERT_TRUE(weekend.disruption);
  ASSERT_EQ(weekend.disruption->commands.size(), 1u);
  EXPECT_EQ(weekend.disruption->budgets.at("default").at("Empty").allowed, 1);
}

}  // namespace
}  // namespace kplace
