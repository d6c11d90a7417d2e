#include "core/scheduler/plugins/helper/node_affinity_match.h"

namespace kplace::plugins::helper {

bool HasRequiredNodeAffinity(const Pod& pod) {
  const auto& na = pod.affinity.node_affinity;
  return !pod.node_selector.empty() || (na && na->required);
}

bool MatchesRequiredNodeAffinity(const Pod& pod, const Node& node) {
  const Labels& labels = node.meta.labels;
  for (const auto& [key, value] : pod.node_selector) {
    auto v = labels.Get(key);
    if (!v || *v != value) return false;
  }
  const auto& na = pod.affinity.node_affinity;
  if (na && na->required) return na->required->Matches(labels, node.name_symbol);
  return true;
}

}  // namespace kplace::plugins::helper
