// NodePool spec.limits during one run (sched/scheduler.go remainingResources, addToNewNodeClaim, subtractMax).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/karpenter/catalogue.h"

namespace kplace::karpenter {

struct PoolRemaining {
  std::vector<Symbol> keys;  // the limited resource names
  Resource remaining;
};

// Pools with limits -> what remains after the capacity of the pool's existing nodes (+ nodes: 1 each).
using Limits = std::map<std::string, PoolRemaining>;

// Nodes being deleted (a deletionTimestamp on the Node) and the excluded ones (a disruption simulation's candidates
// and nodes marked for deletion) take no share: upstream subtracts the capacity of the state nodes handed to the
// scheduler, the active ones (not marked for deletion). Upstream marks a managed node by its NodeClaim; kplace's
// provisioning reads the Node's deletionTimestamp (the two agree once termination deletes the NodeClaim).
Limits BuildLimits(const Scenario& sc, const std::set<std::string>* excluded = nullptr);
// The template's types whose capacity fits what remains; "" or the limit error (then *out is empty).
std::string LimitOptions(const Limits& limits, const Template& t, const std::vector<KType>& catalogue,
                         std::vector<int>* out);
// After a new claim: remaining -= max capacity over its options, per limited key.
void ConsumeLimits(Limits& limits, const Template& t, const std::vector<KType>& catalogue,
                   const std::vector<int>& options);

}  // namespace kplace::karpenter
