// TaintToleration: Filter rejects nodes with an untolerated NoSchedule/NoExecute taint; Score prefers nodes with
// fewer untolerated PreferNoSchedule taints (upstream plugins/tainttoleration/taint_toleration.go).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
std::unique_ptr<framework::Plugin> NewTaintToleration(const PluginArgs& args, const Features& features);
}
