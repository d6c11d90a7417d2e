// The scheduling simulation behind Drift and consolidation (karpenter v1.14.1 pkg/controllers/disruption/helpers.go
// SimulateScheduling): the pending pods, the candidates' pods and the pods of nodes being deleted, placed by the
// provisioning scheduler on the cluster without the candidates; which pods would not schedule, and why.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/karpenter/disruption/candidate.h"
#include "core/karpenter/disruption/cluster.h"
#include "core/karpenter/scheduler.h"

namespace kplace::karpenter::disruption {

struct SimulationResults {
  // errCandidateDeleting: a candidate is marked for deletion (the methods then do nothing with it).
  bool candidate_deleting = false;
  // A simulation error ("creating scheduler, no nodepools found").
  std::string error;
  Simulation simulation;
  std::vector<std::size_t> moved;  // the candidates' and deleting nodes' pods placed again (Scenario::pods)
  // Every pod the run could not place, by key (pending ones included), with the error Karpenter records for it; a
  // moved pod placed on a node that has not initialized gets UninitializedNodeError's text.
  std::map<std::string, std::string> pod_errors;
  std::map<std::string, bool> non_pending;  // pod key -> not provisionable (its error counts)

  // AllNonPendingPodsScheduled: no pod error except on pods that were pending (provisionable) before.
  bool AllNonPendingPodsScheduled() const;
  // NonPendingPodSchedulingErrors: "not all pods would schedule, <ns>/<name> => <error> ..." (each entry with a
  // trailing space; after the fifth, " and <n> other(s)"). Upstream walks a Go map (random order); kplace by key.
  std::string NonPendingPodSchedulingErrors() const;
  std::size_t NewNodeClaims() const { return simulation.result.claims.size(); }
};

// pdbs.IsCurrentlyReschedulable: reschedulable, no active do-not-disrupt, and not fully blocked by PDBs (two or more
// matching PDBs, or one with maxUnavailable 0 / "0%" or minAvailable "100%" that does not let an unhealthy pod go);
// status.disruptionsAllowed does not matter here.
bool IsCurrentlyReschedulable(const Scenario& sc, const Pod& p, std::int64_t now);

// SimulateScheduling for these candidates. consolidation: IsConsolidationSimulation (destinations under
// consolidateAfter take no moved pod). Pending pods are provisionable as in the scenario's mode (cluster mode: only
// those kube-scheduler marked unschedulable).
// existing (optional): karpenter::ExistingNodes(sc), built once for the many simulations of one reconcile.
SimulationResults SimulateScheduling(const Scenario& sc, const std::vector<StateNode>& nodes,
                                     const std::vector<const Candidate*>& candidates, std::int64_t now,
                                     bool consolidation, const std::vector<ExistingNode>* existing = nullptr);

}  // namespace kplace::karpenter::disruption
