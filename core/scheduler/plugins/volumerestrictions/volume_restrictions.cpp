#include "core/scheduler/plugins/volumerestrictions/volume_restrictions.h"

#include <algorithm>
#include <set>
#include <string>

#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

using framework::Code;
using framework::Status;
using Kind = VolumeSource::Kind;

bool NeedsRestrictionsCheck(const PodVolume& v) {
  const Kind k = v.source.kind;
  return v.kind == PodVolume::Kind::Other &&
         (k == Kind::GcePersistentDisk || k == Kind::AwsElasticBlockStore || k == Kind::Rbd || k == Kind::Iscsi);
}

bool HaveOverlap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (const auto& x : a)
    if (std::find(b.begin(), b.end(), x) != b.end()) return true;
  return false;
}

// isVolumeConflict: the same disk mounted by another pod on the node. GCE PD, ISCSI and RBD allow it when both
// mounts are read-only; AWS EBS never. ISCSI compares the IQN only; RBD a shared monitor, the pool and the image.
bool Conflicts(const VolumeSource& v, const Pod& existing) {
  for (const auto& e : existing.volumes) {
    if (e.kind != PodVolume::Kind::Other || e.source.kind != v.kind) continue;
    const VolumeSource& x = e.source;
    const bool both_ro = v.read_only && x.read_only;
    switch (v.kind) {
      case Kind::GcePersistentDisk:
      case Kind::Iscsi:
        if (v.id == x.id && !both_ro) return true;
        break;
      case Kind::AwsElasticBlockStore:
        if (v.id == x.id) return true;
        break;
      case Kind::Rbd:
        if (HaveOverlap(v.monitors, x.monitors) && v.pool == x.pool && v.image == x.image && !both_ro) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

struct RestrictionsState : framework::StateData {
  // The pod's ReadWriteOncePod claims (names), and how many of them pods on nodes use.
  std::set<std::string> rwop_claims;
  int conflicting = 0;
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<RestrictionsState>(*this); }
};

// How many of the pod's PVC volumes name one of the claims (updateWithPod: names only, not namespaces).
int ClaimUses(const Pod& p, const std::set<std::string>& claims) {
  int n = 0;
  for (const auto& v : p.volumes)
    if (v.kind == PodVolume::Kind::PersistentVolumeClaim && claims.count(v.claim_name)) ++n;
  return n;
}

class VolumeRestrictions final : public framework::PreFilterPlugin, public framework::FilterPlugin {
 public:
  explicit VolumeRestrictions(const Features& f)
      : rwop_reason_(f.Enabled(Feature::VolumeRestrictionsReadWriteOncePodMessage)
                         ? kErrReasonReadWriteOncePodConflict
                         : kErrReasonReadWriteOncePodConflictV133) {}
  const char* Name() const override { return names::kVolumeRestrictions; }
  // Pod/Delete, Node/Add, PersistentVolumeClaim/Add (volume_restrictions.go EventsToRegister).
  framework::ClusterEvents EventsToRegister() const override {
    return framework::cluster_event::kAssignedPodDelete | framework::cluster_event::kNodeAdd;
  }
  bool HasExtensions() const override { return true; }

  Status PreFilter(framework::CycleState& state, const framework::PodInfo& pod, const framework::Snapshot& snapshot,
                   framework::PreFilterResult&) override {
    const Pod& p = *pod.pod;
    bool needs_check = false;
    for (const auto& v : p.volumes) needs_check = needs_check || NeedsRestrictionsCheck(v);
    // readWriteOncePodPVCsForPod: every claim must exist (a missing one rejects even when no check is needed).
    auto st = std::make_unique<RestrictionsState>();
    for (const auto& v : p.volumes) {
      if (v.kind != PodVolume::Kind::PersistentVolumeClaim) continue;
      const PersistentVolumeClaim* c = snapshot.volumes->Claim(p.meta.namespace_, v.claim_name);
      if (!c)
        return Status(Code::UnschedulableAndUnresolvable, "persistentvolumeclaim \"" + v.claim_name + "\" not found");
      if (c->access_modes & access_mode::kReadWriteOncePod) st->rwop_claims.insert(v.claim_name);
    }
    // calPreFilterState: the claims any pod on a node uses (StorageInfos().IsPVCUsedByPods, cluster-wide).
    if (!st->rwop_claims.empty()) {
      std::set<std::string> used;
      for (const auto& n : snapshot.nodes)
        for (const framework::PodInfo* q : n.pods)
          for (const auto& v : q->pod->volumes)
            if (v.kind == PodVolume::Kind::PersistentVolumeClaim && q->pod->meta.namespace_ == p.meta.namespace_)
              used.insert(v.claim_name);
      for (const auto& c : st->rwop_claims) st->conflicting += used.count(c) ? 1 : 0;
    }
    if (!needs_check && st->conflicting == 0) return Status::Skip();
    state.Write(prefilter_slot, std::move(st));
    return {};
  }

  Status AddPod(framework::CycleState& state, const framework::PodInfo&, const framework::PodInfo& added,
                const framework::NodeInfo&, const framework::Snapshot&) override {
    if (auto* st = state.Read<RestrictionsState>(prefilter_slot))
      st->conflicting += ClaimUses(*added.pod, st->rwop_claims);
    return {};
  }
  Status RemovePod(framework::CycleState& state, const framework::PodInfo&, const framework::PodInfo& removed,
                   const framework::NodeInfo&, const framework::Snapshot&) override {
    if (auto* st = state.Read<RestrictionsState>(prefilter_slot))
      st->conflicting -= ClaimUses(*removed.pod, st->rwop_claims);
    return {};
  }

  Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                const framework::NodeInfo& node) const override {
    for (const auto& v : pod.pod->volumes) {
      if (!NeedsRestrictionsCheck(v)) continue;
      for (const framework::PodInfo* q : node.pods)
        if (Conflicts(v.source, *q->pod)) return Status(Code::Unschedulable, kErrReasonDiskConflict);
    }
    const auto* st = state.Read<RestrictionsState>(prefilter_slot);
    if (st && st->conflicting > 0) return Status(Code::Unschedulable, rwop_reason_);
    return {};
  }

 private:
  const char* rwop_reason_;
};

}  // namespace

std::unique_ptr<framework::Plugin> NewVolumeRestrictions(const PluginArgs&, const Features& features) {
  return std::make_unique<VolumeRestrictions>(features);
}

}  // namespace kplace::plugins
