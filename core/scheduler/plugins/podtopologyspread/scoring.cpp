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
// zero. find(i, value) returns the domain id of value for constraint i, or -1.
template <typename FindDomain>
std::int64_t RawScore(const PreScoreData& d, const framework::NodeInfo& node, NodeCounter& counter,
                      FindDomain&& find) {
  const Labels& labels = node.node->meta.labels;
  double score = 0;
  counter.Reset();
  for (std::size_t i = 0; i < d.constraints.size(); ++i) {
    const Constraint& c = d.constraints[i];
    auto v = labels.Get(c.key);
    if (!v) continue;
    std::int64_t cnt = 0;
    if (c.key == HostnameKey()) {
      cnt = counter.Count(i, node);
    } else if (std::int32_t dom = find(i, *v); dom >= 0) {
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

  // initPreScoreState: the domains of the feasible nodes; a missing label is the value "" (only possible when not
  // all topologies are required, i.e. for system default constraints).
  std::size_t ignored = 0;
  for (const framework::NodeInfo* node : feasible) {
    const Labels& labels = node->node->meta.labels;
    if (require_all_topologies && !NodeHasAllKeys(labels, cs)) {
      std::int64_t slot = SnapshotSlot(data->nodes, data->num_nodes, *node);
      if (slot >= 0) data->raw[static_cast<std::size_t>(slot)] = kIgnored;
      ++ignored;
      continue;
    }
    for (std::size_t i = 0; i < C; ++i)
      if (!per_node[i]) index[i].FindOrAdd(labels.Get(cs[i].key).value_or(kEmptySymbol));
  }
  data->counts.resize(C);
  data->weights.resize(C);
  for (std::size_t i = 0; i < C; ++i) {
    data->counts[i].assign(index[i].size(), 0);
    data->weights[i] = NormalizingWeight(per_node[i] ? feasible.size() - ignored : index[i].size());
  }

  // Matching pods of every node (feasible or not) into the feasible domains.
  NodeCounter counter(cs, pod.namespace_);
  if (any_domains) {
    NodeInclusion inclusion(*pod.pod, cs);
    for (const framework::NodeInfo& ni : snapshot.nodes) {
      const Labels& labels = ni.node->meta.labels;
      if (require_all_topologies && !NodeHasAllKeys(labels, cs)) continue;
      NodeInclusion::Result inc = inclusion.Evaluate(*ni.node);
      counter.Reset();
      for (std::size_t i = 0; i < C; ++i) {
        if (per_node[i] || !NodeInclusion::Included(cs[i], inc)) continue;
        std::int32_t d = index[i].Find(labels.Get(cs[i].key).value_or(kEmptySymbol));
        if (d >= 0) data->counts[i][static_cast<std::size_t>(d)] += counter.Count(i, ni);
      }
    }
  }

  // The raw scores of the feasible nodes, so Score is a lookup.
  auto find = [&](std::size_t i, Symbol v) { return index[i].Find(v); };
  for (const framework::NodeInfo* node : feasible) {
    std::int64_t slot = SnapshotSlot(data->nodes, data->num_nodes, *node);
    if (slot < 0 || data->raw[static_cast<std::size_t>(slot)] == kIgnored) continue;
    data->raw[static_cast<std::size_t>(slot)] = RawScore(*data, *node, counter, find);
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
  NodeCounter counter(d.constraints, pod.namespace_);
  return RawScore(d, node, counter, [&](std::size_t i, Symbol v) -> std::int32_t {
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
