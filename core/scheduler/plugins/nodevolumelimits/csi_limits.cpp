#include "core/scheduler/plugins/nodevolumelimits/csi_limits.h"

#include <map>
#include <set>
#include <string>

#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

using framework::Code;
using framework::Status;
using Kind = VolumeSource::Kind;

// csi-translation-lib: the CSI driver of an in-tree plugin whose migration is on regardless of the CSINode
// (isCSIMigrationOn: aws-ebs, gce-pd, azure-disk, cinder; others, and any without a CSINode, are not counted).
const char* MigratedDriver(const std::string& in_tree) {
  if (in_tree == "kubernetes.io/aws-ebs") return "ebs.csi.aws.com";
  if (in_tree == "kubernetes.io/gce-pd") return "pd.csi.storage.gke.io";
  if (in_tree == "kubernetes.io/azure-disk") return "disk.csi.azure.com";
  if (in_tree == "kubernetes.io/cinder") return "cinder.csi.openstack.org";
  return nullptr;
}

// An in-tree source translated to its CSI driver and volume handle, or false.
bool TranslateInTree(const VolumeSource& s, std::string& driver, std::string& handle) {
  switch (s.kind) {
    case Kind::AwsElasticBlockStore: {
      driver = "ebs.csi.aws.com";
      // aws://<zone>/<id> -> <id>
      handle = s.id.rfind("aws://", 0) == 0 ? s.id.substr(s.id.rfind('/') + 1) : s.id;
      return true;
    }
    case Kind::GcePersistentDisk:
      driver = "pd.csi.storage.gke.io";
      handle = "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/" + s.id;
      return true;
    case Kind::AzureDisk:
      driver = "disk.csi.azure.com";
      handle = s.id;
      return true;
    case Kind::Cinder:
      driver = "cinder.csi.openstack.org";
      handle = s.id;
      return true;
    default:
      return false;
  }
}

bool InlineMigratable(const PodVolume& v) {
  const Kind k = v.source.kind;
  return v.kind == PodVolume::Kind::Other &&
         (k == Kind::AwsElasticBlockStore || k == Kind::GcePersistentDisk || k == Kind::AzureDisk || k == Kind::Cinder);
}

// filterAttachableVolumes: "driver/handle" -> driver for each attachable volume of the pod. A claim that cannot be
// found is an error for the incoming pod (message in *error) and skipped for pods on the node.
void AttachableVolumes(const Pod& pod, const CSINode* csi_node, const framework::VolumeCache& cache,
                       std::map<std::string, std::string>& out, std::string* error) {
  for (const auto& v : pod.volumes) {
    std::string driver, handle;
    if (v.kind == PodVolume::Kind::Other) {
      if (!InlineMigratable(v) || !csi_node || !TranslateInTree(v.source, driver, handle)) continue;
    } else {
      const PersistentVolumeClaim* c = cache.Claim(pod.meta.namespace_, v.claim_name);
      if (!c) {
        if (error && error->empty())
          *error = "looking up PVC " + pod.meta.namespace_ + "/" + v.claim_name + ": persistentvolumeclaim \"" +
                   v.claim_name + "\" not found";
        continue;
      }
      const PersistentVolume* pv = c->volume_name.empty() ? nullptr : cache.Volume(c->volume_name);
      if (pv) {
        if (pv->source.kind == Kind::Csi) {
          driver = pv->source.driver;
          handle = pv->source.id;
        } else if (!csi_node || !TranslateInTree(pv->source, driver, handle)) {
          continue;
        }
      } else {
        // getCSIDriverInfoFromSC: unbound (or its PV missing): the class's provisioner, one handle per claim.
        const StorageClass* sc = c->ClassName().empty() ? nullptr : cache.Class(c->ClassName());
        if (!sc) continue;
        driver = sc->provisioner;
        if (const char* migrated = MigratedDriver(sc->provisioner)) {
          if (!csi_node) continue;
          driver = migrated;
        } else if (driver.rfind("kubernetes.io/", 0) == 0) {
          continue;
        }
        handle = "unbound-" + pod.meta.namespace_ + "/" + c->meta.name;
      }
    }
    if (driver.empty() || handle.empty()) continue;
    out[driver + "/" + handle] = driver;
  }
}

struct LimitsState : framework::StateData {
  const framework::VolumeCache* cache = nullptr;
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<LimitsState>(*this); }
};

class NodeVolumeLimits final : public framework::PreFilterPlugin, public framework::FilterPlugin {
 public:
  explicit NodeVolumeLimits(const Features& features)
      : volume_limit_scaling_(features.Enabled(Feature::VolumeLimitScaling)) {}
  const char* Name() const override { return names::kNodeVolumeLimits; }
  // Pod/Delete, Node/Add, CSINode, PersistentVolumeClaim, VolumeAttachment changes (csi.go EventsToRegister).
  framework::ClusterEvents EventsToRegister() const override {
    return framework::cluster_event::kAssignedPodDelete | framework::cluster_event::kNodeAdd |
           framework::cluster_event::kVolumeUpdate;
  }

  Status PreFilter(framework::CycleState& state, const framework::PodInfo& pod, const framework::Snapshot& snapshot,
                   framework::PreFilterResult&) override {
    for (const auto& v : pod.pod->volumes)
      if (v.kind != PodVolume::Kind::Other || InlineMigratable(v)) {
        auto st = std::make_unique<LimitsState>();
        st->cache = snapshot.volumes;
        state.Write(prefilter_slot, std::move(st));
        return {};
      }
    return Status::Skip();
  }

  Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                const framework::NodeInfo& node) const override {
    const auto* st = state.Read<LimitsState>(prefilter_slot);
    if (pod.pod->volumes.empty() || !st) return {};
    const framework::VolumeCache& cache = *st->cache;
    const CSINode* csi_node = cache.CSINodeOf(node.Name());
    std::map<std::string, std::string> wanted;
    std::string error;
    AttachableVolumes(*pod.pod, csi_node, cache, wanted, &error);
    if (!error.empty()) return Status(Code::UnschedulableAndUnresolvable, error);
    if (wanted.empty()) return {};
    // VolumeLimitScaling (csi.go checkCSIDriverOnNode): a driver whose CSIDriver opts in must be on the node's
    // CSINode (none: not installed), before any limit, on nodes without limits too. Drivers in name order (upstream
    // ranges over a map: with several missing, the one named is random).
    if (volume_limit_scaling_) {
      std::set<std::string> drivers;
      for (const auto& [uniq, driver] : wanted) drivers.insert(driver);
      for (const std::string& d : drivers) {
        const CSIDriver* object = cache.Driver(d);
        if (!object || !object->prevent_pod_scheduling_if_missing) continue;
        if (!csi_node || !csi_node->Driver(d))
          return Status(Code::Unschedulable, d + " CSI driver is not installed on the node");
      }
    }
    if (!csi_node) return {};
    std::map<std::string, std::int64_t> limits;
    for (const auto& d : csi_node->drivers)
      if (d.allocatable_count) limits[d.name] = *d.allocatable_count;
    if (limits.empty()) return {};
    std::map<std::string, std::string> attached;
    for (const framework::PodInfo* q : node.pods) AttachableVolumes(*q->pod, csi_node, cache, attached, nullptr);
    std::map<std::string, std::int64_t> attached_count, new_count;
    for (const auto& [uniq, driver] : attached) {
      wanted.erase(uniq);
      ++attached_count[driver];
    }
    for (const auto& [uniq, driver] : wanted) ++new_count[driver];
    for (const auto& [driver, n] : new_count) {
      auto limit = limits.find(driver);
      if (limit != limits.end() && attached_count[driver] + n > limit->second)
        return Status(Code::Unschedulable, kErrReasonMaxVolumeCountExceeded);
    }
    return {};
  }

 private:
  bool volume_limit_scaling_;
};

}  // namespace

std::unique_ptr<framework::Plugin> NewNodeVolumeLimits(const PluginArgs&, const Features& features) {
  return std::make_unique<NodeVolumeLimits>(features);
}

}  // namespace kplace::plugins
