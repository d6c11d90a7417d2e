#include "core/scheduler/framework/nominator.h"

#include <algorithm>

namespace kplace::framework {

void Nominator::Add(const PodInfo* pod, const std::string& node_name, const Node* node) {
  Remove(pod);
  node_of_[pod] = {node_name, node};
  if (node) {
    by_node_[node].push_back(pod);
    Mark(node);
  }
}

void Nominator::Remove(const PodInfo* pod) {
  auto it = node_of_.find(pod);
  if (it == node_of_.end()) return;
  if (it->second.node) {
    auto& list = by_node_[it->second.node];
    std::erase(list, pod);
    if (list.empty()) {
      by_node_.erase(it->second.node);
      may_have_.fill(0);
      for (const auto& entry : by_node_) Mark(entry.first);
    }
  }
  node_of_.erase(it);
}

const std::string& Nominator::NodeOf(const PodInfo* pod) const {
  static const std::string kNone;
  auto it = node_of_.find(pod);
  return it == node_of_.end() ? kNone : it->second.node_name;
}

}  // namespace kplace::framework
