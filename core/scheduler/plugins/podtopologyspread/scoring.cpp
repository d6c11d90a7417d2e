#include "core/scheduler/plugins/podtopologyspread/scoring.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <utility>

namespace kplace::plugins::podtopologyspread {
namespace {

// v1.LabelHostname: counted per node in Score, weighted by the number of scored nodes.
Symbol HostnameKey() {
  static const Symbol s = Intern("kubernetes.io/hostname");
  return s;
}

// topologyNormalizingWeight: ln(size + 2).
double NormalizingWeight(std::size_t size) { return std::log(static_cast<double>(size + 2)); }

// Score's sum over the constraints whose key the node has: cnt * weight + (maxSkew - 1), rounded half away from
// zero. value(i) is the node's label value (kNoSymbol when absent), host_count(i) its matching pods (for
// kubernetes.io/hostname), find(i, value) the domain id of value for constraint i, or -1.
template <typename Value, typename HostCount, typename FindDomain>
std::int64_t RawScore(const PreScoreData& d, Value&& value, HostCount&& host_count, FindDomain&& find) {
  double score = 0;
  for (std::size_t i = 0; i < d.constraints.size(); ++i) {
    const Constraint& c = d.constraints[i];
    Symbol v = value(i);
    if (v == kNoSymbol) continue;
    std::int64_t cnt = 0;
    if (c.key == HostnameKey()) {
      cnt = host_count(i);
    } else if (std::int32_t dom = find(i, v); dom >= 0) {
      cnt = d.counts[i][static_cast<std::size_t>(dom)];
    }
    score += static_cast<double>(cnt) * d.weights[i] + static_cast<double>(c.max_skew - 1);
  }
  return static_cast<std::int64_t>(std::round(score));
}

// Ignored: a scored node that lacks a topology key while all are required. Uses the PreScore record when present.
bool IsIgnored(const PreScoreData& d, const framework::NodeInfo& node, std::int64_t* raw) {
  std::int64_t slot = SnapshotSlot(d.nodes, d.num_nodes, node);
  *raw = slot >= 0 ? d.raw[static_cast<std::size_t>(slot)] : kNotScored;
  if (*raw != kNotScored) return *raw == kIgnored;
  return d.require_all_topologies && !NodeHasAllKeys(node.node->meta.labels, d.constraints);
}

}  // namespace

std::unique_ptr<PreScoreState> ComputePreScoreState(const framework::PodInfo& pod, std::vector<Constraint> constraints,
                                                    bool require_all_topologies,
                                                    const std::vector<const framework::NodeInfo*>& feasible,
                                                    const framework::Snapshot& snapshot, Scratch& scratch) {
  auto data = std::make_shared<PreScoreData>();
  data->constraints = std::move(constraints);
  data->require_all_topologies = require_all_topologies;
  const auto& cs = data->constraints;
  const std::size_t C = cs.size();
  data->nodes = snapshot.nodes.data();
  data->num_nodes = snapshot.nodes.size();
  data->raw.assign(data->num_nodes, kNotScored);
  std::vector<char> per_node(C);  // hostname constraints are counted per node in Score
  bool any_domains = false;
  for (std::size_t i = 0; i < C; ++i) {
    per_node[i] = cs[i].key == HostnameKey();
    any_domains |= !per_node[i];
  }
  scratch.Prepare(C);
  auto& index = scratch.index;
  SnapshotCache& cache = scratch.cache;
  cache.Sync(snapshot);
  std::vector<const Symbol*> values(C);
  std::vector<const std::int32_t*> matching(C);  // nullptr: the constraint counts nothing
  for (std::size_t i = 0; i < C; ++i) {
    values[i] = cache.Values(cs[i].key).data();
    const auto* m = cache.Counts(cs[i], pod.namespace_);
    matching[i] = m ? m->data() : nullptr;
  }
  auto has_all_keys = [&](std::size_t n) {
    for (std::size_t i = 0; i < C; ++i)
      if (values[i][n] == kNoSymbol) return false;
    return true;
  };
  std::vector<std::int64_t> slots;  // per feasible node, its snapshot position or -1
  slots.reserve(feasible.size());
  for (const framework::NodeInfo* node : feasible) slots.push_back(SnapshotSlot(data->nodes, data->num_nodes, *node));

  // initPreScoreState: the domains of the feasible nodes; a missing label is the value "" (only possible when not
  // all topologies are required, i.e. for system default constraints).
  std::size_t ignored = 0;
  for (std::size_t f = 0; f < feasible.size(); ++f) {
    std::int64_t slot = slots[f];
    const Labels& labels = feasible[f]->node->meta.labels;
    auto n = static_cast<std::size_t>(slot);
    if (require_all_topologies && (slot >= 0 ? !has_all_keys(n) : !NodeHasAllKeys(labels, cs))) {
      if (slot >= 0) data->raw[n] = kIgnored;
      ++ignored;
      continue;
    }
    for (std::size_t i = 0; i < C; ++i) {
      if (per_node[i]) continue;
      Symbol v = slot >= 0 ? values[i][n] : labels.Get(cs[i].key).value_or(kNoSymbol);
      index[i].FindOrAdd(v == kNoSymbol ? kEmptySymbol : v);
    }
  }
  data->counts.resize(C);
  data->weights.resize(C);
  for (std::size_t i = 0; i < C; ++i) {
    data->counts[i].assign(index[i].size(), 0);
    data->weights[i] = NormalizingWeight(per_node[i] ? feasible.size() - ignored : index[i].size());
  }

  // Matching pods of every node (feasible or not) into the feasible domains.
  if (any_domains) {
    NodeInclusion inclusion(*pod.pod, cs);
    for (std::size_t n = 0; n < data->num_nodes; ++n) {
      if (require_all_topologies && !has_all_keys(n)) continue;
      NodeInclusion::Result inc =
          inclusion.active() ? inclusion.Evaluate(*snapshot.nodes[n].node) : NodeInclusion::Result{};
      for (std::size_t i = 0; i < C; ++i) {
        if (per_node[i] || !matching[i] || !NodeInclusion::Included(cs[i], inc)) continue;
        Symbol v = values[i][n];
        std::int32_t d = index[i].Find(v == kNoSymbol ? kEmptySymbol : v);
        if (d >= 0) data->counts[i][static_cast<std::size_t>(d)] += matching[i][n];
      }
    }
  }

  // The raw scores of the feasible nodes, so Score is a lookup.
  auto find = [&](std::size_t i, Symbol v) { return index[i].Find(v); };
  for (std::size_t f = 0; f < feasible.size(); ++f) {
    std::int64_t slot = slots[f];
    if (slot < 0) continue;  // Score computes it
    auto n = static_cast<std::size_t>(slot);
    if (data->raw[n] == kIgnored) continue;
    data->raw[n] = RawScore(
        *data, [&](std::size_t i) { return values[i][n]; },
        [&](std::size_t i) -> std::int64_t { return matching[i] ? matching[i][n] : 0; }, find);
  }

  data->values.resize(C);
  for (std::size_t i = 0; i < C; ++i) {
    data->values[i] = index[i].keys();
    index[i].Clear();
  }
  auto s = std::make_unique<PreScoreState>();
  s->data = std::move(data);
  return s;
}

std::int64_t ScoreNode(const PreScoreState& s, const framework::PodInfo& pod, const framework::NodeInfo& node) {
  const PreScoreData& d = *s.data;
  std::int64_t raw = kNotScored;
  if (IsIgnored(d, node, &raw)) return 0;
  if (raw != kNotScored) return raw;
  // A node PreScore did not see: search the domains.
  const Labels& labels = node.node->meta.labels;
  return RawScore(
      d, [&](std::size_t i) { return labels.Get(d.constraints[i].key).value_or(kNoSymbol); },
      [&](std::size_t i) -> std::int64_t { return CountMatchingPods(node, d.constraints[i], pod.namespace_); },
      [&](std::size_t i, Symbol v) -> std::int32_t {
        const auto& values = d.values[i];
        for (std::size_t k = 0; k < values.size(); ++k)
          if (values[k] == v) return static_cast<std::int32_t>(k);
        return -1;
      });
}

void NormalizeScores(const PreScoreState& s, std::vector<framework::NodeScore>& scores) {
  constexpr std::int64_t kInvalidScore = -1;
  std::int64_t min_score = INT64_MAX, max_score = 0;
  for (auto& ns : scores) {
    std::int64_t raw = kNotScored;
    if (IsIgnored(*s.data, *ns.node, &raw)) {
      ns.score = kInvalidScore;
      continue;
    }
    min_score = std::min(min_score, ns.score);
    max_score = std::max(max_score, ns.score);
  }
  for (auto& ns : scores) {
    if (ns.score == kInvalidScore) {
      ns.score = 0;
    } else if (max_score == 0) {
      ns.score = framework::kMaxNodeScore;
    } else {
      ns.score = framework::kMaxNodeScore * (max_score + min_score - ns.score) / max_score;
    }
  }
}

}  // namespace kplace::plugins::podtopologyspread
