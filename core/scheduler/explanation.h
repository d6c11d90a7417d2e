// The record of why a pod went where it did (or nowhere): what the UI and `kplace run --explain` render.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/scheduler/framework/framework.h"
#include "core/scheduler/framework/status.h"

namespace kplace {

// One node's Filter outcome. Filter stops at the first failing plugin, so plugins before it passed and plugins
// after it did not run.
struct NodeFilterRecord {
  std::string node;
  bool feasible = false;
  std::string plugin;  // the failing plugin, "" when feasible
  framework::Code code = framework::Code::Success;
  std::vector<std::string> reasons;
};

struct NodeScoreRecord {
  std::string node;
  std::int64_t total = 0;
  std::vector<framework::PluginScore> plugins;
};

// One preemption candidate: a node where evicting victims lets the pod fit (DryRunPreemption).
struct PreemptionCandidateRecord {
  std::string node;
  std::vector<std::string> victims;  // pod keys, most important first
  std::vector<std::int32_t> victim_priorities;
  std::int64_t num_pdb_violations = 0;
};

// What DefaultPreemption did in one PostFilter run.
struct PreemptionRecord {
  bool eligible = true;
  std::string not_eligible_reason;
  std::vector<std::string> potential_nodes;  // nodes whose Filter status was plain Unschedulable, snapshot order
  std::int32_t offset = 0;                   // dry run starts at potential_nodes[offset]
  std::int32_t num_candidates = 0;           // the dry run stops once it has this many (and a PDB-clean one)
  std::vector<NodeFilterRecord> rejected;    // dry-run nodes that are no candidate, with the status that says why
  std::vector<PreemptionCandidateRecord> candidates;  // upstream order: PDB-clean candidates first
  std::string chosen;                                 // node the pod is nominated to ("" = none)
  std::string decided_by;                             // pickOneNodeForPreemption criterion that chose it
  std::vector<std::string> tied;                      // nodes still tied when the seeded tie-break decided
  std::vector<std::string> cleared_nominations;       // lower-priority pods nominated to chosen, nomination cleared
  std::string message;                                // PostFilter message ("" on success)
};

// One claim the pod mounts, as the scheduling cycle found it (what `kubectl describe pvc/pv` would show of it).
struct ClaimRecord {
  std::string claim;          // its name (the pod's namespace)
  std::string status;         // "Bound", "Pending", "Lost", "being deleted", "not found"
  std::string storage_class;  // "" when none
  std::string binding_mode;   // the class's volumeBindingMode; "" without a class, "class not found" when missing
  std::string volume;         // the PersistentVolume it is bound (or pre-bound) to
  // The PV's required node affinity as kubectl describe prints it: "Term 0: topology.kubernetes.io/zone in
  // [us-east-1c]" (terms joined by "; ").
  std::string volume_node_affinity;
};

// The pod's claims as a cycle sees them (an empty list for a pod without claims).
std::vector<ClaimRecord> DescribeClaims(const Pod& pod, const framework::VolumeCache& volumes);

// One scheduling attempt (cycle) of one pod.
struct CycleExplanation {
  int attempt = 0;
  std::vector<std::string> filter_plugins;  // in the order they ran
  std::string prefilter_plugin;             // set when PreFilter rejected the pod
  std::string prefilter_message;
  std::vector<ClaimRecord> claims;  // the pod's claims when the cycle started
  std::string nominated_node;       // status.nominatedNodeName evaluated first, if any
  bool nominated_node_fit = false;
  std::vector<NodeFilterRecord> nodes;  // in evaluation order; nodes never evaluated are absent
  std::size_t num_all_nodes = 0;
  std::size_t num_nodes_to_find = 0;    // percentageOfNodesToScore cut-off
  std::vector<NodeScoreRecord> scores;  // sorted by total desc, then name
  std::string chosen;
  std::vector<std::string> tied;  // nodes sharing the top score (chosen included), sorted
  std::string post_filter_message;
  std::string message;  // FailedScheduling message when unschedulable
  bool preemption_ran = false;
  PreemptionRecord preemption;
};

}  // namespace kplace
