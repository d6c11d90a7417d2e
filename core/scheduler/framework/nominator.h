// Pods waiting for a node they were nominated to (status.nominatedNodeName) and not bound yet
// (upstream backend/queue nominator.go). Filtering a node counts the pods nominated there with a priority >= the
// incoming pod's as already present (RunFilterWithNominatedPods).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/scheduler/framework/types.h"

namespace kplace::framework {

class Nominator {
 public:
  // Nominates pod to node_name (replacing an earlier nomination). node may be null when no such node exists:
  // the nomination is kept but reserves nothing.
  void Add(const PodInfo* pod, const std::string& node_name, const Node* node);
  // Drops pod's nomination (bound, deleted or cleared). No-op when it has none.
  void Remove(const PodInfo* pod);
  // Whether no node has a nominated pod (ForNode is nullptr for every node).
  bool NoneOnNodes() const { return by_node_.empty(); }
  // Pods nominated to node, in nomination order; nullptr when none.
  const std::vector<const PodInfo*>* ForNode(const Node* node) const {
    if (by_node_.empty()) return nullptr;
    // Every Filter of every node asks: most nodes have no nominated pod, and a bit says so without a hash lookup.
    const std::size_t bit = FilterBit(node);
    if (!((may_have_[bit / 64] >> (bit % 64)) & 1)) return nullptr;
    auto it = by_node_.find(node);
    return it == by_node_.end() || it->second.empty() ? nullptr : &it->second;
  }
  // The node name pod is nominated to, "" when none.
  const std::string& NodeOf(const PodInfo* pod) const;
  bool empty() const { return node_of_.empty(); }

 private:
  static constexpr std::size_t kFilterBits = 4096;
  static std::size_t FilterBit(const Node* node) {
    const auto v = reinterpret_cast<std::uintptr_t>(node);
    return ((v >> 4) ^ (v >> 16)) % kFilterBits;
  }
  // A bit per hash of each node with nominated pods (set on Add, rebuilt when a node's last nomination goes).
  std::array<std::uint64_t, kFilterBits / 64> may_have_{};
  void Mark(const Node* node) {
    const std::size_t bit = FilterBit(node);
    may_have_[bit / 64] |= std::uint64_t{1} << (bit % 64);
  }
  struct Entry {
    std::string node_name;
    const Node* node = nullptr;
  };
  std::unordered_map<const Node*, std::vector<const PodInfo*>> by_node_;
  std::unordered_map<const PodInfo*, Entry> node_of_;
};

}  // namespace kplace::framework
