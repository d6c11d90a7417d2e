// DefaultPreemption's per-node logic (upstream plugins/defaultpreemption/default_preemption.go): who may preempt,
// which pods on a node must go for the preemptor to fit, and how PodDisruptionBudgets weigh on that choice.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/labels.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/framework.h"

namespace kplace::preemption {

// A PodDisruptionBudget as preemption reads it: disruptionsAllowed from its status (given, or derived by
// kplace as the disruption controller would) and the pods already counted as disrupted.
struct PdbBudget {
  std::string name;
  Symbol namespace_ = kEmptySymbol;
  LabelSelector selector;
  std::int32_t disruptions_allowed = 0;
  std::vector<std::string> disrupted_pods;  // status.disruptedPods (pod names)
};

// What SelectVictimsOnNode and the dry run need from the scheduler.
struct Context {
  framework::Framework& fw;
  const framework::Snapshot& snapshot;
  const framework::Nominator* nominator = nullptr;
  const std::vector<PdbBudget>* pdbs = nullptr;
  DefaultPreemptionArgs args;
};

// util.MoreImportantPod: higher priority first; equal priority: the earlier status.startTime (a pod that has not
// started counts as starting now, i.e. after every recorded start).
bool MoreImportantPod(const framework::PodInfo& a, const framework::PodInfo& b);

// PodEligibleToPreemptOthers: the reason pod may not preempt ("" = eligible). nominated_node is the pod's
// status.nominatedNodeName ("" when none) and nominated_node_code the Filter status code of that node in this
// cycle.
std::string NotEligibleReason(const framework::PodInfo& pod, const std::string& nominated_node,
                              framework::Code nominated_node_code, const framework::Snapshot& snapshot);

// filterPodsWithPDBViolation: splits pods (order kept) into those whose eviction would exceed a matching PDB's
// budget and the rest.
void SplitByPdbViolation(const std::vector<const framework::PodInfo*>& pods, const std::vector<PdbBudget>& pdbs,
                         std::vector<const framework::PodInfo*>& violating,
                         std::vector<const framework::PodInfo*>& non_violating);

// SelectVictimsOnNode on a copy of the node and of the cycle state: removes every lower-priority pod, checks the
// preemptor fits (with nominated pods), then reprieves pods (PDB-violating first, most important first) while it
// still fits. On success victims holds the evicted pods, most important first.
framework::Status SelectVictimsOnNode(Context& ctx, framework::CycleState& state, const framework::PodInfo& pod,
                                      framework::NodeInfo& node, std::vector<const framework::PodInfo*>& victims,
                                      std::int64_t& num_pdb_violations);

// calculateNumCandidates: max(numNodes * percentage / 100, absolute), capped at numNodes.
std::int32_t CalculateNumCandidates(const DefaultPreemptionArgs& args, std::int32_t num_nodes);

}  // namespace kplace::preemption
