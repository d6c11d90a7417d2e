// After the queue drains: each NodeClaim is finalised (sched/nodeclaim.go FinalizeScheduling), its options ordered
// by price and truncated (pkg/cloudprovider/types.go Truncate), and the launch decision and node labels derived.
#pragma once

#include <string>
#include <vector>

#include "core/karpenter/catalogue.h"
#include "core/karpenter/nodeclaim.h"
#include "core/karpenter/result.h"

namespace kplace::karpenter {

inline constexpr std::size_t kMaxInstanceTypes = 600;

void FinalizeClaims(const Scenario& sc, const std::vector<KType>& catalogue, const std::vector<Template>& templates,
                    std::vector<Claim>& claims, const std::vector<std::string>& names, Result& result);

}  // namespace kplace::karpenter
