// NodeUnschedulable: rejects nodes with spec.unschedulable unless the pod tolerates
// node.kubernetes.io/unschedulable:NoSchedule (upstream plugins/nodeunschedulable).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
inline constexpr const char* kErrReasonNodeUnschedulable = "node(s) were unschedulable";
std::unique_ptr<framework::Plugin> NewNodeUnschedulable(const PluginArgs& args, const Features& features);
}  // namespace kplace::plugins
