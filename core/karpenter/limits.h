// NodePool spec.limits during one run (sched/scheduler.go remainingResources, addToNewNodeClaim, subtractMax).
#pragma once

#include <map>
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

Limits BuildLimits(const Scenario& sc);
// The template's types whose capacity fits what remains; "" or the limit error (then *out is empty).
std::string LimitOptions(const Limits& limits, const Template& t, const std::vector<KType>& catalogue,
                         std::vector<int>* out);
// After a new claim: remaining -= max capacity over its options, per limited key.
void ConsumeLimits(Limits& limits, const Template& t, const std::vector<KType>& catalogue,
                   const std::vector<int>& options);

}  // namespace kplace::karpenter
