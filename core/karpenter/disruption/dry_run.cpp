#include "core/karpenter/disruption/dry_run.h"

#include <algorithm>

#include "core/karpenter/disruption/candidate.h"
#include "core/karpenter/disruption/methods.h"

namespace kplace::karpenter::disruption {

Report DryRun(const Scenario& sc, const std::set<std::string>& nominated) {
  Report r;
  r.now = EvaluationTime(sc);
  const std::vector<StateNode> nodes = BuildStateNodes(sc, nominated);
  std::vector<Event> events;
  // NewCandidate for the graceful class (Emptiness, consolidation); Drift's eventual class differs only for
  // NodeClaims with a terminationGracePeriod, evaluated again below.
  std::vector<std::optional<Candidate>> graceful(nodes.size()), eventual(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const StateNode& n = nodes[i];
    NodeReport nr;
    nr.name = n.name;
    nr.node_claim = n.claim ? n.claim->meta.name : "";
    nr.node_pool = n.NodePoolName();
    nr.managed = n.Managed();
    std::string err;
    graceful[i] = NewCandidate(n, sc, DisruptionClass::Graceful, r.now, &err, &events);
    if (n.claim && n.claim->termination_grace_period)
      eventual[i] = NewCandidate(n, sc, DisruptionClass::Eventual, r.now, nullptr, nullptr);
    else
      eventual[i] = graceful[i];
    nr.candidate = graceful[i].has_value();
    nr.blocked = err;
    if (const Candidate* c = graceful[i] ? &*graceful[i] : eventual[i] ? &*eventual[i] : nullptr) {
      nr.instance_type = c->instance_type_name;
      nr.zone = c->zone;
      nr.capacity_type = c->capacity_type;
      nr.price = c->price;
      nr.disruption_cost = c->reschedule_cost;
      nr.empty = c->IsEmpty();
      for (std::size_t p : c->reschedulable_pods) nr.reschedulable_pods.push_back(sc.pods[p].Key());
      nr.consolidatable = Consolidatable(n, *c->node_pool, sc, r.now, &nr.not_consolidatable);
    }
    r.nodes.push_back(std::move(nr));
  }
  for (const auto& pool : sc.node_pools)
    for (const char* reason : {"Empty", "Drifted", "Underutilized"})
      r.budgets[pool.meta.name][reason] = BuildBudgetMapping(sc, nodes, r.now, reason)[pool.meta.name];

  // The methods in the controller's order; the first that issues a command ends the reconcile.
  struct Step {
    Method method;
    const char* label;
  };
  const Step steps[] = {
      {Method::Emptiness, "Emptiness"}, {Method::Drift, "Drift"}, {Method::MultiNodeConsolidation, "Consolidation"}};
  bool acted = false;
  for (const Step& step : steps) {
    std::vector<const Candidate*> considered;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::optional<Candidate>& c = step.method == Method::Drift ? eventual[i] : graceful[i];
      if (!c) continue;
      MethodVerdict v;
      v.method = step.label;
      std::string why;
      v.considered = ShouldDisrupt(step.method, *c, sc, r.now, &why, acted ? nullptr : &events);
      v.why = why;
      r.nodes[i].methods.push_back(v);
      if (v.considered) considered.push_back(&*c);
    }
    if (acted || considered.empty()) continue;
    std::vector<Event> budget_events;
    auto budgets = BuildBudgetMapping(sc, nodes, r.now, MethodReason(step.method), &budget_events);
    events.insert(events.end(), budget_events.begin(), budget_events.end());
    if (step.method == Method::Emptiness) {
      std::vector<const Candidate*> held;
      std::vector<const Candidate*> deleted = EmptinessCommand(considered, budgets, &held);
      for (const Candidate* c : held)
        for (auto& nr : r.nodes)
          if (nr.name == c->state->name) nr.held_by_budget = MethodReason(step.method);
      if (deleted.empty()) continue;
      Command cmd;
      cmd.method = step.label;
      cmd.reason = MethodReason(step.method);
      cmd.decision = "delete";
      for (const Candidate* c : deleted) {
        cmd.nodes.push_back(c->state->name);
        cmd.savings += c->price;
      }
      r.commands.push_back(std::move(cmd));
      acted = true;
    } else {
      r.undecided.push_back(step.label);
      acted = true;  // upstream would decide here (or move on when nothing fits): not modelled yet
    }
  }
  // The recorder publishes an event once within its window.
  for (auto& e : events) {
    bool seen = false;
    for (const auto& k : r.events)
      seen = seen || (k.type == e.type && k.reason == e.reason && k.object == e.object && k.message == e.message);
    if (!seen) r.events.push_back(std::move(e));
  }
  return r;
}

}  // namespace kplace::karpenter::disruption
