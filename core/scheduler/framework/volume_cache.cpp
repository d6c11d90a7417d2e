#include "core/scheduler/framework/volume_cache.h"

#include <algorithm>

namespace kplace::framework {

namespace {

// IsVolumeBoundToClaim (component-helpers storage/volume/pv_helpers.go): the PV's claimRef names the claim, and
// its uid is unset or the claim's.
bool BoundToClaim(const PersistentVolume& pv, const PersistentVolumeClaim& c) {
  return pv.claim_ref && pv.claim_ref->name == c.meta.name && pv.claim_ref->namespace_ == c.meta.namespace_ &&
         (pv.claim_ref->uid.empty() || pv.claim_ref->uid == c.meta.uid);
}

// CheckAccessModes: every mode the claim asks for is one the PV offers.
bool AccessModesFit(AccessModes claim, AccessModes pv) { return (claim & ~pv) == 0; }

}  // namespace

bool PVNodeAffinityMatches(const PersistentVolume& pv, const Labels& node_labels) {
  return !pv.node_affinity || pv.node_affinity->Matches(node_labels, kEmptySymbol);
}

const PersistentVolume* FindMatchingVolume(const PersistentVolumeClaim& claim,
                                           const std::vector<const PersistentVolume*>& volumes,
                                           const Labels* node_labels,
                                           const std::vector<const PersistentVolume*>& excluded) {
  const PersistentVolume* smallest = nullptr;
  for (const PersistentVolume* pv : volumes) {
    if (std::find(excluded.begin(), excluded.end(), pv) != excluded.end()) continue;
    if (pv->claim_ref && !BoundToClaim(*pv, claim)) continue;
    if (pv->capacity_storage < claim.request_storage) continue;
    if (pv->volume_mode != claim.volume_mode) continue;
    if (pv->meta.deleting) continue;
    const bool affinity_ok = !node_labels || PVNodeAffinityMatches(*pv, *node_labels);
    // A PV already bound to this claim (pre-bound, or assumed for it earlier) is the answer, or there is none.
    if (BoundToClaim(*pv, claim)) return affinity_ok ? pv : nullptr;
    if (pv->phase != "Available") continue;
    if (claim.selector && !claim.selector->Matches(pv->meta.labels)) continue;
    if (pv->storage_class_name != claim.ClassName()) continue;
    if (!affinity_ok) continue;
    if (!AccessModesFit(claim.access_modes, pv->access_modes)) continue;
    // The smallest; on a tie the first (in name order here).
    if (!smallest || smallest->capacity_storage > pv->capacity_storage) smallest = pv;
  }
  return smallest;
}

VolumeCache::VolumeCache(const Scenario& sc)
    : claims_(sc.persistent_volume_claims.begin(), sc.persistent_volume_claims.end()),
      volumes_(sc.persistent_volumes.begin(), sc.persistent_volumes.end()) {
  for (const auto& c : sc.storage_classes) classes_[c.meta.name] = &c;
  for (const auto& n : sc.csi_nodes) csi_nodes_[n.meta.name] = &n;
  for (const auto& d : sc.csi_drivers) drivers_[d.meta.name] = &d;
  capacities_ = &sc.csi_storage_capacities;
  Index();
  // The PV controller's view of a settled cluster: a PV without status is Available, or Bound when it names a
  // claim.
  for (auto& pv : volumes_)
    if (pv.phase.empty()) pv.phase = pv.claim_ref ? "Bound" : "Available";
  // Claims in namespace/name order (the PV controller syncs them one by one).
  std::vector<std::size_t> order(claims_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return claims_[a].Key() < claims_[b].Key(); });
  for (std::size_t i : order) {
    PersistentVolumeClaim& c = claims_[i];
    if (c.meta.deleting || c.phase == "Lost") continue;
    if (!c.volume_name.empty()) {
      PersistentVolume* pv = volume_index_.count(c.volume_name) ? &volumes_[volume_index_[c.volume_name]] : nullptr;
      if (!pv || pv->meta.deleting) continue;
      if (c.bind_completed) {
        // Bound: the PV refers back to it.
        if (!pv->claim_ref) pv->claim_ref = ClaimReference{c.meta.namespace_, c.meta.name, c.meta.uid};
        continue;
      }
      // Pre-bound by the user: the PV controller binds it when the PV is free (or refers to it) and satisfies
      // it (checkVolumeSatisfyClaim: size, class, volume mode).
      if ((!pv->claim_ref || BoundToClaim(*pv, c)) && pv->capacity_storage >= c.request_storage &&
          pv->storage_class_name == c.ClassName() && pv->volume_mode == c.volume_mode)
        Bind(c.meta.namespace_, c.meta.name, pv->meta.name);
      continue;
    }
    // Unbound: an Immediate claim (or one whose class is "" or missing) binds to a matching Available PV.
    const StorageClass* cls = Class(c.ClassName());
    if (cls && cls->volume_binding_mode == VolumeBindingMode::WaitForFirstConsumer) continue;
    if (const PersistentVolume* pv = FindMatchingVolume(c, VolumesOfClass(c.ClassName()), nullptr, {}))
      Bind(c.meta.namespace_, c.meta.name, pv->meta.name);
  }
  generation_ = 0;
}

void VolumeCache::AddCSINode(CSINode node) {
  added_csi_nodes_.push_back(std::move(node));
  csi_nodes_[added_csi_nodes_.back().meta.name] = &added_csi_nodes_.back();
  ++generation_;
}

void VolumeCache::Index() {
  claim_index_.clear();
  volume_index_.clear();
  for (std::size_t i = 0; i < claims_.size(); ++i) claim_index_[claims_[i].Key()] = i;
  for (std::size_t i = 0; i < volumes_.size(); ++i) volume_index_[volumes_[i].meta.name] = i;
}

const PersistentVolumeClaim* VolumeCache::Claim(const std::string& ns, const std::string& name) const {
  auto it = claim_index_.find(ns + "/" + name);
  return it == claim_index_.end() ? nullptr : &claims_[it->second];
}

PersistentVolumeClaim* VolumeCache::MutableClaim(const std::string& ns, const std::string& name) {
  auto it = claim_index_.find(ns + "/" + name);
  return it == claim_index_.end() ? nullptr : &claims_[it->second];
}

const PersistentVolume* VolumeCache::Volume(const std::string& name) const {
  auto it = volume_index_.find(name);
  return it == volume_index_.end() ? nullptr : &volumes_[it->second];
}

const StorageClass* VolumeCache::Class(const std::string& name) const {
  auto it = classes_.find(name);
  return it == classes_.end() ? nullptr : it->second;
}

const CSINode* VolumeCache::CSINodeOf(const std::string& node) const {
  auto it = csi_nodes_.find(node);
  return it == csi_nodes_.end() ? nullptr : it->second;
}

const CSIDriver* VolumeCache::Driver(const std::string& name) const {
  auto it = drivers_.find(name);
  return it == drivers_.end() ? nullptr : it->second;
}

std::vector<const PersistentVolume*> VolumeCache::VolumesOfClass(const std::string& cls) const {
  std::vector<const PersistentVolume*> out;
  for (const auto& pv : volumes_)
    if (pv.storage_class_name == cls) out.push_back(&pv);
  std::sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->meta.name < b->meta.name; });
  return out;
}

void VolumeCache::Bind(const std::string& claim_ns, const std::string& claim_name, const std::string& pv_name) {
  PersistentVolumeClaim* c = MutableClaim(claim_ns, claim_name);
  auto it = volume_index_.find(pv_name);
  if (!c || it == volume_index_.end()) return;
  PersistentVolume& pv = volumes_[it->second];
  pv.claim_ref = ClaimReference{c->meta.namespace_, c->meta.name, c->meta.uid};
  pv.phase = "Bound";
  c->volume_name = pv_name;
  c->bind_completed = true;
  c->phase = "Bound";
  ++generation_;
}

void VolumeCache::Provision(const std::string& claim_ns, const std::string& claim_name, const std::string& node,
                            const Labels& node_labels) {
  PersistentVolumeClaim* c = MutableClaim(claim_ns, claim_name);
  if (!c) return;
  c->selected_node = node;
  PersistentVolume pv;
  pv.meta.name = "pvc-" + (c->meta.uid.empty() ? c->meta.namespace_ + "-" + c->meta.name : c->meta.uid);
  pv.capacity_storage = c->request_storage;
  pv.access_modes = c->access_modes;
  pv.storage_class_name = c->ClassName();
  pv.volume_mode = c->volume_mode;
  pv.phase = "Available";
  if (const StorageClass* cls = Class(c->ClassName())) {
    pv.source.kind = VolumeSource::Kind::Csi;
    pv.source.driver = cls->provisioner;
    pv.source.id = pv.meta.name;
    // The driver's topology segment of the selected node (the external provisioner's accessible topology).
    if (const CSINode* cn = CSINodeOf(node))
      if (const CSINodeDriver* d = cn->Driver(cls->provisioner)) {
        NodeSelectorTerm term;
        for (const auto& key : d->topology_keys)
          if (auto v = node_labels.Get(Intern(key)))
            term.match_expressions.push_back({Intern(key), SelectorOp::In, {*v}, 0});
        if (!term.match_expressions.empty()) pv.node_affinity = NodeSelector{{std::move(term)}};
      }
  }
  if (volume_index_.count(pv.meta.name)) return;
  provisioned_.insert(pv.meta.name);
  volumes_.push_back(std::move(pv));
  Index();
  Bind(claim_ns, claim_name, volumes_.back().meta.name);
}

}  // namespace kplace::framework
