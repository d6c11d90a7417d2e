// Drift and consolidation decisions (karpenter v1.14.1 pkg/controllers/disruption consolidation.go
// computeConsolidation / computeSpotToSpotConsolidation, multinodeconsolidation.go, singlenodeconsolidation.go,
// drift.go ComputeCommands): each runs the scheduling simulation over its candidates and turns the result into a
// delete, a replace or nothing, with upstream's events.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/karpenter/disruption/balanced.h"
#include "core/karpenter/disruption/command.h"

namespace kplace::karpenter::disruption {

struct DecisionContext {
  const Scenario* sc = nullptr;
  const std::vector<StateNode>* nodes = nullptr;
  std::int64_t now = 0;
  bool spot_to_spot = false;                            // feature gate SpotToSpotConsolidation
  std::vector<Event>* events = nullptr;                 // what the controller publishes
  const std::vector<ExistingNode>* existing = nullptr;  // karpenter::ExistingNodes(*sc), shared by the simulations
  // The NodePools' totals the Balanced policy scores against (ComputeNodePoolTotals); null: no move is scored.
  const std::map<std::string, NodePoolTotals>* totals = nullptr;
};

// The verdict a method reached for one candidate it evaluated: its decision ("delete", "replace") or why not.
using Verdicts = std::map<const Candidate*, std::string>;

// computeConsolidation over these candidates. A no-op decision when nothing fits (for one candidate *why and an
// Unconsolidatable event say why); *error gets a simulation error other than a deleting candidate.
Decision ComputeConsolidation(const DecisionContext& ctx, const std::vector<const Candidate*>& candidates,
                              std::string* why, std::string* error);

// filterOutSameInstanceType: a multi-node replacement keeps only options cheaper than the cheapest candidate of a
// type it lists; false when none remains or minValues fails.
bool FilterOutSameInstanceType(Decision& d);

// MultiNodeConsolidation.ComputeCommands: the largest prefix (of at most 101 candidates, by savings ratio, after
// the budgets) the binary search finds consolidatable. nullopt when none; *error when a simulation failed.
std::optional<Decision> MultiNodeConsolidation(const DecisionContext& ctx, std::vector<const Candidate*> candidates,
                                               std::map<std::string, NodePoolBudget> budgets, Verdicts* verdicts,
                                               std::string* error);

// One candidate as single-node consolidation tries it once its budget allows: the Balanced pre-check
// (CanPassThreshold), computeConsolidation, then the Balanced approval (ConsolidationApproved on its Node and
// NodeClaim). nullopt, with *verdict saying why, when it does not consolidate; *verdict "delete" or "replace" when it
// does.
std::optional<Decision> ConsolidateSingle(const DecisionContext& ctx, const Candidate& c, std::string* verdict);

// SingleNodeConsolidation.ComputeCommands: candidates by savings ratio, interleaved by NodePool (pools in name
// order), the first one that consolidates.
std::optional<Decision> SingleNodeConsolidation(const DecisionContext& ctx, std::vector<const Candidate*> candidates,
                                                const std::map<std::string, NodePoolBudget>& budgets,
                                                Verdicts* verdicts);

// Drift.ComputeCommands: oldest Drifted first, empty ones before the others; the first whose pods all schedule,
// replaced by whatever NodeClaims the simulation creates. *error when a simulation failed.
std::optional<Decision> Drift(const DecisionContext& ctx, std::vector<const Candidate*> candidates,
                              const std::map<std::string, NodePoolBudget>& budgets, Verdicts* verdicts,
                              std::string* error);

}  // namespace kplace::karpenter::disruption
