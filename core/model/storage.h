// Storage objects of a scenario: what kube-scheduler's volume plugins and Karpenter's volume topology read.
// PersistentVolumeClaim and PersistentVolume (core/v1), StorageClass, CSINode and CSIDriver (storage.k8s.io/v1),
// and the volumes of a pod's spec. Field names follow the API; only the fields kplace reads are kept.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model/labels.h"
#include "core/model/meta.h"

namespace kplace {

// v1.PersistentVolumeAccessMode, as a bit set.
using AccessModes = std::uint8_t;
namespace access_mode {
inline constexpr AccessModes kReadWriteOnce = 1u << 0;
inline constexpr AccessModes kReadOnlyMany = 1u << 1;
inline constexpr AccessModes kReadWriteMany = 1u << 2;
inline constexpr AccessModes kReadWriteOncePod = 1u << 3;
}  // namespace access_mode

enum class VolumeMode : std::uint8_t { Filesystem, Block };
enum class VolumeBindingMode : std::uint8_t { Immediate, WaitForFirstConsumer };

// The parts of a volume source kube-scheduler compares (VolumeRestrictions' disk conflicts, NodeVolumeLimits'
// in-tree volumes it translates to CSI). Used by pod volumes and PersistentVolumes alike.
struct VolumeSource {
  enum class Kind : std::uint8_t {
    None,  // a source kplace does not look at (emptyDir, configMap, secret, hostPath, nfs, ...)
    GcePersistentDisk,
    AwsElasticBlockStore,
    AzureDisk,
    Cinder,
    Rbd,
    Iscsi,
    Csi,
  };
  Kind kind = Kind::None;
  bool read_only = false;
  // GCE pdName, AWS volumeID, Azure diskURI, Cinder volumeID, CSI volumeHandle (a PV's) or the volume's name (an
  // inline CSI volume); ISCSI: the IQN.
  std::string id;
  std::string driver;                 // CSI: spec.csi.driver
  std::vector<std::string> monitors;  // RBD: monitors
  std::string pool, image;            // RBD: pool (default "rbd"), image
  std::string target_portal;          // ISCSI
  std::int32_t lun = 0;               // ISCSI
};

struct PersistentVolumeClaim {
  ObjectMeta meta;
  AccessModes access_modes = 0;
  // spec.storageClassName: absent (nullopt, the default StorageClass is assigned at admission when there is one)
  // versus "" (explicitly no class: only PVs without a class bind).
  std::optional<std::string> storage_class_name;
  std::int64_t request_storage = 0;  // spec.resources.requests.storage, bytes
  VolumeMode volume_mode = VolumeMode::Filesystem;
  std::optional<LabelSelector> selector;  // spec.selector (static binding only)
  std::string volume_name;                // spec.volumeName: bound (or pre-bound) to this PV
  std::string selected_node;              // annotation volume.kubernetes.io/selected-node
  bool bind_completed = false;            // annotation pv.kubernetes.io/bind-completed present
  std::string phase;                      // status.phase (Pending, Bound, Lost)
  int item_index = -1;
  // Made by kplace as a controller would ("StatefulSet/<name>", "Pod/<name>" for an ephemeral volume's claim);
  // item_index is then that workload's or pod's item.
  std::string generated_for;
  // The StorageClass name the claim asks for ("" = none).
  const std::string& ClassName() const {
    static const std::string kEmpty;
    return storage_class_name ? *storage_class_name : kEmpty;
  }
  std::string Key() const { return meta.namespace_ + "/" + meta.name; }
};

// One entry of a pod's spec.volumes that kplace reads.
struct PodVolume {
  std::string name;
  enum class Kind : std::uint8_t {
    Other,                  // no claim: only source matters (VolumeRestrictions, NodeVolumeLimits for inline CSI)
    PersistentVolumeClaim,  // persistentVolumeClaim.claimName
    Ephemeral,              // ephemeral.volumeClaimTemplate: a claim named <pod>-<volume>, owned by the pod
  };
  Kind kind = Kind::Other;
  std::string claim_name;  // PersistentVolumeClaim: claimName; Ephemeral: <pod name>-<volume name>
  bool read_only = false;  // persistentVolumeClaim.readOnly
  VolumeSource source;     // Other only
  // Ephemeral: spec.ephemeral.volumeClaimTemplate (its metadata labels and spec), shared by a workload's pods.
  std::shared_ptr<const PersistentVolumeClaim> ephemeral_template;
};

struct ClaimReference {
  std::string namespace_, name, uid;
};

struct PersistentVolume {
  ObjectMeta meta;
  std::int64_t capacity_storage = 0;  // spec.capacity.storage, bytes
  AccessModes access_modes = 0;
  std::string storage_class_name;
  VolumeMode volume_mode = VolumeMode::Filesystem;
  std::optional<NodeSelector> node_affinity;  // spec.nodeAffinity.required
  std::optional<ClaimReference> claim_ref;    // spec.claimRef
  std::string phase;                          // status.phase (Available, Bound, Released, Failed)
  VolumeSource source;
  // spec.local or spec.hostPath: Karpenter ignores such a volume's hostname affinity (the pod may move with it).
  bool local_or_host_path = false;
  int item_index = -1;
};

struct StorageClass {
  ObjectMeta meta;
  std::string provisioner;
  VolumeBindingMode volume_binding_mode = VolumeBindingMode::Immediate;
  // allowedTopologies: terms ORed, each term's matchLabelExpressions ANDed (key In values).
  std::vector<NodeSelectorTerm> allowed_topologies;
  bool is_default = false;  // annotation storageclass.kubernetes.io/is-default-class: "true"
  int item_index = -1;
};

struct CSINodeDriver {
  std::string name;
  std::string node_id;
  std::optional<std::int32_t> allocatable_count;  // allocatable.count: attach limit (absent: no limit known)
  bool has_allocatable = false;                   // allocatable given (Karpenter reads a missing count as 0)
  std::vector<std::string> topology_keys;
};

// storage.k8s.io/v1 CSINode: named after its Node.
struct CSINode {
  ObjectMeta meta;
  std::vector<CSINodeDriver> drivers;
  int item_index = -1;
  const CSINodeDriver* Driver(const std::string& name) const {
    for (const auto& d : drivers)
      if (d.name == name) return &d;
    return nullptr;
  }
};

struct CSIDriver {
  ObjectMeta meta;
  bool attach_required = true;    // spec.attachRequired (default true)
  bool storage_capacity = false;  // spec.storageCapacity
  // spec.preventPodSchedulingIfMissing (1.36): with VolumeLimitScaling (1.37), a pod using the driver only fits
  // nodes whose CSINode lists it.
  bool prevent_pod_scheduling_if_missing = false;
  int item_index = -1;
};

// storage.k8s.io/v1 CSIStorageCapacity: what a CSI driver with storageCapacity can still provision for a class on
// the nodes its nodeTopology selects.
struct CSIStorageCapacity {
  ObjectMeta meta;
  std::string storage_class_name;
  std::optional<LabelSelector> node_topology;       // absent: no node has access
  std::optional<std::int64_t> capacity;             // bytes
  std::optional<std::int64_t> maximum_volume_size;  // bytes; when set, what a single volume may take
  int item_index = -1;
};

}  // namespace kplace
