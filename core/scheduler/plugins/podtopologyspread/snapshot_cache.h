// Per-node data PodTopologySpread reads for every node of the snapshot in every cycle, kept across cycles.
// kube-scheduler recounts the matching pods of all nodes for each pod (16 goroutines); re-reading every pod of a
// 5,000-node cluster costs milliseconds here. The cache keeps, per (namespace, selector), each node's count and
// recounts only nodes whose NodeInfo changed since (Node pointer, generation or pod count differ), and per topology
// key each node's label value. Results are identical to recounting.
//
// Assumptions: a NodeInfo's generation (or pod count) changes whenever its pod list changes, and bound pods' labels,
// namespace and deletionTimestamp are not mutated in place; Node objects are immutable (a changed node is a new
// Node object).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/scheduler/plugins/podtopologyspread/common.h"

namespace kplace::plugins::podtopologyspread {

class SnapshotCache {
 public:
  // Brings the per-node stamps up to date with the snapshot. Call at the start of PreFilter / PreScore; the
  // vectors returned below are valid until the next Sync.
  void Sync(const framework::Snapshot& snapshot);
  // Per snapshot node: the node's value of label key, kNoSymbol when absent.
  const std::vector<Symbol>& Values(Symbol key);
  // Per snapshot node: CountMatchingPods(node, c, ns). nullptr when the constraint never counts (nil or {} selector).
  const std::vector<std::int32_t>* Counts(const Constraint& c, Symbol ns);

 private:
  struct KeyEntry {
    Symbol key = kEmptySymbol;
    std::uint64_t layout = 0;
    std::uint64_t last_used = 0;
    std::vector<Symbol> values;
  };
  struct CountEntry {
    Symbol ns = kEmptySymbol;
    std::uint64_t hash = 0;
    Constraint constraint;  // only the selector matters
    std::vector<std::int32_t> counts;
    std::vector<std::uint64_t> stamps;  // stamp_ of the node when counted
    std::uint64_t last_used = 0;
  };
  static constexpr std::size_t kMaxKeys = 32;
  static constexpr std::size_t kMaxCountEntries = 128;

  const framework::Snapshot* snapshot_ = nullptr;
  std::vector<const Node*> node_;
  std::vector<std::uint64_t> generation_;
  std::vector<std::size_t> num_pods_;
  std::vector<std::uint64_t> stamp_;  // changes whenever the node's pods may have changed; never reused
  std::uint64_t next_stamp_ = 0;
  std::uint64_t layout_ = 1;  // changes when any index holds a different Node
  std::uint64_t tick_ = 0;
  std::vector<std::unique_ptr<KeyEntry>> keys_;
  std::vector<std::unique_ptr<CountEntry>> counts_;
};

// Per-plugin state reused across cycles (PreFilter / PreScore run one at a time; Filter / Score never touch it).
struct Scratch {
  SnapshotCache cache;
  std::vector<SymbolIndex> index;  // one per constraint
  void Prepare(std::size_t constraints) {
    if (index.size() < constraints) index.resize(constraints);
  }
};

}  // namespace kplace::plugins::podtopologyspread
