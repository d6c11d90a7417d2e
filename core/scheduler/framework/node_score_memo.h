// NodeScoreMemo: a score plugin's per-node scores kept across scheduling cycles, for plugins whose score of a node
// depends only on the node's NodeInfo and a few numbers of the pod (NodeResourcesFit's and BalancedAllocation's
// request vectors). A NodeInfo's generation is process-wide unique per state (NextGeneration: every AddPod,
// RemovePod and BuildNodeOrder takes a new one), so a score computed for (pod key, generation) is the score for that
// key on any NodeInfo carrying that generation. The replicas of a workload share a key: after a bind only the bound
// node's score is computed again. A few keys are kept (least recently used goes), for queues that alternate
// workloads. Generation 0 (a NodeInfo built by hand) is never cached.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/scheduler/framework/types.h"

namespace kplace::framework {

class NodeScoreMemo {
 public:
  // The cycle's pod key: selects (or starts) the table for it.
  void Begin(const std::vector<std::int64_t>& key) {
    ++tick_;
    for (auto& t : tables_)
      if (t.used && t.key == key) {
        t.used = tick_;
        current_ = &t;
        return;
      }
    Table* lru = &tables_[0];
    for (auto& t : tables_)
      if (t.used < lru->used) lru = &t;
    lru->key = key;
    lru->used = tick_;
    lru->entries.clear();
    current_ = lru;
  }

  // The node's score for the current key: remembered, or compute() remembered.
  template <typename Compute>
  std::int64_t Score(const NodeInfo& node, Compute&& compute) {
    if (node.generation == 0 || !current_) return compute();
    auto& entries = current_->entries;
    const auto i = static_cast<std::size_t>(node.index);
    if (i >= entries.size()) entries.resize(i + 1);
    Entry& e = entries[i];
    if (e.generation != node.generation) {
      e.score = compute();
      e.generation = node.generation;
    }
    return e.score;
  }

 private:
  struct Entry {
    std::uint64_t generation = 0;
    std::int64_t score = 0;
  };
  struct Table {
    std::vector<std::int64_t> key;
    std::uint64_t used = 0;      // 0: never used
    std::vector<Entry> entries;  // by snapshot index
  };
  static constexpr std::size_t kKeys = 4;
  std::array<Table, kKeys> tables_;
  Table* current_ = nullptr;
  std::uint64_t tick_ = 0;
};

}  // namespace kplace::framework
