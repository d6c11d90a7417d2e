#include "core/sim/simulation.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/sim/runner.h"

namespace kplace::sim {

SimResult NewResult(const Scenario& sc) {
  SimResult result;
  result.mode = sc.simulation.mode;
  result.seed = sc.simulation.seed;
  result.kubernetes_minor = sc.simulation.kubernetes_minor;
  result.warnings = sc.warnings;
  result.import = sc.import;
  ImportSummary& in = result.import;
  in.nodes = sc.nodes.size();
  for (const auto& p : sc.pods) {
    if (p.Terminal()) continue;
    if (!p.node_name.empty()) {
      ++in.pods_bound;
      continue;
    }
    ++in.pods_pending;
    if (sc.simulation.mode != Mode::Karpenter && sc.scheduler_config.ProfileIndex(p.scheduler_name) < 0)
      ++in.other_scheduler;
  }
  return result;
}

std::vector<std::uint32_t> KeyOrder(const std::vector<PodResult>& pods) {
  std::vector<std::uint32_t> order(pods.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&pods](std::uint32_t a, std::uint32_t b) { return pods[a].key < pods[b].key; });
  return order;
}

void SortPodsByKey(std::vector<PodResult>& pods) {
  const auto by_key = [](const PodResult& a, const PodResult& b) { return a.key < b.key; };
  // Keys are unique (the parser refuses a second pod of one name), so the order is the same either way; a dump
  // usually lists its pods in key order already, and a PodResult is large to swap about.
  if (std::is_sorted(pods.begin(), pods.end(), by_key)) return;
  // Sort positions, then move each PodResult into place once, a cycle of the permutation at a time: sorting the
  // structs themselves swaps them about (and std::sort over them was 8 KB of the page's wasm), a second vector of
  // them was 5 MB of fresh memory for 10,000 pods. Position k takes the pod at order[k].
  // A position filled is marked order[j] = j, so each cycle is walked once.
  std::vector<std::uint32_t> order = KeyOrder(pods);
  for (std::uint32_t k = 0; k < order.size(); ++k) {
    if (order[k] == k) continue;
    PodResult first = std::move(pods[k]);
    std::uint32_t j = k;
    while (order[j] != k) {
      pods[j] = std::move(pods[order[j]]);
      j = std::exchange(order[j], j);
    }
    pods[j] = std::move(first);
    order[j] = j;
  }
}

SimResult Run(Scenario sc, const RunOptions& options) {
  // A scenario switched to another mode keeps the field (the page's mode buttons): said, not refused.
  if (sc.simulation.apply_disruption && sc.simulation.mode != Mode::Cluster)
    sc.warnings.push_back("spec.karpenter.applyDisruption applies in cluster mode only: ignored in " +
                          std::string(sc.simulation.mode == Mode::Karpenter ? "karpenter" : "scheduler") + " mode");
  if (sc.simulation.mode == Mode::Karpenter) return RunKarpenter(std::move(sc), options);
  const bool apply = sc.simulation.apply_disruption && options.disruption && options.apply_disruption &&
                     sc.simulation.mode == Mode::Cluster;
  Runner runner(std::move(sc), options);
  runner.keep_settled = apply;
  SimResult result = runner.Run();
  if (apply) result.disruption_applied = options.apply_disruption(runner.TakeSettled(), result, options);
  return result;
}

}  // namespace kplace::sim
