#include "core/karpenter/disruption/consolidation.h"

#include <algorithm>
#include <cfloat>
#include <set>

#include "core/karpenter/disruption/methods.h"

namespace kplace::karpenter::disruption {
namespace {

// MinInstanceTypesForSpotToSpotConsolidation (consolidation.go).
constexpr std::size_t kMinSpotToSpotOptions = 15;
// Multi-node consolidation's largest batch bound (multinodeconsolidation.go maxParallel).
constexpr std::size_t kMaxParallel = 100;

Symbol Spot() {
  static const Symbol s = Intern("spot");
  return s;
}
Symbol OnDemand() {
  static const Symbol s = Intern("on-demand");
  return s;
}

// Requirements.Get(key).Has(value): an absent key admits every value.
bool Admits(const Requirements& reqs, Symbol key, Symbol value) {
  const Requirement* r = reqs.Find(key);
  return !r || r->Has(value);
}

// Each simulation builds a scheduler, which publishes NoCompatibleInstanceTypes on a NodePool whose requirements
// filter out every instance type (scheduling/scheduler.go NewScheduler).
void PublishSimulationEvents(const DecisionContext& ctx, const SimulationResults& r) {
  if (ctx.events)
    ctx.events->insert(ctx.events->end(), r.simulation.result.events.begin(), r.simulation.result.events.end());
}

void Unconsolidatable(const DecisionContext& ctx, const std::vector<const Candidate*>& candidates,
                      const std::string& message, std::string* why) {
  if (candidates.size() != 1) return;
  PublishOnNode(*candidates[0]->state, "Unconsolidatable", message, ctx.events);
  if (why) *why = message;
}

void EmitCandidateEvents(const DecisionContext& ctx, const Decision& d) {
  const std::string savings = Money(d.EstimatedSavings());
  for (const Candidate* c : d.candidates)
    PublishOnNode(*c->state, "ConsolidationCandidate",
                  "Consolidation candidate: " + d.StringForNode(*c) + " (savings: $" + savings + ")", ctx.events);
}

Decision NoOp() { return Decision{}; }

// The price filter of both paths: the replacement keeps the options cheaper than the candidates (their worst launch
// price below the candidates' prices), still meeting minValues. False, with the Unconsolidatable reason, when none.
bool KeepCheaperOptions(const DecisionContext& ctx, Decision& d, std::string* why) {
  NewClaim& claim = d.new_claims[0];
  std::string err;
  if (!RemoveByPriceAndMinValues(claim.options, d.results.simulation.catalogue, claim.requirements, d.SourceCost(),
                                 &err)) {
    Unconsolidatable(ctx, d.candidates, "Filtering by price: " + err, why);
    return false;
  }
  if (claim.options.empty()) {
    Unconsolidatable(ctx, d.candidates, "Can't replace with a cheaper node", why);
    return false;
  }
  return true;
}

Decision SpotToSpot(const DecisionContext& ctx, Decision d, std::string* why) {
  const auto& candidates = d.candidates;
  if (!ctx.spot_to_spot) {
    Unconsolidatable(ctx, candidates, "SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node",
                     why);
    return NoOp();
  }
  const auto& catalogue = d.results.simulation.catalogue;
  NewClaim& claim = d.new_claims[0];
  claim.requirements.Add(Requirement::Make(CapacityTypeKey(), ReqOp::In, {Spot()}));
  KeepCompatible(claim.options, catalogue, claim.requirements);
  if (!KeepCheaperOptions(ctx, d, why)) return NoOp();
  if (candidates.size() > 1) {
    d.replace = true;
    EmitCandidateEvents(ctx, d);
    return d;
  }
  if (claim.options.size() < kMinSpotToSpotOptions) {
    // Published whatever the number of candidates (there is one here).
    const std::string message = "SpotToSpotConsolidation requires " + std::to_string(kMinSpotToSpotOptions) +
                                " cheaper instance type options than the current candidate to consolidate, got " +
                                std::to_string(claim.options.size());
    Unconsolidatable(ctx, candidates, message, why);
    return NoOp();
  }
  // Launch among the 15 cheapest (or as many as minValues needs), so the launched type is never one of them that a
  // later pass would replace again.
  const std::size_t keep =
      HasMinValues(claim.requirements)
          ? std::max(kMinSpotToSpotOptions, MinValuesPrefix(claim.options, catalogue, claim.requirements))
          : kMinSpotToSpotOptions;
  if (claim.options.size() > keep) claim.options.resize(keep);
  d.replace = true;
  EmitCandidateEvents(ctx, d);
  return d;
}

void EmitApprovals(const DecisionContext& ctx, const std::vector<const Candidate*>& candidates,
                   const std::map<std::string, ScoreResult>& scores) {
  if (!ctx.events) return;
  std::set<std::string> pools;
  for (const Candidate* c : candidates) pools.insert(c->node_pool->meta.name);
  for (const std::string& pool : pools) {  // upstream in a Go map's order: kplace by name
    auto s = scores.find(pool);
    if (s != scores.end() && s->second.Approved())
      ctx.events->push_back({"Normal", "ConsolidationApproved", "NodePool/" + pool, ApprovedMessage(s->second)});
  }
}

const char* ReplaceVerdict(const Decision& d) { return d.Kind() == "replace" ? "replace" : "delete"; }

}  // namespace

Decision ComputeConsolidation(const DecisionContext& ctx, const std::vector<const Candidate*>& candidates,
                              std::string* why, std::string* error) {
  Decision d;
  d.results = SimulateScheduling(*ctx.sc, *ctx.nodes, candidates, ctx.now, true, ctx.existing);
  PublishSimulationEvents(ctx, d.results);
  if (d.results.candidate_deleting) return NoOp();
  if (!d.results.error.empty()) {
    if (error) *error = d.results.error;
    return NoOp();
  }
  if (!d.results.AllNonPendingPodsScheduled()) {
    Unconsolidatable(ctx, candidates, Sentence(d.results.NonPendingPodSchedulingErrors()), why);
    return NoOp();
  }
  d.candidates = candidates;
  d.new_claims = NewClaimsOf(d.results);
  if (d.new_claims.empty()) return d;  // delete
  if (d.new_claims.size() != 1) {
    Unconsolidatable(ctx, candidates,
                     "Can't remove without creating " + std::to_string(d.new_claims.size()) + " candidates", why);
    return NoOp();
  }
  const auto& catalogue = d.results.simulation.catalogue;
  NewClaim& claim = d.new_claims[0];
  OrderByPrice(claim.options, catalogue, claim.requirements);
  const bool all_spot =
      std::all_of(candidates.begin(), candidates.end(), [](const Candidate* c) { return c->capacity_type == "spot"; });
  if (all_spot && Admits(claim.requirements, CapacityTypeKey(), Spot())) return SpotToSpot(ctx, std::move(d), why);
  if (!KeepCheaperOptions(ctx, d, why)) return NoOp();
  // The price filter assumed the spot price: a replacement that may be spot or on-demand must be spot, so a launch
  // short of spot capacity fails rather than costing more (consolidation.go).
  if (Admits(claim.requirements, CapacityTypeKey(), Spot()) &&
      Admits(claim.requirements, CapacityTypeKey(), OnDemand()))
    claim.requirements.Add(Requirement::Make(CapacityTypeKey(), ReqOp::In, {Spot()}));
  d.replace = true;
  EmitCandidateEvents(ctx, d);
  return d;
}

bool FilterOutSameInstanceType(Decision& d) {
  std::set<std::string> existing;
  std::map<std::string, double> prices;
  for (const Candidate* c : d.candidates) {
    existing.insert(c->instance_type_name);
    if (!c->instance_type) continue;
    // The cheapest offering compatible with the node's labels (availability not considered).
    const auto zone = c->state->Label("topology.kubernetes.io/zone");
    const auto ct = c->state->Label("karpenter.sh/capacity-type");
    for (const auto& o : c->instance_type->offerings) {
      if ((zone && *zone != o.zone) || (ct && *ct != o.capacity_type)) continue;
      auto it = prices.find(c->instance_type_name);
      if (it == prices.end() || o.price < it->second) prices[c->instance_type_name] = o.price;
    }
  }
  NewClaim& claim = d.new_claims[0];
  const auto& catalogue = d.results.simulation.catalogue;
  double max_price = DBL_MAX;
  for (int idx : claim.options) {
    const std::string& name = Text(catalogue[static_cast<std::size_t>(idx)].name);
    if (!existing.count(name)) continue;
    auto it = prices.find(name);
    max_price = std::min(max_price, it == prices.end() ? 0.0 : it->second);
  }
  if (!RemoveByPriceAndMinValues(claim.options, catalogue, claim.requirements, max_price, nullptr)) return false;
  return !claim.options.empty();
}

std::optional<Decision> MultiNodeConsolidation(const DecisionContext& ctx, std::vector<const Candidate*> candidates,
                                               std::map<std::string, NodePoolBudget> budgets, Verdicts* verdicts,
                                               std::string* error) {
  SortBySavings(candidates);
  std::vector<const Candidate*> kept;
  for (const Candidate* c : candidates) {
    NodePoolBudget& b = budgets[c->node_pool->meta.name];
    if (b.remaining == 0) continue;
    kept.push_back(c);
    --b.remaining;
  }
  if (kept.size() < 2) return std::nullopt;
  // firstNConsolidationOption: batches are the first mid+1 candidates; with more than 100 the largest is 101.
  std::size_t lo = 1, hi = std::min(kept.size(), kMaxParallel);
  if (kept.size() <= hi) hi = kept.size() - 1;
  std::optional<Decision> saved;
  // The Balanced scores of the saved batch, and of the last batch the policy rejected.
  std::map<std::string, ScoreResult> saved_scores, rejected_scores;
  std::vector<const Candidate*> rejected;
  while (lo <= hi) {
    const std::size_t mid = (lo + hi) / 2;
    std::vector<const Candidate*> batch(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(mid + 1));
    std::string err;
    Decision d = ComputeConsolidation(ctx, batch, nullptr, &err);
    if (!err.empty()) {
      if (error) *error = err;
      return std::nullopt;
    }
    bool valid = d.Kind() == "delete";
    if (d.Kind() == "replace") valid = FilterOutSameInstanceType(d);
    if (valid && ctx.totals) {
      BalancedEvaluation ev = EvaluateBalancedMove(d, *ctx.totals);
      if (ev.approved) {
        saved_scores = std::move(ev.per_pool);
      } else {
        valid = false;
        rejected = d.candidates;
        rejected_scores = std::move(ev.per_pool);
      }
    }
    if (valid) {
      saved = std::move(d);
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  // EmitMultiNodeEvents: ConsolidationApproved on each Balanced NodePool whose own score passed, for the command
  // found, or else for the last batch the policy rejected.
  if (saved)
    EmitApprovals(ctx, saved->candidates, saved_scores);
  else if (!rejected.empty())
    EmitApprovals(ctx, rejected, rejected_scores);
  if (saved && verdicts)
    for (const Candidate* c : saved->candidates) (*verdicts)[c] = ReplaceVerdict(*saved);
  return saved;
}

std::optional<Decision> ConsolidateSingle(const DecisionContext& ctx, const Candidate& c, std::string* verdict) {
  // singlenodeconsolidation.go: a candidate whose best case cannot pass the threshold is skipped silently upstream;
  // the verdict's words are kplace's.
  ScoreResult best;
  if (ctx.totals && !CanPassThreshold(c, *ctx.totals, &best)) {
    *verdict = RejectedVerdict("even deleting it", best, c.node_pool->meta.name);
    return std::nullopt;
  }
  std::string why, err;
  Decision d = ComputeConsolidation(ctx, {&c}, &why, &err);
  if (!err.empty()) {  // logged upstream ("failed computing consolidation"); the next candidate is tried
    *verdict = "failed computing consolidation, " + err;
    return std::nullopt;
  }
  if (d.Kind() == "no-op") {
    *verdict = why.empty() ? "no-op" : why;
    return std::nullopt;
  }
  if (ctx.totals) {
    // ApproveCommand (balanced.go): a one-candidate move publishes its approval on the Node and NodeClaim; a
    // rejection is silent upstream (the verdict's words are kplace's).
    const BalancedEvaluation ev = EvaluateBalancedMove(d, *ctx.totals);
    auto s = ev.per_pool.find(c.node_pool->meta.name);
    if (s != ev.per_pool.end() && s->second.Approved())
      PublishOnNode(*c.state, "ConsolidationApproved", ApprovedMessage(s->second), ctx.events);
    if (!ev.approved) {
      *verdict = RejectedVerdict(d.Kind(), s->second, c.node_pool->meta.name);
      return std::nullopt;
    }
  }
  *verdict = ReplaceVerdict(d);
  return d;
}

std::optional<Decision> SingleNodeConsolidation(const DecisionContext& ctx, std::vector<const Candidate*> candidates,
                                                const std::map<std::string, NodePoolBudget>& budgets,
                                                Verdicts* verdicts) {
  SortBySavings(candidates);
  // Interleave by NodePool (upstream walks the pools in a Go map's order; kplace in name order).
  std::map<std::string, std::vector<const Candidate*>> by_pool;
  for (const Candidate* c : candidates) by_pool[c->node_pool->meta.name].push_back(c);
  std::vector<const Candidate*> order;
  for (std::size_t i = 0;; ++i) {
    bool any = false;
    for (const auto& [pool, list] : by_pool)
      if (i < list.size()) {
        order.push_back(list[i]);
        any = true;
      }
    if (!any) break;
  }
  for (const Candidate* c : order) {
    auto b = budgets.find(c->node_pool->meta.name);
    if (b == budgets.end() || b->second.remaining == 0) {
      if (verdicts) (*verdicts)[c] = "held back by the NodePool's Underutilized budget";
      continue;
    }
    std::string verdict;
    std::optional<Decision> d = ConsolidateSingle(ctx, *c, &verdict);
    if (verdicts) (*verdicts)[c] = verdict;
    if (d) return d;
  }
  return std::nullopt;
}

std::optional<Decision> Drift(const DecisionContext& ctx, std::vector<const Candidate*> candidates,
                              const std::map<std::string, NodePoolBudget>& budgets, Verdicts* verdicts,
                              std::string* error) {
  // The Drifted condition's time; a drift kplace computes (no condition given) is marked now, as the nodeclaim
  // disruption controller would stamp it.
  auto drifted_at = [&](const Candidate* c) -> std::int64_t {
    const auto* cond = c->state->claim ? c->state->claim->FindCondition("Drifted") : nullptr;
    return cond && cond->last_transition ? *cond->last_transition : ctx.now;
  };
  // Oldest drift first (upstream's sort is not stable: kplace breaks ties by node name), empty candidates first.
  std::stable_sort(candidates.begin(), candidates.end(), [&](const Candidate* a, const Candidate* b) {
    if (drifted_at(a) != drifted_at(b)) return drifted_at(a) < drifted_at(b);
    return a->state->name < b->state->name;
  });
  std::stable_partition(candidates.begin(), candidates.end(),
                        [](const Candidate* c) { return c->reschedulable_pods.empty(); });
  for (const Candidate* c : candidates) {
    auto b = budgets.find(c->node_pool->meta.name);
    if (b == budgets.end() || b->second.remaining == 0) {
      if (verdicts) (*verdicts)[c] = "held back by the NodePool's Drifted budget";
      continue;
    }
    Decision d;
    d.results = SimulateScheduling(*ctx.sc, *ctx.nodes, {c}, ctx.now, false, ctx.existing);
    PublishSimulationEvents(ctx, d.results);
    if (d.results.candidate_deleting) continue;
    if (!d.results.error.empty()) {
      if (error) *error = d.results.error;
      return std::nullopt;
    }
    if (!d.results.AllNonPendingPodsScheduled()) {
      const std::string message = Sentence(d.results.NonPendingPodSchedulingErrors());
      PublishOnNode(*c->state, "DisruptionBlocked", message, ctx.events);
      if (verdicts) (*verdicts)[c] = message;
      continue;
    }
    d.candidates = {c};
    d.new_claims = NewClaimsOf(d.results);
    d.replace = !d.new_claims.empty();
    if (verdicts) (*verdicts)[c] = ReplaceVerdict(d);
    return d;
  }
  return std::nullopt;
}

}  // namespace kplace::karpenter::disruption
