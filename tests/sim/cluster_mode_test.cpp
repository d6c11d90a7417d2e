// cluster mode: kube-scheduler, then Karpenter for the pods it leaves Unschedulable, NodeClaims launched as Nodes,
// kube-scheduler again; repeated until Karpenter launches nothing.
#include <gtest/gtest.h>

#include <map>

#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"

namespace kplace {
namespace {

using io::Json;

Json Simulation(const std::string& mode = "cluster") {
  return {{"apiVersion", "kplace.dev/v1alpha1"},
          {"kind", "Simulation"},
          {"metadata", {{"name", "s"}}},
          {"spec", {{"mode", mode}}}};
}

Json NodeItem(const std::string& name, const std::string& cpu, Json labels = Json::object()) {
  labels["kubernetes.io/hostname"] = name;
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", name}, {"labels", labels}}},
          {"status", {{"allocatable", {{"cpu", cpu}, {"memory", "16Gi"}, {"pods", "110"}}}}}};
}

Json NodePool(const std::string& name, Json spec_extra = Json::object(), Json pool_extra = Json::object()) {
  Json tmpl_spec = {{"requirements", Json::array()}};
  for (auto it = spec_extra.begin(); it != spec_extra.end(); ++it) tmpl_spec[it.key()] = it.value();
  Json spec = {{"template", {{"spec", tmpl_spec}}}};
  for (auto it = pool_extra.begin(); it != pool_extra.end(); ++it) spec[it.key()] = it.value();
  return {{"apiVersion", "karpenter.sh/v1"}, {"kind", "NodePool"}, {"metadata", {{"name", name}}}, {"spec", spec}};
}

Json InstanceType(const std::string& name, const std::string& cpu, double price,
                  const std::vector<std::string>& zones = {"zone-a"}) {
  Json offerings = Json::array();
  for (const auto& z : zones)
    offerings.push_back({{"zone", z}, {"capacityType", "on-demand"}, {"price", price}, {"available", true}});
  return {{"apiVersion", "kplace.dev/v1alpha1"},
          {"kind", "InstanceType"},
          {"metadata", {{"name", name}, {"labels", {{"kubernetes.io/arch", "amd64"}}}}},
          {"spec",
           {{"capacity", {{"cpu", cpu}, {"memory", "16Gi"}, {"pods", "110"}}},
            {"overhead", {{"cpu", "100m"}, {"memory", "100Mi"}}},
            {"offerings", offerings}}}};
}

Json PodSpec(const std::string& cpu, Json extra = Json::object()) {
  Json spec = {{"containers", Json::array({{{"name", "c"}, {"resources", {{"requests", {{"cpu", cpu}}}}}}})}};
  for (auto it = extra.begin(); it != extra.end(); ++it) spec[it.key()] = it.value();
  return spec;
}

Json PodItem(const std::string& name, const std::string& cpu, Json extra = Json::object()) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{"app", name}}}}},
          {"spec", PodSpec(cpu, std::move(extra))}};
}

Json Workload(const std::string& kind, const std::string& name, const std::string& cpu, int replicas = 0,
              Json extra = Json::object()) {
  Json spec = {{"selector", {{"matchLabels", {{"app", name}}}}},
               {"template", {{"metadata", {{"labels", {{"app", name}}}}}, {"spec", PodSpec(cpu, std::move(extra))}}}};
  if (kind != "DaemonSet") spec["replicas"] = replicas;
  return {{"apiVersion", "apps/v1"},
          {"kind", kind},
          {"metadata", {{"name", name}, {"namespace", kind == "DaemonSet" ? "kube-system" : "default"}}},
          {"spec", spec}};
}

sim::SimResult RunItems(const Json& items, const sim::RunOptions& opts = {}) {
  return sim::Run(io::ParseScenarioJson(Json{{"kind", "List"}, {"items", items}}), opts);
}

const sim::PodResult& PodOf(const sim::SimResult& r, const std::string& key) {
  for (const auto& p : r.pods)
    if (p.key == key) return p;
  ADD_FAILURE() << "no pod " << key;
  static sim::PodResult none;
  return none;
}

TEST(ClusterMode, PendingPodsGetANodeClaimThatKubeSchedulerThenBinds) {
  Json items =
      Json::array({Simulation(), NodeItem("node-a", "2"), NodePool("default"), InstanceType("small", "2", 0.05),
                   InstanceType("large", "4", 0.1), Workload("Deployment", "web", "700m", 5)});
  auto r = RunItems(items);
  // node-a (2 cpu) takes two pods of 700m; Karpenter packs the other three (2.1 cpu) onto one new claim, which
  // only "large" fits (2 - 100m overhead is too small).
  ASSERT_EQ(r.node_claims.size(), 1u);
  const auto& claim = r.node_claims[0];
  EXPECT_EQ(claim.node, "default-0");
  EXPECT_EQ(claim.claim.instance_type, "large");
  EXPECT_EQ(claim.round, 1);
  EXPECT_EQ(claim.pods.size(), 3u);
  EXPECT_DOUBLE_EQ(r.hourly_price, 0.1);
  int on_node_a = 0, on_claim = 0;
  for (const auto& p : r.pods) {
    if (p.node == "node-a") ++on_node_a;
    if (p.node == "default-0") {
      ++on_claim;
      EXPECT_EQ(p.node_claim, "default-0");
      ASSERT_EQ(p.karpenter.size(), 1u) << p.key;
      EXPECT_EQ(p.karpenter[0].target, "nodeclaim/default-0");
      EXPECT_TRUE(p.disagreement.empty()) << p.disagreement;
    }
  }
  EXPECT_EQ(on_node_a, 2);
  EXPECT_EQ(on_claim, 3);
  ASSERT_EQ(r.rounds.size(), 2u);
  EXPECT_EQ(r.rounds[0].scheduled.size(), 2u);
  EXPECT_EQ(r.rounds[0].unschedulable.size(), 3u);
  EXPECT_EQ(r.rounds[0].launched, std::vector<std::string>{"default-0"});
  EXPECT_EQ(r.rounds[1].scheduled.size(), 3u);
  EXPECT_TRUE(r.rounds[1].unschedulable.empty());
  // The node is in the final snapshot.
  bool listed = false;
  for (const auto& n : r.nodes) listed = listed || n.name == "default-0";
  EXPECT_TRUE(listed);
}

TEST(ClusterMode, LaunchedNodeCarriesLabelsTaintsAndDaemonSetPods) {
  Json pool =
      NodePool("gpu", {{"taints", Json::array({{{"key", "gpu"}, {"value", "true"}, {"effect", "NoSchedule"}}})},
                       {"startupTaints", Json::array({{{"key", "agent-not-ready"}, {"effect", "NoSchedule"}}})}});
  pool["spec"]["template"]["metadata"] = {{"labels", {{"team", "ml"}}}};
  Json tolerate = {{"tolerations", Json::array({{{"key", "gpu"}, {"operator", "Exists"}}})}};
  Json items = Json::array({Simulation(), pool, InstanceType("g", "4", 0.5, {"zone-b"}),
                            Workload("DaemonSet", "agent", "100m", 0, tolerate),
                            Workload("DaemonSet", "picky", "100m"),  // does not tolerate gpu: not on the node
                            PodItem("train", "2", tolerate)});
  auto r = RunItems(items);
  ASSERT_EQ(r.node_claims.size(), 1u);
  const auto& l = r.node_claims[0];
  ASSERT_EQ(l.startup_taints.size(), 1u);
  EXPECT_EQ(Text(l.startup_taints[0].key), "agent-not-ready");
  EXPECT_EQ(l.daemon_pods, std::vector<std::string>{"kube-system/agent-gpu-0"});
  EXPECT_EQ(PodOf(r, "default/train").node, "gpu-0");
  EXPECT_EQ(PodOf(r, "kube-system/agent-gpu-0").node, "gpu-0");
  // The Node as the JSON result reports it: the template label, well-known labels and the taint without the
  // startup taint.
  Json j = io::ResultToJson(r);
  const Json& c = j["nodeClaims"][0];
  EXPECT_EQ(c["labels"]["team"], "ml");
  EXPECT_EQ(c["labels"]["topology.kubernetes.io/zone"], "zone-b");
  EXPECT_EQ(c["labels"]["node.kubernetes.io/instance-type"], "g");
  EXPECT_EQ(c["taints"].size(), 1u);
  EXPECT_EQ(c["startupTaints"][0]["key"], "agent-not-ready");
  EXPECT_EQ(j["pods"]["default/train"]["nodeClaim"], "gpu-0");
  EXPECT_EQ(j["pods"]["default/train"]["instanceType"], "g");
}

TEST(ClusterMode, LaunchedNodeIsWhatKubeSchedulerFilters) {
  // The second round's kube-scheduler sees the node's taint: a pod that does not tolerate it stays off it, and
  // Karpenter's second round (the node now existing, PreferNoSchedule or not) explains why.
  Json pool = NodePool("tainted", {{"taints", Json::array({{{"key", "t"}, {"effect", "NoSchedule"}}})}});
  Json tolerate = {{"tolerations", Json::array({{{"key", "t"}, {"operator", "Exists"}}})}};
  Json items = Json::array(
      {Simulation(), pool, InstanceType("m", "4", 0.2), PodItem("ok", "1", tolerate), PodItem("plain", "1")});
  auto r = RunItems(items);
  EXPECT_EQ(PodOf(r, "default/ok").node, "tainted-0");
  const auto& plain = PodOf(r, "default/plain");
  EXPECT_TRUE(plain.node.empty());
  EXPECT_NE(plain.unschedulable.find("untolerated taint"), std::string::npos) << plain.unschedulable;
  ASSERT_FALSE(plain.karpenter.empty());
  EXPECT_TRUE(plain.karpenter.back().target.empty());
  EXPECT_NE(plain.karpenter.back().reason.find("did not tolerate taint"), std::string::npos)
      << plain.karpenter.back().reason;
  EXPECT_TRUE(plain.disagreement.empty());
  // Karpenter launched one claim, and the loop stopped when it launched nothing more.
  EXPECT_EQ(r.node_claims.size(), 1u);
  EXPECT_EQ(r.rounds.size(), 2u);
  EXPECT_TRUE(r.rounds.back().launched.empty());
}

TEST(ClusterMode, NodePoolLimitsCountLaunchedNodesInLaterRounds) {
  // Limit 4 cpu: the first claim (a 4-cpu type) uses all of it, so the second replica (hostname anti-affinity:
  // never on the first's node) cannot get a claim, neither in round 1 nor once the launched Node exists and
  // counts against the limit.
  Json pool = NodePool("default", Json::object(), {{"limits", {{"cpu", "4"}}}});
  Json anti = {{"affinity",
                {{"podAntiAffinity",
                  {{"requiredDuringSchedulingIgnoredDuringExecution",
                    Json::array({{{"labelSelector", {{"matchLabels", {{"app", "web"}}}}},
                                  {"topologyKey", "kubernetes.io/hostname"}}})}}}}}};
  Json items =
      Json::array({Simulation(), pool, InstanceType("m", "4", 0.2), Workload("Deployment", "web", "1", 2, anti)});
  auto r = RunItems(items);
  ASSERT_EQ(r.node_claims.size(), 1u);
  int bound = 0;
  std::string pending;
  for (const auto& p : r.pods) {
    if (!p.node.empty()) ++bound;
    if (p.node.empty() && !p.karpenter.empty()) pending = p.karpenter.back().reason;
  }
  EXPECT_EQ(bound, 1);
  EXPECT_NE(pending.find("exceed limits for nodepool"), std::string::npos) << pending;
}

TEST(ClusterMode, DisagreementsAreReportedWhenKubeSchedulerBindsElsewhere) {
  // Karpenter's queue is cpu-descending: big-a opens default-0, big-b default-1 (3 cpu each, 4-cpu types), and
  // "small" joins the claim with the fewest pods first, default-0. kube-scheduler's queue is priority first:
  // "small" (priority 10) is bound before the big pods, onto an empty node chosen by score and tie-break, so the
  // big pods land by LeastAllocated: at least one pod ends up where Karpenter did not intend.
  Json items = Json::array({Simulation(), NodePool("default"), InstanceType("m", "4", 0.2), PodItem("big-a", "3"),
                            PodItem("big-b", "3"), PodItem("small", "500m", {{"priority", 10}})});
  auto r = RunItems(items);
  ASSERT_EQ(r.node_claims.size(), 2u);
  int disagreements = 0;
  for (const auto& p : r.pods) {
    ASSERT_EQ(p.karpenter.size(), 1u) << p.key;
    const bool differs = p.karpenter[0].node != p.node;
    EXPECT_EQ(differs, !p.disagreement.empty()) << p.key;
    if (differs) {
      ++disagreements;
      EXPECT_NE(p.disagreement.find("kube-scheduler bound it to " + p.node), std::string::npos) << p.disagreement;
    }
  }
  EXPECT_GE(disagreements, 1);
  Json j = io::ResultToJson(r);
  EXPECT_EQ(j["disagreements"].size(), static_cast<std::size_t>(disagreements));
}

TEST(ClusterMode, SwappedReplicasOfOneWorkloadAreInterchangeable) {
  // As above with the big pods as two replicas of one Deployment: whichever node "small" lands on, a replica that
  // kube-scheduler binds elsewhere only trades places with its twin; "small" (its own pod) never does.
  Json items = Json::array({Simulation(), NodePool("default"), InstanceType("m", "4", 0.2),
                            Workload("Deployment", "big", "3", 2), PodItem("small", "500m", {{"priority", 10}})});
  auto r = RunItems(items);
  ASSERT_EQ(r.node_claims.size(), 2u);
  int disagreements = 0;
  for (const auto& p : r.pods) {
    if (p.disagreement.empty()) continue;
    ++disagreements;
    EXPECT_EQ(p.interchangeable, p.key != "default/small") << p.key << ": " << p.disagreement;
    EXPECT_EQ(p.disagreement.find("interchangeable") != std::string::npos, p.interchangeable) << p.disagreement;
  }
  EXPECT_GE(disagreements, 1);
}

TEST(ClusterMode, WithoutNodePoolsItIsKubeSchedulerAlone) {
  Json items = Json::array({Simulation(), NodeItem("node-a", "1"), PodItem("a", "600m"), PodItem("b", "600m")});
  Json sched = items;
  sched[0] = Simulation("scheduler");
  auto cluster = io::ResultToJson(RunItems(items));
  auto scheduler = io::ResultToJson(RunItems(sched));
  EXPECT_EQ(io::Dump(cluster), io::Dump(scheduler));
  EXPECT_FALSE(cluster.contains("rounds"));
}

TEST(ClusterMode, ExplanationHasKarpenterRoundsAndIsDeterministic) {
  Json items = Json::array({Simulation(), NodeItem("node-a", "1"), NodePool("default"), InstanceType("m", "4", 0.2),
                            PodItem("a", "600m"), PodItem("b", "600m")});
  sim::RunOptions opts;
  opts.explain_all = true;
  auto r = RunItems(items, opts);
  const auto& b = PodOf(r, "default/b");
  EXPECT_EQ(b.node, "default-0");
  Json ex = io::ClusterExplanationToJson(r, b);
  ASSERT_EQ(ex["karpenter"].size(), 1u);
  EXPECT_EQ(ex["karpenter"][0]["round"], 1);
  EXPECT_EQ(ex["karpenter"][0]["nodeClaim"], "default-0");
  const Json& cands = ex["karpenter"][0]["attempts"][0]["tries"][0]["candidates"];
  ASSERT_EQ(cands.size(), 2u);
  EXPECT_EQ(cands[0]["target"], "node/node-a");
  EXPECT_EQ(cands[0]["fit"], false);
  EXPECT_EQ(cands[1]["target"], "nodepool/default");
  EXPECT_EQ(io::Dump(io::ResultToJson(r)), io::Dump(io::ResultToJson(RunItems(items, opts))));
}

TEST(ClusterMode, PodExplanationFollowsTheMode) {
  // A Deployment's pod: karpenter mode takes workload pods as pending-unschedulable (a bare Pod would need the
  // PodScheduled=False condition).
  Json items = Json::array({Simulation(), NodeItem("node-a", "1"), NodePool("default"), InstanceType("m", "4", 0.2),
                            Workload("Deployment", "a", "2", 1)});
  sim::RunOptions opts;
  opts.explain_all = true;
  auto cluster = RunItems(items, opts);
  Json c = io::PodExplanationToJson(cluster, PodOf(cluster, "default/a-0"));
  EXPECT_EQ(c["karpenter"].size(), 1u);  // kube-scheduler's attempts plus Karpenter's round
  EXPECT_EQ(c["attempts"].size(), 2u);
  items[0] = Simulation("karpenter");
  auto karpenter = RunItems(items, opts);
  Json k = io::PodExplanationToJson(karpenter, PodOf(karpenter, "default/a-0"));
  EXPECT_FALSE(k.contains("karpenter"));
  EXPECT_EQ(k["nodeClaim"], "default-0");
  EXPECT_TRUE(k["attempts"][0].contains("tries"));
  items[0] = Simulation("scheduler");
  auto scheduler = RunItems(items, opts);
  Json s = io::PodExplanationToJson(scheduler, PodOf(scheduler, "default/a-0"));
  EXPECT_FALSE(s.contains("karpenter"));
  EXPECT_EQ(s["attempts"].size(), 1u);
}

TEST(ClusterMode, NodeClaimNamesSkipExistingNodes) {
  Json items = Json::array(
      {Simulation(), NodeItem("default-0", "1"), NodePool("default"), InstanceType("m", "4", 0.2), PodItem("a", "2")});
  auto r = RunItems(items);
  ASSERT_EQ(r.node_claims.size(), 1u);
  EXPECT_EQ(r.node_claims[0].node, "default-1");
  EXPECT_EQ(PodOf(r, "default/a").node, "default-1");
}

TEST(ClusterMode, PreemptionNominatedPodsAreLeftToKubeScheduler) {
  // "high" preempts "low" on node-a; nominated, it is not Karpenter's to provision. "low" (deleted) is gone.
  Json items = Json::array({Simulation(), NodeItem("node-a", "1"), NodePool("default"), InstanceType("m", "4", 0.2),
                            PodItem("high", "800m", {{"priority", 100}})});
  Json low = PodItem("low", "800m");
  low["spec"]["nodeName"] = "node-a";
  items.push_back(low);
  auto r = RunItems(items);
  EXPECT_EQ(PodOf(r, "default/high").node, "node-a");
  EXPECT_EQ(PodOf(r, "default/low").preempted_by, "default/high");
  EXPECT_TRUE(r.node_claims.empty());
  ASSERT_EQ(r.rounds.size(), 1u);
}

TEST(ClusterMode, CordonedNodeIsNotKarpentersEither) {
  // node-a is cordoned (spec.unschedulable) with room. kube-scheduler's NodeUnschedulable rejects it; Karpenter sees
  // the node.kubernetes.io/unschedulable:NoSchedule taint the node lifecycle controller adds, so it launches a
  // NodeClaim instead of nominating node-a (and the pod would otherwise stay pending).
  Json cordoned = NodeItem("node-a", "4");
  cordoned["spec"] = {{"unschedulable", true}};
  Json items = Json::array({Simulation(), cordoned, NodePool("default"), InstanceType("m", "4", 0.2), PodItem("a", "1"),
                            PodItem("b", "1",
                                    {{"tolerations", Json::array({{{"key", "node.kubernetes.io/unschedulable"},
                                                                   {"operator", "Exists"},
                                                                   {"effect", "NoSchedule"}}})}})});
  auto r = RunItems(items);
  ASSERT_EQ(r.node_claims.size(), 1u);
  EXPECT_EQ(r.node_claims[0].node, "default-0");
  const auto& a = PodOf(r, "default/a");
  EXPECT_EQ(a.node, "default-0");
  ASSERT_EQ(a.karpenter.size(), 1u);
  EXPECT_EQ(a.karpenter[0].target, "nodeclaim/default-0");
  EXPECT_TRUE(a.disagreement.empty()) << a.disagreement;
  // The pod tolerating the taint gets the cordoned node from kube-scheduler in round 1; Karpenter never sees it.
  const auto& b = PodOf(r, "default/b");
  EXPECT_EQ(b.node, "node-a");
  EXPECT_TRUE(b.karpenter.empty());
  // Round 1 launches default-0; round 2 binds "a" there and launches nothing.
  ASSERT_EQ(r.rounds.size(), 2u);
  ASSERT_TRUE(r.rounds[0].provision.has_value());
}

// Karpenter does not look at schedulerName (IsProvisionable, pkg/utils/pod/scheduling.go): a pending pod of another
// scheduler that its scheduler marked PodScheduled=False/Unschedulable is provisioned for like any other; one without
// the mark is left alone. kplace does not run that scheduler, so the pod stays pending with Karpenter's nomination
// and no disagreement.
TEST(ClusterMode, OtherSchedulersPodsMarkedUnschedulableAreProvisioned) {
  const Json marked = {{"conditions", Json::array({{{"type", "PodScheduled"},
                                                    {"status", "False"},
                                                    {"reason", "Unschedulable"},
                                                    {"message", "0/1 nodes are available"}}})}};
  Json gang = PodItem("gang-0", "1500m", {{"schedulerName", "volcano"}});
  gang["status"] = marked;
  Json quiet = PodItem("quiet-0", "1500m", {{"schedulerName", "volcano"}});
  Json items = Json::array({Simulation(), NodeItem("node-a", "1"), NodePool("default"), InstanceType("large", "4", 0.1),
                            PodItem("web", "1500m"), gang, quiet});
  auto r = RunItems(items);
  ASSERT_EQ(r.node_claims.size(), 1u);
  const auto& claim = r.node_claims[0];
  // One NodeClaim for kube-scheduler's pod and the marked volcano pod (1.5 + 1.5 cpu on 4 - 100m).
  EXPECT_EQ(claim.claim.pods, (std::vector<std::string>{"default/gang-0", "default/web"}));
  // kube-scheduler binds its own pod there; the volcano pod is its scheduler's to bind.
  EXPECT_EQ(claim.pods, std::vector<std::string>{"default/web"});
  const auto& g = PodOf(r, "default/gang-0");
  EXPECT_EQ(g.other_scheduler, "volcano");
  EXPECT_TRUE(g.node.empty());
  ASSERT_EQ(g.karpenter.size(), 2u);
  EXPECT_EQ(g.karpenter[0].target, "nodeclaim/default-0");
  EXPECT_EQ(g.karpenter[1].round, 2);
  EXPECT_EQ(g.karpenter[1].target, "node/default-0");  // still room there in round 2: nothing more launched
  EXPECT_TRUE(g.disagreement.empty()) << g.disagreement;
  const auto& q = PodOf(r, "default/quiet-0");
  EXPECT_EQ(q.other_scheduler, "volcano");
  EXPECT_TRUE(q.karpenter.empty());
  ASSERT_EQ(r.rounds.size(), 2u);
  EXPECT_EQ(r.rounds[0].unschedulable, (std::vector<std::string>{"default/web", "default/gang-0"}));
  EXPECT_EQ(r.rounds[1].unschedulable, std::vector<std::string>{"default/gang-0"});
  EXPECT_TRUE(r.rounds[1].launched.empty());
  const Json j = io::ResultToJson(r);
  EXPECT_EQ(j["pods"]["default/gang-0"],
            Json({{"otherScheduler", "volcano"}, {"karpenter", {{"round", 2}, {"nominated", "node/default-0"}}}}));
  EXPECT_EQ(j["pods"]["default/quiet-0"], Json({{"otherScheduler", "volcano"}}));
  // Karpenter's nomination event on the pod, as it publishes it.
  bool nominated = false;
  for (const auto& e : r.events)
    nominated = nominated || (e.pod == "default/gang-0" && e.reason == "Nominated" && e.source == "karpenter");
  EXPECT_TRUE(nominated);

  // Without a pod of kube-scheduler's own, the marked pod alone still gets its NodeClaim; unmarked, nothing happens.
  items =
      Json::array({Simulation(), NodeItem("node-a", "1"), NodePool("default"), InstanceType("large", "4", 0.1), gang});
  EXPECT_EQ(RunItems(items).node_claims.size(), 1u);
  items =
      Json::array({Simulation(), NodeItem("node-a", "1"), NodePool("default"), InstanceType("large", "4", 0.1), quiet});
  r = RunItems(items);
  EXPECT_TRUE(r.node_claims.empty());
  ASSERT_EQ(r.rounds.size(), 1u);
  EXPECT_TRUE(r.rounds[0].unschedulable.empty());
  // A marked pod of another scheduler that is nominated (preempting, status.nominatedNodeName) is not provisionable.
  Json preempting = gang;
  preempting["status"]["nominatedNodeName"] = "node-a";
  items = Json::array(
      {Simulation(), NodeItem("node-a", "1"), NodePool("default"), InstanceType("large", "4", 0.1), preempting});
  r = RunItems(items);
  EXPECT_TRUE(r.node_claims.empty());
}

// kube-scheduler's nominator holds only the pods in its own queue: another scheduler's pod with
// status.nominatedNodeName reserves nothing for it (responsibleForPod).
TEST(ClusterMode, OtherSchedulersNominationsReserveNothing) {
  Json other = PodItem("other", "1", {{"schedulerName", "volcano"}});
  other["status"] = {{"nominatedNodeName", "node-a"}};
  Json own = PodItem("own", "1", {{"priority", 0}});
  Json items = Json::array({Simulation("scheduler"), NodeItem("node-a", "1"), other, own});
  auto r = RunItems(items);
  EXPECT_EQ(PodOf(r, "default/own").node, "node-a");
  EXPECT_EQ(PodOf(r, "default/other").other_scheduler, "volcano");
}

// Storage for the volume tests below: the class gp3 (ebs.csi.aws.com, WaitForFirstConsumer), a 1Gi claim of it, and
// the pod spec field that mounts a claim.
Json Gp3Class() {
  return {{"apiVersion", "storage.k8s.io/v1"},
          {"kind", "StorageClass"},
          {"metadata", {{"name", "gp3"}}},
          {"provisioner", "ebs.csi.aws.com"},
          {"volumeBindingMode", "WaitForFirstConsumer"}};
}

Json Gp3Claim(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "PersistentVolumeClaim"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec",
           {{"accessModes", Json::array({"ReadWriteOnce"})},
            {"storageClassName", "gp3"},
            {"resources", {{"requests", {{"storage", "1Gi"}}}}}}}};
}

Json MountsClaim(const std::string& name) {
  return {{"volumes", Json::array({{{"name", "data"}, {"persistentVolumeClaim", {{"claimName", name}}}}})}};
}

// Claims carry over from kube-scheduler's round to Karpenter's: a WaitForFirstConsumer claim provisioned for the pod
// kube-scheduler bound in round 1 is a PersistentVolume in that node's zone, so Karpenter launches the pod sharing it
// there, not in the cheaper zone it would pick for an unbound claim of a class without allowedTopologies.
TEST(ClusterMode, KarpenterSeesClaimsKubeSchedulerBoundEarlier) {
  Json zonal = InstanceType("zonal", "4", 0.2, {"zone-a", "zone-b"});
  zonal["spec"]["offerings"][1]["price"] = 0.1;  // zone-b is cheaper
  Json csi_node = {{"apiVersion", "storage.k8s.io/v1"},
                   {"kind", "CSINode"},
                   {"metadata", {{"name", "node-a"}}},
                   {"spec",
                    {{"drivers", Json::array({{{"name", "ebs.csi.aws.com"},
                                               {"nodeID", "i-a"},
                                               {"topologyKeys", Json::array({"topology.kubernetes.io/zone"})}}})}}}};
  Json gp3 = Gp3Class();
  Json claim = Gp3Claim("shared");
  Json volumes = MountsClaim("shared");
  Json items = Json::array({Simulation(), NodeItem("node-a", "2", {{"topology.kubernetes.io/zone", "zone-a"}}),
                            csi_node, gp3, claim, NodePool("default"), zonal, PodItem("writer", "500m", volumes),
                            PodItem("reader", "3", volumes)});
  auto r = RunItems(items);
  EXPECT_EQ(PodOf(r, "default/writer").node, "node-a");
  ASSERT_EQ(r.node_claims.size(), 1u);
  EXPECT_EQ(r.node_claims[0].claim.zone, "zone-a");
  const auto& reader = PodOf(r, "default/reader");
  EXPECT_EQ(reader.node, "default-0");
  EXPECT_TRUE(reader.disagreement.empty()) << reader.disagreement;
  ASSERT_EQ(reader.karpenter.size(), 1u);
  EXPECT_EQ(reader.karpenter[0].volume_requirements,
            std::vector<std::string>{"topology.kubernetes.io/zone In [zone-a]"});
}

// A Node Karpenter launches registers the CSI drivers every Node of the cluster has (their node plugins are
// DaemonSets): under 1.37's VolumeLimitScaling a driver whose CSIDriver sets preventPodSchedulingIfMissing only
// admits pods on nodes whose CSINode lists it, and the launched Node does.
TEST(ClusterMode, LaunchedNodesRegisterTheClustersCSIDrivers) {
  Json csi_node = {{"apiVersion", "storage.k8s.io/v1"},
                   {"kind", "CSINode"},
                   {"metadata", {{"name", "node-a"}}},
                   {"spec",
                    {{"drivers", Json::array({{{"name", "ebs.csi.aws.com"},
                                               {"nodeID", "i-a"},
                                               {"allocatable", {{"count", 25}}},
                                               {"topologyKeys", Json::array({"topology.kubernetes.io/zone"})}}})}}}};
  Json driver = {{"apiVersion", "storage.k8s.io/v1"},
                 {"kind", "CSIDriver"},
                 {"metadata", {{"name", "ebs.csi.aws.com"}}},
                 {"spec", {{"preventPodSchedulingIfMissing", true}}}};
  Json gp3 = Gp3Class();
  Json claim = Gp3Claim("data");
  Json volumes = MountsClaim("data");
  Json items = Json::array({Simulation(), NodeItem("node-a", "2", {{"topology.kubernetes.io/zone", "zone-a"}}),
                            csi_node, driver, gp3, claim, NodePool("default"),
                            InstanceType("big", "8", 0.2, {"zone-a"}), PodItem("db", "3", volumes)});
  auto r = RunItems(items);
  ASSERT_EQ(r.node_claims.size(), 1u);
  const auto& db = PodOf(r, "default/db");
  EXPECT_EQ(db.node, "default-0") << db.unschedulable;
  ASSERT_EQ(db.volumes.size(), 1u);
  EXPECT_TRUE(db.volumes[0].provisioned);
  // A cluster whose Nodes have no CSINode gives the launched Node none either: VolumeLimitScaling keeps the pod off it.
  items.erase(2);
  auto without = RunItems(items);
  const auto& pending = PodOf(without, "default/db");
  EXPECT_EQ(pending.node, "");
  EXPECT_NE(pending.unschedulable.find("ebs.csi.aws.com CSI driver is not installed on the node"), std::string::npos)
      << pending.unschedulable;
}

}  // namespace
}  // namespace kplace
