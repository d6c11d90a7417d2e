#include "core/scheduler/plugins/registry.h"

#include "core/scheduler/plugins/imagelocality/image_locality.h"
#include "core/scheduler/plugins/interpodaffinity/plugin.h"
#include "core/scheduler/plugins/names.h"
#include "core/scheduler/plugins/nodeaffinity/node_affinity.h"
#include "core/scheduler/plugins/nodedeclaredfeatures/node_declared_features.h"
#include "core/scheduler/plugins/nodename/node_name.h"
#include "core/scheduler/plugins/nodeports/node_ports.h"
#include "core/scheduler/plugins/noderesources/balanced_allocation.h"
#include "core/scheduler/plugins/noderesources/fit.h"
#include "core/scheduler/plugins/nodeunschedulable/node_unschedulable.h"
#include "core/scheduler/plugins/nodevolumelimits/csi_limits.h"
#include "core/scheduler/plugins/podtopologyspread/pod_topology_spread.h"
#include "core/scheduler/plugins/tainttoleration/taint_toleration.h"
#include "core/scheduler/plugins/volumebinding/volume_binding.h"
#include "core/scheduler/plugins/volumerestrictions/volume_restrictions.h"
#include "core/scheduler/plugins/volumezone/volume_zone.h"

namespace kplace::plugins {

const std::vector<InTreePlugin>& InTreePlugins() {
  // name, factory, in the default profile, default weight, needs, PostFilter
  static const std::vector<InTreePlugin> table = {
      {names::kSchedulingGates, nullptr, true, 0, std::nullopt},
      {names::kPrioritySort, nullptr, true, 0, std::nullopt},
      {names::kNodeUnschedulable, NewNodeUnschedulable, true, 0, std::nullopt},
      {names::kNodeName, NewNodeName, true, 0, std::nullopt},
      {names::kTaintToleration, NewTaintToleration, true, 3, std::nullopt},
      {names::kNodeAffinity, NewNodeAffinity, true, 2, std::nullopt},
      {names::kNodePorts, NewNodePorts, true, 0, std::nullopt},
      {names::kNodeResourcesFit, NewNodeResourcesFit, true, 1, std::nullopt},
      {names::kVolumeRestrictions, NewVolumeRestrictions, true, 0, std::nullopt},
      {names::kNodeVolumeLimits, NewNodeVolumeLimits, true, 0, std::nullopt},
      {names::kVolumeBinding, NewVolumeBinding, true, 0, std::nullopt},
      {names::kVolumeZone, NewVolumeZone, true, 0, std::nullopt},
      {names::kPodTopologySpread, NewPodTopologySpread, true, 2, std::nullopt},
      {names::kInterPodAffinity, NewInterPodAffinity, true, 2, std::nullopt},
      {names::kDynamicResources, nullptr, true, 0, Feature::DynamicResourceAllocation, /*post_filter=*/true},
      {names::kDefaultPreemption, nullptr, true, 0, std::nullopt, /*post_filter=*/true},
      {names::kNodeResourcesBalancedAllocation, NewNodeResourcesBalancedAllocation, true, 1, std::nullopt},
      {names::kImageLocality, NewImageLocality, true, 1, std::nullopt},
      {names::kDefaultBinder, nullptr, true, 0, std::nullopt},
      // Appended after DefaultBinder when its gate is on (default_plugins.go applyFeatureGates): the last Filter.
      {names::kNodeDeclaredFeatures, NewNodeDeclaredFeatures, true, 0, Feature::NodeDeclaredFeatures},
      // plugins: add yours above this line
  };
  return table;
}

const InTreePlugin* FindInTreePlugin(const std::string& name) {
  for (const InTreePlugin& p : InTreePlugins())
    if (name == p.name) return &p;
  return nullptr;
}

std::unique_ptr<framework::Plugin> NewPlugin(const std::string& name, const PluginArgs& args,
                                             const Features& features) {
  const InTreePlugin* p = FindInTreePlugin(name);
  if (!p || !p->factory) return nullptr;
  return p->factory(args, features);
}

std::vector<DefaultPlugin> DefaultMultiPoint(const Features& features) {
  std::vector<DefaultPlugin> out;
  for (const InTreePlugin& p : InTreePlugins())
    if (p.in_default_profile && (!p.needs || features.Enabled(*p.needs))) out.push_back({p.name, p.default_weight});
  return out;
}

}  // namespace kplace::plugins
