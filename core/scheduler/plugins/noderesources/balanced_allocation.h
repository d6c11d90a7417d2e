// NodeResourcesBalancedAllocation: favours nodes whose resource utilisation fractions stay close to each other
// once the pod is placed (upstream plugins/noderesources/balanced_allocation.go); from 1.36 it scores the change in
// balance the pod makes (Feature::BalancedAllocationScoresBalanceChange).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
std::unique_ptr<framework::Plugin> NewNodeResourcesBalancedAllocation(const PluginArgs& args, const Features& features);
}
