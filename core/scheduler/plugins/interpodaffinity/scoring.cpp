#include "core/scheduler/plugins/interpodaffinity/scoring.h"

#include <algorithm>
#include <limits>

namespace kplace::plugins::interpodaffinity {
namespace {

using framework::NodeInfo;
using framework::PodInfo;

struct Scorer {
  const InterPodAffinityArgs& args;
  const PodInfo& pod;
  const Labels& namespace_labels;  // of the incoming pod's namespace
  std::vector<IncomingTerm> preferred_affinity;
  std::vector<IncomingTerm> preferred_anti_affinity;
  PairCounts& out;

  // processExistingPod: e's additions, add(key, delta) each (at e's node).
  template <typename Add>
  void Process(const PodInfo& e, Add&& add) const {
    // The incoming pod's preferred terms (namespaceSelector unrolled, so no namespace labels needed).
    for (const auto& t : preferred_affinity)
      if (t.Matches(e)) add(t.term->topology_key, t.term->weight);
    for (const auto& t : preferred_anti_affinity)
      if (t.Matches(e)) add(t.term->topology_key, -std::int64_t{t.term->weight});
    // Symmetry: e's required affinity (weighted by hardPodAffinityWeight) and preferred terms selecting the pod.
    if (args.hard_pod_affinity_weight > 0)
      for (const auto& t : e.required_affinity)
        if (t.Matches(pod.namespace_, pod.labels(), &namespace_labels))
          add(t.topology_key, args.hard_pod_affinity_weight);
    for (const auto& t : e.preferred_affinity)
      if (t.Matches(pod.namespace_, pod.labels(), &namespace_labels)) add(t.topology_key, t.weight);
    for (const auto& t : e.preferred_anti_affinity)
      if (t.Matches(pod.namespace_, pod.labels(), &namespace_labels)) add(t.topology_key, -std::int64_t{t.weight});
  }
  // e runs on a node with labels node_labels.
  void Process(const PodInfo& e, const Labels& node_labels) {
    if (node_labels.empty()) return;
    Process(e, [&](Symbol key, std::int64_t delta) { out.Add(node_labels, key, delta); });
  }
};

}  // namespace

std::unique_ptr<PreScoreState> ComputePreScoreState(const InterPodAffinityArgs& args, const PodInfo& pod,
                                                    const std::vector<const NodeInfo*>& nodes,
                                                    const framework::Snapshot& snapshot, ScoreCounts* cache) {
  if (nodes.empty()) return nullptr;
  bool has_constraints = !pod.preferred_affinity.empty() || !pod.preferred_anti_affinity.empty();
  if (args.ignore_preferred_terms_of_existing_pods && !has_constraints) return nullptr;
  // Without preferred terms of its own, only existing pods with (anti-)affinity can contribute.
  if (!has_constraints && snapshot.have_pods_with_affinity.empty()) return nullptr;

  auto s = std::make_unique<PreScoreState>();
  Scorer scorer{args,
                pod,
                NamespaceLabelsOf(snapshot, pod.namespace_),
                UnrollTerms(pod.preferred_affinity, snapshot),
                UnrollTerms(pod.preferred_anti_affinity, snapshot),
                s->topology_score};
  if (cache && snapshot.layout_generation != 0) {
    // Every node's pods: without preferred terms of its own only pods with affinity add anything, the pods the walk
    // below visits.
    ScoreCounts::Key key{pod.namespace_, pod.labels().entries(), TermKeys(scorer.preferred_affinity),
                         TermKeys(scorer.preferred_anti_affinity), args.hard_pod_affinity_weight};
    const bool start_over = !cache->Same(key);
    cache->counts.Update(snapshot, start_over, [&](const NodeInfo& n, auto&& add) {
      for (const PodInfo* e : n.pods) scorer.Process(*e, add);
    });
    s->topology_score = cache->counts.counts();
    s->topology_score.SetKeys(cache->counts.KeysAdded());
    if (s->topology_score.keys().empty()) return nullptr;
    return s;
  }
  // Existing pods on every node of the snapshot count, not only on the feasible ones.
  if (has_constraints) {
    for (const NodeInfo& n : snapshot.nodes)
      for (const PodInfo* e : n.pods) scorer.Process(*e, n.node->meta.labels);
  } else {
    for (const NodeInfo* n : snapshot.have_pods_with_affinity)
      for (const PodInfo* e : n->pods_with_affinity) scorer.Process(*e, n->node->meta.labels);
  }
  // scoring.go: Skip when no term added anything (additions that cancel out still count).
  if (s->topology_score.keys().empty()) return nullptr;
  s->topology_score.Finish();
  return s;
}

bool ScoreCounts::Same(const Key& key) {
  const bool same = key == key_;
  if (!same) key_ = key;
  return same;
}

std::int64_t ScoreNode(const PreScoreState& s, const NodeInfo& node) {
  const Labels& labels = node.node->meta.labels;
  std::int64_t score = 0;
  for (Symbol k : s.topology_score.keys())
    if (auto v = labels.Get(k)) score += s.topology_score.Get(k, *v);
  return score;
}

void NormalizeScores(std::vector<framework::NodeScore>& scores) {
  if (scores.empty()) return;
  std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
  for (const auto& s : scores) {
    lo = std::min(lo, s.score);
    hi = std::max(hi, s.score);
  }
  std::int64_t diff = hi - lo;
  for (auto& s : scores) {
    double f = 0;
    // Divide first, then scale (scoring.go NormalizeScore); the order matters for truncation.
    if (diff > 0)
      f = static_cast<double>(framework::kMaxNodeScore) *
          (static_cast<double>(s.score - lo) / static_cast<double>(diff));
    s.score = static_cast<std::int64_t>(f);
  }
}

}  // namespace kplace::plugins::interpodaffinity
