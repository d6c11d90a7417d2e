// A Node already in the cluster as Karpenter's scheduler sees it (sched/existingnode.go).
#pragma once

#include <set>
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
  VolumeUsage volume_usage;       // its CSINode's attach limits and the claims its pods mount
  std::vector<std::size_t> pods;  // pods this run placed here
};

// Every Node and in-flight NodeClaim not being deleted nor excluded, sorted initialized first then by name.
std::vector<ExistingNode> BuildExistingNodes(const Scenario& sc, const std::vector<DaemonPod>& daemons,
                                             const framework::VolumeCache& storage,
                                             const std::set<std::string>* excluded = nullptr);

// ExistingNode.CanAdd: "" when the pod fits. Order: taints, volume limits, host ports, resources, requirements, then
// each volume topology alternative with the pod's topology (the first that fits wins; else the last one's error). err
// receives the reason when non-null (otherwise only a non-empty marker is returned on failure).
bool CanAddToNode(const ExistingNode& n, const PodData& pod, const Topology& topo, std::string* err,
                  Requirements* updated);
void AddToNode(ExistingNode& n, const PodData& pod, Requirements updated, Topology& topo);

// Host-port conflict (scheduling.HostPortUsage.Conflicts): same port and protocol on equal host IPs, or one of them
// unspecified (0.0.0.0 or ::).
bool PortsConflict(const std::vector<ContainerPort>& used, const std::vector<ContainerPort>& incoming);

// HostPortUsage.Conflicts' error for the first conflict ("" when none): the first incoming port that conflicts, with
// the first used port it conflicts with, as operatorpkg serrors prints the values it wraps: sorted by key after the
// message, "pod hostport conflicts with existing hostport configuration (existing-hostport-ip=0.0.0.0, ...)".
std::string HostPortConflict(const std::vector<ContainerPort>& used, const std::vector<ContainerPort>& incoming);

// What Go prints for net.ParseIP(s) (HostPort.IP with %v): IPv4 and IPv4-mapped addresses dotted, other IPv6 in
// RFC 5952 form, "<nil>" for what ParseIP rejects (an IPv4 octet with a leading zero, a zone, ...).
std::string GoIPString(const std::string& s);

}  // namespace kplace::karpenter
