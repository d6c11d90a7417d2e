// InterPodAffinity: Filter enforces required pod affinity / anti-affinity (the incoming pod's and, by symmetry, the
// existing pods' anti-affinity); Score prefers nodes by preferred terms of both sides and existing pods' required
// affinity (upstream plugins/interpodaffinity/{plugin,filtering,scoring}.go).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {

std::unique_ptr<framework::Plugin> NewInterPodAffinity(const PluginArgs& args, const Features& features);

namespace interpodaffinity {

// Filter reasons (filtering.go ErrReason*).
inline constexpr const char* kErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules";
inline constexpr const char* kErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules";
inline constexpr const char* kErrReasonExistingAntiAffinityRulesNotMatch =
    "node(s) didn't satisfy existing pods anti-affinity rules";

// One term of the incoming pod with its namespaceSelector unrolled (plugin.go mergeAffinityTermNamespacesIfNotEmpty):
// a `{}` selector keeps matching every namespace; any other selector adds the names of the Namespace objects it
// selects to the namespace set and then matches nothing. Matching therefore never needs namespace labels.
struct IncomingTerm {
  const framework::AffinityTerm* term = nullptr;  // selector, topology key, weight (owned by the PodInfo)
  std::vector<Symbol> namespaces;                 // sorted
  bool all_namespaces = false;

  bool Matches(Symbol pod_namespace, const Labels& pod_labels) const;
  bool Matches(const framework::PodInfo& p) const { return Matches(p.namespace_, p.labels()); }
};

std::vector<IncomingTerm> UnrollTerms(const std::vector<framework::AffinityTerm>& terms,
                                      const framework::Snapshot& snapshot);

// Counts keyed by topology pair (key, value), plus the topology keys that received any addition (few; a node is
// checked by looking up its value for each key). Stored as a sorted vector: Filter / Score look pairs up for every
// node, and a contiguous array is much cheaper to search than a node-based hash map. Adds made before Finish() are
// only appended (bulk build in PreFilter / PreScore); later ones (AddPod / RemovePod) keep the order.
class PairCounts {
 public:
  // Adds delta at (key, node's value of key) if the node has the key; entries that reach 0 are removed.
  void Add(const Labels& node_labels, Symbol key, std::int64_t delta);
  // Sorts and merges the appended additions.
  void Finish();
  std::int64_t Get(Symbol key, Symbol value) const;
  bool empty() const { return entries_.empty(); }
  const std::vector<Symbol>& keys() const { return keys_; }
  // The same count at every pair (the keys that received additions aside); both finished.
  bool SameCounts(const PairCounts& o) const { return entries_ == o.entries_; }
  // Replaces the list of keys that received additions (PerNodeCounts keeps its own).
  void SetKeys(std::vector<Symbol> keys) { keys_ = std::move(keys); }

 private:
  struct Entry {
    std::uint64_t pair;
    std::int64_t count;
    bool operator==(const Entry&) const = default;
  };
  static std::uint64_t Pair(Symbol key, Symbol value) { return (std::uint64_t{key} << 32) | value; }
  std::vector<Entry> entries_;
  std::vector<Symbol> keys_;
  bool finished_ = false;
  friend class PerNodeCounts;
};

// An unrolled term as a cache key: compared by value (namespaces, selector, topology key, weight), so a cache built
// for one pod's terms serves the next pod's equal ones.
struct TermKey {
  std::vector<Symbol> namespaces;
  bool all_namespaces = false;
  LabelSelector selector;
  Symbol topology_key = kEmptySymbol;
  std::int32_t weight = 0;
  bool operator==(const TermKey&) const = default;
};
std::vector<TermKey> TermKeys(const std::vector<IncomingTerm>& terms);

// PairCounts summed from one part per node, kept between cycles. Update recomputes a node's part (the additions its
// pods make) only when its Node, generation or pod count changed since, and moves the counts by the difference; it
// finds those nodes in the snapshot's change log (else by every node's stamp): a cycle costs the nodes that changed,
// not every bound pod. It starts over for another snapshot or node list, and when the caller says what the parts
// depend on (the incoming pod's terms, namespace, labels) differs from the previous call's.
class PerNodeCounts {
 public:
  // add_part(node, add) calls add(key, delta) for each addition the node's pods make (PairCounts::Add's, at the node).
  template <typename AddPart>
  void Update(const framework::Snapshot& snapshot, bool start_over, AddPart&& add_part) {
    const std::size_t n = snapshot.nodes.size();
    // Another snapshot or node list (freed Node addresses may be reused): start over too.
    if (start_over || &snapshot != snapshot_ || snapshot.layout_generation != layout_ || stamps_.size() != n) {
      snapshot_ = &snapshot;
      layout_ = snapshot.layout_generation;
      stamps_.assign(n, Stamp{});
      parts_.assign(n, {});
      counts_ = PairCounts();
      adds_.clear();
    }
    const bool bulk = !counts_.finished_;
    auto visit = [&](std::size_t i) {
      const framework::NodeInfo& ni = snapshot.nodes[i];
      Stamp& stamp = stamps_[i];
      if (stamp.node == ni.node && stamp.generation == ni.generation && stamp.num_pods == ni.pods.size()) return;
      std::vector<KeyPart>& part = parts_[i];
      if (stamp.node) Apply(stamp.node->meta.labels, part, -1);
      part.clear();
      const Labels& labels = ni.node->meta.labels;
      add_part(ni, [&](Symbol key, std::int64_t delta) {
        if (!labels.Has(key)) return;  // PairCounts::Add counts nothing at a node without the key
        for (auto& k : part)
          if (k.key == key) {
            k.sum += delta;
            ++k.adds;
            return;
          }
        part.push_back({key, delta, 1});
      });
      Apply(labels, part, 1);
      stamp = {ni.node, ni.generation, ni.pods.size()};
    };
    const auto& log = snapshot.changed_nodes;
    if (!bulk && snapshot.tracks_changes && log_pos_ <= log.size()) {
      // The node list of the last full visit, and the owner logs every node whose pods change: only those.
      for (std::size_t k = log_pos_; k < log.size(); ++k)
        if (static_cast<std::size_t>(log[k]) < n) visit(static_cast<std::size_t>(log[k]));
    } else {
      for (std::size_t i = 0; i < n; ++i) visit(i);
    }
    log_pos_ = log.size();
    if (bulk) counts_.Finish();
  }
  const PairCounts& counts() const { return counts_; }
  // The topology keys that received any addition, sorted.
  std::vector<Symbol> KeysAdded() const;

 private:
  struct KeyPart {
    Symbol key;
    std::int64_t sum;
    std::int64_t adds;
  };
  struct Stamp {
    const Node* node = nullptr;  // nullptr: not counted yet
    std::uint64_t generation = 0;
    std::size_t num_pods = 0;
  };
  void Apply(const Labels& labels, const std::vector<KeyPart>& part, int sign);

  std::vector<Stamp> stamps_;
  std::vector<std::vector<KeyPart>> parts_;
  PairCounts counts_;
  std::vector<std::pair<Symbol, std::int64_t>> adds_;  // per key, the additions in all parts
  // The snapshot and node list the parts are for; its change log read up to log_pos_.
  const framework::Snapshot* snapshot_ = nullptr;
  std::uint64_t layout_ = 0;
  std::size_t log_pos_ = 0;
};

// The incoming pod's namespace labels (GetNamespaceLabelsSnapshot): the Namespace object's, or none.
const Labels& NamespaceLabelsOf(const framework::Snapshot& snapshot, Symbol ns);

}  // namespace interpodaffinity
}  // namespace kplace::plugins
