#include "core/sim/simulation.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "core/io/json_reader.h"
#include "core/scheduler/framework/framework.h"
#include "core/scheduler/plugins/names.h"
#include "core/scheduler/scheduler.h"
#include "core/sim/admission.h"
#include "core/sim/cluster_state.h"

namespace kplace::sim {
namespace {

// Plugins whose rejection a newly bound pod can resolve (their QueueingHints react to pod additions).
bool PodAddMayHelp(const std::string& plugin) {
  return plugin == names::kInterPodAffinity || plugin == names::kPodTopologySpread;
}

}  // namespace

SimResult Run(Scenario sc, const RunOptions& options) {
  if (sc.simulation.mode == Mode::Karpenter)
    io::Reader("Simulation", "spec.mode").Fail("karpenter mode is not implemented yet");
  if (sc.simulation.mode == Mode::Cluster && !sc.node_pools.empty())
    io::Reader("Simulation", "spec.mode")
        .Fail("cluster mode with NodePools needs Karpenter, which is not implemented yet; use mode scheduler");

  ExpandDaemonSets(sc, 0);
  for (auto& p : sc.pods) AddDefaultTolerations(p);
  std::vector<std::int32_t> priorities = ResolvePriorities(sc);

  Features features{sc.simulation.kubernetes_minor};
  std::string error;
  auto fw = framework::Framework::Create(sc.scheduler_config, features, &error);
  if (!fw) io::Reader("KubeSchedulerConfiguration", "profiles[0]").Fail(error);

  ClusterState cluster(sc, priorities);
  Scheduler scheduler(*fw, cluster, features, sc.simulation.seed);

  SimResult result;
  result.mode = sc.simulation.mode;
  result.seed = sc.simulation.seed;
  result.kubernetes_minor = sc.simulation.kubernetes_minor;
  result.warnings = sc.warnings;
  std::vector<PodResult> pods(sc.pods.size());
  std::vector<std::size_t> queue;
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    const Pod& p = sc.pods[i];
    PodResult& r = pods[i];
    r.key = p.Key();
    r.generated_from = p.generated_from;
    r.priority = priorities[i];
    if (!p.node_name.empty()) {
      r.bound_at_start = true;
      r.node = p.node_name;
      continue;
    }
    if (p.Terminal()) continue;
    r.scheduling_gates = p.scheduling_gates;
    if (!p.scheduling_gates.empty()) continue;
    queue.push_back(i);
  }
  // PrioritySort: higher priority first, then earlier creation (queue) time, then input order (the item's
  // position; pods of one workload keep their replica order).
  std::stable_sort(queue.begin(), queue.end(), [&](std::size_t a, std::size_t b) {
    if (priorities[a] != priorities[b]) return priorities[a] > priorities[b];
    const Pod& pa = sc.pods[a];
    const Pod& pb = sc.pods[b];
    if (pa.meta.creation_unix != pb.meta.creation_unix) return pa.meta.creation_unix < pb.meta.creation_unix;
    return pa.item_index < pb.item_index;
  });

  std::vector<bool> retry_on_pod_add(sc.pods.size(), false);
  std::vector<std::size_t> active = queue;
  while (!active.empty()) {
    std::vector<std::size_t> failed;
    bool bound_any = false;
    for (std::size_t idx : active) {
      PodResult& r = pods[idx];
      bool explain = options.explain_all || options.explain.count(r.key) > 0;
      int attempt = static_cast<int>(r.attempts.size()) + 1;
      CycleExplanation ex;
      CycleOutcome out = scheduler.ScheduleOne(idx, attempt, explain ? &ex : nullptr);
      PodAttempt a;
      a.attempt = attempt;
      if (out.node) {
        cluster.Bind(idx, *out.node);
        r.node = out.node->Name();
        r.unschedulable.clear();
        a.node = r.node;
        bound_any = true;
        result.bind_order.push_back(r.key);
      } else {
        r.unschedulable = out.message;
        a.message = out.message;
        bool may_help = PodAddMayHelp(out.prefilter_status.plugin());
        for (const auto& [n, s] : out.node_statuses) may_help = may_help || PodAddMayHelp(s.plugin());
        retry_on_pod_add[idx] = may_help;
        failed.push_back(idx);
      }
      r.attempts.push_back(std::move(a));
      if (explain) r.explanations.push_back(std::move(ex));
    }
    // Unschedulable pods come back when a bind may help them (queueing hints), in queue order.
    active.clear();
    if (bound_any)
      for (std::size_t idx : failed)
        if (retry_on_pod_add[idx]) active.push_back(idx);
  }

  for (const auto& n : cluster.snapshot.nodes) {
    NodeSummary s;
    s.name = n.Name();
    for (const auto* p : n.pods) s.pods.push_back(p->pod->Key());
    result.nodes.push_back(std::move(s));
  }
  result.pods = std::move(pods);
  std::sort(result.pods.begin(), result.pods.end(),
            [](const PodResult& a, const PodResult& b) { return a.key < b.key; });
  return result;
}

}  // namespace kplace::sim
