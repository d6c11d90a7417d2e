#include "core/sim/simulation.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "core/io/json_reader.h"
#include "core/karpenter/scheduler.h"
#include "core/scheduler/framework/framework.h"
#include "core/scheduler/plugins/names.h"
#include "core/scheduler/scheduler.h"
#include "core/sim/admission.h"
#include "core/sim/cluster_state.h"

namespace kplace::sim {
namespace {

// Plugins whose rejection a newly bound pod can resolve (their QueueingHints react to assigned-pod additions).
bool PodAddMayHelp(const std::string& plugin) {
  return plugin == names::kInterPodAffinity || plugin == names::kPodTopologySpread;
}

// Plugins whose rejection a deleted pod can resolve (QueueingHints on assigned-pod deletion): freed resources or
// host ports, a removed anti-affinity or spread-counted pod.
bool PodDeleteMayHelp(const std::string& plugin) {
  return plugin == names::kNodeResourcesFit || plugin == names::kNodePorts || plugin == names::kInterPodAffinity ||
         plugin == names::kPodTopologySpread;
}

// A run that keeps making changes ends after this many passes (each pass binds or deletes at least one pod, so a
// scenario cannot need more than pods x 2 passes; the cap guards against a bug turning into a hang).
constexpr std::size_t kMaxPassesPerPod = 4;

// karpenter mode: one provisioning round of Karpenter's scheduler over the pending pods (no kube-scheduler, no
// DaemonSet expansion: Karpenter reserves DaemonSet overhead itself).
SimResult RunKarpenter(Scenario sc, const RunOptions& options) {
  for (auto& p : sc.pods) AddDefaultTolerations(p);
  std::vector<std::int32_t> priorities = ResolvePriorities(sc);
  karpenter::ProvisionOptions popts;
  popts.explain_all = options.explain_all;
  popts.explain = options.explain;
  SimResult result;
  result.mode = sc.simulation.mode;
  result.seed = sc.simulation.seed;
  result.kubernetes_minor = sc.simulation.kubernetes_minor;
  result.warnings = sc.warnings;
  karpenter::Result k = karpenter::Provision(sc, popts);
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    const Pod& p = sc.pods[i];
    const karpenter::PodOutcome& o = k.pods[i];
    PodResult r;
    r.key = p.Key();
    r.generated_from = p.generated_from;
    r.priority = priorities[i];
    r.bound_at_start = !p.node_name.empty();
    r.node = p.node_name;
    if (o.kind == karpenter::PodOutcomeKind::Node) r.node = o.node;
    if (o.kind == karpenter::PodOutcomeKind::Unschedulable || o.kind == karpenter::PodOutcomeKind::Ignored)
      r.unschedulable = o.reason;
    result.pods.push_back(std::move(r));
  }
  std::sort(result.pods.begin(), result.pods.end(),
            [](const PodResult& a, const PodResult& b) { return a.key < b.key; });
  for (const auto& n : sc.nodes) result.nodes.push_back({n.meta.name, {}});
  result.karpenter = std::move(k);
  return result;
}

}  // namespace

SimResult Run(Scenario sc, const RunOptions& options) {
  if (sc.simulation.mode == Mode::Karpenter) return RunKarpenter(std::move(sc), options);
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
  auto queue_less = [&](std::size_t a, std::size_t b) {
    if (priorities[a] != priorities[b]) return priorities[a] > priorities[b];
    const Pod& pa = sc.pods[a];
    const Pod& pb = sc.pods[b];
    if (pa.meta.creation_unix != pb.meta.creation_unix) return pa.meta.creation_unix < pb.meta.creation_unix;
    if (pa.item_index != pb.item_index) return pa.item_index < pb.item_index;
    return a < b;
  };
  std::sort(queue.begin(), queue.end(), queue_less);

  std::map<std::string, std::string> nominations;  // by preemption during the run
  auto event = [&](const char* type, const char* reason, const std::string& pod, std::string message) {
    result.events.push_back({type, reason, pod, std::move(message)});
  };

  // Each pass runs the active pods in queue order. Pods that fail wait as unschedulable; after the pass, those a
  // change of the cluster may help (queueing hints: a bind, a deletion, their own preemption, a cleared
  // nomination) are retried in the next pass. The run ends when no pod is retried.
  std::vector<std::uint8_t> retry_on_add(sc.pods.size(), 0), retry_on_delete(sc.pods.size(), 0);
  std::vector<std::uint8_t> waiting(sc.pods.size(), 0);  // failed, unschedulable
  std::vector<std::size_t> active = queue;
  const std::size_t max_passes = kMaxPassesPerPod * (queue.size() + 1);
  for (std::size_t pass = 0; !active.empty(); ++pass) {
    if (pass == max_passes) {
      result.warnings.push_back("the scheduling queue was still changing after " + std::to_string(pass) +
                                " passes; stopped");
      break;
    }
    std::vector<std::uint8_t> force(sc.pods.size(), 0);
    bool bound_any = false, deleted_any = false;
    for (std::size_t idx : active) {
      PodResult& r = pods[idx];
      framework::PodInfo& info = cluster.Info(idx);
      if (sc.pods[idx].meta.deleting) {
        // skipPodSchedule (schedule_one.go): a pod being deleted gets no cycle and is not requeued.
        r.unschedulable = "skip schedule deleting pod: " + r.key;
        event("Warning", "FailedScheduling", r.key, r.unschedulable);
        continue;
      }
      bool explain = options.explain_all || options.explain.count(r.key) > 0;
      int attempt = static_cast<int>(r.attempts.size()) + 1;
      CycleExplanation ex;
      CycleOutcome out = scheduler.ScheduleOne(idx, attempt, explain ? &ex : nullptr);
      PodAttempt a;
      a.attempt = attempt;
      if (out.node) {
        cluster.Bind(idx, *out.node);
        cluster.nominator.Remove(&info);
        r.node = out.node->Name();
        r.unschedulable.clear();
        r.nominated_node.clear();
        a.node = r.node;
        bound_any = true;
        waiting[idx] = 0;
        result.bind_order.push_back(r.key);
        event("Normal", "Scheduled", r.key, "Successfully assigned " + r.key + " to " + r.node);
      } else {
        r.unschedulable = out.message;
        a.message = out.message;
        waiting[idx] = 1;
        event("Warning", "FailedScheduling", r.key, out.message);
        bool on_add = PodAddMayHelp(out.prefilter_status.plugin());
        bool on_delete = PodDeleteMayHelp(out.prefilter_status.plugin());
        for (const auto& [n, st] : out.node_statuses) {
          on_add = on_add || PodAddMayHelp(st.plugin());
          on_delete = on_delete || PodDeleteMayHelp(st.plugin());
        }
        retry_on_add[idx] = on_add;
        retry_on_delete[idx] = on_delete;
        if (out.preemption && out.preemption->chosen) {
          // prepareCandidate: delete the victims, clear lower-priority nominations to the node, then nominate.
          const auto& c = *out.preemption->chosen;
          Preemption pe;
          pe.preemptor = r.key;
          pe.attempt = attempt;
          pe.node = c.node->Name();
          for (const framework::PodInfo* v : c.victims) {
            cluster.Evict(v->index);
            PodResult& vr = pods[v->index];
            vr.node.clear();
            vr.preempted_by = r.key;
            vr.preempted_from = pe.node;
            pe.victims.push_back(vr.key);
            result.preempted.push_back(vr.key);
            const std::string& uid = sc.pods[idx].meta.uid;
            event("Normal", "Preempted", vr.key,
                  "Preempted by pod " + (uid.empty() ? r.key : uid) + " on node " + pe.node);
          }
          for (const framework::PodInfo* p : out.preemption->cleared_nominations) {
            cluster.nominator.Remove(p);
            PodResult& pr = pods[p->index];
            pr.nominated_node.clear();
            pe.cleared_nominations.push_back(pr.key);
            force[p->index] = 1;  // the status update moves it back to the active queue
            event("Normal", "Nominated", pr.key, "nominatedNodeName cleared: " + r.key + " preempted on " + pe.node);
          }
          cluster.nominator.Add(&info, pe.node, c.node->node);
          r.nominated_node = pe.node;
          nominations[r.key] = pe.node;
          event("Normal", "Nominated", r.key, "nominatedNodeName set to " + pe.node);
          cluster.RefreshPdbs();
          force[idx] = 1;  // retried once its victims are gone
          deleted_any = true;
          result.preemptions.push_back(std::move(pe));
        } else if (out.preemption && out.preemption->clear_nomination) {
          if (!cluster.nominator.NodeOf(&info).empty())
            event("Normal", "Nominated", r.key, "nominatedNodeName cleared: preemption found no candidate");
          cluster.nominator.Remove(&info);
          r.nominated_node.clear();
        } else {
          r.nominated_node = cluster.nominator.NodeOf(&info);
        }
      }
      r.attempts.push_back(std::move(a));
      if (explain) r.explanations.push_back(std::move(ex));
    }
    // Unschedulable pods come back when a change may help them, in queue order.
    active.clear();
    for (std::size_t idx : queue) {
      if (!waiting[idx]) continue;
      if (force[idx] || (bound_any && retry_on_add[idx]) || (deleted_any && retry_on_delete[idx]))
        active.push_back(idx);
    }
  }

  for (const auto& n : cluster.snapshot.nodes) {
    NodeSummary s;
    s.name = n.Name();
    for (const auto* p : n.pods) s.pods.push_back(p->pod->Key());
    result.nodes.push_back(std::move(s));
  }
  result.nominations.assign(nominations.begin(), nominations.end());
  result.pods = std::move(pods);
  std::sort(result.pods.begin(), result.pods.end(),
            [](const PodResult& a, const PodResult& b) { return a.key < b.key; });
  return result;
}

}  // namespace kplace::sim
