#include "core/karpenter/disruption/dry_run.h"

#include <algorithm>

#include "core/karpenter/disruption/candidate.h"
#include "core/karpenter/disruption/consolidation.h"
#include "core/karpenter/disruption/methods.h"
#include "core/karpenter/finalize.h"

namespace kplace::karpenter::disruption {

namespace {

// The command as the controller would start it, with the plan: replacements and where each pod goes.
Command ToCommand(const Scenario& sc, const Decision& d, const std::string& method, const std::string& reason) {
  Command cmd;
  cmd.method = method;
  cmd.reason = reason;
  cmd.decision = d.Kind();
  cmd.text = d.String();
  cmd.price = d.SourceCost();
  cmd.savings = d.EstimatedSavings();
  for (const Candidate* c : d.candidates) cmd.nodes.push_back(c->state->name);
  const auto& catalogue = d.results.simulation.catalogue;
  if (d.replace)
    for (std::size_t ci = 0; ci < d.new_claims.size(); ++ci) {
      const NewClaim& nc = d.new_claims[ci];
      Replacement rep;
      rep.claim = d.results.simulation.result.claims[ci];
      rep.node_pool = nc.node_pool;
      std::vector<const KType*> options;
      for (int idx : nc.options) {
        options.push_back(&catalogue[static_cast<std::size_t>(idx)]);
        rep.instance_types.push_back(Text(options.back()->name));
      }
      rep.requirements = NodeClaimRequirements(nc.requirements, options);
      if (!options.empty()) {
        rep.instance_type = Text(options.front()->name);
        if (const Offer* o = CheapestOffering(*options.front(), nc.requirements)) {
          rep.zone = Text(o->zone);
          rep.capacity_type = Text(o->capacity_type);
          rep.price = o->price;
        }
      }
      rep.pods = nc.pods;
      cmd.replacements.push_back(std::move(rep));
    }
  const auto& outcomes = d.results.simulation.result.pods;
  for (std::size_t i : d.results.moved) {
    PodMove m;
    m.pod = sc.pods[i].Key();
    m.from = sc.pods[i].node_name;
    const PodOutcome& o = outcomes[i];
    if (o.kind == PodOutcomeKind::Node)
      m.to = o.node;
    else if (o.kind == PodOutcomeKind::Claim)
      m.to = "replacement " + std::to_string(o.claim + 1);
    if (auto e = d.results.pod_errors.find(m.pod); e != d.results.pod_errors.end()) m.error = e->second;
    cmd.pods.push_back(std::move(m));
  }
  std::sort(cmd.pods.begin(), cmd.pods.end(), [](const PodMove& a, const PodMove& b) { return a.pod < b.pod; });
  return cmd;
}

NodeExplanation Explain(const Scenario& sc, const std::vector<StateNode>& nodes, std::size_t i,
                        const std::optional<Candidate>& candidate, std::int64_t now,
                        const std::vector<ExistingNode>* existing,
                        const std::map<std::string, NodePoolTotals>& totals) {
  const StateNode& n = nodes[i];
  NodeExplanation x;
  x.node = n.name;
  NewCandidate(n, sc, DisruptionClass::Graceful, now, nullptr, nullptr, &x.checks);
  DecisionContext ctx;  // no events: the what-ifs are not what the controller publishes
  ctx.sc = &sc;
  ctx.nodes = &nodes;
  ctx.now = now;
  ctx.spot_to_spot = sc.simulation.spot_to_spot_consolidation;
  ctx.existing = existing;
  ctx.totals = &totals;
  if (candidate && ShouldDisrupt(Method::SingleNodeConsolidation, *candidate, sc, now, nullptr, nullptr)) {
    std::string verdict;
    std::optional<Decision> d = ConsolidateSingle(ctx, *candidate, &verdict);
    x.consolidation = verdict;
    if (d) x.consolidation_command = ToCommand(sc, *d, "SingleNodeConsolidation", "Underutilized");
  }
  if (candidate && candidate->node_pool->disruption.consolidation_policy == ConsolidationPolicy::Balanced) {
    auto t = totals.find(candidate->node_pool->meta.name);
    if (t != totals.end()) {
      x.balanced_totals = t->second;
      x.balanced_best = ScoreMove(candidate->price, candidate->reschedule_cost, t->second);
    }
  }
  // Drain: the node's pods placed again as Karpenter's simulation places a disrupted node's.
  Candidate drained;
  if (candidate) drained = *candidate;
  drained.state = &n;
  drained.price = NodePrice(n, sc);
  drained.reschedulable_pods.clear();
  for (std::size_t p : n.pods)
    if (IsReschedulable(sc.pods[p])) drained.reschedulable_pods.push_back(p);
  Decision d;
  d.results = SimulateScheduling(sc, nodes, {&drained}, now, false, existing);
  if (d.results.candidate_deleting) {
    x.drain_error = "the node is already being deleted";
    return x;
  }
  if (!d.results.error.empty()) {
    x.drain_error = d.results.error;
    return x;
  }
  d.candidates = {&drained};
  d.new_claims = NewClaimsOf(d.results);
  d.replace = !d.new_claims.empty();
  Command cmd = ToCommand(sc, d, "Drain", "");
  // The pods that would stay: not reschedulable, or not evictable now.
  for (std::size_t p : n.pods) {
    const Pod& pod = sc.pods[p];
    if (std::find(d.results.moved.begin(), d.results.moved.end(), p) != d.results.moved.end()) continue;
    PodMove m;
    m.pod = pod.Key();
    m.from = n.name;
    m.error = IsReschedulable(pod) ? "stays: not evictable now (karpenter.sh/do-not-disrupt, or a PodDisruptionBudget "
                                     "that allows no eviction)"
                                   : "stays: not rescheduled (a DaemonSet or mirror pod, or finished)";
    cmd.pods.push_back(std::move(m));
  }
  std::sort(cmd.pods.begin(), cmd.pods.end(), [](const PodMove& a, const PodMove& b) { return a.pod < b.pod; });
  x.drain = std::move(cmd);
  return x;
}

}  // namespace

Report DryRun(const Scenario& sc, const std::set<std::string>& nominated, const std::vector<std::string>& explain) {
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
      nr.drifted = DriftReason(n, *c->node_pool);
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
  DecisionContext ctx;
  ctx.sc = &sc;
  ctx.nodes = &nodes;
  ctx.now = r.now;
  ctx.spot_to_spot = sc.simulation.spot_to_spot_consolidation;
  ctx.events = &events;
  const std::vector<ExistingNode> existing = ExistingNodes(sc);
  ctx.existing = &existing;
  // Every graceful candidate, before any method's ShouldDisrupt, counts toward the Balanced totals
  // (helpers.go GetCandidatesWithTotals).
  std::vector<const Candidate*> all_candidates;
  for (const auto& c : graceful)
    if (c) all_candidates.push_back(&*c);
  const std::map<std::string, NodePoolTotals> totals = ComputeNodePoolTotals(sc, nodes, all_candidates);
  ctx.totals = &totals;
  // r.nodes[i] reports nodes[i], and every candidate's state is one of nodes.
  auto report_of = [&](const Candidate* c) -> NodeReport& {
    return r.nodes[static_cast<std::size_t>(c->state - nodes.data())];
  };
  auto record = [&](const Verdicts& verdicts, const char* label) {
    for (const auto& [c, outcome] : verdicts)
      for (auto& v : report_of(c).methods)
        if (v.method == label) v.outcome = outcome;
  };
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
      for (const Candidate* c : held) report_of(c).held_by_budget = MethodReason(step.method);
      if (deleted.empty()) continue;
      Decision d;
      d.candidates = deleted;
      Verdicts verdicts;
      for (const Candidate* c : deleted) verdicts[c] = "delete";
      record(verdicts, step.label);
      r.commands.push_back(ToCommand(sc, d, "Emptiness", MethodReason(step.method)));
      acted = true;
      continue;
    }
    if (step.method == Method::Drift) {
      Verdicts verdicts;
      std::string error;
      std::optional<Decision> d = Drift(ctx, considered, budgets, &verdicts, &error);
      record(verdicts, step.label);
      if (!error.empty()) {
        r.error = "Drift: " + error;
        break;  // the reconcile fails: later methods are not tried
      }
      if (!d) continue;
      r.commands.push_back(ToCommand(sc, *d, "Drift", MethodReason(step.method)));
      acted = true;
      continue;
    }
    Verdicts verdicts;
    std::string error;
    std::optional<Decision> d = MultiNodeConsolidation(ctx, considered, budgets, &verdicts, &error);
    if (!error.empty()) {
      record(verdicts, step.label);
      r.error = "MultiNodeConsolidation: " + error;
      break;
    }
    std::string method = "MultiNodeConsolidation";
    if (!d) {
      d = SingleNodeConsolidation(ctx, considered, budgets, &verdicts);
      method = "SingleNodeConsolidation";
    }
    record(verdicts, step.label);
    if (!d) continue;
    r.commands.push_back(ToCommand(sc, *d, method, MethodReason(step.method)));
    acted = true;
  }
  for (const std::string& name : explain) {
    std::size_t i = 0;
    while (i < nodes.size() && nodes[i].name != name) ++i;
    if (i == nodes.size()) continue;
    r.explained.push_back(Explain(sc, nodes, i, graceful[i], r.now, &existing, totals));
  }
  // The recorder publishes an event once within its window, by its dedupe values: DisruptionBlocked and
  // Unconsolidatable on a Node or NodeClaim, and ConsolidationApproved on any object, by its UID alone
  // (disruption/events/events.go), whatever the message; the others by what they say.
  for (auto& e : events) {
    const bool by_object = e.reason == "ConsolidationApproved" ||
                           ((e.reason == "DisruptionBlocked" || e.reason == "Unconsolidatable") &&
                            (e.object.rfind("Node/", 0) == 0 || e.object.rfind("NodeClaim/", 0) == 0));
    bool seen = false;
    for (const auto& k : r.events)
      seen = seen || (k.type == e.type && k.reason == e.reason && k.object == e.object &&
                      (by_object || k.message == e.message));
    if (!seen) r.events.push_back(std::move(e));
  }
  return r;
}

}  // namespace kplace::karpenter::disruption
