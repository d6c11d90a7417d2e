// cluster mode, spec.karpenter.applyDisruption (core/sim/apply_disruption.cpp): the disruption controller's commands
// applied in turn, kube-scheduler placing the evicted pods, until nothing more; where kube-scheduler disagrees with
// Karpenter's simulation; the cost before and after.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/scenario_parser.h"
#include "core/karpenter/disruption/dry_run.h"
#include "core/sim/simulation.h"

namespace kplace {
namespace {

using nlohmann::json;

json Sim(bool apply = true) {
  return {
      {"apiVersion", "kplace.dev/v1alpha1"},
      {"kind", "Simulation"},
      {"metadata", {{"name", "s"}}},
      {"spec", {{"mode", "cluster"}, {"now", "2026-11-26T12:00:00Z"}, {"karpenter", {{"applyDisruption", apply}}}}}};
}

json Pool(const json& budgets = json::array({{{"nodes", "10%"}}})) {
  return {{"apiVersion", "karpenter.sh/v1"},
          {"kind", "NodePool"},
          {"metadata", {{"name", "default"}}},
          {"spec",
           {{"disruption", {{"consolidateAfter", "0s"}, {"budgets", budgets}}},
            {"template",
             {{"spec",
               {{"requirements",
                 {{{"key", "karpenter.sh/capacity-type"}, {"operator", "In"}, {"values", {"on-demand"}}}}}}}}}}}};
}

json Type(const std::string& name, const std::string& cpu, double price) {
  return {{"apiVersion", "kplace.dev/v1alpha1"},
          {"kind", "InstanceType"},
          {"metadata", {{"name", name}}},
          {"spec",
           {{"capacity", {{"cpu", cpu}, {"memory", "8Gi"}, {"pods", "29"}}},
            {"offerings", {{{"zone", "us-east-1a"}, {"capacityType", "on-demand"}, {"price", price}}}}}}};
}

json NodeOf(const std::string& name, const std::string& type = "m5.large", const std::string& cpu = "2",
            bool do_not_disrupt = false) {
  json meta = {{"name", name},
               {"labels",
                {{"karpenter.sh/nodepool", "default"},
                 {"kubernetes.io/hostname", name},
                 {"node.kubernetes.io/instance-type", type},
                 {"topology.kubernetes.io/zone", "us-east-1a"},
                 {"karpenter.sh/capacity-type", "on-demand"}}}};
  if (do_not_disrupt) meta["annotations"] = {{"karpenter.sh/do-not-disrupt", "true"}};
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", meta},
          {"status", {{"allocatable", {{"cpu", cpu}, {"memory", "8Gi"}, {"pods", "29"}}}}}};
}

json PodOn(const std::string& name, const std::string& node, const std::string& cpu, bool owned = true) {
  json meta = {{"name", name}, {"namespace", "default"}};
  if (owned)
    meta["ownerReferences"] = {
        {{"apiVersion", "apps/v1"}, {"kind", "ReplicaSet"}, {"name", "rs"}, {"uid", "u"}, {"controller", true}}};
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", meta},
          {"spec",
           {{"nodeName", node},
            {"containers", {{{"name", "c"}, {"image", "x"}, {"resources", {{"requests", {{"cpu", cpu}}}}}}}}}},
          {"status", {{"phase", "Running"}}}};
}

sim::SimResult RunItems(const json& items) {
  sim::RunOptions options;
  options.disruption = &karpenter::disruption::DryRun;
  options.apply_disruption = &sim::ApplyDisruption;
  return sim::Run(io::ParseScenario(json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}}.dump()), options);
}

const sim::NodeSummary* NodeNamed(const std::vector<sim::NodeSummary>& nodes, const std::string& name) {
  for (const auto& n : nodes)
    if (n.name == name) return &n;
  return nullptr;
}

TEST(ApplyDisruption, KubeSchedulerPlacesTheEvictedPodWithItsOwnScores) {
  // node-a's pod fits on node-b and node-c (both do-not-disrupt). Karpenter's simulation puts it on node-b, the
  // first existing node with room; kube-scheduler's LeastAllocated prefers the emptier node-c.
  const sim::SimResult r =
      RunItems({Sim(), Pool(), Type("m5.large", "2", 0.096), NodeOf("node-a"), NodeOf("node-b", "m5.large", "2", true),
                NodeOf("node-c", "m5.large", "2", true), PodOn("a1", "node-a", "300m"), PodOn("b1", "node-b", "1200m"),
                PodOn("c1", "node-c", "100m")});
  ASSERT_TRUE(r.disruption_applied);
  const sim::DisruptionApplied& a = *r.disruption_applied;
  ASSERT_EQ(a.steps.size(), 1u);
  EXPECT_EQ(a.steps[0].command.text, "delete: [node-a]");
  EXPECT_EQ(a.steps[0].deleted, std::vector<std::string>{"node-a"});
  ASSERT_EQ(a.steps[0].pods.size(), 1u);
  const sim::DisruptionStepPod& p = a.steps[0].pods[0];
  EXPECT_EQ(p.pod, "default/a1");
  EXPECT_EQ(p.from, "node-a");
  EXPECT_EQ(p.planned, "node-b");
  EXPECT_EQ(p.node, "node-c");
  EXPECT_EQ(p.disagreement, "kube-scheduler bound it to node-c, not node-b");
  EXPECT_NEAR(a.hourly_before, 0.288, 1e-12);
  EXPECT_NEAR(a.hourly_after, 0.192, 1e-12);
  EXPECT_EQ(a.stopped, "Karpenter would disrupt nothing more");
  EXPECT_FALSE(NodeNamed(a.nodes, "node-a"));
  ASSERT_TRUE(NodeNamed(a.nodes, "node-c"));
  EXPECT_EQ(NodeNamed(a.nodes, "node-c")->pods.size(), 2u);
  // The run itself is the cluster as given: node-a still holds its pod.
  ASSERT_TRUE(NodeNamed(r.nodes, "node-a"));
}

TEST(ApplyDisruption, OneCommandPerReconcileUntilNothingIsLeft) {
  // Three empty nodes and a budget of one node: Emptiness deletes one per command; then no managed node is left.
  const sim::SimResult r = RunItems({Sim(), Pool(json::array({{{"nodes", "1"}}})), Type("m5.large", "2", 0.096),
                                     NodeOf("node-a"), NodeOf("node-b"), NodeOf("node-c")});
  ASSERT_TRUE(r.disruption_applied);
  const sim::DisruptionApplied& a = *r.disruption_applied;
  ASSERT_EQ(a.steps.size(), 3u);
  EXPECT_EQ(a.steps[0].command.method, "Emptiness");
  EXPECT_EQ(a.steps[0].command.text, "delete: [node-a]");
  EXPECT_EQ(a.steps[1].command.text, "delete: [node-b]");
  EXPECT_EQ(a.steps[2].command.text, "delete: [node-c]");
  EXPECT_NEAR(a.steps[0].hourly, 0.192, 1e-12);
  EXPECT_NEAR(a.steps[1].hourly, 0.096, 1e-12);
  EXPECT_EQ(a.hourly_after, 0);
  EXPECT_TRUE(a.nodes.empty());
  EXPECT_EQ(a.stopped, "no node Karpenter manages is left");
}

TEST(ApplyDisruption, ABarePodIsNotRecreated) {
  // A pod without a controller is evicted and gone (Karpenter's simulation still placed it).
  const sim::SimResult r =
      RunItems({Sim(), Pool(), Type("m5.large", "2", 0.096), NodeOf("node-a"), NodeOf("node-b", "m5.large", "2", true),
                PodOn("bare", "node-a", "300m", false), PodOn("b1", "node-b", "500m")});
  ASSERT_TRUE(r.disruption_applied);
  const sim::DisruptionApplied& a = *r.disruption_applied;
  ASSERT_EQ(a.steps.size(), 1u);
  ASSERT_EQ(a.steps[0].pods.size(), 1u);
  EXPECT_EQ(a.steps[0].pods[0].planned, "node-b");
  EXPECT_EQ(a.steps[0].pods[0].node, "");
  EXPECT_EQ(a.steps[0].pods[0].disagreement, "deleted: evicted, and no controller re-creates a pod that has none");
  ASSERT_TRUE(NodeNamed(a.nodes, "node-b"));
  EXPECT_EQ(NodeNamed(a.nodes, "node-b")->pods, std::vector<std::string>{"default/b1"});
}

TEST(ApplyDisruption, AReplacementLaunchesWithItsDaemonSetPod) {
  // A large node holding one small pod is replaced by a small one; the DaemonSet's pod runs on every node once.
  const json ds = json::parse(R"({"apiVersion":"apps/v1","kind":"DaemonSet",
    "metadata":{"name":"agent","namespace":"kube-system"},
    "spec":{"selector":{"matchLabels":{"app":"agent"}},"template":{"metadata":{"labels":{"app":"agent"}},
      "spec":{"containers":[{"name":"a","image":"x","resources":{"requests":{"cpu":"50m"}}}]}}}})");
  const sim::SimResult r = RunItems({Sim(), Pool(), Type("m5.large", "2", 0.096), Type("m5.2xlarge", "8", 0.384), ds,
                                     NodeOf("big", "m5.2xlarge", "8"), PodOn("web", "big", "500m")});
  ASSERT_TRUE(r.disruption_applied);
  const sim::DisruptionApplied& a = *r.disruption_applied;
  ASSERT_EQ(a.steps.size(), 1u);
  EXPECT_EQ(a.steps[0].command.decision, "replace");
  EXPECT_EQ(a.steps[0].launched, std::vector<std::string>{"default-0"});
  ASSERT_EQ(a.steps[0].pods.size(), 1u);  // the DaemonSet pod goes with its node
  EXPECT_EQ(a.steps[0].pods[0].planned, "default-0");
  EXPECT_EQ(a.steps[0].pods[0].node, "default-0");
  EXPECT_EQ(a.steps[0].pods[0].disagreement, "");
  // The orchestration queue's events: the replacement launched and awaited, then the node disrupted (no NodeClaim
  // object: the Node stands for its own).
  std::vector<std::string> events;
  for (const auto& e : a.steps[0].events) events.push_back(e.object + " " + e.reason + ": " + e.message);
  EXPECT_EQ(events, (std::vector<std::string>{
                        "NodeClaim/default-0 DisruptionLaunching: Launching NodeClaim: Underutilized",
                        "NodeClaim/default-0 DisruptionWaitingReadiness: Waiting on readiness to continue disruption",
                        "Node/big DisruptionTerminating: Disrupting Node: Underutilized"}));
  EXPECT_NEAR(a.hourly_before, 0.384, 1e-12);
  EXPECT_NEAR(a.hourly_after, 0.096, 1e-12);
  ASSERT_EQ(a.nodes.size(), 1u);
  EXPECT_EQ(a.nodes[0].name, "default-0");
  std::vector<std::string> pods = a.nodes[0].pods;
  std::sort(pods.begin(), pods.end());
  EXPECT_EQ(pods, (std::vector<std::string>{"default/web", "kube-system/agent-default-0"}));
}

TEST(ApplyDisruption, IgnoredWithAWarningOutsideClusterMode) {
  json sim = Sim();
  sim["spec"]["mode"] = "karpenter";
  const sim::SimResult r = RunItems({sim, Pool(), Type("m5.large", "2", 0.096), NodeOf("node-a")});
  EXPECT_FALSE(r.disruption_applied);
  EXPECT_EQ(r.warnings, std::vector<std::string>{
                            "spec.karpenter.applyDisruption applies in cluster mode only: ignored in karpenter mode"});
}

TEST(ApplyDisruption, OnlyWhenTheScenarioAndTheCallerAsk) {
  const json items = {Sim(false), Pool(), Type("m5.large", "2", 0.096), NodeOf("node-a")};
  EXPECT_FALSE(RunItems(items).disruption_applied);
  sim::RunOptions dry_run_only;
  dry_run_only.disruption = &karpenter::disruption::DryRun;
  const json asked = {Sim(), Pool(), Type("m5.large", "2", 0.096), NodeOf("node-a")};
  const sim::SimResult r =
      sim::Run(io::ParseScenario(json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", asked}}.dump()), dry_run_only);
  EXPECT_TRUE(r.disruption);
  EXPECT_FALSE(r.disruption_applied);
}

}  // namespace
}  // namespace kplace
