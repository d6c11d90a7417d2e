#include "core/sim/simulation.h"

#include <algorithm>

#include "core/sim/runner.h"

namespace kplace::sim {

SimResult NewResult(const Scenario& sc) {
  SimResult result;
  result.mode = sc.simulation.mode;
  result.seed = sc.simulation.seed;
  result.kubernetes_minor = sc.simulation.kubernetes_minor;
  result.warnings = sc.warnings;
  return result;
}

void SortPodsByKey(std::vector<PodResult>& pods) {
  std::sort(pods.begin(), pods.end(), [](const PodResult& a, const PodResult& b) { return a.key < b.key; });
}

SimResult Run(Scenario sc, const RunOptions& options) {
  if (sc.simulation.mode == Mode::Karpenter) return RunKarpenter(std::move(sc), options);
  return Runner(std::move(sc), options).Run();
}

}  // namespace kplace::sim
