#include "core/karpenter/disruption/methods.h"

#include <algorithm>

namespace kplace::karpenter::disruption {

const char* MethodName(Method m) {
  switch (m) {
    case Method::Emptiness:
      return "Emptiness";
    case Method::Drift:
      return "Drift";
    case Method::MultiNodeConsolidation:
      return "MultiNodeConsolidation";
    case Method::SingleNodeConsolidation:
      return "SingleNodeConsolidation";
  }
  return "";
}

const char* MethodReason(Method m) {
  switch (m) {
    case Method::Emptiness:
      return "Empty";
    case Method::Drift:
      return "Drifted";
    default:
      return "Underutilized";
  }
}

DisruptionClass MethodClass(Method m) {
  return m == Method::Drift ? DisruptionClass::Eventual : DisruptionClass::Graceful;
}

bool ShouldDisrupt(Method m, const Candidate& c, const Scenario& sc, std::int64_t now, std::string* why,
                   std::vector<Event>* events) {
  const StateNode& n = *c.state;
  const NodePool& pool = *c.node_pool;
  auto unconsolidatable = [&](std::string message) {
    PublishOnNode(n, "Unconsolidatable", message, events);
    if (why) *why = std::move(message);
    return false;
  };
  auto no = [&](std::string message) {
    if (why) *why = std::move(message);
    return false;
  };
  std::string not_consolidatable;
  switch (m) {
    case Method::Emptiness:
      // emptiness.go ShouldDisrupt (buffer pods are not modelled).
      if (!pool.disruption.consolidate_after)
        return unconsolidatable("NodePool \"" + pool.meta.name + "\" has consolidation disabled");
      if (!c.IsEmpty()) return no("not empty");
      if (!Consolidatable(n, pool, sc, now, &not_consolidatable)) return no(not_consolidatable);
      return true;
    case Method::Drift:
      return !DriftReason(n, pool).empty() ? true : no("not drifted");
    case Method::MultiNodeConsolidation:
    case Method::SingleNodeConsolidation:
      // consolidation.go ShouldDisrupt.
      if (!c.instance_type) return unconsolidatable("Instance Type \"" + c.instance_type_name + "\" not found");
      if (!n.Label("karpenter.sh/capacity-type"))
        return unconsolidatable("Node does not have label \"karpenter.sh/capacity-type\"");
      if (!n.Label("topology.kubernetes.io/zone"))
        return unconsolidatable("Node does not have label \"topology.kubernetes.io/zone\"");
      if (!pool.disruption.consolidate_after)
        return unconsolidatable("NodePool \"" + pool.meta.name + "\" has consolidation disabled");
      if (c.IsEmpty()) return no("empty (left to Emptiness)");
      if (pool.disruption.consolidation_policy == ConsolidationPolicy::WhenEmpty)
        return unconsolidatable("NodePool \"" + pool.meta.name +
                                "\" has consolidation policy WhenEmpty, but node is not empty");
      if (!Consolidatable(n, pool, sc, now, &not_consolidatable)) return no(not_consolidatable);
      return true;
  }
  return false;
}

void SortBySavings(std::vector<const Candidate*>& candidates) {
  std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate* a, const Candidate* b) {
    if (a->SavingsRatio() != b->SavingsRatio()) return a->SavingsRatio() > b->SavingsRatio();
    return a->state->name < b->state->name;
  });
}

std::vector<const Candidate*> EmptinessCommand(std::vector<const Candidate*> candidates,
                                               std::map<std::string, NodePoolBudget>& budgets,
                                               std::vector<const Candidate*>* skipped_by_budget) {
  SortBySavings(candidates);
  std::vector<const Candidate*> empty;
  for (const Candidate* c : candidates) {
    if (!c->IsEmpty()) continue;
    NodePoolBudget& b = budgets[c->node_pool->meta.name];
    if (b.remaining == 0) {
      if (skipped_by_budget) skipped_by_budget->push_back(c);
      continue;
    }
    empty.push_back(c);
    --b.remaining;
  }
  return empty;
}

}  // namespace kplace::karpenter::disruption
