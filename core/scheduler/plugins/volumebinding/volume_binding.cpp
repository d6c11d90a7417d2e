#include "core/scheduler/plugins/volumebinding/volume_binding.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "core/scheduler/plugins/names.h"
#include "core/scheduler/plugins/noderesources/requested_to_capacity_ratio.h"

namespace kplace::plugins {
namespace {

using framework::Code;
using framework::Status;

// The pod's claims, as PreFilter classified them (binder.go GetPodVolumeClaims). Pointers into the VolumeCache
// (stable: its deques only grow).
struct ClaimsState : framework::StateData {
  const framework::VolumeCache* cache = nullptr;
  std::vector<const PersistentVolumeClaim*> bound;
  std::vector<const PersistentVolumeClaim*> delay;  // unbound, WaitForFirstConsumer
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<ClaimsState>(*this); }
};

// What FindPodVolumes decided for one node: the PVs its unbound claims would bind to, and the claims to provision
// there with the CSIStorageCapacity that showed room for each (null: the driver publishes no capacity).
struct NodeVolumes {
  bool bound_ok = true, unbound_ok = true, sufficient = true, pvs_found = true;
  std::vector<std::pair<const PersistentVolumeClaim*, const PersistentVolume*>> static_bindings;
  std::vector<std::pair<const PersistentVolumeClaim*, const CSIStorageCapacity*>> provisions;
};

// An ephemeral volume's claim must be the pod's own (component-helpers storage/ephemeral VolumeIsForPod:
// metav1.IsControlledBy; ownerReferences carry no uid in kplace, so kind and name decide).
bool ClaimIsForPod(const PersistentVolumeClaim& c, const Pod& pod) {
  const OwnerReference* o = c.meta.Controller();
  return c.meta.namespace_ == pod.meta.namespace_ && o && o->kind == "Pod" && o->name == pod.meta.name;
}

// MatchTopologySelectorTerms (v1helper): no terms match every node; else a term whose every expression's key has
// one of its values.
bool AllowedTopologiesMatch(const StorageClass& cls, const Labels& labels) {
  if (cls.allowed_topologies.empty()) return true;
  for (const auto& t : cls.allowed_topologies) {
    bool all = true;
    for (const auto& e : t.match_expressions)
      if (!e.Matches(labels)) all = false;
    if (all) return true;
  }
  return false;
}

// binder.go hasEnoughCapacity: whether the provisioner can create the claim's volume on the node. Without a storage
// request, a CSIDriver object or its storageCapacity, the answer is yes with no capacity known. Otherwise the first
// CSIStorageCapacity (input order) of the class whose volume limit (maximumVolumeSize, else capacity) fits the
// request and whose nodeTopology selects the node; none: not enough storage.
bool HasEnoughCapacity(const framework::VolumeCache& cache, const StorageClass& cls, const PersistentVolumeClaim& c,
                       const Node& node, const CSIStorageCapacity** found) {
  *found = nullptr;
  if (c.request_storage == 0) return true;
  const CSIDriver* driver = cache.Driver(cls.provisioner);
  if (!driver || !driver->storage_capacity) return true;
  for (const CSIStorageCapacity& cap : cache.Capacities()) {
    if (cap.storage_class_name != cls.meta.name) continue;
    const std::optional<std::int64_t>& limit = cap.maximum_volume_size ? cap.maximum_volume_size : cap.capacity;
    if (!limit || *limit < c.request_storage) continue;
    if (!cap.node_topology || !cap.node_topology->Matches(node.meta.labels)) continue;
    *found = &cap;
    return true;
  }
  return false;
}

NodeVolumes FindPodVolumes(const ClaimsState& st, const framework::VolumeCache& cache, const Node& node) {
  NodeVolumes out;
  // checkBoundClaims: the first missing PV or PV whose affinity rejects the node ends the check.
  for (const PersistentVolumeClaim* c : st.bound) {
    const PersistentVolume* pv = cache.Volume(c->volume_name);
    if (!pv) {
      out.pvs_found = false;
      break;
    }
    if (!framework::PVNodeAffinityMatches(*pv, node.meta.labels)) {
      out.bound_ok = false;
      break;
    }
  }
  if (st.delay.empty()) return out;
  // A claim already provisioned for another node rules this one out at once.
  std::vector<const PersistentVolumeClaim*> to_match, to_provision;
  for (const PersistentVolumeClaim* c : st.delay) {
    if (!c->selected_node.empty() && c->selected_node != node.meta.name) {
      out.unbound_ok = false;
      return out;
    }
    (c->selected_node.empty() ? to_match : to_provision).push_back(c);
  }
  // findMatchingVolumes: smallest request first (upstream's sort is not stable; kplace keeps the pod's order among
  // equal sizes), each claim taking the smallest fitting PV not already taken by this pod.
  std::stable_sort(to_match.begin(), to_match.end(),
                   [](const auto* a, const auto* b) { return a->request_storage < b->request_storage; });
  std::vector<const PersistentVolume*> chosen;
  for (const PersistentVolumeClaim* c : to_match) {
    const PersistentVolume* pv =
        framework::FindMatchingVolume(*c, cache.VolumesOfClass(c->ClassName()), &node.meta.labels, chosen);
    if (!pv) {
      to_provision.push_back(c);
      continue;
    }
    chosen.push_back(pv);
    out.static_bindings.emplace_back(c, pv);
  }
  if (to_provision.empty()) return out;
  // checkVolumeProvisions: the first claim its class cannot provision on this node decides.
  for (const PersistentVolumeClaim* c : to_provision) {
    const StorageClass* cls = cache.Class(c->ClassName());
    if (!cls || cls->provisioner.empty() || cls->provisioner == "kubernetes.io/no-provisioner" ||
        !AllowedTopologiesMatch(*cls, node.meta.labels)) {
      out.unbound_ok = false;
      return out;
    }
    const CSIStorageCapacity* capacity = nullptr;
    if (!HasEnoughCapacity(cache, *cls, *c, node, &capacity)) {
      out.sufficient = false;
      return out;
    }
    out.provisions.emplace_back(c, capacity);
  }
  return out;
}

// The Score of a node (volume_binding.go Score, scorer.go buildScorerFunction): per storage class the requested
// storage against the capacity it goes to, through the shape, averaged over classes and rounded. A node where some
// claim binds to an existing PV scores those PVs (requested claims against PV capacity, summed per class) and not its
// provisions; otherwise the provisions with a known capacity (the CSIStorageCapacity's capacity, once per class).
std::int64_t ScoreNode(const NodeVolumes& nv, const noderesources::BrokenLinearFunction& shape) {
  struct ClassResource {
    std::int64_t requested = 0, capacity = 0;
  };
  std::map<std::string, ClassResource> classes;
  if (!nv.static_bindings.empty()) {
    for (const auto& [c, pv] : nv.static_bindings) {
      ClassResource& r = classes[pv->storage_class_name];
      r.requested += c->request_storage;
      r.capacity += pv->capacity_storage;
    }
  } else {
    for (const auto& [c, cap] : nv.provisions) {
      if (!cap) continue;
      ClassResource& r = classes[c->ClassName()];
      // A capacity object that only sets maximumVolumeSize has no capacity (upstream dereferences nil there).
      r.capacity = cap->capacity.value_or(0);
      r.requested += c->request_storage;
    }
  }
  if (classes.empty()) return 0;
  std::int64_t sum = 0;
  for (const auto& [cls, r] : classes)
    sum += noderesources::RequestedToCapacityRatioScore(shape, r.requested, r.capacity);
  return std::llround(static_cast<double>(sum) / static_cast<double>(classes.size()));
}

class VolumeBinding final : public framework::PreFilterPlugin,
                            public framework::FilterPlugin,
                            public framework::PreScorePlugin,
                            public framework::ScorePlugin,
                            public framework::ReservePlugin {
 public:
  VolumeBinding(const VolumeBindingArgs& args, const Features& features) {
    // The scorer exists only with StorageCapacityScoring (beta, on from 1.37); its default shape prefers the node
    // with the most room (defaults.go SetDefaults_VolumeBindingArgs: {0, 10}, {100, 0}).
    if (features.Enabled(Feature::StorageCapacityScoring))
      shape_.emplace(noderesources::BrokenLinearFunction::FromShape(
          args.shape ? *args.shape : std::vector<UtilizationShapePoint>{{0, 10}, {100, 0}}));
  }

  const char* Name() const override { return names::kVolumeBinding; }
  // PersistentVolume / PersistentVolumeClaim updates and Node/Add (volume_binding.go EventsToRegister).
  framework::ClusterEvents EventsToRegister() const override {
    return framework::cluster_event::kVolumeUpdate | framework::cluster_event::kNodeAdd;
  }

  Status PreFilter(framework::CycleState& state, const framework::PodInfo& pod, const framework::Snapshot& snapshot,
                   framework::PreFilterResult&) override {
    const Pod& p = *pod.pod;
    bool any = false;
    for (const auto& v : p.volumes) any = any || v.kind != PodVolume::Kind::Other;
    if (!any) return Status::Skip();
    const framework::VolumeCache& cache = *snapshot.volumes;
    // podHasPVCs: every claim exists, is not lost or being deleted, and an ephemeral one is the pod's.
    std::vector<const PersistentVolumeClaim*> claims;
    for (const auto& v : p.volumes) {
      if (v.kind == PodVolume::Kind::Other) continue;
      const PersistentVolumeClaim* c = cache.Claim(p.meta.namespace_, v.claim_name);
      const bool ephemeral = v.kind == PodVolume::Kind::Ephemeral;
      if (!c)
        return Status(Code::UnschedulableAndUnresolvable,
                      ephemeral ? "waiting for ephemeral volume controller to create the persistentvolumeclaim \"" +
                                      v.claim_name + "\""
                                : "persistentvolumeclaim \"" + v.claim_name + "\" not found");
      if (c->phase == "Lost")
        return Status(Code::UnschedulableAndUnresolvable, "persistentvolumeclaim \"" + v.claim_name +
                                                              "\" bound to non-existent persistentvolume \"" +
                                                              c->volume_name + "\"");
      if (c->meta.deleting)
        return Status(Code::UnschedulableAndUnresolvable,
                      "persistentvolumeclaim \"" + v.claim_name + "\" is being deleted");
      if (ephemeral && !ClaimIsForPod(*c, p))
        return Status(Code::UnschedulableAndUnresolvable, "PVC " + c->meta.namespace_ + "/" + c->meta.name +
                                                              " was not created for pod " + p.meta.namespace_ + "/" +
                                                              p.meta.name + " (pod is not owner)");
      claims.push_back(c);
    }
    // GetPodVolumeClaims: bound, unbound WaitForFirstConsumer, or unbound immediate (Immediate, no class, a missing
    // class, or pre-bound without bind-completed).
    auto st = std::make_unique<ClaimsState>();
    st->cache = &cache;
    bool immediate = false;
    for (const PersistentVolumeClaim* c : claims) {
      if (framework::FullyBound(*c)) {
        st->bound.push_back(c);
        continue;
      }
      const StorageClass* cls = c->ClassName().empty() ? nullptr : cache.Class(c->ClassName());
      if (cls && cls->volume_binding_mode == VolumeBindingMode::WaitForFirstConsumer && c->volume_name.empty())
        st->delay.push_back(c);
      else
        immediate = true;
    }
    if (immediate) return Status(Code::UnschedulableAndUnresolvable, kErrReasonUnboundImmediate);
    state.Write(prefilter_slot, std::move(st));
    return {};
  }

  Status Filter(const framework::CycleState& state, const framework::PodInfo&,
                const framework::NodeInfo& node) const override {
    const auto* st = state.Read<ClaimsState>(prefilter_slot);
    if (!st) return {};
    NodeVolumes nv = FindPodVolumes(*st, *st->cache, *node.node);
    std::vector<std::string> reasons;
    if (!nv.bound_ok) reasons.push_back(kErrReasonNodeConflict);
    if (!nv.unbound_ok) reasons.push_back(kErrReasonBindConflict);
    if (!nv.sufficient) reasons.push_back(kErrReasonNotEnoughSpace);
    if (!nv.pvs_found) reasons.push_back(kErrReasonPVNotExist);
    if (reasons.empty()) return {};
    return Status(Code::UnschedulableAndUnresolvable, std::move(reasons));
  }

  // Without a scorer every pod is skipped; with one, no pod is (a pod without claims scores 0 everywhere).
  Status PreScore(framework::CycleState&, const framework::PodInfo&, const std::vector<const framework::NodeInfo*>&,
                  const framework::Snapshot&) override {
    return shape_ ? Status() : Status::Skip();
  }

  void ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                  std::vector<framework::NodeScore>& scores, framework::Status& status) const override {
    // A pod without claims scores 0 everywhere: the scores arrive at 0.
    if (!shape_ || !state.Read<ClaimsState>(prefilter_slot)) return;
    framework::ScoreEach(*this, state, pod, scores, status);
  }

  std::int64_t Score(const framework::CycleState& state, const framework::PodInfo&, const framework::NodeInfo& node,
                     Status&) const override {
    const auto* st = state.Read<ClaimsState>(prefilter_slot);
    if (!shape_ || !st) return 0;
    return ScoreNode(FindPodVolumes(*st, *st->cache, *node.node), *shape_);
  }

  Status Reserve(framework::CycleState& state, const framework::PodInfo&, const framework::NodeInfo& node,
                 framework::Snapshot& snapshot) override {
    const auto* st = state.Read<ClaimsState>(prefilter_slot);
    if (!st || st->delay.empty()) return {};
    framework::VolumeCache& cache = *snapshot.volumes;
    // AssumePodVolumes, then what the PV controller and the provisioner complete (volume_cache.h).
    NodeVolumes nv = FindPodVolumes(*st, cache, *node.node);
    for (const auto& [c, pv] : nv.static_bindings) cache.Bind(c->meta.namespace_, c->meta.name, pv->meta.name);
    for (const auto& [c, capacity] : nv.provisions)
      cache.Provision(c->meta.namespace_, c->meta.name, node.Name(), node.node->meta.labels);
    return {};
  }

 private:
  std::optional<noderesources::BrokenLinearFunction> shape_;
};

}  // namespace

std::unique_ptr<framework::Plugin> NewVolumeBinding(const PluginArgs& args, const Features& features) {
  return std::make_unique<VolumeBinding>(args.volume_binding, features);
}

}  // namespace kplace::plugins
