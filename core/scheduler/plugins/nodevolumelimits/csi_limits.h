// NodeVolumeLimits: a node's CSI drivers attach at most CSINode.spec.drivers[].allocatable.count volumes each;
// volumes already used by the node's pods count once (upstream plugins/nodevolumelimits/csi.go). VolumeAttachments
// are not modelled (a volume counts while a pod on the node uses it).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
inline constexpr const char* kErrReasonMaxVolumeCountExceeded = "node(s) exceed max volume count";
std::unique_ptr<framework::Plugin> NewNodeVolumeLimits(const PluginArgs& args, const Features& features);
}  // namespace kplace::plugins
