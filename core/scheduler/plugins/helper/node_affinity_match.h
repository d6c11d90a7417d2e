// The incoming pod's required node affinity as one predicate (k8s.io/component-helpers/scheduling/corev1/
// nodeaffinity GetRequiredNodeAffinity(pod).Match(node)): every spec.nodeSelector pair is on the node AND, when
// requiredDuringSchedulingIgnoredDuringExecution is set, one of its terms matches. Unparseable terms match nothing.
// Shared by plugins that honour node affinity without being the NodeAffinity plugin (e.g. PodTopologySpread's
// nodeAffinityPolicy).
#pragma once

#include "core/model/objects.h"

namespace kplace::plugins::helper {

// True when the pod has a nodeSelector or required node affinity terms (otherwise every node matches).
bool HasRequiredNodeAffinity(const Pod& pod);

// RequiredNodeAffinity.Match: the pod's nodeSelector and required node affinity both match the node.
bool MatchesRequiredNodeAffinity(const Pod& pod, const Node& node);

}  // namespace kplace::plugins::helper
