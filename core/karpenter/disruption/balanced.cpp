#include "core/karpenter/disruption/balanced.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace kplace::karpenter::disruption {

double ScoreResult::Score() const {
  // types.go ScoreResult.Score: the comparisons as upstream writes them (NaN savings give a NaN score, rejected).
  if (savings_fraction <= 0) return 0;
  if (disruption_fraction == 0) return std::numeric_limits<double>::infinity();
  return savings_fraction / disruption_fraction;
}

ScoreResult ScoreMove(double savings, double disruption, const NodePoolTotals& totals, int k) {
  if (totals.total_cost <= 0 || totals.total_disruption_cost <= 0) return ScoreResult{0, 0, k};
  // Two divisions, then the score a third (never one fused fraction): the 0.5 boundary depends on it.
  return ScoreResult{savings / totals.total_cost, disruption / totals.total_disruption_cost, k};
}

double StateNodeDisruptionCost(const StateNode& n, const Scenario& sc) {
  double cost = 1.0;
  for (std::size_t i : n.pods) {
    const Pod& p = sc.pods[i];
    if (p.Terminal() || IsOwnedBy(p, "apps/v1", "DaemonSet")) continue;
    const double e = EvictionCost(p);
    if (e > 0) cost += e;
  }
  return cost;
}

double ClusterNodePoolCost(const Scenario& sc, const std::vector<StateNode>& nodes, const std::string& pool) {
  // cost.go UpdateNodeClaim: a NodeClaim is tracked once its own labels carry all four keys.
  const Symbol keys[] = {Intern("node.kubernetes.io/instance-type"), Intern("karpenter.sh/capacity-type"),
                         Intern("topology.kubernetes.io/zone"), Intern("karpenter.sh/nodepool")};
  const Symbol pool_sym = Intern(pool);
  std::vector<std::pair<std::string, double>> tracked;
  auto track = [&](const std::string& name, const Labels& labels) {
    for (Symbol k : keys)
      if (!labels.Has(k)) return;
    if (*labels.Get(keys[3]) != pool_sym) return;
    // findOfferingPrice (cost.go): no NaN guard on this side.
    tracked.emplace_back(
        name, OfferingPrice(sc, Text(*labels.Get(keys[0])), Text(*labels.Get(keys[2])), Text(*labels.Get(keys[1]))));
  };
  if (!FindNodePool(sc, pool)) return 0;  // internalAddOffering: the NodePool must exist
  for (const NodeClaim& c : sc.node_claims) track(c.meta.name, c.meta.labels);
  for (const StateNode& n : nodes)
    if (n.inferred_claim) track(n.name, n.node->meta.labels);
  std::sort(tracked.begin(), tracked.end());
  double cost = 0;
  for (const auto& [name, price] : tracked) cost += price;
  return cost;
}

std::map<std::string, NodePoolTotals> ComputeNodePoolTotals(const Scenario& sc, const std::vector<StateNode>& nodes,
                                                            const std::vector<const Candidate*>& candidates) {
  // balanced.go computeNodePoolTotals; sums in node name order (upstream's is a Go map's).
  std::map<std::string, double> fallback;
  std::map<const StateNode*, const Candidate*> by_node;
  for (const Candidate* c : candidates) {
    fallback[c->node_pool->meta.name] += c->price;
    by_node[c->state] = c;
  }
  std::map<std::string, double> disruption;
  for (const StateNode& n : nodes) {
    const std::optional<std::string> pool = n.Label("karpenter.sh/nodepool");
    if (!pool) continue;
    auto c = by_node.find(&n);
    disruption[*pool] += c != by_node.end() ? c->second->reschedule_cost : StateNodeDisruptionCost(n, sc);
  }
  std::map<std::string, NodePoolTotals> totals;
  for (const auto& [pool, candidate_cost] : fallback) {
    const double tracked = ClusterNodePoolCost(sc, nodes, pool);
    totals[pool] = NodePoolTotals{tracked > 0 ? tracked : candidate_cost, disruption[pool]};
  }
  return totals;
}

BalancedEvaluation EvaluateBalancedMove(const Decision& d, const std::map<std::string, NodePoolTotals>& totals) {
  BalancedEvaluation out;
  if (d.candidates.empty()) return out;
  std::map<std::string, std::vector<const Candidate*>> by_pool;
  for (const Candidate* c : d.candidates) by_pool[c->node_pool->meta.name].push_back(c);
  const double savings = d.EstimatedSavings();
  const double source = d.SourceCost();
  out.approved = true;
  for (const auto& [pool, list] : by_pool) {
    if (list.front()->node_pool->disruption.consolidation_policy != ConsolidationPolicy::Balanced) continue;
    double disruption = 0, pool_cost = 0;
    for (const Candidate* c : list) {
      disruption += c->reschedule_cost;
      pool_cost += c->price;
    }
    auto t = totals.find(pool);
    const NodePoolTotals pool_totals = t != totals.end() ? t->second : NodePoolTotals{};
    // A move across NodePools credits each its share of the savings by the candidates' prices (quotient first).
    double pool_savings = savings;
    if (source > 0 && by_pool.size() > 1) pool_savings = savings * (pool_cost / source);
    const ScoreResult s = ScoreMove(pool_savings, disruption, pool_totals);
    out.per_pool[pool] = s;
    out.approved = out.approved && s.Approved();
  }
  return out;
}

bool CanPassThreshold(const Candidate& c, const std::map<std::string, NodePoolTotals>& totals, ScoreResult* score) {
  if (c.node_pool->disruption.consolidation_policy != ConsolidationPolicy::Balanced) return true;
  auto t = totals.find(c.node_pool->meta.name);
  if (t == totals.end() || t->second.total_cost <= 0) return true;
  const ScoreResult s = ScoreMove(c.price, c.reschedule_cost, t->second);
  if (score) *score = s;
  return s.Approved();
}

std::string ApprovedMessage(const ScoreResult& s) {
  return "score " + GoFixed(s.Score(), 2) + " >= threshold " + GoFixed(s.Threshold(), 2) +
         " (k: " + std::to_string(s.k) + ", savings " + GoFixed(s.savings_fraction * 100, 1) + "%, disruption " +
         GoFixed(s.disruption_fraction * 100, 1) + "%)";
}

std::string RejectedVerdict(const std::string& move, const ScoreResult& s, const std::string& pool) {
  return "Balanced: " + move + " scores " + GoFixed(s.Score(), 2) + " < threshold " + GoFixed(s.Threshold(), 2) +
         " (savings " + GoFixed(s.savings_fraction * 100, 1) + "%, disruption " +
         GoFixed(s.disruption_fraction * 100, 1) + "% of NodePool " + pool + ")";
}

}  // namespace kplace::karpenter::disruption
