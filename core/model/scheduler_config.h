// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1), the parts kplace reads, and plugin args: API types,
// as upstream keeps them apart from the scheduler in pkg/scheduler/apis/config (types.go, types_pluginargs.go).
// Defaults follow pkg/scheduler/apis/config/v1/defaults.go; the default plugin set is the scheduler's
// (core/scheduler/plugins/registry.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/model/objects.h"

namespace kplace {

struct ResourceSpec {
  std::string name;
  std::int64_t weight = 1;
};

struct UtilizationShapePoint {
  std::int32_t utilization = 0;  // 0..100
  std::int32_t score = 0;        // 0..10 (user scale)
};

enum class ScoringStrategyType : std::uint8_t { LeastAllocated, MostAllocated, RequestedToCapacityRatio };

struct NodeResourcesFitArgs {
  std::vector<std::string> ignored_resources;
  std::vector<std::string> ignored_resource_groups;
  ScoringStrategyType strategy = ScoringStrategyType::LeastAllocated;
  std::vector<ResourceSpec> resources = {{"cpu", 1}, {"memory", 1}};
  std::vector<UtilizationShapePoint> shape = {{0, 10}, {100, 0}};
};

struct NodeResourcesBalancedAllocationArgs {
  std::vector<ResourceSpec> resources = {{"cpu", 1}, {"memory", 1}};
};

struct PodTopologySpreadArgs {
  // defaultingType System: hostname maxSkew 3 + zone maxSkew 5, ScheduleAnyway. List: default_constraints.
  bool system_defaulting = true;
  std::vector<TopologySpreadConstraint> default_constraints;
};

struct InterPodAffinityArgs {
  std::int32_t hard_pod_affinity_weight = 1;
  bool ignore_preferred_terms_of_existing_pods = false;
};

struct NodeAffinityArgs {
  std::optional<NodeAffinity> added_affinity;
};

// VolumeBindingArgs: the shape of its Score (StorageCapacityScoring). Unset: the default {0, 10}, {100, 0} when the
// gate is on. A shape given while the gate is off is an error (reported where the release is known).
struct VolumeBindingArgs {
  std::optional<std::vector<UtilizationShapePoint>> shape;
  std::string shape_path;  // "pluginConfig[i].args.shape", for that error
};

// DefaultPreemptionArgs (defaults.go: 10% / 100).
struct DefaultPreemptionArgs {
  std::int32_t min_candidate_nodes_percentage = 10;
  std::int32_t min_candidate_nodes_absolute = 100;
};

struct PluginArgs {
  NodeResourcesFitArgs fit;
  NodeResourcesBalancedAllocationArgs balanced_allocation;
  PodTopologySpreadArgs topology_spread;
  InterPodAffinityArgs inter_pod_affinity;
  NodeAffinityArgs node_affinity;
  DefaultPreemptionArgs default_preemption;
  VolumeBindingArgs volume_binding;
};

struct PluginRef {
  std::string name;
  std::int32_t weight = 0;  // 0 = unset
};

struct PluginSet {
  std::vector<PluginRef> enabled;
  std::vector<std::string> disabled;  // "*" disables every default
};

// Extension point names as in the config's "plugins" object.
inline constexpr const char* kExtensionPoints[] = {"multiPoint", "preEnqueue", "queueSort", "preFilter", "filter",
                                                   "postFilter", "preScore",   "score",     "reserve",   "permit",
                                                   "preBind",    "bind",       "postBind"};

struct SchedulerProfile {
  std::string scheduler_name = "default-scheduler";
  std::map<std::string, PluginSet> plugins;  // by extension point
  PluginArgs args;
  std::optional<std::int32_t> percentage_of_nodes_to_score;
};

struct SchedulerConfig {
  std::optional<std::int32_t> percentage_of_nodes_to_score;
  // Every profile, in the configuration's order (one default-scheduler profile when none is given). Each pending
  // pod is scheduled by the profile its spec.schedulerName names (frameworkForPod, pkg/scheduler/schedule_one.go);
  // a pod naming none belongs to another scheduler (responsibleForPod, pkg/scheduler/eventhandlers.go).
  std::vector<SchedulerProfile> profiles = {SchedulerProfile{}};
  int item_index = -1;  // the KubeSchedulerConfiguration item (-1: none given, the default)

  // The index of the profile named scheduler_name, or -1.
  int ProfileIndex(const std::string& scheduler_name) const {
    for (std::size_t i = 0; i < profiles.size(); ++i)
      if (profiles[i].scheduler_name == scheduler_name) return static_cast<int>(i);
    return -1;
  }
};

}  // namespace kplace
