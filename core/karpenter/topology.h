// Topology for Karpenter's provisioning (sched/topology.go, topologygroup.go, topologynodefilter.go,
// topologydomaingroup.go): topology spread and pod (anti-)affinity groups over domains from the NodePools'
// instance types and the cluster's nodes, counting running pods, narrowing a node's or claim's requirements.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/karpenter/catalogue.h"
#include "core/karpenter/pod.h"

namespace kplace::karpenter {

enum class TopoType { Spread, Affinity, AntiAffinity };

struct TopoNodeFilter {
  bool active = false;  // topology spread only
  std::vector<Requirements> requirements;
  bool affinity_honor = true, taint_honor = false;
  std::vector<Toleration> tolerations;
  bool Matches(const std::vector<Taint>& taints, const Requirements& reqs, const KeySet* allowance) const;
};

// A group's domains and their pod counts: an open-addressing table over a dense entry list (hostname groups hold
// a domain per NodeClaim and are probed for every claim tried). Iteration follows registration order; every use is
// independent of it.
class DomainCounts {
 public:
  using Entry = std::pair<Symbol, std::int32_t>;
  // Adds the domain with count 0 unless present.
  void Register(Symbol d);
  // Counts one more pod in the domain (adding it when absent).
  void Record(Symbol d);
  // The count, or null when the domain is unknown.
  const std::int32_t* Find(Symbol d) const {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = Hash(d);; i = (i + 1) & (slots_.size() - 1)) {
      const std::uint32_t e = slots_[i];
      if (e == 0) return nullptr;
      if (entries_[e - 1].first == d) return &entries_[e - 1].second;
    }
  }
  std::size_t size() const { return entries_.size(); }
  std::size_t empty_count() const { return empty_; }  // domains with count 0
  std::vector<Entry>::const_iterator begin() const { return entries_.begin(); }
  std::vector<Entry>::const_iterator end() const { return entries_.end(); }

 private:
  std::size_t Hash(Symbol d) const { return (d * 0x9E3779B1u) >> shift_; }
  std::int32_t* Insert(Symbol d);  // the count of d, added with 0 when absent
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> slots_;  // 1 + index into entries_, 0 = free; size a power of two
  unsigned shift_ = 32;
  std::size_t empty_ = 0;
};

struct TopoGroup {
  TopoType type = TopoType::Spread;
  Symbol key = kEmptySymbol;
  std::int32_t max_skew = 0;
  std::optional<std::int32_t> min_domains;
  std::vector<Symbol> namespaces;  // sorted
  LabelSelector selector;
  TopoNodeFilter filter;
  DomainCounts domains;
  std::string identity;  // upstream's Hash inputs, as text

  bool Selects(const Pod& p) const;
  void Record(Symbol domain);
  void Register(Symbol domain);
  // TopologyGroup.Get: the next domains for a pod; self: the group selects the pod.
  Requirement Get(bool self, const Requirement& pod_domains, const Requirement& node_domains) const;
  std::string Error(const Requirement& pod_domains, const Requirement& node_domains) const;
};

class Topology {
 public:
  // pools: every NodePool given to the scheduler; batch: the pods being scheduled (excluded from counting).
  Topology(const Scenario& sc, const std::vector<const NodePool*>& pools, const std::vector<KType>& catalogue,
           const std::vector<std::size_t>& batch);
  // Topology.Update: drops pod's ownerships and rebuilds its groups from its current (relaxed) spec.
  void Update(const PodData& pod);
  // AddRequirements: false with *err (when given) on a topology violation; else *out = the domain requirements
  // to intersect into node_reqs (upstream returns node_reqs with them added).
  bool AddRequirements(const PodData& pod, const std::vector<Taint>& taints, const Requirements& node_reqs,
                       const KeySet* allowance, Requirements* out, std::string* err) const;
  void Record(const PodData& pod, const std::vector<Taint>& taints, const Requirements& reqs, const KeySet* allowance);
  void Register(Symbol key, Symbol domain);
  // The hostname groups that reject a node or NodeClaim of one hostname once that hostname's count reaches a
  // threshold, whatever else it holds: the pod's own hostname spread (count + self > maxSkew) and anti-affinity,
  // and the hostname anti-affinity of other pods that selects it. AddRequirements fails there (TopologyGroup.Get
  // finds no domain), so the solver can pass over such NodeClaims without trying them. Valid until the next
  // Record or Update.
  struct HostBlocker {
    const DomainCounts* counts;
    std::int32_t threshold;  // rejected when the hostname's count is at least this
  };
  void HostBlockers(const PodData& pod, std::vector<HostBlocker>& out) const;
  // The pod's own pod affinity groups over a key other than the hostname, once a pod of the group is counted in a
  // domain the pod allows: TopologyGroup.Get offers only those domains (nextDomainAffinity), so a node or NodeClaim
  // whose requirement for the key allows none of them fails there, whatever else it holds (narrowing it by the pod
  // or a volume only takes domains away). Also a group selecting no pod of its own with no such domain: it rejects
  // every node and NodeClaim (allowed empty). Valid until the next Record or Update.
  struct DomainBlocker {
    Symbol key;
    std::vector<Symbol> allowed;  // domains with a pod of the group that the pod's own requirements allow
    // Whether requirements (a node's or a NodeClaim's) allow none of them: absent, the key allows any domain.
    bool Rejects(const Requirements& reqs) const;
  };
  void DomainBlockers(const PodData& pod, std::vector<DomainBlocker>& out) const;
  bool empty() const { return groups_.empty() && inverse_.empty(); }
  // Changes with every Update. Between two, no group is added or moved and counts only grow: a HostBlocker's
  // counts stay where they are, and a hostname it rejects stays rejected.
  std::uint64_t version() const { return version_; }
  // Nodes that are not among the scheduler's state nodes (a disruption simulation's candidates and deleting nodes):
  // they register no domain. Set before the first Update.
  void ExcludeNodes(const std::set<std::string>* names) { excluded_nodes_ = names; }

 private:
  // The inverse (anti-affinity) group with g's identity, added when there is none yet.
  TopoGroup& InverseGroup(TopoGroup g);
  TopoGroup NewGroup(TopoType type, Symbol key, const PodData& pod, std::vector<Symbol> namespaces,
                     LabelSelector selector, std::int32_t max_skew, const TopologySpreadConstraint* tsc) const;
  std::vector<Symbol> Namespaces(const Pod& pod, const PodAffinityTerm& term) const;
  void CountDomains(TopoGroup& g) const;
  const Node* FindNode(const std::string& name) const;
  // The taints the node filter sees: the Node's, with the cordon taint on a cordoned Node (NodeTaints).
  const std::vector<Taint>& TaintsOf(const Node& n) const {
    return n.unschedulable ? cordoned_taints_.at(&n) : n.taints;
  }
  void BuildDomainGroups() const;
  // Which groups a pod owns or is selected by, in group order: what AddRequirements and Record look up for every
  // node and claim tried. Rebuilt for a pod when groups or owners changed since (version_).
  struct PodGroups {
    std::uint64_t version = 0;                // 0: never built
    std::vector<std::pair<int, bool>> owned;  // groups_ owned by the pod, and whether each selects it
    std::vector<int> selecting;               // groups_ selecting the pod
    std::vector<int> inverse_selecting;       // inverse_ selecting the pod
    std::vector<int> inverse_owned;           // inverse_ owned by the pod
  };
  const PodGroups& GroupsOf(const PodData& pod) const;

  const Scenario& sc_;
  std::vector<const NodePool*> pools_;
  const std::vector<KType>* catalogue_;
  mutable bool domains_built_ = false;
  // key -> domain -> taint lists of the pools offering it (an empty list: offered without taints).
  mutable std::map<Symbol, std::map<Symbol, std::vector<std::vector<Taint>>>> domain_groups_;
  std::vector<std::uint8_t> excluded_;
  const std::set<std::string>* excluded_nodes_ = nullptr;
  std::unordered_map<std::string_view, const Node*> nodes_by_name_;  // keys view the Nodes' names
  std::map<const Node*, std::vector<Taint>> cordoned_taints_;
  std::vector<TopoGroup> groups_;
  std::vector<TopoGroup> inverse_;
  // By pod index, the groups it owns (TopologyGroup owners, kept by pod: GroupsOf asks for one pod's, over every
  // group), in index order.
  std::vector<std::vector<int>> owned_;          // groups_
  std::vector<std::vector<int>> inverse_owned_;  // inverse_
  static void Own(std::vector<std::vector<int>>& owned, std::size_t pod, int group);
  std::uint64_t version_ = 1;                  // bumped whenever groups_, inverse_ or their owners change
  mutable std::vector<PodGroups> pod_groups_;  // by pod index
};

}  // namespace kplace::karpenter
