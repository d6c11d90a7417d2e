#include "core/scheduler/plugins/podtopologyspread/filtering.h"

#include <utility>

#include "core/scheduler/plugins/podtopologyspread/pod_topology_spread.h"

namespace kplace::plugins::podtopologyspread {

using framework::Code;
using framework::Status;

void CriticalPaths::Update(std::int32_t domain, int num) {
  int i = domain == p[0].domain ? 0 : domain == p[1].domain ? 1 : -1;
  if (i >= 0) {
    p[i].num = num;
    if (p[0].num > p[1].num) std::swap(p[0], p[1]);
  } else if (num < p[0].num) {
    p[1] = p[0];
    p[0] = {domain, num};
  } else if (num < p[1].num) {
    p[1] = {domain, num};
  }
}

int PreFilterState::Count(std::size_t i, std::int32_t domain) const {
  const auto& base = data->counts[i];
  auto d = static_cast<std::size_t>(domain);
  int n = d < base.size() ? base[d] : 0;
  for (const auto& x : deltas)
    if (x.constraint == i && x.domain == domain) n += x.delta;
  return n;
}

bool PreFilterState::Exists(std::size_t i, std::int32_t domain) const {
  const auto& base = data->exists[i];
  auto d = static_cast<std::size_t>(domain);
  if (d < base.size() && base[d]) return true;
  for (const auto& x : extra)
    if (x.constraint == i && x.domain == domain) return true;
  return false;
}

std::size_t PreFilterState::NumDomains(std::size_t i) const {
  std::size_t n = data->num_domains[i];
  for (const auto& x : extra) n += x.constraint == i;
  return n;
}

int PreFilterState::MinMatchNum(std::size_t i) const {
  if (paths.empty() && extra.empty()) return data->min_match[i];
  if (NumDomains(i) < static_cast<std::size_t>(data->constraints[i].min_domains)) return 0;
  return Paths(i).p[0].num;
}

std::unique_ptr<PreFilterState> ComputePreFilterState(const framework::PodInfo& pod,
                                                      std::vector<Constraint> constraints,
                                                      const framework::Snapshot& snapshot, Scratch& scratch,
                                                      std::shared_ptr<PreFilterData>& recycled) {
  std::shared_ptr<PreFilterData> data = recycled.use_count() == 1 ? recycled : std::make_shared<PreFilterData>();
  recycled = data;
  data->constraints = std::move(constraints);
  const auto& cs = data->constraints;
  const std::size_t C = cs.size();
  const std::size_t N = snapshot.nodes.size();
  data->nodes = snapshot.nodes.data();
  data->num_nodes = N;
  data->self_match.clear();
  for (const auto& c : cs) data->self_match.push_back(c.selector.Matches(pod.labels()) ? 1 : 0);
  data->domains.resize(C);
  data->counts.resize(C);
  data->exists.resize(C);
  data->num_domains.assign(C, 0);
  data->paths.assign(C, CriticalPaths{});
  data->min_match.assign(C, 0);
  data->of_node.assign(C, nullptr);
  data->over_skew.resize(C);

  SnapshotCache& cache = scratch.cache;
  std::vector<const std::int32_t*> matching(C);  // per node; nullptr: the constraint counts nothing
  cache.Lookup(snapshot, cs, pod.namespace_, data->domains, matching);
  // A node contributes to constraint i when it holds every topology key and passes i's inclusion policies.
  // (Raw pointers in the loops: stores through char would otherwise force the vectors to be re-read.)
  const bool multi = C > 1;
  scratch.eligible.assign(multi ? N : 0, 1);
  char* all_keys = scratch.eligible.data();
  if (multi) {
    for (const auto& kd : data->domains) {
      const std::int32_t* of_node = kd->of_node.data();
      for (std::size_t n = 0; n < N; ++n)
        if (of_node[n] < 0) all_keys[n] = 0;
    }
  }
  NodeInclusion inclusion(*pod.pod, cs);
  std::uint64_t affinity_serial = 0, taints_serial = 0;
  const char* affinity_ok =
      inclusion.check_affinity() ? cache.AffinityMatches(*pod.pod, &affinity_serial).data() : nullptr;
  const char* taints_ok = inclusion.check_taints() ? cache.TaintsTolerated(*pod.pod, &taints_serial).data() : nullptr;

  for (std::size_t i = 0; i < C; ++i) {
    const KeyDomains& kd = *data->domains[i];
    const std::size_t D = kd.values.size();
    const std::int32_t* of_node = kd.of_node.data();
    const std::int32_t* m = matching[i];
    const char* aff = cs[i].honor_node_affinity ? affinity_ok : nullptr;
    const char* tnt = cs[i].honor_node_taints ? taints_ok : nullptr;
    // One constraint that counts: the cache's running totals by domain (the same sums, kept across cycles).
    const SnapshotCache::DomainTotals* totals =
        !multi && m ? cache.Totals(cs[i], pod.namespace_, data->domains[i], aff, affinity_serial, tnt, taints_serial)
                    : nullptr;
    if (totals) {
      data->counts[i] = totals->counts;
      data->exists[i] = totals->exists;
    } else {
      data->counts[i].assign(D, 0);
      data->exists[i].assign(D, 0);
      int* counts = data->counts[i].data();
      char* exists = data->exists[i].data();
      for (std::size_t n = 0; n < N; ++n) {
        std::int32_t d = of_node[n];
        if (d < 0 || (multi && !all_keys[n]) || (aff && !aff[n]) || (tnt && !tnt[n])) continue;
        exists[d] = 1;
        if (m) counts[d] += m[n];
      }
    }
    const int* counts = data->counts[i].data();
    const char* exists = data->exists[i].data();
    std::size_t num = 0;
    CriticalPaths paths;
    for (std::size_t d = 0; d < D; ++d) {
      if (!exists[d]) continue;
      ++num;
      paths.Update(static_cast<std::int32_t>(d), counts[d]);
    }
    data->num_domains[i] = num;
    data->paths[i] = paths;
    // minMatchNum: fewer domains than minDomains make the global minimum 0.
    data->min_match[i] = num < static_cast<std::size_t>(cs[i].min_domains) ? 0 : paths.p[0].num;
    data->of_node[i] = of_node;
    // 'existing matching num' + 'if self-match (1 or 0)' - 'global minimum' > 'maxSkew', as FilterNode checks it.
    auto& over = data->over_skew[i];
    over.assign(D, 0);
    for (std::size_t d = 0; d < D; ++d)
      over[d] = std::int64_t{counts[d]} + data->self_match[i] - data->min_match[i] > cs[i].max_skew;
  }
  auto s = std::make_unique<PreFilterState>();
  s->data = std::move(data);
  return s;
}

namespace {

// Domain of the node for constraint i: kMissingKey when the node lacks the key, kNoDomain when its value is no
// domain id (only for a node outside the snapshot).
std::int32_t NodeDomain(const PreFilterState& s, std::int64_t slot, std::size_t i, const Node& node) {
  const KeyDomains& kd = *s.data->domains[i];
  if (slot >= 0) {
    std::int32_t d = kd.of_node[static_cast<std::size_t>(slot)];
    return d < 0 ? kMissingKey : d;
  }
  auto v = node.meta.labels.Get(s.data->constraints[i].key);
  if (!v) return kMissingKey;
  for (std::size_t d = 0; d < kd.values.size(); ++d)
    if (kd.values[d] == *v) return static_cast<std::int32_t>(d);
  for (const auto& x : s.extra)
    if (x.constraint == i && x.value == *v) return x.domain;
  return kNoDomain;
}

std::int64_t Slot(const PreFilterData& data, const framework::NodeInfo& node) {
  return SnapshotSlot(data.nodes, data.num_nodes, node);
}

// No what-if changed a count: the verdicts by domain PreFilter worked out (the same checks, in the same order).
enum class DomainVerdict { kPass, kNodeLabelNotMatch, kConstraintsNotMatch };
DomainVerdict VerdictByDomain(const PreFilterData& data, std::int64_t slot) {
  for (std::size_t i = 0; i < data.constraints.size(); ++i) {
    const std::int32_t d = data.of_node[i][slot];
    if (d < 0) return DomainVerdict::kNodeLabelNotMatch;
    if (data.over_skew[i][static_cast<std::size_t>(d)]) return DomainVerdict::kConstraintsNotMatch;
  }
  return DomainVerdict::kPass;
}

Status StatusOf(DomainVerdict v) {
  if (v == DomainVerdict::kNodeLabelNotMatch)
    return Status(Code::UnschedulableAndUnresolvable, kErrReasonTopologySpreadNodeLabelNotMatch);
  if (v == DomainVerdict::kConstraintsNotMatch)
    return Status(Code::Unschedulable, kErrReasonTopologySpreadConstraintsNotMatch);
  return {};
}

}  // namespace

Status FilterNode(const PreFilterState& s, const framework::PodInfo&, const framework::NodeInfo& node) {
  const PreFilterData& data = *s.data;
  std::int64_t slot = Slot(data, node);
  if (slot >= 0 && s.deltas.empty() && s.extra.empty() && s.paths.empty()) return StatusOf(VerdictByDomain(data, slot));
  for (std::size_t i = 0; i < data.constraints.size(); ++i) {
    std::int32_t d = NodeDomain(s, slot, i, *node.node);
    if (d == kMissingKey) return Status(Code::UnschedulableAndUnresolvable, kErrReasonTopologySpreadNodeLabelNotMatch);
    // 'existing matching num' + 'if self-match (1 or 0)' - 'global minimum' <= 'maxSkew'
    std::int64_t match = d >= 0 ? s.Count(i, d) : 0;
    std::int64_t skew = match + data.self_match[i] - s.MinMatchNum(i);
    if (skew > data.constraints[i].max_skew)
      return Status(Code::Unschedulable, kErrReasonTopologySpreadConstraintsNotMatch);
  }
  return {};
}

std::size_t FilterNodes(const PreFilterState& s, const framework::PodInfo& pod, const framework::NodeInfo* const* nodes,
                        std::uint32_t* alive, std::size_t n, Status* statuses, const char* plugin) {
  // FilterNode per node, with its test for what-ifs made once for the run.
  const PreFilterData& data = *s.data;
  const bool plain = s.deltas.empty() && s.extra.empty() && s.paths.empty();
  std::size_t kept = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = alive[k];
    const framework::NodeInfo& node = *nodes[i];
    const std::int64_t slot = plain ? Slot(data, node) : -1;
    if (slot >= 0) {
      const DomainVerdict v = VerdictByDomain(data, slot);
      if (v == DomainVerdict::kPass)
        alive[kept++] = i;
      else
        statuses[i] = StatusOf(v).WithPlugin(plugin);
      continue;
    }
    Status st = FilterNode(s, pod, node);
    if (st.IsSuccess()) {
      alive[kept++] = i;
    } else {
      if (*st.plugin() == '\0') st.WithPlugin(plugin);
      statuses[i] = std::move(st);
    }
  }
  return kept;
}

void UpdateWithPod(PreFilterState& s, const framework::PodInfo& updated, const framework::PodInfo& incoming,
                   const framework::NodeInfo& node, int delta) {
  const PreFilterData& data = *s.data;
  if (updated.namespace_ != incoming.namespace_) return;
  const auto& cs = data.constraints;
  const Labels& labels = node.node->meta.labels;
  if (!NodeHasAllKeys(labels, cs)) return;
  // The inclusion policies are those of the incoming pod; the selector is matched directly (no terminating-pod or
  // empty-selector shortcut, as upstream updateWithPod).
  NodeInclusion::Result inc = NodeInclusion(*incoming.pod, cs).Evaluate(*node.node);
  std::int64_t slot = Slot(data, node);
  for (std::size_t i = 0; i < cs.size(); ++i) {
    if (!cs[i].selector.Matches(updated.labels()) || !NodeInclusion::Included(cs[i], inc)) continue;
    std::int32_t d = NodeDomain(s, slot, i, *node.node);
    if (d == kNoDomain) {
      // A value no snapshot node has: a new id past the key's values.
      const auto base = static_cast<std::int32_t>(data.domains[i]->values.size());
      d = base;
      for (const auto& x : s.extra) d += x.constraint == i && x.domain >= base;
      s.extra.push_back({i, *labels.Get(cs[i].key), d});
    } else if (!s.Exists(i, d)) {
      // TpValueToMatchNum[i][v] += delta creates the domain.
      s.extra.push_back({i, *labels.Get(cs[i].key), d});
    }
    bool found = false;
    for (auto& x : s.deltas) {
      if (x.constraint == i && x.domain == d) {
        x.delta += delta;
        found = true;
      }
    }
    if (!found) s.deltas.push_back({i, d, delta});
    if (s.paths.empty()) s.paths = data.paths;
    s.paths[i].Update(d, s.Count(i, d));
  }
}

}  // namespace kplace::plugins::podtopologyspread
