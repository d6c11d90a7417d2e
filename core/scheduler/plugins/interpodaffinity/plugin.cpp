#include "core/scheduler/plugins/interpodaffinity/plugin.h"

#include <algorithm>

#include "core/scheduler/plugins/interpodaffinity/filtering.h"
#include "core/scheduler/plugins/interpodaffinity/scoring.h"
#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace interpodaffinity {

bool IncomingTerm::Matches(Symbol pod_namespace, const Labels& pod_labels) const {
  if (!all_namespaces && !std::binary_search(namespaces.begin(), namespaces.end(), pod_namespace)) return false;
  return term->selector.Matches(pod_labels);
}

std::vector<IncomingTerm> UnrollTerms(const std::vector<framework::AffinityTerm>& terms,
                                      const framework::Snapshot& snapshot) {
  std::vector<IncomingTerm> out;
  out.reserve(terms.size());
  for (const auto& t : terms) {
    IncomingTerm u;
    u.term = &t;
    u.namespaces = t.namespaces;
    const auto& sel = t.namespace_selector;
    if (sel && !sel->nil && sel->requirements.empty()) {
      u.all_namespaces = true;  // `{}` selects every namespace, with or without a Namespace object
    } else if (sel && !sel->nil) {
      for (const auto& [ns, labels] : snapshot.namespace_labels)
        if (sel->Matches(labels)) u.namespaces.push_back(ns);
    }
    std::sort(u.namespaces.begin(), u.namespaces.end());
    u.namespaces.erase(std::unique(u.namespaces.begin(), u.namespaces.end()), u.namespaces.end());
    out.push_back(std::move(u));
  }
  return out;
}

void PairCounts::Add(const Labels& node_labels, Symbol key, std::int64_t delta) {
  auto v = node_labels.Get(key);
  if (!v) return;
  if (std::find(keys_.begin(), keys_.end(), key) == keys_.end()) keys_.push_back(key);
  std::uint64_t pair = Pair(key, *v);
  if (!finished_) {
    entries_.push_back({pair, delta});
    return;
  }
  auto it = std::lower_bound(entries_.begin(), entries_.end(), pair,
                             [](const Entry& e, std::uint64_t p) { return e.pair < p; });
  if (it == entries_.end() || it->pair != pair) {
    entries_.insert(it, {pair, delta});
  } else if ((it->count += delta) == 0) {
    entries_.erase(it);
  }
}

void PairCounts::Finish() {
  finished_ = true;
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.pair < b.pair; });
  std::size_t out = 0;
  for (std::size_t i = 0; i < entries_.size();) {
    Entry e = entries_[i];
    for (++i; i < entries_.size() && entries_[i].pair == e.pair; ++i) e.count += entries_[i].count;
    if (e.count != 0) entries_[out++] = e;
  }
  entries_.resize(out);
}

std::vector<TermKey> TermKeys(const std::vector<IncomingTerm>& terms) {
  std::vector<TermKey> out;
  out.reserve(terms.size());
  for (const auto& t : terms)
    out.push_back({t.namespaces, t.all_namespaces, t.term->selector, t.term->topology_key, t.term->weight});
  return out;
}

void PerNodeCounts::Apply(const Labels& labels, const std::vector<KeyPart>& part, int sign) {
  for (const auto& k : part) {
    // A zero sum still adds an entry while bulk-building (Finish drops it); afterwards Add must not insert a zero.
    if (k.sum != 0 || !counts_.finished_) counts_.Add(labels, k.key, sign * k.sum);
    auto it = std::find_if(adds_.begin(), adds_.end(), [&](const auto& a) { return a.first == k.key; });
    if (it == adds_.end()) it = adds_.insert(adds_.end(), {k.key, 0});
    it->second += sign * k.adds;
  }
}

std::vector<Symbol> PerNodeCounts::KeysAdded() const {
  std::vector<Symbol> out;
  for (const auto& [key, adds] : adds_)
    if (adds > 0) out.push_back(key);
  std::sort(out.begin(), out.end());
  return out;
}

std::int64_t PairCounts::Get(Symbol key, Symbol value) const {
  std::uint64_t pair = Pair(key, value);
  auto it = std::lower_bound(entries_.begin(), entries_.end(), pair,
                             [](const Entry& e, std::uint64_t p) { return e.pair < p; });
  return it != entries_.end() && it->pair == pair ? it->count : 0;
}

const Labels& NamespaceLabelsOf(const framework::Snapshot& snapshot, Symbol ns) {
  static const Labels kNone;
  const Labels* l = snapshot.NamespaceLabelsOf(ns);
  return l ? *l : kNone;
}

}  // namespace interpodaffinity

namespace {

using framework::Code;
using framework::CycleState;
using framework::NodeInfo;
using framework::PodInfo;
using framework::Snapshot;
using framework::Status;
using interpodaffinity::PreFilterState;
using interpodaffinity::PreScoreState;

class InterPodAffinity final : public framework::PreFilterPlugin,
                               public framework::FilterPlugin,
                               public framework::PreScorePlugin,
                               public framework::ScorePlugin {
 public:
  explicit InterPodAffinity(const InterPodAffinityArgs& args) : args_(args) {}
  const char* Name() const override { return names::kInterPodAffinity; }
  // any assigned pod change, Node/Add (interpodaffinity/plugin.go)
  framework::ClusterEvents EventsToRegister() const override {
    return framework::cluster_event::kAssignedPodAdd | framework::cluster_event::kAssignedPodDelete |
           framework::cluster_event::kNodeAdd;
  }

  Status PreFilter(CycleState& state, const PodInfo& pod, const Snapshot& snapshot,
                   framework::PreFilterResult&) override {
    auto s = interpodaffinity::ComputePreFilterState(pod, snapshot, &incoming_counts_);
    if (!s) return Status::Skip();
    state.Write(prefilter_slot, std::move(s));
    return {};
  }

  bool HasExtensions() const override { return true; }
  Status AddPod(CycleState& state, const PodInfo&, const PodInfo& added, const NodeInfo& node,
                const Snapshot&) override {
    return Update(state, added, node, 1);
  }
  Status RemovePod(CycleState& state, const PodInfo&, const PodInfo& removed, const NodeInfo& node,
                   const Snapshot&) override {
    return Update(state, removed, node, -1);
  }

  Status Filter(const CycleState& state, const PodInfo&, const NodeInfo& node) const override {
    auto* s = state.Read<PreFilterState>(prefilter_slot);
    if (!s) return Status(Code::Error, kNoPreFilterState);
    return interpodaffinity::FilterNode(*s, node);
  }

  Status PreScore(CycleState& state, const PodInfo& pod, const std::vector<const NodeInfo*>& nodes,
                  const Snapshot& snapshot) override {
    auto s = interpodaffinity::ComputePreScoreState(args_, pod, nodes, snapshot, &score_counts_);
    if (!s) return Status::Skip();
    state.Write(prescore_slot, std::move(s));
    return {};
  }

  void ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                  std::vector<framework::NodeScore>& scores, framework::Status& status) const override {
    framework::ScoreEach(*this, state, pod, scores, status);
  }

  std::int64_t Score(const CycleState& state, const PodInfo&, const NodeInfo& node, Status& status) const override {
    auto* s = state.Read<PreScoreState>(prescore_slot);
    if (!s) {
      status = Status(Code::Error, kNoPreScoreState);
      return 0;
    }
    return interpodaffinity::ScoreNode(*s, node);
  }

  bool HasNormalize() const override { return true; }
  Status NormalizeScore(const CycleState& state, const PodInfo&,
                        std::vector<framework::NodeScore>& scores) const override {
    if (!state.Read<PreScoreState>(prescore_slot)) return {};
    interpodaffinity::NormalizeScores(scores);
    return {};
  }

 private:
  static constexpr const char* kNoPreFilterState =
      "error reading \"PreFilterInterPodAffinity\" from cycleState: not found";
  static constexpr const char* kNoPreScoreState =
      "failed to read \"PreScoreInterPodAffinity\" from cycleState: not found";

  Status Update(CycleState& state, const PodInfo& other, const NodeInfo& node, std::int64_t delta) const {
    auto* s = state.Read<PreFilterState>(prefilter_slot);
    if (!s) return Status(Code::Error, kNoPreFilterState);
    s->Update(other, node, delta);
    return {};
  }

  InterPodAffinityArgs args_;
  // Kept between cycles: the incoming pods' counts (PreFilter) and the topology scores (PreScore).
  interpodaffinity::IncomingCounts incoming_counts_;
  interpodaffinity::ScoreCounts score_counts_;
};

}  // namespace

std::unique_ptr<framework::Plugin> NewInterPodAffinity(const PluginArgs& args, const Features&) {
  return std::make_unique<InterPodAffinity>(args.inter_pod_affinity);
}

}  // namespace kplace::plugins
