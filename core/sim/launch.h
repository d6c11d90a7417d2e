// cluster mode: a NodeClaim Karpenter decided on, launched as the Node kube-scheduler then sees.
#pragma once

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

// "key=value:Effect, ..." as kubectl prints taints.
std::string TaintsText(const std::vector<Taint>& taints);

// The Launched event's message: instance type, capacity type, zone, price and pods.
std::string LaunchMessage(const karpenter::ClaimOutcome& claim);

}  // namespace kplace::sim
