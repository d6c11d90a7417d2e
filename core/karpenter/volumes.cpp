#include "core/karpenter/volumes.h"

#include "core/karpenter/pod.h"

namespace kplace::karpenter {
namespace {

// The claim a pod volume mounts (pkg/utils/volume GetPersistentVolumeClaim): persistentVolumeClaim.claimName, or
// the ephemeral volume's <pod>-<volume>; "" for other volumes.
const std::string& ClaimName(const PodVolume& v) {
  static const std::string kNone;
  return v.kind == PodVolume::Kind::Other ? kNone : v.claim_name;
}

// What the controller-runtime client's Get returns for a missing object (apierrors.NewNotFound).
std::string NotFound(const char* resource, const std::string& name) {
  return std::string(resource) + " \"" + name + "\" not found";
}

std::string ClaimNotFound(const std::string& name) {
  // volumeutil.GetPersistentVolumeClaim's wrap, with klog.KRef("", name).
  return "getting persistent volume claim, " + NotFound("persistentvolumeclaims", name) +
         " (PersistentVolumeClaim=" + name + ")";
}

// csi-translation-lib GetCSINameFromInTreeName (k8s.io/csi-translation-lib translate.go inTreePlugins).
std::string CSINameFromInTreeName(const std::string& provisioner) {
  static const std::pair<const char*, const char*> kInTree[] = {
      {"kubernetes.io/gce-pd", "pd.csi.storage.gke.io"},     {"kubernetes.io/aws-ebs", "ebs.csi.aws.com"},
      {"kubernetes.io/cinder", "cinder.csi.openstack.org"},  {"kubernetes.io/azure-disk", "disk.csi.azure.com"},
      {"kubernetes.io/azure-file", "file.csi.azure.com"},    {"kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com"},
      {"kubernetes.io/portworx-volume", "pxd.portworx.com"}, {"kubernetes.io/rbd", "rbd.csi.ceph.com"},
  };
  for (auto [in_tree, csi] : kInTree)
    if (provisioner == in_tree) return csi;
  return provisioner;
}

// One node selector term as Karpenter requirements (scheduling.NewNodeSelectorRequirements: keys normalised).
Requirements TermRequirements(const std::vector<LabelRequirement>& exprs) {
  Requirements out;
  for (const auto& e : exprs) {
    LabelRequirement n = e;
    n.key = NormalizeKey(e.key);
    out.Add(Requirement::FromSelector(n));
  }
  return out;
}

// getPersistentVolumeRequirements: one alternative per required node selector term. A local or hostPath volume's
// hostname expressions are dropped (the pod would move to a new node with it); a term left empty by that is kept
// as an alternative that constrains nothing.
std::vector<Requirements> VolumeAlternatives(const PersistentVolume& pv) {
  std::vector<Requirements> out;
  if (!pv.node_affinity) return out;
  static const Symbol kHostname = HostnameKey();
  for (const auto& term : pv.node_affinity->terms) {
    std::vector<LabelRequirement> exprs;
    for (const auto& e : term.match_expressions)
      if (!pv.local_or_host_path || e.key != kHostname) exprs.push_back(e);
    if (pv.local_or_host_path && !term.match_expressions.empty() && exprs.empty()) {
      out.emplace_back();
      continue;
    }
    if (!exprs.empty()) out.push_back(TermRequirements(exprs));
  }
  return out;
}

// getStorageClassRequirements: one alternative per allowedTopologies term, each expression as key In values.
std::vector<Requirements> ClassAlternatives(const StorageClass& sc) {
  std::vector<Requirements> out;
  for (const auto& term : sc.allowed_topologies) {
    std::vector<LabelRequirement> exprs = term.match_expressions;
    for (auto& e : exprs) e.op = SelectorOp::In;
    if (!exprs.empty()) out.push_back(TermRequirements(exprs));
  }
  return out;
}

Requirements Merge(const Requirements& a, const Requirements& b) {
  Requirements out = a;
  out.Add(b);
  return out;
}

// mergeVolumeRequirementAlternatives: the cross product of the alternatives so far with one volume's, keeping the
// compatible branches; when none is, every branch (upstream keeps the old behaviour there).
std::vector<Requirements> CrossAlternatives(const std::vector<Requirements>& so_far,
                                            const std::vector<Requirements>& volume) {
  std::vector<Requirements> out;
  for (const auto& a : so_far)
    for (const auto& v : volume)
      if (IntersectsOk(a, v)) out.push_back(Merge(a, v));
  if (!out.empty()) return out;
  for (const auto& a : so_far)
    for (const auto& v : volume) out.push_back(Merge(a, v));
  return out;
}

}  // namespace

std::string ValidateVolumeClaims(const Pod& pod, const framework::VolumeCache& storage) {
  for (const auto& v : pod.volumes) {
    const std::string& name = ClaimName(v);
    if (name.empty()) continue;
    const PersistentVolumeClaim* pvc = storage.Claim(pod.meta.namespace_, name);
    if (!pvc) return ClaimNotFound(name);
    const std::string obj = pvc->meta.namespace_ + "/" + pvc->meta.name;  // klog.KObj(pvc)
    // The cases kube-scheduler's VolumeBinding PreFilter rejects.
    if (pvc->meta.deleting) return "persistentvolumeclaim is being deleted (PersistentVolumeClaim=" + obj + ")";
    if (pvc->phase == "Lost")
      return "persistentvolumeclaim bound to non-existent persistentvolume (PersistentVolume=" + pvc->volume_name +
             ", PersistentVolumeClaim=" + obj + ")";
    const std::string& cls = pvc->ClassName();
    if (!pvc->volume_name.empty()) {
      const PersistentVolume* pv = storage.Volume(pvc->volume_name);
      const std::string values =
          " (PersistentVolume=" + pvc->volume_name + ", PersistentVolumeClaim=" + obj + ", StorageClass=" + cls + ")";
      if (!pv) return "failed to validate pvc, " + NotFound("persistentvolumes", pvc->volume_name) + values;
      if (pv->meta.deleting) return "failed to validate pvc, persistentvolume is being deleted" + values;
      // kube-scheduler treats a claim with a volumeName but without pv.kubernetes.io/bind-completed as unbound
      // (binder.go isPVCFullyBound), so Karpenter does not schedule for it.
      if (!pvc->bind_completed)
        return "pvc is considered unbound because it does not contain annotation (PersistentVolume=" +
               pvc->volume_name + ", PersistentVolumeClaim=" + pvc->meta.name +
               ", annotation=pv.kubernetes.io/bind-completed)";
      continue;
    }
    const std::string values = " (PersistentVolumeClaim=" + obj + ", StorageClass=" + cls + ")";
    if (cls.empty()) return "unbound pvc must define a storage class" + values;
    const StorageClass* sc = storage.Class(cls);
    if (!sc)
      return "failed to validate pvc, failed to get storage class, " + NotFound("storageclasses.storage.k8s.io", cls) +
             values;
    if (sc->volume_binding_mode == VolumeBindingMode::Immediate)
      return "failed to validate pvc, pvc with immediate volume binding mode must be bound" + values;
  }
  return "";
}

bool VolumeTopologyRequirements(const Pod& pod, const framework::VolumeCache& storage, std::vector<Requirements>* out,
                                std::string* err) {
  out->clear();
  std::vector<Requirements> alternatives(1);  // one alternative that constrains nothing
  bool any = false;
  for (const auto& v : pod.volumes) {
    const std::string& name = ClaimName(v);
    if (name.empty()) continue;
    const PersistentVolumeClaim* pvc = storage.Claim(pod.meta.namespace_, name);
    if (!pvc) {
      *err = "discovering persistent volume claim, " + ClaimNotFound(name);
      return false;
    }
    std::vector<Requirements> volume;
    if (!pvc->volume_name.empty()) {
      const PersistentVolume* pv = storage.Volume(pvc->volume_name);
      if (!pv) {
        *err = "getting existing requirements, getting persistent volume, " +
               NotFound("persistentvolumes", pvc->volume_name) + " (PersistentVolume=" + pvc->volume_name + ")";
        return false;
      }
      volume = VolumeAlternatives(*pv);
    } else if (const std::string& cls = pvc->ClassName(); !cls.empty()) {
      const StorageClass* sc = storage.Class(cls);
      if (!sc) {
        *err =
            "getting storage class, " + NotFound("storageclasses.storage.k8s.io", cls) + " (StorageClass=" + cls + ")";
        return false;
      }
      volume = ClassAlternatives(*sc);
    }
    if (volume.empty()) continue;
    alternatives = CrossAlternatives(alternatives, volume);
    any = true;
  }
  if (any) *out = std::move(alternatives);
  return true;
}

Volumes PodVolumes(const Pod& pod, const framework::VolumeCache& storage) {
  Volumes out;
  for (const auto& v : pod.volumes) {
    const std::string& name = ClaimName(v);
    if (name.empty()) continue;
    const PersistentVolumeClaim* pvc = storage.Claim(pod.meta.namespace_, name);
    if (!pvc) continue;  // deleted by hand: not counted
    std::string driver;
    if (!pvc->volume_name.empty()) {
      // ResolveDriver: a bound claim's driver is its PV's (driverFromVolume).
      const PersistentVolume* pv = storage.Volume(pvc->volume_name);
      if (!pv) continue;
      if (pv->source.kind == VolumeSource::Kind::Csi)
        driver = pv->source.driver;
      else if (pv->source.kind == VolumeSource::Kind::AwsElasticBlockStore)
        driver = "ebs.csi.aws.com";
    } else if (const StorageClass* sc = storage.Class(pvc->ClassName())) {
      driver = CSINameFromInTreeName(sc->provisioner);  // driverFromSC
    }
    if (!driver.empty()) out[driver].insert(pvc->Key());
  }
  return out;
}

std::string VolumeUsage::ExceedsLimits(const Volumes& pod) const {
  for (const auto& [driver, limit] : limits) {
    std::size_t count = 0;
    auto mine = volumes.find(driver);
    auto theirs = pod.find(driver);
    if (mine != volumes.end()) count = mine->second.size();
    if (theirs != pod.end())
      for (const auto& claim : theirs->second) count += mine == volumes.end() || !mine->second.count(claim);
    if (static_cast<std::int64_t>(count) > limit)
      return "would exceed volume limit (provisioner=" + driver + ", volume-count=" + std::to_string(count) +
             ", volume-limit=" + std::to_string(limit) + ")";
  }
  return "";
}

void VolumeUsage::Add(const Volumes& pod) {
  for (const auto& [driver, claims] : pod) volumes[driver].insert(claims.begin(), claims.end());
}

VolumeUsage NodeVolumeLimits(const std::string& node, const framework::VolumeCache& storage) {
  VolumeUsage u;
  if (const CSINode* n = storage.CSINodeOf(node))
    for (const auto& d : n->drivers)
      if (d.has_allocatable) u.limits[d.name] = d.allocatable_count.value_or(0);
  return u;
}

}  // namespace kplace::karpenter
