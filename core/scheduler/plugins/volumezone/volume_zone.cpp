#include "core/scheduler/plugins/volumezone/volume_zone.h"

#include <set>
#include <string>
#include <vector>

#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

using framework::Code;
using framework::Status;

// topologyLabels, in upstream's order: the deprecated beta keys, then the GA ones.
const char* const kTopologyLabels[] = {"failure-domain.beta.kubernetes.io/zone",
                                       "failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/zone",
                                       "topology.kubernetes.io/region"};

struct PVTopology {
  Symbol key = kEmptySymbol;
  std::set<std::string> values;
};

struct ZoneState : framework::StateData {
  std::vector<PVTopology> topologies;
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<ZoneState>(*this); }
};

// volumehelpers.LabelZonesToSet: "a__b" is {a, b}, each trimmed; an empty element makes the whole value invalid
// (then the label is ignored).
bool LabelZonesToSet(const std::string& value, std::set<std::string>& out) {
  std::size_t start = 0;
  while (true) {
    const std::size_t at = value.find("__", start);
    std::string part = value.substr(start, at == std::string::npos ? std::string::npos : at - start);
    const auto b = part.find_first_not_of(" \t\n\r\f\v");
    const auto e = part.find_last_not_of(" \t\n\r\f\v");
    if (b == std::string::npos) return false;
    out.insert(part.substr(b, e - b + 1));
    if (at == std::string::npos) return true;
    start = at + 2;
  }
}

// translateToGALabel: a beta key falls back to its GA key on the node (never the other way).
const char* GALabel(const std::string& key) {
  if (key == "failure-domain.beta.kubernetes.io/zone") return "topology.kubernetes.io/zone";
  if (key == "failure-domain.beta.kubernetes.io/region") return "topology.kubernetes.io/region";
  return nullptr;
}

class VolumeZone final : public framework::PreFilterPlugin, public framework::FilterPlugin {
 public:
  const char* Name() const override { return names::kVolumeZone; }
  // PersistentVolume / PersistentVolumeClaim / StorageClass changes, Node/Add (volume_zone.go EventsToRegister).
  framework::ClusterEvents EventsToRegister() const override {
    return framework::cluster_event::kVolumeUpdate | framework::cluster_event::kNodeAdd;
  }

  // getPVbyPod: the topology labels of each bound claim's PV; the first claim that cannot be resolved rejects.
  Status PreFilter(framework::CycleState& state, const framework::PodInfo& pod, const framework::Snapshot& snapshot,
                   framework::PreFilterResult&) override {
    const Pod& p = *pod.pod;
    auto st = std::make_unique<ZoneState>();
    const framework::VolumeCache& cache = *snapshot.volumes;
    for (const auto& v : p.volumes) {
      if (v.kind != PodVolume::Kind::PersistentVolumeClaim) continue;
      const PersistentVolumeClaim* c = cache.Claim(p.meta.namespace_, v.claim_name);
      if (!c)
        return Status(Code::UnschedulableAndUnresolvable, "persistentvolumeclaim \"" + v.claim_name + "\" not found");
      if (c->volume_name.empty()) {
        const std::string& cls = c->ClassName();
        if (cls.empty())
          return Status(Code::UnschedulableAndUnresolvable,
                        "PersistentVolumeClaim had no pv name and storageClass name");
        const StorageClass* sc = cache.Class(cls);
        if (!sc)
          return Status(Code::UnschedulableAndUnresolvable, "storageclass.storage.k8s.io \"" + cls + "\" not found");
        if (sc->volume_binding_mode == VolumeBindingMode::WaitForFirstConsumer) continue;
        return Status(Code::UnschedulableAndUnresolvable, "PersistentVolume had no name");
      }
      const PersistentVolume* pv = cache.Volume(c->volume_name);
      if (!pv)
        return Status(Code::UnschedulableAndUnresolvable, "persistentvolume \"" + c->volume_name + "\" not found");
      for (const char* key : kTopologyLabels) {
        const std::string* value = pv->meta.LabelValue(key);
        if (!value) continue;
        PVTopology t;
        t.key = Intern(key);
        if (LabelZonesToSet(*value, t.values)) st->topologies.push_back(std::move(t));
      }
    }
    if (st->topologies.empty()) return Status::Skip();
    state.Write(prefilter_slot, std::move(st));
    return {};
  }

  Status Filter(const framework::CycleState& state, const framework::PodInfo&,
                const framework::NodeInfo& node) const override {
    const auto* st = state.Read<ZoneState>(prefilter_slot);
    if (!st) return {};
    const Labels& labels = node.node->meta.labels;
    // A node without any of the labels: a single-zone cluster, nothing to compare.
    bool has_any = false;
    for (const char* key : kTopologyLabels) has_any = has_any || labels.Has(Intern(key));
    if (!has_any) return {};
    for (const auto& t : st->topologies) {
      auto v = labels.Get(t.key);
      if (!v)
        if (const char* ga = GALabel(Text(t.key))) v = labels.Get(Intern(ga));
      if (!v || !t.values.count(Text(*v)))
        return Status(Code::UnschedulableAndUnresolvable, kErrReasonVolumeZoneConflict);
    }
    return {};
  }
};

}  // namespace

std::unique_ptr<framework::Plugin> NewVolumeZone(const PluginArgs&, const Features&) {
  return std::make_unique<VolumeZone>();
}

}  // namespace kplace::plugins
