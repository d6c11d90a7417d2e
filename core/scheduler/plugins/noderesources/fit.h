// NodeResourcesFit: Filter rejects nodes without room for the pod's requests (pod count, cpu, memory,
// ephemeral-storage, scalar resources); Score ranks nodes by the configured strategy (LeastAllocated,
// MostAllocated, RequestedToCapacityRatio) (upstream plugins/noderesources/fit.go).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {

inline constexpr const char* kErrReasonTooManyPods = "Too many pods";
inline constexpr const char* kErrReasonInsufficientCpu = "Insufficient cpu";
inline constexpr const char* kErrReasonInsufficientMemory = "Insufficient memory";
inline constexpr const char* kErrReasonInsufficientEphemeralStorage = "Insufficient ephemeral-storage";
// Scalar resources: "Insufficient " + resource name.
inline constexpr const char* kErrReasonInsufficientPrefix = "Insufficient ";

std::unique_ptr<framework::Plugin> NewNodeResourcesFit(const PluginArgs& args, const Features& features);

}  // namespace kplace::plugins
