#include "core/scheduler/plugins/registry.h"

#include <functional>
#include <map>

#include "core/scheduler/plugins/imagelocality/image_locality.h"
#include "core/scheduler/plugins/interpodaffinity/plugin.h"
#include "core/scheduler/plugins/names.h"
#include "core/scheduler/plugins/nodeaffinity/node_affinity.h"
#include "core/scheduler/plugins/nodename/node_name.h"
#include "core/scheduler/plugins/nodeports/node_ports.h"
#include "core/scheduler/plugins/noderesources/balanced_allocation.h"
#include "core/scheduler/plugins/noderesources/fit.h"
#include "core/scheduler/plugins/nodeunschedulable/node_unschedulable.h"
#include "core/scheduler/plugins/podtopologyspread/pod_topology_spread.h"
#include "core/scheduler/plugins/tainttoleration/taint_toleration.h"
// plugin headers: add yours above this line, sorted

namespace kplace::plugins {
namespace {

using Factory = std::function<std::unique_ptr<framework::Plugin>(const PluginArgs&, const Features&)>;

const std::map<std::string, Factory>& Registry() {
  static const std::map<std::string, Factory> registry = {
      {names::kImageLocality, NewImageLocality},
      {names::kNodeName, NewNodeName},
      {names::kNodePorts, NewNodePorts},
      {names::kNodeUnschedulable, NewNodeUnschedulable},
      {names::kTaintToleration, NewTaintToleration},
      {names::kInterPodAffinity, NewInterPodAffinity},
      {names::kNodeAffinity, NewNodeAffinity},
      {names::kPodTopologySpread, NewPodTopologySpread},
      {names::kNodeResourcesFit, NewNodeResourcesFit},
      {names::kNodeResourcesBalancedAllocation, NewNodeResourcesBalancedAllocation},
      // factories: add yours above this line
  };
  return registry;
}

}  // namespace

bool IsKnownPlugin(const std::string& name) {
  static const char* const kAll[] = {names::kPrioritySort,
                                     names::kSchedulingGates,
                                     names::kNodeUnschedulable,
                                     names::kNodeName,
                                     names::kTaintToleration,
                                     names::kNodeAffinity,
                                     names::kNodePorts,
                                     names::kNodeResourcesFit,
                                     names::kVolumeRestrictions,
                                     names::kNodeVolumeLimits,
                                     names::kVolumeBinding,
                                     names::kVolumeZone,
                                     names::kPodTopologySpread,
                                     names::kInterPodAffinity,
                                     names::kDynamicResources,
                                     names::kDefaultPreemption,
                                     names::kNodeResourcesBalancedAllocation,
                                     names::kImageLocality,
                                     names::kDefaultBinder};
  for (const char* n : kAll)
    if (name == n) return true;
  return false;
}

std::unique_ptr<framework::Plugin> NewPlugin(const std::string& name, const PluginArgs& args,
                                             const Features& features) {
  const auto& r = Registry();
  auto it = r.find(name);
  if (it == r.end()) return nullptr;
  return it->second(args, features);
}

}  // namespace kplace::plugins
