#include "core/sim/cluster_state.h"

namespace kplace::sim {

framework::NamespaceLabels BuildNamespaceLabels(const Scenario& sc) {
  framework::NamespaceLabels out;
  static const Symbol kNameLabel = Intern("kubernetes.io/metadata.name");
  auto implicit = [&](const std::string& ns) {
    Symbol s = Intern(ns);
    if (out.count(s)) return;
    Labels l;
    l.Set(kNameLabel, s);
    out[s] = l;
  };
  for (const auto& ns : sc.namespaces) out[Intern(ns.name)] = ns.labels;
  implicit("default");
  for (const auto& p : sc.pods) implicit(p.meta.namespace_);
  return out;
}

ClusterState::ClusterState(const Scenario& sc, const std::vector<std::int32_t>& priorities) {
  std::vector<const Node*> nodes;
  nodes.reserve(sc.nodes.size());
  for (const auto& n : sc.nodes) nodes.push_back(&n);
  framework::BuildNodeOrder(nodes, snapshot);
  snapshot.namespace_labels = BuildNamespaceLabels(sc);
  snapshot.workloads = &sc.workloads;
  infos_.reserve(sc.pods.size());
  bound_.assign(sc.pods.size(), nullptr);
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    infos_.push_back(framework::NewPodInfo(sc.pods[i], i < priorities.size() ? priorities[i] : 0,
                                           Features{sc.simulation.kubernetes_minor}));
  }
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    const Pod& p = sc.pods[i];
    if (p.node_name.empty() || p.Terminal() || !p.scheduling_gates.empty()) continue;
    if (auto* n = snapshot.Get(p.node_name)) Bind(i, *n);
  }
  snapshot.RefreshAffinityLists();
  // From here on every change to the snapshot's nodes goes through Bind, which logs it.
  snapshot.tracks_changes = true;
}

void ClusterState::Bind(std::size_t pod_index, framework::NodeInfo& node) {
  node.AddPod(infos_[pod_index].get());
  snapshot.changed_nodes.push_back(node.index);
  bound_[pod_index] = &node;
  const auto& info = *infos_[pod_index];
  if (info.HasAffinity()) snapshot.RefreshAffinityLists();
}

}  // namespace kplace::sim
