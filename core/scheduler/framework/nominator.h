// Pods waiting for a node they were nominated to (status.nominatedNodeName) and not bound yet
// (upstream backend/queue nominator.go). Filtering a node counts the pods nominated there with a priority >= the
// incoming pod's as already present (RunFilterWithNominatedPods).
#pragma once

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
  // Pods nominated to node, in nomination order; nullptr when none.
  const std::vector<const PodInfo*>* ForNode(const Node* node) const {
    if (by_node_.empty()) return nullptr;
    auto it = by_node_.find(node);
    return it == by_node_.end() || it->second.empty() ? nullptr : &it->second;
  }
  // The node name pod is nominated to, "" when none.
  const std::string& NodeOf(const PodInfo* pod) const;
  bool empty() const { return node_of_.empty(); }

 private:
  struct Entry {
    std::string node_name;
    const Node* node = nullptr;
  };
  std::unordered_map<const Node*, std::vector<const PodInfo*>> by_node_;
  std::unordered_map<const PodInfo*, Entry> node_of_;
};

}  // namespace kplace::framework
