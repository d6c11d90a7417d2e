#include "core/scheduler/plugins/podtopologyspread/common.h"

#include "core/model/taint.h"
#include "core/scheduler/plugins/helper/node_affinity_match.h"

namespace kplace::plugins::podtopologyspread {
namespace {

bool SameRequirement(const LabelRequirement& a, const LabelRequirement& b) {
  return a.key == b.key && a.op == b.op && a.values == b.values && a.number == b.number;
}

// filterTopologySpreadConstraints for one entry (common.go). matchLabelKeys (MatchLabelKeysInPodTopologySpread, on
// in 1.33-1.35): the pod's values of the listed keys are ANDed with the selector; a nil selector stays Nothing
// (mergeLabelSetWithSelector keeps a selector without requirements).
Constraint FromApi(const TopologySpreadConstraint& c, const Labels& pod_labels) {
  Constraint out;
  out.max_skew = c.max_skew;
  out.key = c.topology_key;
  out.selector = c.label_selector;
  out.min_domains = c.min_domains.value_or(1);
  out.honor_node_affinity = c.node_affinity_policy == InclusionPolicy::Honor;
  out.honor_node_taints = c.node_taints_policy == InclusionPolicy::Honor;
  if (!out.selector.nil && !c.match_label_keys.empty()) {
    std::vector<LabelRequirement> merged;
    for (Symbol k : c.match_label_keys)
      if (auto v = pod_labels.Get(k)) merged.push_back({k, SelectorOp::In, {*v}, 0});
    if (!merged.empty()) {
      merged.insert(merged.end(), out.selector.requirements.begin(), out.selector.requirements.end());
      out.selector.requirements = std::move(merged);
    }
  }
  return out;
}

const Workload* FindWorkload(const std::vector<Workload>& workloads, const char* kind, const std::string& ns,
                             const std::string& name) {
  for (const auto& w : workloads)
    if (w.kind == kind && w.meta.name == name && w.meta.namespace_ == ns) return &w;
  return nullptr;
}

}  // namespace

LabelSelector DefaultSelector(const Pod& pod, const std::vector<Workload>* workloads) {
  LabelSelector sel = LabelSelector::Everything();
  if (!workloads) return sel;
  const std::string& ns = pod.meta.namespace_;
  // GetPodServices: Services of the namespace with a non-nil selector matching the pod; their selectors merged.
  Labels set;
  for (const auto& w : *workloads) {
    if (w.kind != "Service" || w.meta.namespace_ != ns || w.selector.nil) continue;
    if (!w.selector.Matches(pod.meta.labels)) continue;
    for (const auto& r : w.selector.requirements) set.Set(r.key, r.values.front());
  }
  for (const auto& [k, v] : set.entries()) sel.requirements.push_back({k, SelectorOp::In, {v}, 0});
  // The controller owner (metav1.GetControllerOfNoCopy): apps/v1 ReplicaSet / StatefulSet selectors are ANDed.
  // ReplicationControllers are not modelled; other kinds contribute nothing.
  const OwnerReference* owner = nullptr;
  for (const auto& ref : pod.meta.owner_references) {
    if (ref.controller) {
      owner = &ref;
      break;
    }
  }
  if (!owner || owner->api_version != "apps/v1") return sel;
  const Workload* w = nullptr;
  if (owner->kind == "ReplicaSet") {
    w = FindWorkload(*workloads, "ReplicaSet", ns, owner->name);
    // kplace expands a Deployment into pods owned by a ReplicaSet named after it.
    if (!w) w = FindWorkload(*workloads, "Deployment", ns, owner->name);
  } else if (owner->kind == "StatefulSet") {
    w = FindWorkload(*workloads, "StatefulSet", ns, owner->name);
  }
  if (w && !w->selector.nil)
    sel.requirements.insert(sel.requirements.end(), w->selector.requirements.begin(), w->selector.requirements.end());
  return sel;
}

std::vector<Constraint> BuildConstraints(const Pod& pod, const DefaultConstraints& defaults, UnsatisfiableAction action,
                                         const std::vector<Workload>* workloads) {
  std::vector<Constraint> out;
  const Labels& labels = pod.meta.labels;
  if (!pod.topology_spread_constraints.empty()) {
    for (const auto& c : pod.topology_spread_constraints)
      if (c.when_unsatisfiable == action) out.push_back(FromApi(c, labels));
  } else {
    // buildDefaultConstraints: defaults only apply to pods without any constraint of their own.
    for (const auto& c : defaults.constraints)
      if (c.when_unsatisfiable == action) out.push_back(FromApi(c, labels));
    if (out.empty()) return out;
    LabelSelector sel = DefaultSelector(pod, workloads);
    if (sel.requirements.empty()) return {};
    for (auto& c : out) c.selector = sel;
  }
  for (auto& c : out) c.counts = !c.selector.nil && !c.selector.requirements.empty();
  return out;
}

bool SameSelector(const LabelSelector& a, const LabelSelector& b) {
  if (a.nil != b.nil || a.requirements.size() != b.requirements.size()) return false;
  for (std::size_t i = 0; i < a.requirements.size(); ++i)
    if (!SameRequirement(a.requirements[i], b.requirements[i])) return false;
  return true;
}

bool NodeHasAllKeys(const Labels& labels, const std::vector<Constraint>& constraints) {
  for (const auto& c : constraints)
    if (!labels.Has(c.key)) return false;
  return true;
}

NodeInclusion::NodeInclusion(const Pod& pod, const std::vector<Constraint>& constraints) : pod_(pod) {
  bool has_affinity = helper::HasRequiredNodeAffinity(pod);
  for (const auto& c : constraints) {
    check_affinity_ |= c.honor_node_affinity && has_affinity;
    check_taints_ |= c.honor_node_taints;
  }
}

NodeInclusion::Result NodeInclusion::Evaluate(const Node& node) const {
  Result r;
  if (check_affinity_) r.affinity_ok = helper::MatchesRequiredNodeAffinity(pod_, node);
  // helper.DoNotScheduleTaintsFilterFunc: only NoSchedule / NoExecute taints exclude a node.
  if (check_taints_) {
    r.taints_ok = FindUntoleratedTaint(node.taints, pod_.tolerations, [](const Taint& t) {
                    return t.effect == TaintEffect::NoSchedule || t.effect == TaintEffect::NoExecute;
                  }) == nullptr;
  }
  return r;
}

}  // namespace kplace::plugins::podtopologyspread
