#include "core/sim/simulation.h"

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
