// Karpenter's provisioning scheduler (pkg/controllers/provisioning/provisioner.go, sched/scheduler.go Solve):
// which pending pods it simulates, the queue, the per-pod walk over existing nodes, in-flight NodeClaims and new
// NodeClaims from the NodePools, preference relaxation, limits and the finalised NodeClaims.
#pragma once

#include <set>
#include <string>

#include "core/karpenter/result.h"
#include "core/model/scenario.h"
#include "core/scheduler/framework/volume_cache.h"

namespace kplace::karpenter {

struct ProvisionOptions {
  bool explain_all = false;
  std::set<std::string> explain;  // pod keys whose attempts are recorded
  // cluster mode: only pods kube-scheduler marked Unschedulable are provisionable (karpenter mode also takes
  // workload-generated pods, which never met kube-scheduler).
  bool only_marked_unschedulable = false;
  // NodeClaim names in use (Nodes and earlier NodeClaims): new ones skip them (`<nodepool>-<n>`, n counting up).
  std::set<std::string> taken_names;
  // The last hostname placeholder number used before this run. Upstream's counter (sched/nodeclaim.go nodeID) lives
  // as long as the process, so cluster mode carries Result::hostname_seq from one round to the next.
  int hostname_seq = 0;
  // Claims and PersistentVolumes as Karpenter reads them from the API server: in cluster mode as kube-scheduler's
  // rounds left them (bound, provisioned). Null: the scenario's, settled as the PV controller settles them.
  const framework::VolumeCache* storage = nullptr;
};

// Runs one provisioning round over the scenario's pending pods (upstream provisioning/scheduling/scheduler.go
// Solve): existing nodes, in-flight NodeClaims, then new NodeClaims, relaxing preferences on failure; topology
// spread and pod (anti-)affinity over zones and hostnames as topology.go counts them.
Result Provision(const Scenario& sc, const ProvisionOptions& options = {});

// Whether Karpenter publishes a FailedScheduling event ("Failed to schedule pod, <reason>", events.go
// PodFailedToScheduleEvent) on the pod: for every pod it could not schedule (scheduler.go Results.Record) and every
// pod it ignores (provisioner.go GetPendingPods), except a pod that asks not to run on Karpenter capacity (its
// validation errors include KarpenterManagedLabelDoesNotExistError) and except when there is no NodePool at all
// (provisioner.go Schedule only marks the pods "no dynamic nodepools found").
bool PublishesFailedScheduling(const PodOutcome& o);

}  // namespace kplace::karpenter
