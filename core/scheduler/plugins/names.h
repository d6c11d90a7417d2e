// Plugin names (upstream plugins/names/names.go).
#pragma once

namespace kplace::names {
inline constexpr const char* kPrioritySort = "PrioritySort";
inline constexpr const char* kSchedulingGates = "SchedulingGates";
inline constexpr const char* kNodeUnschedulable = "NodeUnschedulable";
inline constexpr const char* kNodeName = "NodeName";
inline constexpr const char* kTaintToleration = "TaintToleration";
inline constexpr const char* kNodeAffinity = "NodeAffinity";
inline constexpr const char* kNodePorts = "NodePorts";
inline constexpr const char* kNodeResourcesFit = "NodeResourcesFit";
inline constexpr const char* kVolumeRestrictions = "VolumeRestrictions";
inline constexpr const char* kNodeVolumeLimits = "NodeVolumeLimits";
inline constexpr const char* kVolumeBinding = "VolumeBinding";
inline constexpr const char* kVolumeZone = "VolumeZone";
inline constexpr const char* kPodTopologySpread = "PodTopologySpread";
inline constexpr const char* kInterPodAffinity = "InterPodAffinity";
inline constexpr const char* kDynamicResources = "DynamicResources";
inline constexpr const char* kDefaultPreemption = "DefaultPreemption";
inline constexpr const char* kNodeResourcesBalancedAllocation = "NodeResourcesBalancedAllocation";
inline constexpr const char* kImageLocality = "ImageLocality";
inline constexpr const char* kDefaultBinder = "DefaultBinder";
inline constexpr const char* kNodeDeclaredFeatures = "NodeDeclaredFeatures";
}  // namespace kplace::names
