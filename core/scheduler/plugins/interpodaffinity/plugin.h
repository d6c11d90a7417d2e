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
};

// The incoming pod's namespace labels (GetNamespaceLabelsSnapshot): the Namespace object's, or none.
const Labels& NamespaceLabelsOf(const framework::Snapshot& snapshot, Symbol ns);

}  // namespace interpodaffinity
}  // namespace kplace::plugins
