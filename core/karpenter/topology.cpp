#include "core/karpenter/topology.h"

#include <algorithm>
#include <climits>

namespace kplace::karpenter {
namespace {

bool Tolerates(const std::vector<Taint>& taints, const std::vector<Toleration>& tolerations) {
  return Untolerated(taints, tolerations).empty();
}

LabelSelector WithKeys(LabelSelector sel, const Pod& pod, const std::vector<Symbol>& match,
                       const std::vector<Symbol>& mismatch) {
  for (Symbol k : match)
    if (auto v = pod.meta.labels.Get(k)) sel.requirements.push_back({k, SelectorOp::In, {*v}, 0});
  for (Symbol k : mismatch)
    if (auto v = pod.meta.labels.Get(k)) sel.requirements.push_back({k, SelectorOp::NotIn, {*v}, 0});
  return sel;
}

std::string SelectorIdentity(const LabelSelector& s) {
  if (s.nil) return "<nil>";
  std::vector<std::string> parts;
  for (const auto& r : s.requirements) {
    std::string p = Text(r.key) + "/" + std::to_string(static_cast<int>(r.op)) + "/";
    std::vector<std::string> vs;
    for (Symbol v : r.values) vs.push_back(Text(v));
    std::sort(vs.begin(), vs.end());
    for (const auto& v : vs) p += v + ",";
    parts.push_back(p);
  }
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += p + ";";
  return out;
}

const Requirement& Or(const Requirement* r, const Requirement& fallback) { return r ? *r : fallback; }

}  // namespace

void Topology::BuildDomainGroups() const {
  if (domains_built_) return;
  domains_built_ = true;
  auto insert = [&](Symbol key, Symbol domain, const std::vector<Taint>& taints) {
    auto& lists = domain_groups_[key][domain];
    if (lists.empty() || taints.empty()) {
      lists = {taints};
      return;
    }
    if (lists[0].empty()) return;
    lists.push_back(taints);
  };
  for (const NodePool* p : pools_) {
    Requirements base;
    for (const auto& r : p->requirements) {
      LabelRequirement lr = r.requirement;
      lr.key = NormalizeKey(lr.key);
      base.Add(Requirement::FromSelector(lr, r.min_values));
    }
    for (auto [k, v] : p->template_labels.entries()) base.Add(Requirement::Make(k, ReqOp::In, {v}));
    for (const auto& t : *catalogue_) {
      Requirements all = base;
      all.Add(t.requirements);
      for (const auto& r : all.items())
        for (Symbol v : r.values) insert(r.key, v, p->taints);
    }
    for (const auto& r : base.items())
      if (r.Operator() == ReqOp::In)
        for (Symbol v : r.values) insert(r.key, v, p->taints);
  }
}

Topology::Topology(const Scenario& sc, const std::vector<const NodePool*>& pools, const std::vector<KType>& catalogue,
                   const std::vector<std::size_t>& batch)
    : sc_(sc), pools_(pools), catalogue_(&catalogue), excluded_(sc.pods.size(), 0) {
  nodes_by_name_.reserve(sc.nodes.size() + sc.in_flight_node_claims.size());
  for (const auto& n : sc.nodes) {
    nodes_by_name_.emplace(n.meta.name, &n);
    if (n.unschedulable) cordoned_taints_.emplace(&n, NodeTaints(n));
  }
  for (const auto& n : sc.in_flight_node_claims) nodes_by_name_.emplace(n.meta.name, &n);
  for (std::size_t i : batch) excluded_[i] = 1;
  // updateInverseAffinities: running pods' required anti-affinity terms.
  auto pod_it = sc.pods.begin();  // a deque: walked, not indexed (once per simulation of a dry run)
  for (std::size_t i = 0; i < sc.pods.size(); ++i, ++pod_it) {
    const Pod& p = *pod_it;
    if (excluded_[i] || p.node_name.empty() || p.affinity.pod_anti_affinity.required.empty()) continue;
    const Node* node = FindNode(p.node_name);
    if (!node) continue;
    PodData d = MakePodData(p, i);
    for (const auto& term : p.affinity.pod_anti_affinity.required) {
      TopoGroup g = NewGroup(TopoType::AntiAffinity, term.topology_key, d, Namespaces(p, term),
                             WithKeys(term.label_selector, p, term.match_label_keys, term.mismatch_label_keys),
                             INT32_MAX, nullptr);
      TopoGroup& group = InverseGroup(std::move(g));
      if (auto v = node->meta.labels.Get(group.key)) group.Record(*v);
      Own(inverse_owned_, i, static_cast<int>(&group - inverse_.data()));
    }
  }
}

const Node* Topology::FindNode(const std::string& name) const {
  auto it = nodes_by_name_.find(name);
  return it == nodes_by_name_.end() ? nullptr : it->second;
}

std::vector<Symbol> Topology::Namespaces(const Pod& pod, const PodAffinityTerm& term) const {
  std::vector<Symbol> out;
  if (term.namespaces.empty() && !term.namespace_selector) {
    out.push_back(Intern(pod.meta.namespace_));
    return out;
  }
  out = term.namespaces;
  if (term.namespace_selector) {
    static const Symbol kName = Intern("kubernetes.io/metadata.name");
    std::set<std::string> names;
    for (const auto& ns : sc_.namespaces) names.insert(ns.name);
    for (const auto& p : sc_.pods) names.insert(p.meta.namespace_);
    for (const auto& name : names) {
      Labels labels;
      bool found = false;
      for (const auto& ns : sc_.namespaces)
        if (ns.name == name) {
          labels = ns.labels;
          found = true;
        }
      if (!found) labels.Set(kName, Intern(name));
      if (term.namespace_selector->Matches(labels)) out.push_back(Intern(name));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const Topology::PodGroups& Topology::GroupsOf(const PodData& pod) const {
  if (pod_groups_.size() <= pod.index) pod_groups_.resize(std::max(pod.index + 1, sc_.pods.size()));
  PodGroups& pg = pod_groups_[pod.index];
  if (pg.version == version_) return pg;
  pg = PodGroups();
  pg.version = version_;
  const Pod& p = *pod.pod;
  static const std::vector<int> kNone;
  const std::vector<int>& owned = pod.index < owned_.size() ? owned_[pod.index] : kNone;
  auto next_owned = owned.begin();
  for (std::size_t i = 0; i < groups_.size(); ++i) {
    const bool selects = groups_[i].Selects(p);
    if (selects) pg.selecting.push_back(static_cast<int>(i));
    if (next_owned != owned.end() && *next_owned == static_cast<int>(i)) {
      pg.owned.emplace_back(static_cast<int>(i), selects);
      ++next_owned;
    }
  }
  for (std::size_t i = 0; i < inverse_.size(); ++i)
    if (inverse_[i].Selects(p)) pg.inverse_selecting.push_back(static_cast<int>(i));
  if (pod.index < inverse_owned_.size()) pg.inverse_owned = inverse_owned_[pod.index];
  return pg;
}

void Topology::Own(std::vector<std::vector<int>>& owned, std::size_t pod, int group) {
  if (owned.size() <= pod) owned.resize(pod + 1);
  std::vector<int>& groups = owned[pod];
  const auto at = std::lower_bound(groups.begin(), groups.end(), group);
  if (at == groups.end() || *at != group) groups.insert(at, group);
}

TopoGroup& Topology::InverseGroup(TopoGroup g) {
  auto it =
      std::find_if(inverse_.begin(), inverse_.end(), [&](const TopoGroup& x) { return x.identity == g.identity; });
  if (it != inverse_.end()) return *it;
  inverse_.push_back(std::move(g));
  return inverse_.back();
}

TopoGroup Topology::NewGroup(TopoType type, Symbol key, const PodData& pod, std::vector<Symbol> namespaces,
                             LabelSelector selector, std::int32_t max_skew, const TopologySpreadConstraint* tsc) const {
  TopoGroup g;
  g.type = type;
  g.key = key;
  g.max_skew = max_skew;
  g.namespaces = std::move(namespaces);
  g.selector = std::move(selector);
  bool taint_ignore = false;
  if (tsc) {
    g.min_domains = tsc->min_domains;
    g.filter.active = true;
    g.filter.affinity_honor = tsc->node_affinity_policy == InclusionPolicy::Honor;
    g.filter.taint_honor = tsc->node_taints_policy == InclusionPolicy::Honor;
    taint_ignore = !g.filter.taint_honor;
    g.filter.tolerations = pod.tolerations;
    // MakeTopologyNodeFilter: nodeSelector, and each required term (all of them, unrelaxed spec).
    Requirements sel;
    for (auto [k, v] : pod.pod->node_selector) sel.Add(Requirement::Make(NormalizeKey(k), ReqOp::In, {v}));
    const auto& na = pod.pod->affinity.node_affinity;
    if (!na || !na->required) {
      g.filter.requirements.push_back(sel);
    } else {
      for (const auto& term : na->required->terms) {
        Requirements r = sel;
        for (const auto& e : term.match_expressions) {
          LabelRequirement n = e;
          n.key = NormalizeKey(e.key);
          r.Add(Requirement::FromSelector(n));
        }
        g.filter.requirements.push_back(std::move(r));
      }
    }
  }
  BuildDomainGroups();
  if (auto it = domain_groups_.find(key); it != domain_groups_.end())
    for (const auto& [domain, lists] : it->second) {
      bool ok = taint_ignore;
      for (std::size_t i = 0; !ok && i < lists.size(); ++i) ok = Tolerates(lists[i], pod.tolerations);
      if (ok) g.Register(domain);
    }
  std::string f;
  if (g.filter.active) {
    f = (g.filter.affinity_honor ? "A" : "a") + std::string(g.filter.taint_honor ? "T" : "t");
    for (const auto& r : g.filter.requirements) f += "[" + r.String() + "]";
    for (const auto& t : g.filter.tolerations)
      f += Text(t.key) + std::to_string(static_cast<int>(t.op)) + Text(t.value) + EffectName(t.effect) + ";";
  }
  g.identity = std::to_string(static_cast<int>(type)) + "|" + Text(key) + "|" + std::to_string(max_skew) + "|" + f +
               "|" + SelectorIdentity(g.selector) + "|";
  for (Symbol ns : g.namespaces) g.identity += Text(ns) + ",";
  return g;
}

void Topology::CountDomains(TopoGroup& g) const {
  // Every state node with a Node registers its domain; NodeClaims in flight do not (topology.go countDomains skips
  // state nodes without a Node). Nodes being deleted (the Node's deletionTimestamp here; upstream's mark for a
  // managed node is its NodeClaim's) and a simulation's excluded nodes are not among the state nodes given.
  for (const auto& n : sc_.nodes) {
    if (n.meta.deleting || (excluded_nodes_ && excluded_nodes_->count(n.meta.name))) continue;
    if (!g.filter.Matches(TaintsOf(n), FromLabels(n.meta.labels), nullptr)) continue;
    if (auto v = n.meta.labels.Get(g.key)) g.Register(*v);
  }
  auto pod_it = sc_.pods.begin();
  for (std::size_t i = 0; i < sc_.pods.size(); ++i, ++pod_it) {
    const Pod& p = *pod_it;
    if (excluded_[i] || p.node_name.empty() || p.Terminal() || p.meta.deleting) continue;
    Symbol ns = Intern(p.meta.namespace_);
    if (!std::binary_search(g.namespaces.begin(), g.namespaces.end(), ns)) continue;
    // TopologyListOptions: a nil selector lists every pod.
    if (!g.selector.nil && !g.selector.Matches(p.meta.labels)) continue;
    const Node* node = FindNode(p.node_name);
    if (!node) continue;
    Symbol domain;
    if (auto v = node->meta.labels.Get(g.key))
      domain = *v;
    else if (g.key == HostnameKey())
      domain = node->name_symbol;
    else
      continue;
    if (!g.filter.Matches(TaintsOf(*node), FromLabels(node->meta.labels), nullptr)) continue;
    g.Record(domain);
  }
}

void Topology::Update(const PodData& pod) {
  ++version_;
  if (pod.index < owned_.size()) owned_[pod.index].clear();
  const Pod& p = *pod.pod;
  const bool has_anti = !p.affinity.pod_anti_affinity.required.empty() || !pod.preferred_anti_affinity.empty();
  std::vector<TopoGroup> fresh;
  if (has_anti) {
    for (const auto& term : p.affinity.pod_anti_affinity.required) {
      TopoGroup g = NewGroup(TopoType::AntiAffinity, term.topology_key, pod, Namespaces(p, term),
                             WithKeys(term.label_selector, p, term.match_label_keys, term.mismatch_label_keys),
                             INT32_MAX, nullptr);
      Own(inverse_owned_, pod.index, static_cast<int>(&InverseGroup(std::move(g)) - inverse_.data()));
    }
  }
  for (const auto& tsc : pod.spread)
    fresh.push_back(NewGroup(TopoType::Spread, tsc.topology_key, pod, {Intern(p.meta.namespace_)},
                             WithKeys(tsc.label_selector, p, tsc.match_label_keys, {}), tsc.max_skew, &tsc));
  auto add_term = [&](TopoType type, const PodAffinityTerm& term) {
    fresh.push_back(NewGroup(type, term.topology_key, pod, Namespaces(p, term),
                             WithKeys(term.label_selector, p, term.match_label_keys, term.mismatch_label_keys),
                             INT32_MAX, nullptr));
  };
  for (const auto& t : p.affinity.pod_affinity.required) add_term(TopoType::Affinity, t);
  for (const auto& t : pod.preferred_affinity) add_term(TopoType::Affinity, t.term);
  for (const auto& t : p.affinity.pod_anti_affinity.required) add_term(TopoType::AntiAffinity, t);
  for (const auto& t : pod.preferred_anti_affinity) add_term(TopoType::AntiAffinity, t.term);
  for (auto& g : fresh) {
    auto it =
        std::find_if(groups_.begin(), groups_.end(), [&](const TopoGroup& x) { return x.identity == g.identity; });
    if (it == groups_.end()) {
      CountDomains(g);
      groups_.push_back(std::move(g));
      it = groups_.end() - 1;
    }
    Own(owned_, pod.index, static_cast<int>(it - groups_.begin()));
  }
}

bool Topology::AddRequirements(const PodData& pod, const std::vector<Taint>& taints, const Requirements& node_reqs,
                               const KeySet* allowance, Requirements* out, std::string* err) const {
  *out = Requirements();
  auto apply = [&](const TopoGroup& g, bool self) {
    const Requirement exists = Requirement::Make(g.key, ReqOp::Exists);
    const Requirement& pd = Or(pod.strict.Find(g.key), exists);
    const Requirement& nd = Or(node_reqs.Find(g.key), exists);
    Requirement domains = g.Get(self, pd, nd);
    if (!domains.complement && domains.values.empty()) {
      if (err) *err = g.Error(pd, nd);
      return false;
    }
    // Domains node_reqs already implies would change nothing in the caller's merge: leave them out.
    if (const Requirement* e = node_reqs.Find(g.key); !e || !Implied(*e, domains)) out->Add(domains);
    return true;
  };
  const PodGroups& pg = GroupsOf(pod);
  for (const auto& [i, self] : pg.owned)
    if (!apply(groups_[static_cast<std::size_t>(i)], self)) return false;
  for (int i : pg.inverse_selecting) {
    const TopoGroup& g = inverse_[static_cast<std::size_t>(i)];
    if (g.filter.Matches(taints, node_reqs, allowance) && !apply(g, true)) return false;
  }
  return true;
}

void Topology::HostBlockers(const PodData& pod, std::vector<HostBlocker>& out) const {
  out.clear();
  const PodGroups& pg = GroupsOf(pod);
  // TopoGroup::Get on one hostname: spread allows it while count + self <= maxSkew, anti-affinity while count == 0.
  for (const auto& [i, self] : pg.owned) {
    const TopoGroup& g = groups_[static_cast<std::size_t>(i)];
    if (g.key != HostnameKey()) continue;
    if (g.type == TopoType::Spread) out.push_back({&g.domains, g.max_skew - (self ? 1 : 0) + 1});
    if (g.type == TopoType::AntiAffinity) out.push_back({&g.domains, 1});
  }
  for (int i : pg.inverse_selecting) {
    const TopoGroup& g = inverse_[static_cast<std::size_t>(i)];
    // An inverse group applies where its node filter matches; only filterless ones reject by count alone.
    if (g.key == HostnameKey() && g.type == TopoType::AntiAffinity && !g.filter.active) out.push_back({&g.domains, 1});
  }
}

void Topology::DomainBlockers(const PodData& pod, std::vector<DomainBlocker>& out) const {
  out.clear();
  const PodGroups& pg = GroupsOf(pod);
  for (const auto& [i, self] : pg.owned) {
    const TopoGroup& g = groups_[static_cast<std::size_t>(i)];
    if (g.type != TopoType::Affinity || g.key == HostnameKey()) continue;
    const Requirement exists = Requirement::Make(g.key, ReqOp::Exists);
    const Requirement& pd = Or(pod.strict.Find(g.key), exists);
    DomainBlocker b{g.key, {}};
    for (const auto& [d, c] : g.domains)
      if (c > 0 && pd.Has(d)) b.allowed.push_back(d);
    // None counted yet: a group selecting the pod bootstraps on a domain the node or claim allows (TopoGroup::Get),
    // which depends on it; one that does not select it offers no domain anywhere.
    if (b.allowed.empty() && self) continue;
    out.push_back(std::move(b));
  }
}

bool Topology::DomainBlocker::Rejects(const Requirements& reqs) const {
  const Requirement* r = reqs.Find(key);
  if (!r) return allowed.empty();
  return std::none_of(allowed.begin(), allowed.end(), [&](Symbol d) { return r->Has(d); });
}

void Topology::Record(const PodData& pod, const std::vector<Taint>& taints, const Requirements& reqs,
                      const KeySet* allowance) {
  const PodGroups& pg = GroupsOf(pod);
  for (int i : pg.selecting) {
    TopoGroup& g = groups_[static_cast<std::size_t>(i)];
    if (!g.filter.Matches(taints, reqs, allowance)) continue;
    const Requirement* d = reqs.Find(g.key);
    if (!d) continue;  // Exists: no values, Len > 1
    if (g.type == TopoType::AntiAffinity) {
      for (Symbol v : d->values) g.Record(v);
    } else if (!d->complement && d->values.size() == 1) {
      g.Record(d->values[0]);
    }
  }
  for (int i : pg.inverse_owned) {
    TopoGroup& g = inverse_[static_cast<std::size_t>(i)];
    if (const Requirement* d = reqs.Find(g.key))
      for (Symbol v : d->values) g.Record(v);
  }
}

void Topology::Register(Symbol key, Symbol domain) {
  for (auto& g : groups_)
    if (g.key == key) g.Register(domain);
  for (auto& g : inverse_)
    if (g.key == key) g.Register(domain);
}

}  // namespace kplace::karpenter
