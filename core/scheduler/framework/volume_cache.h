// The storage objects kube-scheduler's volume plugins read, as its informers' listers and the VolumeBinding
// plugin's assume caches hold them (upstream volumebinding/binder.go pvcCache / pvCache, the StorageClass, CSINode
// and CSIDriver listers). Claims and volumes are copies that change during a run: a PV chosen for one pod is bound
// to its claim before the next pod is tried, and a claim provisioned for a node gets a PV there.
//
// kplace completes what the PV controller and the external provisioner do asynchronously, at once:
// - when built, a claim pre-bound with spec.volumeName to an existing PV that is free or already refers to it is
//   bound (pkg/controller/volume/persistentvolume syncUnboundClaim), and so is an Immediate claim with a matching
//   Available PV (the smallest that fits; the PV controller does not look at node affinity);
// - Reserve's static binding binds the claim (PV claimRef, claim volumeName + bind-completed);
// - Reserve's dynamic provisioning creates the PV on the selected node: named pvc-<claim uid> (or
//   pvc-<namespace>-<name> without a uid), capacity = the request, node affinity = the node's values of the
//   driver's topology keys from the node's CSINode (none when the CSINode does not list the driver).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/model/scenario.h"

namespace kplace::framework {

class VolumeCache {
 public:
  VolumeCache() = default;
  explicit VolumeCache(const Scenario& sc);

  const PersistentVolumeClaim* Claim(const std::string& ns, const std::string& name) const;
  const PersistentVolume* Volume(const std::string& name) const;
  const StorageClass* Class(const std::string& name) const;
  const CSINode* CSINodeOf(const std::string& node) const;
  const CSIDriver* Driver(const std::string& name) const;
  // CSIStorageCapacity objects in input order (upstream lists them from an informer, in no defined order).
  const std::vector<CSIStorageCapacity>& Capacities() const { return *capacities_; }
  // PVs of a storage class (pv.spec.storageClassName), in name order (upstream's lister order is unspecified).
  std::vector<const PersistentVolume*> VolumesOfClass(const std::string& cls) const;
  const std::deque<PersistentVolumeClaim>& claims() const { return claims_; }
  const std::deque<PersistentVolume>& volumes() const { return volumes_; }

  // Binds claim to the PV (both must exist).
  void Bind(const std::string& claim_ns, const std::string& claim_name, const std::string& pv_name);
  // Provisions a PV for the claim on node (see above); node_labels are the node's.
  void Provision(const std::string& claim_ns, const std::string& claim_name, const std::string& node,
                 const Labels& node_labels);

  // A CSINode registered during the run (a launched Node's); kept here, so it outlives the scenario's vectors.
  void AddCSINode(CSINode node);

  // Whether Provision created the PV during this run.
  bool Provisioned(const std::string& pv_name) const { return provisioned_.count(pv_name) > 0; }
  // How many times Bind/Provision changed something (for caches keyed on the state).
  std::uint64_t generation() const { return generation_; }

 private:
  PersistentVolumeClaim* MutableClaim(const std::string& ns, const std::string& name);
  void Index();
  // deques: addresses stay valid as provisioned PVs are added.
  std::deque<PersistentVolumeClaim> claims_;
  std::deque<PersistentVolume> volumes_;
  std::unordered_map<std::string, std::size_t> claim_index_;  // ns/name
  std::unordered_map<std::string, std::size_t> volume_index_;
  std::unordered_map<std::string, const StorageClass*> classes_;
  std::unordered_map<std::string, const CSINode*> csi_nodes_;
  std::deque<CSINode> added_csi_nodes_;
  std::unordered_map<std::string, const CSIDriver*> drivers_;
  const std::vector<CSIStorageCapacity>* capacities_ = &kNoCapacities;
  static inline const std::vector<CSIStorageCapacity> kNoCapacities;
  std::uint64_t generation_ = 0;
  std::unordered_set<std::string> provisioned_;
};

// A claim is bound when spec.volumeName is set and it carries pv.kubernetes.io/bind-completed (binder.go
// isPVCFullyBound; status.phase is not read).
inline bool FullyBound(const PersistentVolumeClaim& c) { return !c.volume_name.empty() && c.bind_completed; }

// component-helpers storage/volume CheckNodeAffinity: the PV's required node affinity against node labels only
// (matchFields never reject: the node it builds has no name).
bool PVNodeAffinityMatches(const PersistentVolume& pv, const Labels& node_labels);

// FindMatchingVolume (component-helpers storage/volume/pv_helpers.go) for the scheduler (node_labels given) or the
// PV controller (nullptr: node affinity not checked): the smallest PV that fits, or nullptr. excluded: PVs already
// chosen for other claims of the same pod.
const PersistentVolume* FindMatchingVolume(const PersistentVolumeClaim& claim,
                                           const std::vector<const PersistentVolume*>& volumes,
                                           const Labels* node_labels,
                                           const std::vector<const PersistentVolume*>& excluded);

}  // namespace kplace::framework
