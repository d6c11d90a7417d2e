// NodeDeclaredFeatures (upstream plugins/nodedeclaredfeatures, KEP-5328): a pod that needs a node feature fits only
// nodes whose status.declaredFeatures list it. In the default profile from 1.36 (Feature::NodeDeclaredFeatures),
// as its last plugin; named in an older release's profile it does nothing, as upstream's plugin with its gate off.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/model/features.h"
#include "core/model/objects.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {

inline constexpr const char* kErrReasonNodeDeclaredFeatures = "node(s) didn't match Pod's required features";

// The node features a pod needs to be scheduled (component-helpers nodedeclaredfeatures InferForPodScheduling over
// the release's feature registry), sorted by name. Empty when the release has no NodeDeclaredFeatures.
std::vector<std::string> RequiredNodeFeatures(const Pod& pod, const Features& features);

// The features a kubelet of the release declares at its default gates, among those a pod can need: a node that
// Karpenter launches registers with them (RestartAllContainersOnContainerExits: the kubelet's gate is beta and on
// from 1.36; UserNamespacesHostNetworkSupport's stays alpha and off). Sorted.
std::vector<std::string> KubeletDeclaredFeatures(const Features& features);

std::unique_ptr<framework::Plugin> NewNodeDeclaredFeatures(const PluginArgs& args, const Features& features);

}  // namespace kplace::plugins
