// VolumeRestrictions: in-line disks that cannot be mounted twice (GCE PD, AWS EBS, RBD, ISCSI) and
// ReadWriteOncePod claims already used by a pod (upstream plugins/volumerestrictions/volume_restrictions.go).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
inline constexpr const char* kErrReasonDiskConflict = "node(s) had no available disk";
// 1.34 on; 1.33's wording below (Feature::VolumeRestrictionsReadWriteOncePodMessage).
inline constexpr const char* kErrReasonReadWriteOncePodConflict =
    "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod";
inline constexpr const char* kErrReasonReadWriteOncePodConflictV133 =
    "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";
std::unique_ptr<framework::Plugin> NewVolumeRestrictions(const PluginArgs& args, const Features& features);
}  // namespace kplace::plugins
