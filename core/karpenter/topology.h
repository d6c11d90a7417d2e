// Topology for Karpenter's provisioning (sched/topology.go, topologygroup.go, topologynodefilter.go,
// topologydomaingroup.go): topology spread and pod (anti-)affinity groups over domains from the NodePools'
// instance types and the cluster's nodes, counting running pods, narrowing a node's or claim's requirements.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
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

struct TopoGroup {
  TopoType type = TopoType::Spread;
  Symbol key = kEmptySymbol;
  std::int32_t max_skew = 0;
  std::optional<std::int32_t> min_domains;
  std::vector<Symbol> namespaces;  // sorted
  LabelSelector selector;
  TopoNodeFilter filter;
  std::map<Symbol, std::int32_t> domains;  // by symbol number: never iterate it for output order
  std::set<Symbol> empty;
  std::set<std::size_t> owners;  // pod indices
  std::string identity;          // upstream's Hash inputs, as text

  bool Selects(const Pod& p) const;
  void Record(Symbol domain);
  void Register(Symbol domain);
  // TopologyGroup.Get: the next domains for pod.
  Requirement Get(const Pod& pod, const Requirement& pod_domains, const Requirement& node_domains) const;
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
  bool empty() const { return groups_.empty() && inverse_.empty(); }

 private:
  // The inverse (anti-affinity) group with g's identity, added when there is none yet.
  TopoGroup& InverseGroup(TopoGroup g);
  TopoGroup NewGroup(TopoType type, Symbol key, const PodData& pod, std::vector<Symbol> namespaces,
                     LabelSelector selector, std::int32_t max_skew, const TopologySpreadConstraint* tsc) const;
  std::vector<Symbol> Namespaces(const Pod& pod, const PodAffinityTerm& term) const;
  void CountDomains(TopoGroup& g) const;
  const Node* FindNode(const std::string& name) const;
  void BuildDomainGroups() const;

  const Scenario& sc_;
  std::vector<const NodePool*> pools_;
  const std::vector<KType>* catalogue_;
  mutable bool domains_built_ = false;
  // key -> domain -> taint lists of the pools offering it (an empty list: offered without taints).
  mutable std::map<Symbol, std::map<Symbol, std::vector<std::vector<Taint>>>> domain_groups_;
  std::vector<std::uint8_t> excluded_;
  std::map<std::string, const Node*> nodes_by_name_;
  std::vector<TopoGroup> groups_;
  std::vector<TopoGroup> inverse_;
};

}  // namespace kplace::karpenter
