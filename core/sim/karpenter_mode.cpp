// karpenter mode: one provisioning round of Karpenter's scheduler over the pending pods.
#include "core/karpenter/scheduler.h"
#include "core/sim/admission.h"
#include "core/sim/runner.h"

namespace kplace::sim {

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
    result.disruption = options.disruption(sc, nominated);
  }
  result.karpenter = std::move(k);
  return result;
}

}  // namespace kplace::sim
