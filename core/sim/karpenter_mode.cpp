// karpenter mode: one provisioning round of Karpenter's scheduler over the pending pods.
#include "core/karpenter/scheduler.h"
#include "core/sim/admission.h"
#include "core/sim/launch.h"
#include "core/sim/runner.h"

namespace kplace::sim {

namespace {

// The cluster right after the round, as the disruption controller finds it: the NodeClaims the round decided on are
// launched and in flight (no Node yet, so not initialized). The pending pods stay pending: a disruption simulation
// places them again, on these NodeClaims when nothing initialized has room, instead of creating NodeClaims of its own.
void AddLaunchedClaims(Scenario& sc, const karpenter::Result& k) {
  const std::int64_t now = karpenter::disruption::EvaluationTime(sc);
  for (const auto& claim : k.claims) {
    Node n = NodeForClaim(sc, claim);
    Labels labels;  // not registered nor initialized yet
    for (auto [key, value] : n.meta.labels.entries())
      if (Text(key) != "karpenter.sh/registered" && Text(key) != "karpenter.sh/initialized") labels.Set(key, value);
    n.meta.labels = labels;
    n.meta.creation_unix = now;
    NodeClaim c;
    c.meta = n.meta;
    c.taints = n.taints;
    c.allocatable = n.allocatable;
    c.capacity = n.capacity;
    c.launched = true;
    c.conditions.push_back({"Launched", "True", "", now});
    sc.node_claims.push_back(std::move(c));
    sc.in_flight_node_claims.push_back(std::move(n));
  }
}

}  // namespace

// karpenter mode: one provisioning round of Karpenter's scheduler over the pending pods (no kube-scheduler, no
// DaemonSet expansion: Karpenter reserves DaemonSet overhead itself).
SimResult RunKarpenter(Scenario sc, const RunOptions& options) {
  for (auto& p : sc.pods) AddDefaultTolerations(p);
  std::vector<std::int32_t> priorities = ResolvePriorities(sc);
  karpenter::ProvisionOptions popts;
  popts.explain_all = options.explain_all;
  popts.explain = options.explain;
  SimResult result = NewResult(sc);
  karpenter::Result k = karpenter::Provision(sc, popts);
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    const Pod& p = sc.pods[i];
    const karpenter::PodOutcome& o = k.pods[i];
    PodResult r;
    r.key = p.Key();
    r.generated_from = p.generated_from;
    r.priority = priorities[i];
    r.bound_at_start = !p.node_name.empty();
    if (p.Terminal()) r.terminal_phase = p.phase;
    r.node = p.node_name;
    if (o.kind == karpenter::PodOutcomeKind::Node) r.node = o.node;
    if (o.kind == karpenter::PodOutcomeKind::Unschedulable || o.kind == karpenter::PodOutcomeKind::Ignored)
      r.unschedulable = o.reason;
    result.pods.push_back(std::move(r));
  }
  SortPodsByKey(result.pods);
  for (const auto& n : sc.nodes) result.nodes.push_back({n.meta.name, {}});
  result.hourly_price = k.hourly_price;
  if (options.disruption && karpenter::disruption::HasManagedNodes(sc)) {
    // The disruption controller reads the pods' admitted priorities; the nodes the round nominated pods to are
    // nominated (state.StateNode.Nominated).
    std::set<std::string> nominated;
    for (const auto& o : k.pods)
      if (o.kind == karpenter::PodOutcomeKind::Node) nominated.insert(o.node);
    for (std::size_t i = 0; i < sc.pods.size(); ++i) sc.pods[i].priority = priorities[i];
    AddLaunchedClaims(sc, k);
    result.disruption = options.disruption(sc, nominated, options.explain_nodes);
  }
  result.karpenter = std::move(k);
  return result;
}

}  // namespace kplace::sim
