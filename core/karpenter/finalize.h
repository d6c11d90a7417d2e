// After the queue drains: each NodeClaim is finalised (sched/nodeclaim.go FinalizeScheduling), its options ordered
// by price and truncated (pkg/cloudprovider/types.go Truncate), and the launch decision and node labels derived.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/karpenter/catalogue.h"
#include "core/karpenter/nodeclaim.h"
#include "core/karpenter/result.h"

namespace kplace::karpenter {

inline constexpr std::size_t kMaxInstanceTypes = 600;

struct SimulatedClaim;

// A NodeClaim's spec.requirements as ToNodeClaim writes them (sorted strings): the scheduling requirements without
// the internal keys, the options' names (in order) and the capacity types their available offerings compatible with
// the requirements give. capacity_types: how many capacity types the catalogue's available offerings have, if known
// (the scan of the options' offerings stops once it has found them all).
std::vector<std::string> NodeClaimRequirements(const Requirements& reqs, const std::vector<const KType*>& options,
                                               std::size_t capacity_types = SIZE_MAX);

// simulated (optional) receives, per claim added to result.claims, its requirements and ordered options.
void FinalizeClaims(const Scenario& sc, const std::vector<KType>& catalogue, const std::vector<Template>& templates,
                    std::vector<Claim>& claims, const std::vector<std::string>& names, Result& result,
                    std::vector<SimulatedClaim>* simulated = nullptr);

}  // namespace kplace::karpenter
