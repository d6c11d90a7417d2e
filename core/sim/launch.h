// cluster mode: a NodeClaim Karpenter decided on, launched as the Node kube-scheduler then sees.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/karpenter/result.h"
#include "core/model/scenario.h"

namespace kplace::sim {

// The Node a NodeClaim registers as once initialised: named after the NodeClaim; labels from the NodePool
// template, the instance type and the launch (instance type, zone, capacity type, nodepool, os, hostname,
// registered/initialized); the NodePool's taints (startupTaints already removed); capacity from the instance
// type and allocatable = capacity - overhead.
Node NodeForClaim(const Scenario& sc, const karpenter::ClaimOutcome& claim);

// The CSINode a launched Node registers once the CSI node plugins (DaemonSets) start on it, without its name: the
// drivers every Node of the scenario that has a CSINode lists, with the topology keys listed there (from the first
// such Node) and no attach limit (it depends on the instance type). nullopt when no Node has a CSINode or no driver is
// on all of them.
std::optional<CSINode> LaunchedNodeCSINode(const Scenario& sc);

// "key=value:Effect, ..." as kubectl prints taints.
std::string TaintsText(const std::vector<Taint>& taints);

// The Launched event's message: instance type, capacity type, zone, price and pods.
std::string LaunchMessage(const karpenter::ClaimOutcome& claim);

}  // namespace kplace::sim
