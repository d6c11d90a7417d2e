#include "core/karpenter/limits.h"

#include <algorithm>

namespace kplace::karpenter {
namespace {

Symbol NodesKey() {
  static const Symbol k = Intern("nodes");
  return k;
}

void SetNamed(Resource& r, Symbol name, std::int64_t v) {
  if (name == resource_names::Cpu())
    r.milli_cpu = v;
  else if (name == resource_names::Memory())
    r.memory = v;
  else if (name == resource_names::EphemeralStorage())
    r.ephemeral_storage = v;
  else if (name == resource_names::Pods())
    r.allowed_pod_number = v;
  else
    r.SetScalar(name, v);
}

}  // namespace

Limits BuildLimits(const Scenario& sc, const std::set<std::string>* excluded) {
  static const Symbol kNodePool = Intern("karpenter.sh/nodepool");
  Limits out;
  for (const auto& p : sc.node_pools) {
    if (!p.limits) continue;
    PoolRemaining& r = out[p.meta.name];
    r.keys = p.limit_keys;
    r.remaining = *p.limits;
  }
  std::vector<const Node*> all;  // Nodes and the NodeClaims in flight: both count (cluster state's nodepool usage)
  for (const auto& n : sc.nodes) all.push_back(&n);
  for (const auto& n : sc.in_flight_node_claims) all.push_back(&n);
  for (const Node* np : all) {
    const Node& n = *np;
    if (n.meta.deleting || (excluded && excluded->count(n.meta.name))) continue;
    auto pool = n.meta.labels.Get(kNodePool);
    if (!pool) continue;
    auto it = out.find(Text(*pool));
    if (it == out.end()) continue;
    Resource cap = n.capacity.value_or(n.allocatable);
    cap.SetScalar(NodesKey(), cap.Scalar(NodesKey()) + 1);
    for (Symbol k : it->second.keys) SetNamed(it->second.remaining, k, it->second.remaining.Get(k) - cap.Get(k));
  }
  return out;
}

std::string LimitOptions(const Limits& limits, const Template& t, const std::vector<KType>& catalogue,
                         std::vector<int>* out) {
  out->clear();
  auto it = limits.find(t.name);
  if (it == limits.end()) {
    *out = t.types;
    return "";
  }
  const PoolRemaining& r = it->second;
  const bool has_nodes = std::find(r.keys.begin(), r.keys.end(), NodesKey()) != r.keys.end();
  if (has_nodes && r.remaining.Get(NodesKey()) == 0)
    return "node limits have been exhausted for nodepool (NodePool=" + t.name + ")";
  for (int idx : t.types) {
    const KType& type = catalogue[static_cast<std::size_t>(idx)];
    bool exceeds =
        std::any_of(r.keys.begin(), r.keys.end(), [&](Symbol k) { return type.capacity.Get(k) > r.remaining.Get(k); });
    if (!exceeds) out->push_back(idx);
  }
  if (out->empty()) return "all available instance types exceed limits for nodepool (NodePool=" + t.name + ")";
  return "";
}

void ConsumeLimits(Limits& limits, const Template& t, const std::vector<KType>& catalogue,
                   const std::vector<int>& options) {
  auto it = limits.find(t.name);
  if (it == limits.end()) return;
  PoolRemaining& r = it->second;
  for (Symbol k : r.keys) {
    std::int64_t max = 0;
    for (int idx : options) max = std::max(max, catalogue[static_cast<std::size_t>(idx)].capacity.Get(k));
    SetNamed(r.remaining, k, r.remaining.Get(k) - max);
  }
}

}  // namespace kplace::karpenter
