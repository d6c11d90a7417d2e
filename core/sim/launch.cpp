#include "core/sim/launch.h"

#include <cstdio>
#include <unordered_set>

#include "core/scheduler/plugins/nodedeclaredfeatures/node_declared_features.h"

namespace kplace::sim {

Node NodeForClaim(const Scenario& sc, const karpenter::ClaimOutcome& claim) {
  Node n;
  n.meta.name = claim.name;
  n.name_symbol = Intern(claim.name);
  for (const auto& [k, v] : claim.labels) n.meta.labels.Set(Intern(k), Intern(v));
  auto set_default = [&](const char* key, const std::string& value) {
    if (!value.empty() && !n.meta.labels.Has(Intern(key))) n.meta.labels.Set(Intern(key), Intern(value));
  };
  set_default("karpenter.sh/nodepool", claim.node_pool);
  set_default("node.kubernetes.io/instance-type", claim.instance_type);
  set_default("topology.kubernetes.io/zone", claim.zone);
  set_default("karpenter.sh/capacity-type", claim.capacity_type);
  set_default("kubernetes.io/os", "linux");
  // Set by the kubelet and by Karpenter's registration / initialization.
  n.meta.labels.Set(Intern("kubernetes.io/hostname"), n.name_symbol);
  n.meta.labels.Set(Intern("karpenter.sh/registered"), Intern("true"));
  n.meta.labels.Set(Intern("karpenter.sh/initialized"), Intern("true"));
  n.taints = claim.taints;
  // Its kubelet, of the scenario's release, declares the node features it has (status.declaredFeatures).
  n.declared_features = plugins::KubeletDeclaredFeatures(Features(sc.simulation.kubernetes_minor));
  for (const auto& t : sc.instance_types) {
    if (t.meta.name != claim.instance_type) continue;
    n.capacity = t.capacity;
    n.allocatable = t.capacity;
    n.allocatable.Add(t.overhead, -1);
  }
  return n;
}

std::optional<CSINode> LaunchedNodeCSINode(const Scenario& sc) {
  std::unordered_set<std::string> nodes;
  for (const auto& n : sc.nodes) nodes.insert(n.meta.name);
  std::vector<const CSINode*> all;  // the CSINodes of Nodes, in input order
  for (const auto& c : sc.csi_nodes)
    if (nodes.count(c.meta.name)) all.push_back(&c);
  if (all.empty()) return std::nullopt;
  CSINode out;
  for (const auto& d : all.front()->drivers) {
    bool everywhere = true;
    for (const CSINode* c : all) everywhere = everywhere && c->Driver(d.name) != nullptr;
    if (!everywhere) continue;
    CSINodeDriver copy;
    copy.name = d.name;
    copy.topology_keys = d.topology_keys;
    out.drivers.push_back(std::move(copy));
  }
  if (out.drivers.empty()) return std::nullopt;
  return out;
}

std::string TaintsText(const std::vector<Taint>& taints) {
  std::string out;
  for (const auto& t : taints) {
    if (!out.empty()) out += ", ";
    out += Text(t.key);
    if (t.value != kEmptySymbol) out += "=" + Text(t.value);
    out += ":";
    out += EffectName(t.effect);
  }
  return out;
}

std::string LaunchMessage(const karpenter::ClaimOutcome& claim) {
  char price[32];
  std::snprintf(price, sizeof price, "%.4f", claim.price);
  std::string msg = "Launched " + claim.instance_type + " (" + claim.capacity_type + ", " + claim.zone + ", $" + price +
                    "/h) from NodePool " + claim.node_pool + " for " + std::to_string(claim.pods.size()) + " pod";
  if (claim.pods.size() != 1) msg += "s";
  return msg;
}

}  // namespace kplace::sim
