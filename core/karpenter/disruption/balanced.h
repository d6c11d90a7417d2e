// The Balanced consolidation policy (karpenter v1.14.1 pkg/controllers/disruption/balanced.go, types.go
// ScoreResult, state/statenode.go DisruptionCost, pkg/state/cost ClusterCost): a consolidation move of a Balanced
// NodePool goes ahead only when the share of the NodePool's cost it saves is at least 1/k of the share of the
// NodePool's disruption cost it causes (k = 2).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/karpenter/disruption/command.h"

namespace kplace::karpenter::disruption {

// BalancedK (pkg/apis/v1/nodepool.go): a constant upstream.
constexpr int kBalancedK = 2;

struct NodePoolTotals {
  double total_cost = 0;             // per hour: the cost tracker's sum, else the candidates' prices
  double total_disruption_cost = 0;  // every node of the NodePool: its disruption cost
};

struct ScoreResult {
  double savings_fraction = 0;
  double disruption_fraction = 0;
  int k = 0;
  // 0 when nothing is saved, +Inf when nothing is disrupted, else savings over disruption fraction.
  double Score() const;
  double Threshold() const { return 1.0 / static_cast<double>(k); }
  bool Approved() const { return Score() >= Threshold(); }
};

// ScoreMove: the fractions of the NodePool's totals (zeros when a total is not positive).
ScoreResult ScoreMove(double savings, double disruption, const NodePoolTotals& totals, int k = kBalancedK);

// StateNode.DisruptionCost: 1 + Σ positive EvictionCost over the node's bound pods that are not terminal and not
// owned by a DaemonSet (mirror and terminating pods count, unlike a candidate's reschedulable pods).
double StateNodeDisruptionCost(const StateNode& n, const Scenario& sc);

// ClusterCost.GetNodepoolCost for a dry run whose tracker has seen every NodeClaim: Σ over the NodePool's NodeClaims
// whose own labels carry instance type, capacity type, zone and NodePool of the first offering's price of that type
// in that zone and capacity type (0 when the catalogue has none; deleting and in-flight NodeClaims count). A Node
// standing for an inferred NodeClaim counts with its labels (kplace's choice: upstream would see its NodeClaim).
// Summed in NodeClaim name order.
double ClusterNodePoolCost(const Scenario& sc, const std::vector<StateNode>& nodes, const std::string& pool);

// computeNodePoolTotals over every node that passed NewCandidate (graceful class, before any method's
// ShouldDisrupt): only NodePools with a candidate get totals.
std::map<std::string, NodePoolTotals> ComputeNodePoolTotals(const Scenario& sc, const std::vector<StateNode>& nodes,
                                                            const std::vector<const Candidate*>& candidates);

struct BalancedEvaluation {
  bool approved = false;
  std::map<std::string, ScoreResult> per_pool;  // the Balanced NodePools of the move's candidates
};

// EvaluateBalancedMove: each Balanced NodePool among the candidates scored with its share of the savings (split by
// the candidates' prices when the move spans NodePools); approved when every one is. A move without a Balanced
// NodePool is approved with no score.
BalancedEvaluation EvaluateBalancedMove(const Decision& d, const std::map<std::string, NodePoolTotals>& totals);

// CanPassThreshold: single-node consolidation's pre-check, the candidate's best case (deleting it). True for
// another policy, or a NodePool without a positive total cost. score (optional) gets the best-case score.
bool CanPassThreshold(const Candidate& c, const std::map<std::string, NodePoolTotals>& totals,
                      ScoreResult* score = nullptr);

// ConsolidationApproved's message: "score 0.99 >= threshold 0.50 (k: 2, savings 99.0%, disruption 100.0%)".
std::string ApprovedMessage(const ScoreResult& s);
// kplace's words for a move the policy rejects (upstream is silent): "Balanced: <move> scores 0.20 < threshold 0.50
// (savings 5.0%, disruption 25.0% of NodePool default)".
std::string RejectedVerdict(const std::string& move, const ScoreResult& s, const std::string& pool);

}  // namespace kplace::karpenter::disruption
