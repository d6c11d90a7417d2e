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

// Ignored: a scored node that lacks a topology key while all are required. Uses the PreScore record when present.
bool IsIgnored(const PreScoreData& d, const framework::NodeInfo& node, std::int64_t* raw) {
  std::int64_t slot = SnapshotSlot(d.nodes, d.num_nodes, node);
  *raw = slot >= 0 ? d.raw[static_cast<std::size_t>(slot)] : kNotScored;
  if (*raw != kNotScored) return *raw == kIgnored;
  return d.require_all_topologies && !NodeHasAllKeys(node.node->meta.labels, d.constraints);
}

// Score's sum over the constraints whose key the node has: cnt * weight + (maxSkew - 1), rounded half away from
// zero. domain(i) is the node's domain id for constraint i (-1 when it lacks the label), host_count(i) its matching
// pods (for kubernetes.io/hostname).
template <typename Domain, typename HostCount>
std::int64_t RawScore(const PreScoreData& d, Domain&& domain, HostCount&& host_count) {
  double score = 0;
  for (std::size_t i = 0; i < d.constraints.size(); ++i) {
    std::int32_t dom = domain(i);
    if (dom < 0) continue;
    const Constraint& c = d.constraints[i];
    std::int64_t cnt = 0;
    if (c.key == HostnameKey()) {
      cnt = host_count(i);
    } else if (static_cast<std::size_t>(dom) < d.counts[i].size()) {
      cnt = d.counts[i][static_cast<std::size_t>(dom)];
    }
    score += static_cast<double>(cnt) * d.weights[i] + static_cast<double>(c.max_skew - 1);
  }
  return static_cast<std::int64_t>(std::round(score));
}

}  // namespace

std::unique_ptr<PreScoreState> ComputePreScoreState(const framework::PodInfo& pod, std::vector<Constraint> constraints,
                                                    bool require_all_topologies,
                                                    const std::vector<const framework::NodeInfo*>& feasible,
                                                    const framework::Snapshot& snapshot, Scratch& scratch,
                                                    std::shared_ptr<PreScoreData>& recycled) {
  std::shared_ptr<PreScoreData> data = recycled.use_count() == 1 ? recycled : std::make_shared<PreScoreData>();
  recycled = data;
  data->constraints = std::move(constraints);
  data->require_all_topologies = require_all_topologies;
  const auto& cs = data->constraints;
  const std::size_t C = cs.size();
  const std::size_t N = snapshot.nodes.size();
  data->nodes = snapshot.nodes.data();
  data->num_nodes = N;
  data->raw.assign(N, kNotScored);
  data->domains.resize(C);
  data->counts.resize(C);
  data->weights.assign(C, 0);

  SnapshotCache& cache = scratch.cache;
  std::vector<const std::int32_t*> matching(C);  // per node; nullptr: the constraint counts nothing
  cache.Lookup(snapshot, cs, pod.namespace_, data->domains, matching);
  // Nodes lacking a topology key are skipped when all are required. (Raw pointers in the loops: stores through
  // char would otherwise force the vectors to be re-read.)
  scratch.eligible.assign(N, 1);
  char* all_keys = scratch.eligible.data();
  if (require_all_topologies) {
    for (const auto& kd : data->domains) {
      const std::int32_t* of_node = kd->of_node.data();
      for (std::size_t n = 0; n < N; ++n)
        if (of_node[n] < 0) all_keys[n] = 0;
    }
  }
  auto& slots = scratch.slots;  // per feasible node: its snapshot position, -1 (not the snapshot's) or kIgnoredSlot
  constexpr std::int64_t kIgnoredSlot = -2;
  slots.clear();
  std::size_t ignored = 0;
  for (const framework::NodeInfo* node : feasible) {
    std::int64_t slot = SnapshotSlot(data->nodes, N, *node);
    bool skip = slot >= 0 ? !all_keys[static_cast<std::size_t>(slot)]
                          : require_all_topologies && !NodeHasAllKeys(node->node->meta.labels, cs);
    if (skip) {
      if (slot >= 0) data->raw[static_cast<std::size_t>(slot)] = kIgnored;
      ++ignored;
      slot = kIgnoredSlot;
    }
    slots.push_back(slot);
  }
  NodeInclusion inclusion(*pod.pod, cs);
  const char* affinity_ok = inclusion.check_affinity() ? cache.AffinityMatches(*pod.pod).data() : nullptr;
  const char* taints_ok = inclusion.check_taints() ? cache.TaintsTolerated(*pod.pod).data() : nullptr;

  for (std::size_t i = 0; i < C; ++i) {
    const KeyDomains& kd = *data->domains[i];
    auto& counts = data->counts[i];
    if (cs[i].key == HostnameKey()) {
      // Counted per node in Score; the weight comes from the number of scored nodes.
      counts.clear();
      data->weights[i] = NormalizingWeight(feasible.size() - ignored);
      continue;
    }
    // initPreScoreState: the domains of the scored nodes; a missing label is the value "" (only possible for system
    // default constraints, which do not require all topologies).
    const std::size_t missing = kd.empty_id >= 0 ? static_cast<std::size_t>(kd.empty_id) : kd.values.size();
    const std::int32_t* of_node = kd.of_node.data();
    auto domain_of = [&](std::size_t n) {
      std::int32_t d = of_node[n];
      return d >= 0 ? static_cast<std::size_t>(d) : missing;
    };
    scratch.flags.assign(kd.values.size() + 1, 0);
    char* in_domain = scratch.flags.data();
    std::size_t size = 0;
    for (std::int64_t slot : slots) {
      if (slot < 0) continue;
      char& f = in_domain[domain_of(static_cast<std::size_t>(slot))];
      size += !f;
      f = 1;
    }
    // Nodes PreScore cannot place in the snapshot (none in practice) add their domains by value.
    for (std::size_t f = 0; f < feasible.size(); ++f) {
      if (slots[f] != -1) continue;
      Symbol v = feasible[f]->node->meta.labels.Get(cs[i].key).value_or(kEmptySymbol);
      auto it = std::find(kd.values.begin(), kd.values.end(), v);
      std::size_t d = it != kd.values.end() ? static_cast<std::size_t>(it - kd.values.begin()) : missing;
      size += !in_domain[d];
      in_domain[d] = 1;
    }
    data->weights[i] = NormalizingWeight(size);
    // Matching pods of every node (feasible or not) into the scored domains.
    counts.assign(kd.values.size() + 1, 0);
    std::int64_t* cnt = counts.data();
    const std::int32_t* m = matching[i];
    if (!m) continue;
    const char* aff = cs[i].honor_node_affinity ? affinity_ok : nullptr;
    const char* tnt = cs[i].honor_node_taints ? taints_ok : nullptr;
    for (std::size_t n = 0; n < N; ++n) {
      if (m[n] == 0 || !all_keys[n] || (aff && !aff[n]) || (tnt && !tnt[n])) continue;
      std::size_t d = domain_of(n);
      if (in_domain[d]) cnt[d] += m[n];
    }
  }

  // The raw scores of the scored nodes, so Score is a lookup.
  for (std::int64_t slot : slots) {
    if (slot < 0) continue;
    auto n = static_cast<std::size_t>(slot);
    data->raw[n] = RawScore(
        *data, [&](std::size_t i) { return data->domains[i]->of_node[n]; },
        [&](std::size_t i) -> std::int64_t { return matching[i] ? matching[i][n] : 0; });
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
  // A node PreScore did not see: find its domains by value.
  const Labels& labels = node.node->meta.labels;
  return RawScore(
      d,
      [&](std::size_t i) -> std::int32_t {
        auto v = labels.Get(d.constraints[i].key);
        if (!v) return -1;
        const auto& values = d.domains[i]->values;
        auto it = std::find(values.begin(), values.end(), *v);
        // A value no snapshot node has counts 0: an id past the counts.
        return static_cast<std::int32_t>(it == values.end() ? values.size() + 1 : it - values.begin());
      },
      [&](std::size_t i) -> std::int64_t { return CountMatchingPods(node, d.constraints[i], pod.namespace_); });
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
