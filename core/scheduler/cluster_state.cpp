#include "core/scheduler/cluster_state.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace kplace {

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

ClusterState::ClusterState(const Scenario& sc, const std::vector<std::int32_t>& priorities,
                           std::shared_ptr<framework::VolumeCache> volumes)
    : volumes_(volumes ? std::move(volumes) : std::make_shared<framework::VolumeCache>(sc)), scenario_(&sc) {
  snapshot.volumes = volumes_.get();
  std::vector<const Node*> nodes;
  nodes.reserve(sc.nodes.size());
  for (const auto& n : sc.nodes) nodes.push_back(&n);
  framework::BuildNodeOrder(nodes, snapshot);
  snapshot.namespace_labels = BuildNamespaceLabels(sc);
  snapshot.workloads = &sc.workloads;
  infos_.reserve(sc.pods.size());
  bound_.assign(sc.pods.size(), nullptr);
  evicted_.assign(sc.pods.size(), false);
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    infos_.push_back(framework::NewPodInfo(sc.pods[i], i < priorities.size() ? priorities[i] : 0,
                                           Features(sc.simulation.kubernetes_minor)));
    infos_.back()->index = i;
  }
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    const Pod& p = sc.pods[i];
    if (p.node_name.empty() || p.Terminal() || !p.scheduling_gates.empty()) continue;
    if (auto* n = snapshot.Get(p.node_name)) Bind(i, *n);
  }
  snapshot.RefreshAffinityLists();
  // From here on every change to the snapshot's nodes goes through Bind / Evict, which log it.
  snapshot.tracks_changes = true;
  // Pending pods that carry status.nominatedNodeName enter the queue nominated (the nominator keeps them even
  // when the node does not exist). Pods of another scheduler never enter this scheduler's queue, so their
  // nominations reserve nothing here (responsibleForPod, eventhandlers.go). A gated pod's nomination counts from
  // 1.37 (kubernetes/kubernetes#139057: the queue records it before looking at the gates); before, only pods that
  // entered the active queue were nominated.
  const bool nominate_gated = Features(sc.simulation.kubernetes_minor).Enabled(Feature::NominatedGatedPods);
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    const Pod& p = sc.pods[i];
    if (!p.node_name.empty() || p.Terminal() || p.nominated_node_name.empty()) continue;
    if (!p.scheduling_gates.empty() && !nominate_gated) continue;
    if (sc.scheduler_config.ProfileIndex(p.scheduler_name) < 0) continue;
    const framework::NodeInfo* n = snapshot.Get(p.nominated_node_name);
    nominator.Add(infos_[i].get(), p.nominated_node_name, n ? n->node : nullptr);
  }
  IndexPdbPods();
  RefreshPdbs();
}

bool ClusterState::Evict(std::size_t pod_index) {
  framework::NodeInfo* node = bound_[pod_index];
  if (!node) return false;
  node->RemovePod(infos_[pod_index].get());
  snapshot.changed_nodes.push_back(node->index);
  bound_[pod_index] = nullptr;
  evicted_[pod_index] = true;
  if (infos_[pod_index]->HasAffinity()) snapshot.RefreshAffinityLists();
  return true;
}

namespace {

// GetScaledValueFromIntOrPercent with rounding up.
std::int64_t Scaled(const IntOrPercent& v, std::int64_t total) {
  if (!v.is_percent) return v.value;
  return (static_cast<std::int64_t>(v.value) * total + 99) / 100;
}

const OwnerReference* ControllerOf(const Pod& p) {
  for (const auto& r : p.meta.owner_references)
    if (r.controller) return &r;
  return nullptr;
}

// getExpectedScale for one controller: the scenario workload's spec.replicas (a ReplicaSet that kplace expanded
// from a Deployment is named after it), else the number of scenario pods it controls (controlled: by namespace,
// kind and name; the controller object is not in the scenario). nullopt: no scale (a DaemonSet), which fails the
// PDB safe (0 disruptions).
std::optional<std::int64_t> ControllerScale(
    const Scenario& sc, const std::string& ns, const OwnerReference& ref,
    const std::map<std::tuple<std::string, std::string, std::string>, std::int64_t>& controlled) {
  if (ref.kind == "DaemonSet") return std::nullopt;
  for (const auto& w : sc.workloads) {
    if (w.meta.namespace_ != ns || w.meta.name != ref.name) continue;
    if (w.kind == ref.kind || (ref.kind == "ReplicaSet" && w.kind == "Deployment")) return w.replicas;
  }
  auto it = controlled.find({ns, ref.kind, ref.name});
  return it == controlled.end() ? 0 : it->second;
}

}  // namespace

void ClusterState::IndexPdbPods() {
  const Scenario& sc = *scenario_;
  pdb_pods_.assign(sc.pdbs.size(), {});
  if (sc.pdbs.empty()) return;
  std::unordered_map<std::string_view, std::vector<std::size_t>> by_namespace;
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    const Pod& p = sc.pods[i];
    by_namespace[p.meta.namespace_].push_back(i);
    if (const OwnerReference* c = ControllerOf(p)) ++controlled_[{p.meta.namespace_, c->kind, c->name}];
  }
  // A selector's first In / Equals requirement narrows it to the pods carrying one of its values: the namespace's
  // pods are bucketed by that key's value once per (namespace, key).
  std::map<std::pair<std::string_view, Symbol>, std::unordered_map<Symbol, std::vector<std::size_t>>> by_label;
  for (std::size_t k = 0; k < sc.pdbs.size(); ++k) {
    const PodDisruptionBudget& pdb = sc.pdbs[k];
    auto ns = by_namespace.find(pdb.meta.namespace_);
    // The disruption controller (pkg/controller/disruption/disruption.go) selects with policy/v1 semantics: a
    // null selector selects nothing, an empty one every pod of the namespace.
    if (pdb.selector.nil || ns == by_namespace.end()) continue;
    const LabelRequirement* narrow = nullptr;
    for (const auto& r : pdb.selector.requirements)
      if (!narrow && (r.op == SelectorOp::In || r.op == SelectorOp::Equals)) narrow = &r;
    std::vector<std::size_t> candidates;
    if (!narrow) {
      candidates = ns->second;
    } else {
      auto [it, fresh] = by_label.try_emplace({ns->first, narrow->key});
      if (fresh)
        for (std::size_t i : ns->second)
          if (auto v = sc.pods[i].meta.labels.Get(narrow->key)) it->second[*v].push_back(i);
      std::vector<Symbol> values = narrow->values;
      std::sort(values.begin(), values.end());
      values.erase(std::unique(values.begin(), values.end()), values.end());
      for (Symbol v : values)
        if (auto b = it->second.find(v); b != it->second.end())
          candidates.insert(candidates.end(), b->second.begin(), b->second.end());
      std::sort(candidates.begin(), candidates.end());
    }
    for (std::size_t i : candidates)
      if (pdb.selector.Matches(sc.pods[i].meta.labels)) pdb_pods_[k].push_back(i);
  }
}

void ClusterState::RefreshPdbs() {
  pdbs.clear();
  const Scenario& sc = *scenario_;
  for (std::size_t k = 0; k < sc.pdbs.size(); ++k) {
    const PodDisruptionBudget& pdb = sc.pdbs[k];
    preemption::PdbBudget b;
    b.name = pdb.meta.name;
    b.namespace_ = Intern(pdb.meta.namespace_);
    b.selector = pdb.selector;
    b.disrupted_pods = pdb.disrupted_pods;
    auto disrupted = [&](const Pod& p) {
      return std::find(pdb.disrupted_pods.begin(), pdb.disrupted_pods.end(), p.meta.name) != pdb.disrupted_pods.end();
    };
    // The pods the PDB selects (IndexPdbPods), less those preemption deleted.
    std::vector<std::size_t> matching;
    std::int64_t evicted = 0;
    for (std::size_t i : pdb_pods_[k]) {
      if (evicted_[i]) {
        if (!disrupted(sc.pods[i])) ++evicted;
        continue;
      }
      matching.push_back(i);
    }
    if (pdb.disruptions_allowed) {
      // Given: as the controller last reported it, less the matching pods preemption deleted since.
      b.disruptions_allowed = static_cast<std::int32_t>(std::max<std::int64_t>(0, *pdb.disruptions_allowed - evicted));
      pdbs.push_back(std::move(b));
      continue;
    }
    // Derived as the controller does, on the pods as they are now (kplace assumes it has caught up).
    // countHealthyPods: bound, not being deleted, not already disrupted, Ready (a pod without a Ready condition
    // counts as ready: kplace's pods are running once bound).
    std::int64_t healthy = 0;
    for (std::size_t i : matching) {
      const Pod& p = sc.pods[i];
      if (bound_[i] && !p.Terminal() && !p.meta.deleting && !disrupted(p) && p.ready.value_or(true)) ++healthy;
    }
    // getExpectedPodCount: maxUnavailable and minAvailable percentages scale with the controllers' replicas
    // (pods without a controller are not counted); an integer minAvailable counts the matching pods.
    bool fail_safe = false;
    auto expected_scale = [&] {
      std::int64_t total = 0;
      std::vector<const OwnerReference*> seen;
      for (std::size_t i : matching) {
        const OwnerReference* ref = ControllerOf(sc.pods[i]);
        if (!ref) continue;
        bool dup = false;
        for (const auto* s : seen) dup = dup || (s->kind == ref->kind && s->name == ref->name);
        if (dup) continue;
        seen.push_back(ref);
        auto scale = ControllerScale(sc, pdb.meta.namespace_, *ref, controlled_);
        if (!scale) fail_safe = true;
        total += scale.value_or(0);
      }
      return total;
    };
    std::int64_t expected = 0, desired = 0;
    if (pdb.max_unavailable) {
      expected = expected_scale();
      desired = std::max<std::int64_t>(0, expected - Scaled(*pdb.max_unavailable, expected));
    } else if (pdb.min_available && !pdb.min_available->is_percent) {
      expected = static_cast<std::int64_t>(matching.size());
      desired = pdb.min_available->value;
    } else if (pdb.min_available) {
      expected = expected_scale();
      desired = Scaled(*pdb.min_available, expected);
    }
    // Neither field: policy/v1 has no default, expected and desired stay 0, so nothing may be disrupted.
    const std::int64_t allowed = healthy - desired;
    b.disruptions_allowed = (fail_safe || expected <= 0 || allowed <= 0) ? 0 : static_cast<std::int32_t>(allowed);
    pdbs.push_back(std::move(b));
  }
}

void ClusterState::Bind(std::size_t pod_index, framework::NodeInfo& node) {
  node.AddPod(infos_[pod_index].get());
  snapshot.changed_nodes.push_back(node.index);
  bound_[pod_index] = &node;
  const auto& info = *infos_[pod_index];
  if (info.HasAffinity()) snapshot.RefreshAffinityLists();
}

}  // namespace kplace
