#include "core/scheduler/explanation.h"

namespace kplace {
namespace {

// kubectl describe's node selector requirement: "<key> <operator in lower case> [<values joined by ", ">]".
std::string RequirementText(const LabelRequirement& r) {
  static const char* kOps[] = {"in", "notin", "exists", "doesnotexist", "gt", "lt", "in"};
  std::string out = Text(r.key) + " " + kOps[static_cast<int>(r.op)];
  if (r.op == SelectorOp::Exists || r.op == SelectorOp::DoesNotExist) return out;
  out += " [";
  for (std::size_t i = 0; i < r.values.size(); ++i) out += (i ? ", " : "") + Text(r.values[i]);
  return out + "]";
}

std::string NodeAffinityText(const NodeSelector& sel) {
  std::string out;
  for (std::size_t t = 0; t < sel.terms.size(); ++t) {
    out += (t ? "; " : "") + std::string("Term ") + std::to_string(t) + ": ";
    std::string exprs;
    for (const auto& e : sel.terms[t].match_expressions) exprs += (exprs.empty() ? "" : ", ") + RequirementText(e);
    for (const auto& f : sel.terms[t].match_fields) exprs += (exprs.empty() ? "" : ", ") + RequirementText(f);
    out += exprs;
  }
  return out;
}

}  // namespace

std::vector<ClaimRecord> DescribeClaims(const Pod& pod, const framework::VolumeCache& volumes) {
  std::vector<ClaimRecord> out;
  for (const auto& v : pod.volumes) {
    if (v.kind == PodVolume::Kind::Other) continue;
    ClaimRecord r;
    r.claim = v.claim_name;
    const PersistentVolumeClaim* c = volumes.Claim(pod.meta.namespace_, v.claim_name);
    if (!c) {
      r.status = "not found";
      out.push_back(std::move(r));
      continue;
    }
    r.status = c->meta.deleting            ? "being deleted"
               : c->phase == "Lost"        ? "Lost"
               : framework::FullyBound(*c) ? "Bound"
                                           : "Pending";
    r.storage_class = c->ClassName();
    if (!r.storage_class.empty()) {
      const StorageClass* cls = volumes.Class(r.storage_class);
      r.binding_mode = !cls                                                                  ? "class not found"
                       : cls->volume_binding_mode == VolumeBindingMode::WaitForFirstConsumer ? "WaitForFirstConsumer"
                                                                                             : "Immediate";
    }
    r.volume = c->volume_name;
    if (const PersistentVolume* pv = r.volume.empty() ? nullptr : volumes.Volume(r.volume); pv && pv->node_affinity)
      r.volume_node_affinity = NodeAffinityText(*pv->node_affinity);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace kplace
