// NodeName: a pod with spec.nodeName fits only that node (upstream plugins/nodename).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
inline constexpr const char* kErrReasonNodeNameMismatch = "node(s) didn't match the requested node name";
std::unique_ptr<framework::Plugin> NewNodeName(const PluginArgs& args, const Features& features);
}  // namespace kplace::plugins
