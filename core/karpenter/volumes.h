// Karpenter's view of a pod's volumes: the provisioner's validation of its claims
// (provisioning/scheduling/volumetopology.go ValidatePersistentVolumeClaims), the zone (or other topology)
// requirements its volumes add to the node it needs (VolumeTopology.GetRequirements, one alternative per OR'd
// term, crossed over the pod's volumes), and the CSI attach limits of existing nodes (pkg/scheduling/volumeusage.go
// VolumeUsage, limits from each node's CSINode as pkg/controllers/state/cluster.go populateVolumeLimits reads them).
//
// Karpenter reads claims, volumes and classes from the API server: kplace hands it the storage objects as the PV
// controller (and, in cluster mode, kube-scheduler's earlier rounds) left them, a framework::VolumeCache.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/karpenter/requirements.h"
#include "core/model/objects.h"
#include "core/scheduler/framework/volume_cache.h"

namespace kplace::karpenter {

// scheduling.Volumes: CSI driver -> the claims ("namespace/name") a pod or a node mounts through it. Ordered, so
// that the first driver over its limit is always the same one (upstream ranges over a Go map).
using Volumes = std::map<std::string, std::set<std::string>>;

// ValidatePersistentVolumeClaims: "" when every claim of the pod can be scheduled for, else the error the provisioner
// ignores the pod with (operatorpkg serrors text: "<message> (Key=value, ...)").
std::string ValidateVolumeClaims(const Pod& pod, const framework::VolumeCache& storage);

// VolumeTopology.GetRequirements: the pod's volume topology alternatives into out (empty: its volumes constrain
// nothing). false with err set when a claim, PV or StorageClass cannot be read (the provisioner then leaves the pod
// out of the run).
bool VolumeTopologyRequirements(const Pod& pod, const framework::VolumeCache& storage, std::vector<Requirements>* out,
                                std::string* err);

// GetVolumes: the claims the pod mounts, by the CSI driver that attaches them (bound: the PV's CSI driver or the CSI
// driver of its in-tree AWS EBS source; unbound: the StorageClass provisioner, in-tree names translated). Claims
// that are missing, bound to a volume no CSI driver attaches, or without a class are not counted.
Volumes PodVolumes(const Pod& pod, const framework::VolumeCache& storage);

// A node's attach limits and the claims its pods mount (VolumeUsage).
struct VolumeUsage {
  Volumes volumes;
  std::map<std::string, std::int64_t> limits;  // per driver, from the node's CSINode

  // ExceedsLimits: "" when the pod's volumes fit, else "would exceed volume limit (provisioner=..., volume-count=...,
  // volume-limit=...)".
  std::string ExceedsLimits(const Volumes& pod) const;
  void Add(const Volumes& pod);
};

// populateVolumeLimits: every driver of the node's CSINode that has `allocatable` limits the node to its count (an
// allocatable without a count: 0). No CSINode: no limits.
VolumeUsage NodeVolumeLimits(const std::string& node, const framework::VolumeCache& storage);

}  // namespace kplace::karpenter
