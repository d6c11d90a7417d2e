// NodePool disruption budgets (karpenter.sh/v1 pkg/apis/v1/nodepool.go: Budget.IsActive, GetAllowedDisruptions,
// NodePool.GetAllowedDisruptionsByReason, MustGetAllowedDisruptions).
#pragma once

#include <cstdint>
#include <string>

#include "core/model/objects.h"

namespace kplace::karpenter::disruption {

// An inactive budget, or no budget for the reason: no limit (math.MaxInt32).
constexpr std::int64_t kNoLimit = 2147483647;

// Whether the budget is active at now (unix seconds): no schedule and no duration is always active; otherwise some
// firing f of the schedule (UTC) has now - duration < f <= now, and a schedule that never fires within five years
// counts as active (cron's zero time). A schedule the cron parser rejects sets *error and returns false.
bool BudgetActive(const DisruptionBudget& b, std::int64_t now, std::string* error);

// The nodes the budget allows disrupting now: kNoLimit when inactive, else `nodes` as an integer (wrapped to int32
// as intstr.FromInt does) or a percentage of num_nodes rounded up. An error (bad cron, bad value) gives 0.
std::int64_t BudgetAllowed(const DisruptionBudget& b, std::int64_t now, std::int64_t num_nodes, std::string* error);

// The minimum over the budgets that list the reason (or list none), kNoLimit when none applies. Every budget's
// error counts, whatever its reasons; errors are joined with "; " (multierr).
std::int64_t AllowedByReason(const NodePoolDisruption& d, std::int64_t now, std::int64_t num_nodes,
                             const std::string& reason, std::string* error);

// MustGetAllowedDisruptions: 0 when any budget of the NodePool is in error.
std::int64_t MustAllowedByReason(const NodePoolDisruption& d, std::int64_t now, std::int64_t num_nodes,
                                 const std::string& reason);

}  // namespace kplace::karpenter::disruption
