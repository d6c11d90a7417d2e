// Storage: PersistentVolumeClaim and PersistentVolume (core/v1), StorageClass, CSINode and CSIDriver
// (storage.k8s.io/v1), and the volumes of a pod spec.

#include <algorithm>

#include "core/io/object_parsers.h"
#include "core/io/validate_pod.h"

namespace kplace::io {

namespace {

// metadata.annotations[key], or "".
std::string Annotation(const Json& obj, const char* key) {
  auto m = obj.find("metadata");
  if (m == obj.end() || !m->is_object()) return "";
  auto a = m->find("annotations");
  if (a == m->end() || !a->is_object()) return "";
  auto v = a->find(key);
  return v != a->end() && v->is_string() ? v->get<std::string>() : "";
}

bool HasAnnotation(const Json& obj, const char* key) {
  auto m = obj.find("metadata");
  if (m == obj.end() || !m->is_object()) return false;
  auto a = m->find("annotations");
  return a != m->end() && a->is_object() && a->contains(key);
}

// spec.accessModes: each one of the four modes (ValidatePersistentVolumeClaimSpec / ValidatePersistentVolumeSpec
// reject anything else with this list).
AccessModes ParseAccessModes(const Json* arr, const Reader& r) {
  AccessModes out = 0;
  if (!arr) return out;
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const std::string m = r.Index(i).AsString((*arr)[i]);
    if (m == "ReadWriteOnce")
      out |= access_mode::kReadWriteOnce;
    else if (m == "ReadOnlyMany")
      out |= access_mode::kReadOnlyMany;
    else if (m == "ReadWriteMany")
      out |= access_mode::kReadWriteMany;
    else if (m == "ReadWriteOncePod")
      out |= access_mode::kReadWriteOncePod;
    else
      r.Index(i).Fail(
          "Unsupported value: " + GoQuote(m) +
          ": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"");
  }
  return out;
}

VolumeMode ParseVolumeMode(const Json& spec, const Reader& s) {
  auto m = s.String(spec, "volumeMode");
  if (!m || *m == "Filesystem") return VolumeMode::Filesystem;
  if (*m == "Block") return VolumeMode::Block;
  s.Field("volumeMode").Fail("Unsupported value: " + GoQuote(*m) + ": supported values: \"Block\", \"Filesystem\"");
}

// A storage quantity in bytes (resources.requests.storage, capacity.storage).
std::int64_t StorageBytes(const Json& list, const Reader& r) {
  r.ExpectObject(list);
  auto it = list.find("storage");
  if (it == list.end() || it->is_null()) return 0;
  Quantity q = r.Field("storage").AsQuantity(*it);
  if (q.IsNegative()) r.Field("storage").Fail("must be greater than or equal to 0");
  return q.Value();
}

}  // namespace

VolumeSource ParseVolumeSource(const Json& v, const Reader& r) {
  VolumeSource src;
  auto read_only = [&](const Json& o, const Reader& at) { return at.Bool(o, "readOnly").value_or(false); };
  if (const Json* o = r.Object(v, "gcePersistentDisk")) {
    Reader at = r.Field("gcePersistentDisk");
    src.kind = VolumeSource::Kind::GcePersistentDisk;
    src.id = at.String(*o, "pdName").value_or("");
    src.read_only = read_only(*o, at);
  } else if (const Json* o = r.Object(v, "awsElasticBlockStore")) {
    Reader at = r.Field("awsElasticBlockStore");
    src.kind = VolumeSource::Kind::AwsElasticBlockStore;
    src.id = at.String(*o, "volumeID").value_or("");
    src.read_only = read_only(*o, at);
  } else if (const Json* o = r.Object(v, "azureDisk")) {
    Reader at = r.Field("azureDisk");
    src.kind = VolumeSource::Kind::AzureDisk;
    src.id = at.String(*o, "diskURI").value_or("");
    src.read_only = read_only(*o, at);
  } else if (const Json* o = r.Object(v, "cinder")) {
    Reader at = r.Field("cinder");
    src.kind = VolumeSource::Kind::Cinder;
    src.id = at.String(*o, "volumeID").value_or("");
    src.read_only = read_only(*o, at);
  } else if (const Json* o = r.Object(v, "rbd")) {
    Reader at = r.Field("rbd");
    src.kind = VolumeSource::Kind::Rbd;
    if (const Json* mons = at.Array(*o, "monitors"))
      for (std::size_t i = 0; i < mons->size(); ++i)
        src.monitors.push_back(at.Field("monitors").Index(i).AsString((*mons)[i]));
    src.pool = at.String(*o, "pool").value_or("rbd");  // defaulted by the API server (SetDefaults_RBDVolumeSource)
    src.image = at.String(*o, "image").value_or("");
    src.read_only = read_only(*o, at);
  } else if (const Json* o = r.Object(v, "iscsi")) {
    Reader at = r.Field("iscsi");
    src.kind = VolumeSource::Kind::Iscsi;
    src.id = at.String(*o, "iqn").value_or("");
    src.target_portal = at.String(*o, "targetPortal").value_or("");
    src.lun = static_cast<std::int32_t>(at.Int(*o, "lun", 0, 255).value_or(0));
    src.read_only = read_only(*o, at);
  } else if (const Json* o = r.Object(v, "csi")) {
    Reader at = r.Field("csi");
    src.kind = VolumeSource::Kind::Csi;
    src.driver = at.String(*o, "driver").value_or("");
    if (src.driver.empty()) at.Field("driver").Fail("Required value");
    src.id = at.String(*o, "volumeHandle").value_or("");
    src.read_only = read_only(*o, at);
  }
  return src;
}

std::vector<PodVolume> ParsePodVolumes(const Json& vols, const Reader& r) {
  std::vector<PodVolume> out;
  for (std::size_t i = 0; i < vols.size(); ++i) {
    Reader vr = r.Index(i);
    const Json& v = vols[i];
    vr.ExpectObject(v);
    PodVolume pv;
    pv.name = vr.String(v, "name").value_or("");
    if (const Json* c = vr.Object(v, "persistentVolumeClaim")) {
      Reader cr = vr.Field("persistentVolumeClaim");
      pv.kind = PodVolume::Kind::PersistentVolumeClaim;
      pv.claim_name = cr.String(*c, "claimName").value_or("");
      if (pv.claim_name.empty()) cr.Field("claimName").Fail("Required value");
      pv.read_only = cr.Bool(*c, "readOnly").value_or(false);
    } else if (const Json* e = vr.Object(v, "ephemeral")) {
      Reader er = vr.Field("ephemeral");
      const Json* t = er.Object(*e, "volumeClaimTemplate");
      if (!t) er.Field("volumeClaimTemplate").Fail("Required value");
      pv.kind = PodVolume::Kind::Ephemeral;
      pv.ephemeral_template =
          std::make_shared<const PersistentVolumeClaim>(ParseClaimTemplate(*t, er.Field("volumeClaimTemplate")));
    } else {
      pv.source = ParseVolumeSource(v, vr);
      if (pv.source.kind == VolumeSource::Kind::None) continue;
    }
    out.push_back(std::move(pv));
  }
  return out;
}

// A claim's metadata.labels and spec, without a name (ephemeral volumeClaimTemplate, a StatefulSet's
// volumeClaimTemplates entry keeps its name).
PersistentVolumeClaim ParseClaimTemplate(const Json& v, const Reader& r) {
  PersistentVolumeClaim c;
  r.ExpectObject(v);
  c.meta = ParseMeta(v, r, false, false);
  const Json* spec = r.Object(v, "spec");
  if (!spec) r.Field("spec").Fail("Required value");
  Reader s = r.Field("spec");
  c.access_modes = ParseAccessModes(s.Array(*spec, "accessModes"), s.Field("accessModes"));
  if (c.access_modes == 0) s.Field("accessModes").Fail("Required value: at least 1 access mode is required");
  if ((c.access_modes & access_mode::kReadWriteOncePod) && c.access_modes != access_mode::kReadWriteOncePod)
    s.Field("accessModes").Fail("Forbidden: may not use ReadWriteOncePod with other access modes");
  if (auto sc = s.String(*spec, "storageClassName")) c.storage_class_name = *sc;
  c.volume_mode = ParseVolumeMode(*spec, s);
  c.volume_name = s.String(*spec, "volumeName").value_or("");
  if (const Json* sel = s.Object(*spec, "selector")) c.selector = s.Field("selector").AsLabelSelector(*sel);
  const Json* res = s.Object(*spec, "resources");
  const Json* req = res ? s.Field("resources").Object(*res, "requests") : nullptr;
  if (req) c.request_storage = StorageBytes(*req, s.Field("resources").Field("requests"));
  if (!req || !req->contains("storage")) s.Field("resources[storage]").Fail("Required value");
  if (req && c.request_storage == 0)
    s.Field("resources[storage]").Fail("Invalid value: \"0\": must be greater than zero");
  return c;
}

PersistentVolumeClaim ParsePersistentVolumeClaim(const Json& v, const Reader& r) {
  PersistentVolumeClaim c = ParseClaimTemplate(v, r);
  c.meta = ParseMeta(v, r, true, true);
  c.selected_node = Annotation(v, "volume.kubernetes.io/selected-node");
  c.bind_completed = HasAnnotation(v, "pv.kubernetes.io/bind-completed");
  // The beta annotation wins over spec.storageClassName (component-helpers storage/volume
  // GetPersistentVolumeClaimClass).
  if (HasAnnotation(v, "volume.beta.kubernetes.io/storage-class"))
    c.storage_class_name = Annotation(v, "volume.beta.kubernetes.io/storage-class");
  if (const Json* st = r.Object(v, "status")) c.phase = r.Field("status").String(*st, "phase").value_or("");
  return c;
}

PersistentVolume ParsePersistentVolume(const Json& v, const Reader& r) {
  PersistentVolume pv;
  r.ExpectObject(v);
  pv.meta = ParseMeta(v, r, false, true);
  const Json* spec = r.Object(v, "spec");
  if (!spec) r.Field("spec").Fail("Required value");
  Reader s = r.Field("spec");
  pv.access_modes = ParseAccessModes(s.Array(*spec, "accessModes"), s.Field("accessModes"));
  if (pv.access_modes == 0) s.Field("accessModes").Fail("Required value: at least 1 access mode is required");
  const Json* cap = s.Object(*spec, "capacity");
  if (!cap || !cap->contains("storage")) s.Field("capacity").Fail("Required value");
  pv.capacity_storage = StorageBytes(*cap, s.Field("capacity"));
  pv.storage_class_name = s.String(*spec, "storageClassName").value_or("");
  if (HasAnnotation(v, "volume.beta.kubernetes.io/storage-class"))
    pv.storage_class_name = Annotation(v, "volume.beta.kubernetes.io/storage-class");
  pv.volume_mode = ParseVolumeMode(*spec, s);
  if (const Json* na = s.Object(*spec, "nodeAffinity")) {
    Reader nr = s.Field("nodeAffinity");
    if (const Json* req = nr.Object(*na, "required")) {
      Reader rr = nr.Field("required");
      // The API server validates it on create (validateVolumeNodeAffinity, invalid label values not allowed).
      ValidateNodeSelector(*req, false, rr);
      NodeSelector sel;
      const Json* terms = rr.Array(*req, "nodeSelectorTerms");
      if (!terms || terms->empty())
        rr.Field("nodeSelectorTerms").Fail("Required value: must have at least one node selector term");
      for (std::size_t i = 0; i < terms->size(); ++i)
        sel.terms.push_back(rr.Field("nodeSelectorTerms").Index(i).AsNodeSelectorTerm((*terms)[i]));
      pv.node_affinity = std::move(sel);
    }
  }
  if (const Json* ref = s.Object(*spec, "claimRef")) {
    Reader cr = s.Field("claimRef");
    ClaimReference c;
    c.namespace_ = cr.String(*ref, "namespace").value_or("");
    c.name = cr.String(*ref, "name").value_or("");
    c.uid = cr.String(*ref, "uid").value_or("");
    pv.claim_ref = std::move(c);
  }
  pv.source = ParseVolumeSource(*spec, s);
  pv.local_or_host_path = s.Object(*spec, "local") != nullptr || s.Object(*spec, "hostPath") != nullptr;
  if (pv.source.kind == VolumeSource::Kind::Csi && pv.source.id.empty())
    s.Field("csi").Field("volumeHandle").Fail("Required value");
  if (const Json* st = r.Object(v, "status")) pv.phase = r.Field("status").String(*st, "phase").value_or("");
  return pv;
}

StorageClass ParseStorageClass(const Json& v, const Reader& r) {
  StorageClass sc;
  r.ExpectObject(v);
  sc.meta = ParseMeta(v, r, false, true);
  sc.provisioner = r.String(v, "provisioner").value_or("");
  if (sc.provisioner.empty()) r.Field("provisioner").Fail("Required value");
  if (auto m = r.String(v, "volumeBindingMode")) {
    if (*m == "WaitForFirstConsumer")
      sc.volume_binding_mode = VolumeBindingMode::WaitForFirstConsumer;
    else if (*m != "Immediate")
      r.Field("volumeBindingMode")
          .Fail("Unsupported value: " + GoQuote(*m) + ": supported values: \"Immediate\", \"WaitForFirstConsumer\"");
  }
  if (const Json* topos = r.Array(v, "allowedTopologies")) {
    for (std::size_t i = 0; i < topos->size(); ++i) {
      Reader tr = r.Field("allowedTopologies").Index(i);
      const Json& t = (*topos)[i];
      tr.ExpectObject(t);
      NodeSelectorTerm term;
      const Json* exprs = tr.Array(t, "matchLabelExpressions");
      if (!exprs || exprs->empty())
        tr.Field("matchLabelExpressions").Fail("Required value: must have at least one label expression");
      for (std::size_t j = 0; j < exprs->size(); ++j) {
        Reader er = tr.Field("matchLabelExpressions").Index(j);
        const Json& e = (*exprs)[j];
        er.ExpectObject(e);
        // v1.TopologySelectorLabelRequirement: key In values.
        const std::string key = er.String(e, "key").value_or("");
        std::vector<std::string> values;
        if (const Json* vals = er.Array(e, "values"))
          for (std::size_t k = 0; k < vals->size(); ++k)
            values.push_back(er.Field("values").Index(k).AsString((*vals)[k]));
        if (values.empty()) er.Field("values").Fail("Required value: must specify as least one value");
        std::vector<FieldError> errors;
        term.match_expressions.push_back(NewRequirement(key, SelectorOp::In, values, er.path(), errors));
        if (!errors.empty()) er.Fail(AggregateError(errors));
      }
      sc.allowed_topologies.push_back(std::move(term));
    }
  }
  sc.is_default = Annotation(v, "storageclass.kubernetes.io/is-default-class") == "true";
  return sc;
}

CSINode ParseCSINode(const Json& v, const Reader& r) {
  CSINode n;
  r.ExpectObject(v);
  n.meta = ParseMeta(v, r, false, true);
  if (const Json* spec = r.Object(v, "spec")) {
    Reader s = r.Field("spec");
    if (const Json* drivers = s.Array(*spec, "drivers")) {
      for (std::size_t i = 0; i < drivers->size(); ++i) {
        Reader dr = s.Field("drivers").Index(i);
        const Json& d = (*drivers)[i];
        dr.ExpectObject(d);
        CSINodeDriver drv;
        drv.name = dr.String(d, "name").value_or("");
        if (drv.name.empty()) dr.Field("name").Fail("Required value");
        drv.node_id = dr.String(d, "nodeID").value_or("");
        if (const Json* alloc = dr.Object(d, "allocatable")) {
          drv.has_allocatable = true;
          if (auto c = dr.Field("allocatable").Int(*alloc, "count", 0, INT32_MAX))
            drv.allocatable_count = static_cast<std::int32_t>(*c);
        }
        if (const Json* keys = dr.Array(d, "topologyKeys"))
          for (std::size_t k = 0; k < keys->size(); ++k)
            drv.topology_keys.push_back(dr.Field("topologyKeys").Index(k).AsString((*keys)[k]));
        for (const auto& other : n.drivers)
          if (other.name == drv.name) dr.Field("name").Fail("Duplicate value: " + GoQuote(drv.name));
        n.drivers.push_back(std::move(drv));
      }
    }
  }
  return n;
}

CSIDriver ParseCSIDriver(const Json& v, const Reader& r) {
  CSIDriver d;
  r.ExpectObject(v);
  d.meta = ParseMeta(v, r, false, true);
  if (const Json* spec = r.Object(v, "spec")) {
    Reader s = r.Field("spec");
    d.attach_required = s.Bool(*spec, "attachRequired").value_or(true);
    d.storage_capacity = s.Bool(*spec, "storageCapacity").value_or(false);
    d.prevent_pod_scheduling_if_missing = s.Bool(*spec, "preventPodSchedulingIfMissing").value_or(false);
  }
  return d;
}

CSIStorageCapacity ParseCSIStorageCapacity(const Json& v, const Reader& r) {
  CSIStorageCapacity c;
  r.ExpectObject(v);
  c.meta = ParseMeta(v, r, true, true);
  c.storage_class_name = r.String(v, "storageClassName").value_or("");
  if (c.storage_class_name.empty()) r.Field("storageClassName").Fail("Required value");
  if (const Json* sel = r.Object(v, "nodeTopology")) c.node_topology = r.Field("nodeTopology").AsLabelSelector(*sel);
  auto quantity = [&](const char* name) -> std::optional<std::int64_t> {
    auto it = v.find(name);
    if (it == v.end() || it->is_null()) return std::nullopt;
    Quantity q = r.Field(name).AsQuantity(*it);
    if (q.IsNegative()) r.Field(name).Fail("must be greater than or equal to 0");
    return q.Value();
  };
  c.capacity = quantity("capacity");
  c.maximum_volume_size = quantity("maximumVolumeSize");
  return c;
}

}  // namespace kplace::io
