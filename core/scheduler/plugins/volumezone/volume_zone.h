// VolumeZone: the zone and region labels of a pod's bound PersistentVolumes must match the node's (upstream
// plugins/volumezone/volume_zone.go). The PV's node affinity is VolumeBinding's concern.
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
inline constexpr const char* kErrReasonVolumeZoneConflict = "node(s) had no available volume zone";
std::unique_ptr<framework::Plugin> NewVolumeZone(const PluginArgs& args, const Features& features);
}  // namespace kplace::plugins
