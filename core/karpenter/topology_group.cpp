// TopologyGroup and TopologyNodeFilter (sched/topologygroup.go, topologynodefilter.go): which domains a pod may
// use next for one spread / affinity / anti-affinity group, and the unsatisfiable-topology message.
#include <algorithm>
#include <climits>

#include "core/karpenter/topology.h"

namespace kplace::karpenter {
namespace {

bool Tolerates(const std::vector<Taint>& taints, const std::vector<Toleration>& tolerations) {
  return Untolerated(taints, tolerations).empty();
}

}  // namespace
bool TopoNodeFilter::Matches(const std::vector<Taint>& taints, const Requirements& reqs,
                             const KeySet* allowance) const {
  if (!active) return true;
  if (affinity_honor && !requirements.empty()) {
    bool any = false;
    for (const auto& r : requirements)
      if (IsCompatible(reqs, r, allowance)) {
        any = true;
        break;
      }
    if (!any) return false;
  }
  if (taint_honor && !Tolerates(taints, tolerations)) return false;
  return true;
}

bool TopoGroup::Selects(const Pod& p) const {
  Symbol ns = Intern(p.meta.namespace_);
  return std::binary_search(namespaces.begin(), namespaces.end(), ns) && selector.Matches(p.meta.labels);
}

std::int32_t* DomainCounts::Insert(Symbol d) {
  if ((entries_.size() + 1) * 2 > slots_.size()) {
    // Grow to keep the load at most one half, and rehash.
    std::size_t n = slots_.empty() ? 16 : slots_.size() * 2;
    slots_.assign(n, 0);
    shift_ = 32;
    for (std::size_t m = n; m > 1; m >>= 1) --shift_;
    for (std::size_t k = 0; k < entries_.size(); ++k) {
      std::size_t i = Hash(entries_[k].first);
      while (slots_[i] != 0) i = (i + 1) & (n - 1);
      slots_[i] = static_cast<std::uint32_t>(k + 1);
    }
  }
  std::size_t i = Hash(d);
  for (;; i = (i + 1) & (slots_.size() - 1)) {
    const std::uint32_t e = slots_[i];
    if (e == 0) break;
    if (entries_[e - 1].first == d) return &entries_[e - 1].second;
  }
  entries_.emplace_back(d, 0);
  slots_[i] = static_cast<std::uint32_t>(entries_.size());
  ++empty_;
  return &entries_.back().second;
}

void DomainCounts::Register(Symbol d) { Insert(d); }

void DomainCounts::Record(Symbol d) {
  std::int32_t* c = Insert(d);
  if (*c == 0) --empty_;
  ++*c;
}

void TopoGroup::Record(Symbol domain) { domains.Record(domain); }

void TopoGroup::Register(Symbol domain) { domains.Register(domain); }

namespace {
// Upstream iterates Go maps (random order); kplace takes domains in text order, so "first" means smallest text.
bool TextLess(Symbol a, Symbol b) { return Text(a) < Text(b); }
}  // namespace

Requirement TopoGroup::Get(bool self, const Requirement& pod_domains, const Requirement& node_domains) const {
  Requirement none = Requirement::Make(key, ReqOp::DoesNotExist);
  auto count_of = [&](Symbol d) {
    const std::int32_t* c = domains.Find(d);
    return c ? *c : 0;
  };
  auto in = [&](std::vector<Symbol> vs) { return Requirement::Make(key, ReqOp::In, std::move(vs)); };
  const bool hostname_single = key == HostnameKey() && node_domains.values.size() == 1;
  if (type == TopoType::Spread) {
    // nextDomainTopologySpread; ties: the domain with the smallest text.
    if (hostname_single) {
      Symbol host = node_domains.values[0];
      std::int32_t c = count_of(host) + (self ? 1 : 0);
      return c <= max_skew ? in({host}) : none;
    }
    std::int32_t min = 0;
    if (key != HostnameKey()) {
      min = INT32_MAX;
      std::int32_t supported = 0;
      for (const auto& [d, c] : domains)
        if (pod_domains.Has(d)) {
          ++supported;
          min = std::min(min, c);
        }
      if (min_domains && supported < *min_domains) min = 0;
    }
    Symbol best = kNoSymbol;
    std::int32_t best_count = INT32_MAX;
    auto consider = [&](Symbol d, std::int32_t c) {
      if (self) ++c;
      if (static_cast<std::int64_t>(c) - min > max_skew) return;
      if (best == kNoSymbol || c < best_count || (c == best_count && TextLess(d, best))) {
        best = d;
        best_count = c;
      }
    };
    if (node_domains.Operator() == ReqOp::In) {
      for (Symbol v : node_domains.values)
        if (const std::int32_t* c = domains.Find(v)) consider(v, *c);
    } else {
      for (const auto& [d, c] : domains)
        if (node_domains.Has(d)) consider(d, c);
    }
    return best == kNoSymbol ? none : in({best});
  }
  if (type == TopoType::Affinity) {
    auto any_compatible = [&] {
      for (const auto& [d, c] : domains)
        if (c > 0 && pod_domains.Has(d)) return true;
      return false;
    };
    auto bootstrap = [&] { return self && (domains.size() == domains.empty_count() || !any_compatible()); };
    if (hostname_single) {
      Symbol host = node_domains.values[0];
      if (!pod_domains.Has(host)) return none;
      if (count_of(host) > 0 || bootstrap()) return in({host});
      return none;
    }
    std::vector<Symbol> options;
    if (node_domains.Operator() == ReqOp::In) {
      for (Symbol v : node_domains.values) {
        const std::int32_t* c = domains.Find(v);
        if (c && *c > 0 && pod_domains.Has(v)) options.push_back(v);
      }
    } else {
      for (const auto& [d, c] : domains)
        if (c > 0 && pod_domains.Has(d) && node_domains.Has(d)) options.push_back(d);
    }
    if (!options.empty()) return in(options);
    if (bootstrap()) {
      // Two independent picks (upstream: map order): the first domain allowed by pod and node, and the first
      // allowed by the pod.
      Requirement both = Intersection(pod_domains, node_domains);
      Symbol a = kNoSymbol, b = kNoSymbol;
      for (const auto& [d, c] : domains) {
        if (both.Has(d) && (a == kNoSymbol || TextLess(d, a))) a = d;
        if (pod_domains.Has(d) && (b == kNoSymbol || TextLess(d, b))) b = d;
      }
      if (a != kNoSymbol) options.push_back(a);
      if (b != kNoSymbol) options.push_back(b);
    }
    return options.empty() ? none : in(options);
  }
  // nextDomainAntiAffinity
  if (hostname_single) {
    Symbol host = node_domains.values[0];
    return count_of(host) == 0 ? in({host}) : none;
  }
  std::vector<Symbol> options;
  if (node_domains.Operator() == ReqOp::In && node_domains.values.size() < domains.empty_count()) {
    for (Symbol v : node_domains.values) {
      const std::int32_t* c = domains.Find(v);
      if (c && *c == 0 && pod_domains.Has(v)) options.push_back(v);
    }
  } else {
    for (const auto& [d, c] : domains)
      if (c == 0 && node_domains.Has(d) && pod_domains.Has(d)) options.push_back(d);
  }
  return options.empty() ? none : in(options);
}

std::string TopoGroup::Error(const Requirement& pod_domains, const Requirement& node_domains) const {
  static const char* kNames[] = {"topology spread", "pod affinity", "pod anti-affinity"};
  std::vector<std::pair<std::string, std::int32_t>> sorted;
  for (const auto& [d, c] : domains) sorted.emplace_back(Text(d), c);
  std::sort(sorted.begin(), sorted.end());
  std::string counts;
  std::size_t n = 0;
  for (const auto& [d, c] : sorted) {
    if (n) counts += ", ";
    counts += d + ": " + std::to_string(c);
    if (++n >= 25) break;
  }
  if (n < sorted.size()) counts += " and " + std::to_string(sorted.size() - n) + " other(s)";
  return std::string("unsatisfiable topology constraint for ") + kNames[static_cast<int>(type)] + ", key=" + Text(key) +
         " (counts = " + counts + ", podDomains = " + pod_domains.String() + ", nodeDomains = " + node_domains.String();
}

// buildDomainGroups (topology.go): built on the first group, so runs without topology never pay for it.
}  // namespace kplace::karpenter
