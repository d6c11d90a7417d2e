// PodTopologySpread internals shared by filtering and scoring: constraint building (upstream
// plugins/podtopologyspread/{plugin.go getConstraints, common.go}), default selectors (plugins/helper/spread.go),
// node inclusion policies and pod counting.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/objects.h"
#include "core/scheduler/framework/types.h"

namespace kplace::plugins::podtopologyspread {

// topologySpreadConstraint: one constraint with its selector resolved for the incoming pod.
struct Constraint {
  std::int32_t max_skew = 1;
  Symbol key = kEmptySymbol;
  LabelSelector selector;  // nil = labels.Nothing()
  std::int32_t min_domains = 1;
  bool honor_node_affinity = true;
  bool honor_node_taints = false;
  // False when counting is skipped: a nil selector matches nothing, and common.go countPodsMatchSelector returns 0
  // for an empty selector ({} = Everything) without looking at pods.
  bool counts = false;
};

// The defaults of the plugin: System = hostname maxSkew 3 + zone maxSkew 5 ScheduleAnyway; List = the args.
struct DefaultConstraints {
  bool system_defaulted = true;
  std::vector<TopologySpreadConstraint> constraints;
};

// getConstraints: the pod's own constraints with the given whenUnsatisfiable, or (only when the pod has none at all)
// the default constraints of that kind with DefaultSelector(pod). Empty when nothing applies.
std::vector<Constraint> BuildConstraints(const Pod& pod, const DefaultConstraints& defaults, UnsatisfiableAction action,
                                         const std::vector<Workload>* workloads);

// helper.DefaultSelector: the Services selecting the pod merged into one label set, ANDed with the selector of the
// pod's controlling ReplicaSet / StatefulSet (a Deployment's pods name a ReplicaSet after the Deployment).
LabelSelector DefaultSelector(const Pod& pod, const std::vector<Workload>* workloads);

// Identical selectors (same requirements in the same order).
bool SameSelector(const LabelSelector& a, const LabelSelector& b);

// nodeLabelsMatchSpreadConstraints: the node has every constraint's topology key.
bool NodeHasAllKeys(const Labels& labels, const std::vector<Constraint>& constraints);

// matchNodeInclusionPolicies for one incoming pod: evaluates the node affinity / taint checks once per node, only
// when some constraint honours them.
class NodeInclusion {
 public:
  NodeInclusion(const Pod& pod, const std::vector<Constraint>& constraints);
  struct Result {
    bool affinity_ok = true;
    bool taints_ok = true;
  };
  // False when no policy check applies to this pod: every node is included.
  bool active() const { return check_affinity_ || check_taints_; }
  bool check_affinity() const { return check_affinity_; }
  bool check_taints() const { return check_taints_; }
  Result Evaluate(const Node& node) const;
  static bool Included(const Constraint& c, Result r) {
    return (!c.honor_node_affinity || r.affinity_ok) && (!c.honor_node_taints || r.taints_ok);
  }

 private:
  const Pod& pod_;
  bool check_affinity_ = false;
  bool check_taints_ = false;
};

// countPodsMatchSelector: non-terminating pods of namespace ns on the node that the constraint's selector matches.
inline int CountMatchingPods(const framework::NodeInfo& node, const Constraint& c, Symbol ns) {
  if (!c.counts) return 0;
  int n = 0;
  for (const framework::PodInfo* p : node.pods) {
    if (p->namespace_ != ns || p->pod->meta.deleting) continue;
    if (c.selector.Matches(p->pod->meta.labels)) ++n;
  }
  return n;
}

// A Symbol -> dense id map reused across cycles (no hashing, no allocation once grown). Ids are given in insertion
// order; keys() lists the inserted Symbols by id. Clear() resets only the touched entries.
class SymbolIndex {
 public:
  std::int32_t Find(Symbol s) const { return s < slot_.size() ? slot_[s] : -1; }
  // The id of s, inserting it with the next id when absent.
  std::int32_t FindOrAdd(Symbol s) {
    if (s >= slot_.size()) slot_.resize(static_cast<std::size_t>(s) + 1 + slot_.size() / 2, -1);
    std::int32_t& slot = slot_[s];
    if (slot < 0) {
      slot = static_cast<std::int32_t>(keys_.size());
      keys_.push_back(s);
    }
    return slot;
  }
  std::size_t size() const { return keys_.size(); }
  const std::vector<Symbol>& keys() const { return keys_; }
  void Clear() {
    for (Symbol s : keys_) slot_[s] = -1;
    keys_.clear();
  }

 private:
  std::vector<std::int32_t> slot_;
  std::vector<Symbol> keys_;
};

// The position of node in the snapshot the state was built from, or -1 when node is not that snapshot's node at
// node.index (then callers fall back to looking the node's label values up).
inline std::int64_t SnapshotSlot(const framework::NodeInfo* base, std::size_t num_nodes,
                                 const framework::NodeInfo& node) {
  auto idx = static_cast<std::size_t>(node.index);
  if (node.index < 0 || idx >= num_nodes || base[idx].node != node.node) return -1;
  return static_cast<std::int64_t>(idx);
}

}  // namespace kplace::plugins::podtopologyspread
