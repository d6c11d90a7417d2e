#include "core/scheduler/plugins/interpodaffinity/filtering.h"

namespace kplace::plugins::interpodaffinity {
namespace {

using framework::Code;
using framework::NodeInfo;
using framework::PodInfo;
using framework::Status;

// podMatchesAllAffinityTerms: false for an empty list.
bool MatchesAll(const std::vector<IncomingTerm>& terms, const PodInfo& p) {
  if (terms.empty()) return false;
  for (const auto& t : terms)
    if (!t.Matches(p)) return false;
  return true;
}

const Labels& NodeLabels(const NodeInfo& n) { return n.node->meta.labels; }

// Existing pod e's required anti-affinity terms that select the incoming pod, counted at e's node.
void AddExistingAntiAffinity(PairCounts& counts, const PodInfo& e, const Labels& node_labels, const PodInfo& pod,
                             const Labels* ns_labels, std::int64_t delta) {
  for (const auto& t : e.required_anti_affinity)
    if (t.Matches(pod.namespace_, pod.labels(), ns_labels)) counts.Add(node_labels, t.topology_key, delta);
}

// The incoming pod's affinity terms (all must select e, then every term counts) and anti-affinity terms (each
// selecting term counts) at e's node.
void AddIncoming(PreFilterState& s, const PodInfo& e, const Labels& node_labels, std::int64_t delta) {
  if (MatchesAll(s.affinity, e))
    for (const auto& t : s.affinity) s.affinity_counts.Add(node_labels, t.term->topology_key, delta);
  for (const auto& t : s.anti_affinity)
    if (t.Matches(e)) s.anti_affinity_counts.Add(node_labels, t.term->topology_key, delta);
}

}  // namespace

void PreFilterState::Update(const PodInfo& other, const NodeInfo& node, std::int64_t delta) {
  const Labels& labels = NodeLabels(node);
  AddExistingAntiAffinity(existing_anti_affinity, other, labels, *pod, namespace_labels, delta);
  AddIncoming(*this, other, labels, delta);
}

void IncomingCounts::Compute(PreFilterState& s, const framework::Snapshot& snapshot) {
  auto affinity = TermKeys(s.affinity);
  auto anti_affinity = TermKeys(s.anti_affinity);
  const bool start_over = affinity != affinity_ || anti_affinity != anti_affinity_;
  affinity_ = std::move(affinity);
  anti_affinity_ = std::move(anti_affinity);
  // AddIncoming, per node.
  affinity_counts_.Update(snapshot, start_over, [&](const NodeInfo& n, auto&& add) {
    std::int64_t matching = 0;
    for (const PodInfo* e : n.pods) matching += MatchesAll(s.affinity, *e);
    if (matching)
      for (const auto& t : s.affinity) add(t.term->topology_key, matching);
  });
  anti_affinity_counts_.Update(snapshot, start_over, [&](const NodeInfo& n, auto&& add) {
    for (const auto& t : s.anti_affinity) {
      std::int64_t matching = 0;
      for (const PodInfo* e : n.pods) matching += t.Matches(*e);
      if (matching) add(t.term->topology_key, matching);
    }
  });
  s.affinity_counts = affinity_counts_.counts();
  s.anti_affinity_counts = anti_affinity_counts_.counts();
}

std::unique_ptr<PreFilterState> ComputePreFilterState(const PodInfo& pod, const framework::Snapshot& snapshot,
                                                      IncomingCounts* counts) {
  // Cheap exit for the common pod without required terms when no existing pod has required anti-affinity.
  if (pod.required_affinity.empty() && pod.required_anti_affinity.empty() &&
      snapshot.have_pods_with_required_anti_affinity.empty())
    return nullptr;

  auto s = std::make_unique<PreFilterState>();
  s->pod = &pod;
  s->namespace_labels = &NamespaceLabelsOf(snapshot, pod.namespace_);
  for (const NodeInfo* n : snapshot.have_pods_with_required_anti_affinity)
    for (const PodInfo* e : n->pods_with_required_anti_affinity)
      AddExistingAntiAffinity(s->existing_anti_affinity, *e, NodeLabels(*n), pod, s->namespace_labels, 1);
  s->existing_anti_affinity.Finish();

  if (!pod.required_affinity.empty() || !pod.required_anti_affinity.empty()) {
    s->affinity = UnrollTerms(pod.required_affinity, snapshot);
    s->anti_affinity = UnrollTerms(pod.required_anti_affinity, snapshot);
    s->matches_own_affinity = MatchesAll(s->affinity, pod);
    if (counts && snapshot.layout_generation != 0) {
      counts->Compute(*s, snapshot);
      return s;
    }
    for (const NodeInfo& n : snapshot.nodes)
      for (const PodInfo* e : n.pods) AddIncoming(*s, *e, NodeLabels(n), 1);
  } else if (s->existing_anti_affinity.empty()) {
    return nullptr;  // filtering.go PreFilter: Skip when neither side has anything to enforce
  }
  s->affinity_counts.Finish();
  s->anti_affinity_counts.Finish();
  return s;
}

Status FilterNode(const PreFilterState& s, const NodeInfo& node) {
  const Labels& labels = NodeLabels(node);
  // satisfyPodAffinity: every term's key must be on the node; a topology without matching pods is only accepted
  // for the first pod of a group (no matching pod anywhere, and the pod matches its own terms).
  if (!s.affinity.empty()) {
    bool pods_exist = true;
    for (const auto& t : s.affinity) {
      auto v = labels.Get(t.term->topology_key);
      if (!v) return Status(Code::UnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);
      if (s.affinity_counts.Get(t.term->topology_key, *v) <= 0) pods_exist = false;
    }
    if (!pods_exist && !(s.affinity_counts.empty() && s.matches_own_affinity))
      return Status(Code::UnschedulableAndUnresolvable, kErrReasonAffinityRulesNotMatch);
  }
  // satisfyPodAntiAffinity: a term only rejects nodes carrying its key.
  for (const auto& t : s.anti_affinity) {
    auto v = labels.Get(t.term->topology_key);
    if (v && s.anti_affinity_counts.Get(t.term->topology_key, *v) > 0)
      return Status(Code::Unschedulable, kErrReasonAntiAffinityRulesNotMatch);
  }
  // satisfyExistingPodsAntiAffinity: any (key, value) label of the node with a count.
  if (!s.existing_anti_affinity.empty()) {
    for (Symbol k : s.existing_anti_affinity.keys()) {
      auto v = labels.Get(k);
      if (v && s.existing_anti_affinity.Get(k, *v) > 0)
        return Status(Code::Unschedulable, kErrReasonExistingAntiAffinityRulesNotMatch);
    }
  }
  return {};
}

}  // namespace kplace::plugins::interpodaffinity
