// What the API server does to pods before the scheduler sees them, plus references the scenario must satisfy:
// priority resolution (Priority admission plugin), DefaultTolerationSeconds, DaemonSet pods on eligible nodes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/scenario.h"

namespace kplace::sim {

// Resolves every pod's priority and preemption policy from PriorityClasses (system-node-critical and
// system-cluster-critical are built in). Throws InputError naming the pod when its class does not exist or
// spec.priority contradicts it. Returns the priority of each pod, index-aligned with sc.pods.
std::vector<std::int32_t> ResolvePriorities(Scenario& sc);

// DefaultTolerationSeconds: adds not-ready / unreachable NoExecute tolerations (300 s) unless present.
void AddDefaultTolerations(Pod& pod);

// Adds one pending pod per (DaemonSet, eligible node) for nodes[first_node...]: named <ds>-<node>, pinned with a
// required matchFields metadata.name term, with the DaemonSet controller's automatic tolerations.
void ExpandDaemonSets(Scenario& sc, std::size_t first_node);

// Whether a DaemonSet's pod template should run on node (daemon controller NodeShouldRunDaemonPod).
bool DaemonPodShouldRun(const Pod& template_pod, const Node& node);

}  // namespace kplace::sim
