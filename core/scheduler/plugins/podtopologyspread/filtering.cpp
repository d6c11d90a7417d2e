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

int PreFilterState::MinMatchNum(std::size_t i) const {
  std::size_t domains = counts[i].size();
  if (domains < static_cast<std::size_t>(data->constraints[i].min_domains)) return 0;
  return paths[i].p[0].num;
}

std::unique_ptr<PreFilterState> ComputePreFilterState(const framework::PodInfo& pod, std::vector<Constraint> constraints,
                                                      const framework::Snapshot& snapshot, Scratch& scratch) {
  auto data = std::make_shared<PreFilterData>();
  data->constraints = std::move(constraints);
  const auto& cs = data->constraints;
  const std::size_t C = cs.size();
  const std::size_t N = snapshot.nodes.size();
  data->nodes = snapshot.nodes.data();
  data->num_nodes = N;
  for (const auto& c : cs) data->self_match.push_back(c.selector.Matches(pod.labels()) ? 1 : 0);

  auto s = std::make_unique<PreFilterState>();
  s->counts.resize(C);
  s->extra_values.resize(C);
  s->paths.resize(C);
  scratch.Prepare(C);
  auto& index = scratch.index;

  // Pass 1: every node holding all topology keys adds its matching pods to the domain of its value, per constraint
  // for which it is included. node_domain temporarily holds the node's label value (a Symbol) or kMissingKey.
  SnapshotCache& cache = scratch.cache;
  cache.Sync(snapshot);
  std::vector<const Symbol*> values(C);
  std::vector<const std::int32_t*> matching(C);  // nullptr: the constraint counts nothing
  for (std::size_t i = 0; i < C; ++i) {
    values[i] = cache.Values(cs[i].key).data();
    const auto* m = cache.Counts(cs[i], pod.namespace_);
    matching[i] = m ? m->data() : nullptr;
  }
  data->node_domain.assign(N * C, kMissingKey);
  NodeInclusion inclusion(*pod.pod, cs);
  for (std::size_t n = 0; n < N; ++n) {
    std::int32_t* row = &data->node_domain[n * C];
    bool all = true;
    for (std::size_t i = 0; i < C; ++i) {
      Symbol v = values[i][n];
      if (v == kNoSymbol) {
        all = false;
      } else {
        row[i] = static_cast<std::int32_t>(v);
      }
    }
    if (!all) continue;
    NodeInclusion::Result inc =
        inclusion.active() ? inclusion.Evaluate(*snapshot.nodes[n].node) : NodeInclusion::Result{};
    for (std::size_t i = 0; i < C; ++i) {
      if (!NodeInclusion::Included(cs[i], inc)) continue;
      auto d = static_cast<std::size_t>(index[i].FindOrAdd(static_cast<Symbol>(row[i])));
      if (d == s->counts[i].size()) s->counts[i].push_back(0);
      if (matching[i]) s->counts[i][d] += matching[i][n];
    }
  }
  // Pass 2: turn the stored values into domain ids; record the domains and their minimum.
  for (std::size_t k = 0; k < N * C; ++k) {
    std::int32_t& v = data->node_domain[k];
    if (v != kMissingKey) v = index[k % C].Find(static_cast<Symbol>(v));
  }
  data->values.resize(C);
  for (std::size_t i = 0; i < C; ++i) {
    data->values[i] = index[i].keys();
    for (std::size_t d = 0; d < s->counts[i].size(); ++d)
      s->paths[i].Update(static_cast<std::int32_t>(d), s->counts[i][d]);
    index[i].Clear();
  }
  s->data = std::move(data);
  return s;
}

namespace {

// The domain of `value` for constraint i by search (nodes outside the snapshot, domains added later).
std::int32_t FindDomain(const PreFilterState& s, std::size_t i, Symbol value) {
  const auto& base = s.data->values[i];
  for (std::size_t d = 0; d < base.size(); ++d)
    if (base[d] == value) return static_cast<std::int32_t>(d);
  const auto& extra = s.extra_values[i];
  for (std::size_t d = 0; d < extra.size(); ++d)
    if (extra[d] == value) return static_cast<std::int32_t>(base.size() + d);
  return kNoDomain;
}

// The node's row of domain ids, or nullptr when the node is not the snapshot's.
const std::int32_t* NodeRow(const PreFilterData& data, const framework::NodeInfo& node) {
  std::int64_t slot = SnapshotSlot(data.nodes, data.num_nodes, node);
  if (slot < 0) return nullptr;
  return &data.node_domain[static_cast<std::size_t>(slot) * data.constraints.size()];
}

// Domain of the node for constraint i; kMissingKey when the node lacks the key.
std::int32_t NodeDomain(const PreFilterState& s, const std::int32_t* row, std::size_t i, const Node& node) {
  std::int32_t d = row ? row[i] : kMissingKey;
  bool need_search = !row || (d == kNoDomain && !s.extra_values[i].empty());
  if (!need_search) return d;
  auto v = node.meta.labels.Get(s.data->constraints[i].key);
  if (!v) return kMissingKey;
  return FindDomain(s, i, *v);
}

}  // namespace

Status FilterNode(const PreFilterState& s, const framework::PodInfo&, const framework::NodeInfo& node) {
  const PreFilterData& data = *s.data;
  const std::int32_t* row = NodeRow(data, node);
  for (std::size_t i = 0; i < data.constraints.size(); ++i) {
    std::int32_t d = NodeDomain(s, row, i, *node.node);
    if (d == kMissingKey) return Status(Code::UnschedulableAndUnresolvable, kReasonTopologySpreadNodeLabelNotMatch);
    // 'existing matching num' + 'if self-match (1 or 0)' - 'global minimum' <= 'maxSkew'
    std::int64_t match = d >= 0 ? s.counts[i][static_cast<std::size_t>(d)] : 0;
    std::int64_t skew = match + data.self_match[i] - s.MinMatchNum(i);
    if (skew > data.constraints[i].max_skew)
      return Status(Code::Unschedulable, kReasonTopologySpreadConstraintsNotMatch);
  }
  return {};
}

void UpdateWithPod(PreFilterState& s, const framework::PodInfo& updated, const framework::PodInfo& incoming,
                   const framework::NodeInfo& node, int delta) {
  const PreFilterData& data = *s.data;
  if (updated.namespace_ != incoming.namespace_) return;
  const auto& cs = data.constraints;
  if (!NodeHasAllKeys(node.node->meta.labels, cs)) return;
  // The inclusion policies are those of the incoming pod; the selector is matched directly (no terminating-pod or
  // empty-selector shortcut, as upstream updateWithPod).
  NodeInclusion::Result inc = NodeInclusion(*incoming.pod, cs).Evaluate(*node.node);
  const std::int32_t* row = NodeRow(data, node);
  for (std::size_t i = 0; i < cs.size(); ++i) {
    if (!cs[i].selector.Matches(updated.labels()) || !NodeInclusion::Included(cs[i], inc)) continue;
    std::int32_t d = NodeDomain(s, row, i, *node.node);
    if (d == kNoDomain) {
      // TpValueToMatchNum[i][v] += delta creates the domain.
      s.extra_values[i].push_back(*node.node->meta.labels.Get(cs[i].key));
      d = static_cast<std::int32_t>(s.counts[i].size());
      s.counts[i].push_back(0);
    }
    int& num = s.counts[i][static_cast<std::size_t>(d)];
    num += delta;
    s.paths[i].Update(d, num);
  }
}

}  // namespace kplace::plugins::podtopologyspread
