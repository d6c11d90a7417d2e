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

namespace {

bool SameSelector(const LabelSelector& a, const LabelSelector& b) {
  if (a.nil != b.nil || a.requirements.size() != b.requirements.size()) return false;
  for (std::size_t i = 0; i < a.requirements.size(); ++i) {
    const auto& x = a.requirements[i];
    const auto& y = b.requirements[i];
    if (x.key != y.key || x.op != y.op || x.values != y.values || x.number != y.number) return false;
  }
  return true;
}

}  // namespace

bool IncomingCounts::SameTerms(const PreFilterState& s) const {
  auto same = [](const std::vector<TermKey>& keys, const std::vector<IncomingTerm>& terms) {
    if (keys.size() != terms.size()) return false;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const TermKey& k = keys[i];
      const IncomingTerm& t = terms[i];
      if (k.all_namespaces != t.all_namespaces || k.namespaces != t.namespaces ||
          k.term->topology_key != t.term->topology_key || !SameSelector(k.term->selector, t.term->selector))
        return false;
    }
    return true;
  };
  return same(affinity_, s.affinity) && same(anti_affinity_, s.anti_affinity);
}

void IncomingCounts::Compute(PreFilterState& s, const framework::Snapshot& snapshot) {
  const std::size_t n = snapshot.nodes.size();
  const std::size_t width = 1 + s.anti_affinity.size();
  if (&snapshot != snapshot_ || snapshot.layout_generation != layout_ || nodes_.size() != n || !SameTerms(s)) {
    snapshot_ = &snapshot;
    layout_ = snapshot.layout_generation;
    auto keys = [](const std::vector<IncomingTerm>& terms) {
      std::vector<TermKey> out;
      for (const auto& t : terms) out.push_back({t.namespaces, t.all_namespaces, t.term});
      return out;
    };
    affinity_ = keys(s.affinity);
    anti_affinity_ = keys(s.anti_affinity);
    nodes_.assign(n, NodePart{});
    matches_.assign(n * width, 0);
    affinity_counts_ = PairCounts();
    anti_affinity_counts_ = PairCounts();
  }
  // The stored terms point into an earlier pod's PodInfo, which may be gone: from here on use this pod's.
  for (std::size_t i = 0; i < affinity_.size(); ++i) affinity_[i].term = s.affinity[i].term;
  for (std::size_t i = 0; i < anti_affinity_.size(); ++i) anti_affinity_[i].term = s.anti_affinity[i].term;
  const bool bulk = nodes_.empty() || !nodes_[0].node;  // nothing counted yet: append, then Finish
  std::vector<std::int64_t> now(width);
  for (std::size_t i = 0; i < n; ++i) {
    const NodeInfo& ni = snapshot.nodes[i];
    NodePart& part = nodes_[i];
    if (part.node == ni.node && part.generation == ni.generation && part.num_pods == ni.pods.size()) continue;
    std::fill(now.begin(), now.end(), 0);
    for (const PodInfo* e : ni.pods) {
      if (MatchesAll(s.affinity, *e)) ++now[0];
      for (std::size_t t = 0; t < s.anti_affinity.size(); ++t)
        if (s.anti_affinity[t].Matches(*e)) ++now[1 + t];
    }
    std::int64_t* was = &matches_[i * width];
    // A different Node at this index: take the old one's part away under its own labels first.
    if (part.node && part.node != ni.node) {
      for (const auto& t : s.affinity)
        if (was[0]) affinity_counts_.Add(part.node->meta.labels, t.term->topology_key, -was[0]);
      for (std::size_t t = 0; t < s.anti_affinity.size(); ++t)
        if (was[1 + t])
          anti_affinity_counts_.Add(part.node->meta.labels, s.anti_affinity[t].term->topology_key, -was[1 + t]);
      std::fill(was, was + width, 0);
    }
    const Labels& labels = NodeLabels(ni);
    if (const std::int64_t d = now[0] - was[0])
      for (const auto& t : s.affinity) affinity_counts_.Add(labels, t.term->topology_key, d);
    for (std::size_t t = 0; t < s.anti_affinity.size(); ++t)
      if (const std::int64_t d = now[1 + t] - was[1 + t])
        anti_affinity_counts_.Add(labels, s.anti_affinity[t].term->topology_key, d);
    std::copy(now.begin(), now.end(), was);
    part = {ni.node, ni.generation, ni.pods.size()};
  }
  if (bulk) {
    affinity_counts_.Finish();
    anti_affinity_counts_.Finish();
  }
  s.affinity_counts = affinity_counts_;
  s.anti_affinity_counts = anti_affinity_counts_;
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
