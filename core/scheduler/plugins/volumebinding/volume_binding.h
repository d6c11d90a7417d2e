// VolumeBinding: a pod's PersistentVolumeClaims (and ephemeral volumes' claims) must be bound, or bindable on the
// node: bound claims' PVs must allow the node, unbound WaitForFirstConsumer claims need an Available PV that fits
// there or a StorageClass that can provision there (upstream plugins/volumebinding volume_binding.go, binder.go).
// Reserve binds what it chose (framework/volume_cache.h). Dynamic provisioning checks CSIStorageCapacity when the
// driver publishes capacity (binder.go hasEnoughCapacity). Its Score (StorageCapacityScoring, beta and on from 1.37)
// prefers the node with the most room for the pod's unbound claims (volume_binding.go Score, scorer.go).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
// binder.go (1.33+: kubernetes/kubernetes#129887 renamed the node affinity reason).
inline constexpr const char* kErrReasonBindConflict = "node(s) didn't find available persistent volumes to bind";
inline constexpr const char* kErrReasonNodeConflict = "node(s) didn't match PersistentVolume's node affinity";
inline constexpr const char* kErrReasonNotEnoughSpace = "node(s) did not have enough free storage";
inline constexpr const char* kErrReasonPVNotExist =
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
inline constexpr const char* kErrReasonUnboundImmediate = "pod has unbound immediate PersistentVolumeClaims";
std::unique_ptr<framework::Plugin> NewVolumeBinding(const PluginArgs& args, const Features& features);
}  // namespace kplace::plugins
