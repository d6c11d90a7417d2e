// Karpenter's provisioning scheduler (pkg/controllers/provisioning/provisioner.go, sched/scheduler.go Solve):
// which pending pods it simulates, the queue, the per-pod walk over existing nodes, in-flight NodeClaims and new
// NodeClaims from the NodePools, preference relaxation, limits and the finalised NodeClaims.
#pragma once

#include <set>
#include <string>

#include "core/karpenter/catalogue.h"
#include "core/karpenter/existing_node.h"
#include "core/karpenter/result.h"
#include "core/model/scenario.h"
#include "core/scheduler/framework/volume_cache.h"

namespace kplace::karpenter {

struct SimulationOptions;

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
  // A disruption simulation (disruption/helpers.go SimulateScheduling) rather than a provisioning round; null for
  // provisioning.
  const SimulationOptions* simulation = nullptr;
  // The scenario's existing nodes as BuildExistingNodes makes them (ExistingNodes), when the caller runs many
  // simulations of one cluster: the run copies those it may use instead of building them again. Null: built here.
  const std::vector<ExistingNode>* existing_nodes = nullptr;
};

// What a disruption simulation changes in the run: the nodes it may not use, the bound pods it moves, and (for
// consolidation) the destinations still under their NodePool's consolidateAfter.
struct SimulationOptions {
  // Candidates and nodes marked for deletion: no pod lands there, they take no share of a NodePool's limits and
  // register no topology domain (they are not among the scheduler's state nodes).
  std::set<std::string> excluded_nodes;
  // Bound pods to place again (the candidates' pods that are currently reschedulable, the pods of deleting nodes):
  // never provisionable, so an error on one of them is never ignored. Scenario::pods indices.
  std::vector<std::size_t> reschedule;
  // Consolidation only (IsConsolidationSimulation): nodes under their NodePool's consolidateAfter, which take no
  // pod except a pending one or one from a node in deleting_nodes (scheduler.go addToExistingNode).
  std::set<std::string> under_consolidate_after;
  std::set<std::string> deleting_nodes;
};

// An existing node after a simulation: its name (the Node's, or the NodeClaim's while it has none), whether the
// scheduler saw it initialized, and the pods the run placed there (Scenario::pods indices, add order).
struct SimulatedNode {
  std::string name;
  bool initialized = true;
  std::vector<std::size_t> pods;
};

// A new NodeClaim of a simulation, beside its Result::claims entry: the scheduling requirements it ended with
// (hostname removed) and its instance-type options (catalogue indices, ordered by price and truncated as
// ClaimOutcome::options lists them).
struct SimulatedClaim {
  Requirements requirements;
  std::vector<int> options;
};

struct Simulation {
  Result result;
  std::vector<KType> catalogue;
  std::vector<SimulatedNode> nodes;    // existing nodes in the scheduler's order (initialized first, then by name)
  std::vector<SimulatedClaim> claims;  // parallel to result.claims
};

// Runs one provisioning round over the scenario's pending pods (upstream provisioning/scheduling/scheduler.go
// Solve): existing nodes, in-flight NodeClaims, then new NodeClaims, relaxing preferences on failure; topology
// spread and pod (anti-)affinity over zones and hostnames as topology.go counts them.
Result Provision(const Scenario& sc, const ProvisionOptions& options = {});

// The same run with options.simulation set, keeping what the disruption controller reads afterwards.
Simulation Simulate(const Scenario& sc, const ProvisionOptions& options);

// Every existing node of the scenario (none excluded) for ProvisionOptions::existing_nodes.
std::vector<ExistingNode> ExistingNodes(const Scenario& sc);

// Whether Karpenter publishes a FailedScheduling event ("Failed to schedule pod, <reason>", events.go
// PodFailedToScheduleEvent) on the pod: for every pod it could not schedule (scheduler.go Results.Record) and every
// pod it ignores (provisioner.go GetPendingPods), except a pod that asks not to run on Karpenter capacity (its
// validation errors include KarpenterManagedLabelDoesNotExistError) and except when there is no NodePool at all
// (provisioner.go Schedule only marks the pods "no dynamic nodepools found").
bool PublishesFailedScheduling(const PodOutcome& o);

}  // namespace kplace::karpenter
