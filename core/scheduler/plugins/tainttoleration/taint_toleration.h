// TaintToleration: Filter rejects nodes with an untolerated NoSchedule/NoExecute taint; Score prefers nodes with
// fewer untolerated PreferNoSchedule taints (upstream plugins/tainttoleration/taint_toleration.go).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
// Feature::TaintTolerationGenericReason (1.35, and late 1.34 patches): a generic reason; older releases name the
// taint ("node(s) had untolerated taint {key: value}").
inline constexpr const char* kErrReasonUntoleratedTaints = "node(s) had untolerated taint(s)";
std::unique_ptr<framework::Plugin> NewTaintToleration(const PluginArgs& args, const Features& features);
}  // namespace kplace::plugins
