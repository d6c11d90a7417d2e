// The disruption methods' candidate filters (ShouldDisrupt) and Emptiness' command (karpenter v1.14.1
// pkg/controllers/disruption emptiness.go, consolidation.go, drift.go).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/karpenter/disruption/candidate.h"
#include "core/karpenter/disruption/cluster.h"

namespace kplace::karpenter::disruption {

enum class Method { Emptiness, Drift, MultiNodeConsolidation, SingleNodeConsolidation };
const char* MethodName(Method m);
// The budget reason of a method: Empty, Drifted, Underutilized.
const char* MethodReason(Method m);
DisruptionClass MethodClass(Method m);

// ShouldDisrupt: whether the candidate is one the method considers; *why gets the reason when not (the
// Unconsolidatable event's message where upstream publishes one, else kplace's words), and events the
// Unconsolidatable events on the Node and the NodeClaim.
bool ShouldDisrupt(Method m, const Candidate& c, const Scenario& sc, std::int64_t now, std::string* why,
                   std::vector<Event>* events);

// Sorted for Emptiness and consolidation (sortCandidates): by price per unit of disruption cost, highest first;
// upstream's sort is not stable and its input order random, kplace breaks ties by node name.
void SortBySavings(std::vector<const Candidate*>& candidates);

// Emptiness.ComputeCommands: the empty candidates, most expensive first, each while its NodePool's remaining budget
// lasts. skipped_by_budget receives the empty candidates a budget held back.
std::vector<const Candidate*> EmptinessCommand(std::vector<const Candidate*> candidates,
                                               std::map<std::string, NodePoolBudget>& budgets,
                                               std::vector<const Candidate*>* skipped_by_budget = nullptr);

}  // namespace kplace::karpenter::disruption
