// A Node already in the cluster as Karpenter's scheduler sees it (sched/existingnode.go).
#pragma once

#include <string>
#include <vector>

#include "core/karpenter/catalogue.h"
#include "core/karpenter/pod.h"
#include "core/karpenter/topology.h"
#include "core/model/scenario.h"

namespace kplace::karpenter {

struct ExistingNode {
  const Node* node = nullptr;
  bool initialized = true;
  std::vector<Taint> taints;  // ephemeral / startup taints dropped while a managed node is uninitialized
  Resource remaining;         // allocatable - bound pods - DaemonSet pods still to come
  Requirements requirements;  // labels + hostname
  std::vector<ContainerPort> ports;
  std::vector<std::size_t> pods;  // pods this run placed here
};

// Every Node not being deleted, sorted initialized first then by name.
std::vector<ExistingNode> BuildExistingNodes(const Scenario& sc, const std::vector<DaemonPod>& daemons);

// ExistingNode.CanAdd: "" when the pod fits. err receives the reason when non-null (otherwise only a non-empty
// marker is returned on failure).
bool CanAddToNode(const ExistingNode& n, const PodData& pod, const Topology& topo, std::string* err,
                  Requirements* updated);
void AddToNode(ExistingNode& n, const PodData& pod, Requirements updated, Topology& topo);

// Host-port conflict (scheduling.HostPortUsage.Conflicts): same port and protocol on overlapping host IPs.
bool PortsConflict(const std::vector<ContainerPort>& used, const std::vector<ContainerPort>& incoming);

}  // namespace kplace::karpenter
