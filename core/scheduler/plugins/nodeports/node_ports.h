// NodePorts: rejects nodes where a wanted hostPort is already used (upstream plugins/nodeports).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
inline constexpr const char* kErrReasonNodePorts = "node(s) didn't have free ports for the requested pod ports";
std::unique_ptr<framework::Plugin> NewNodePorts(const PluginArgs& args, const Features& features);
}  // namespace kplace::plugins
