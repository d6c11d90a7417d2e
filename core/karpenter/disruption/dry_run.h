// Karpenter's disruption controller as a dry run over a scenario's cluster (pkg/controllers/disruption
// controller.go Reconcile): every node's candidacy and the verdict of each method, the NodePools' budgets, and the
// command the first method that acts would issue (Emptiness, Drift, multi-node then single-node consolidation), with
// its replacements and where each pod would go.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/karpenter/disruption/balanced.h"
#include "core/karpenter/disruption/candidate.h"
#include "core/karpenter/disruption/cluster.h"
#include "core/karpenter/result.h"
#include "core/model/scenario.h"

namespace kplace::karpenter::disruption {

struct MethodVerdict {
  std::string method;  // Emptiness, Drift, Consolidation
  bool considered = false;
  std::string why;  // why it does not consider the node ("" when it does)
  // When the method evaluated the node: "delete" or "replace" (it acted on it), or why not in upstream's words
  // ("Can't replace with a cheaper node", "Not all pods would schedule, ..."). "" when it did not get to the node.
  std::string outcome;
};

struct NodeReport {
  std::string name;
  std::string node_claim;  // "" without a NodeClaim (an inferred one included)
  std::string node_pool;
  bool managed = false;
  bool candidate = false;  // passed NewCandidate (graceful class)
  std::string blocked;     // NewCandidate's error when not a candidate
  // Candidates only:
  std::string instance_type, zone, capacity_type;
  double price = 0;
  double disruption_cost = 0;  // RescheduleDisruptionCost
  bool empty = false;
  bool consolidatable = false;
  std::string drifted;                          // DriftReason: why its NodeClaim has drifted ("" when it has not)
  std::string not_consolidatable;               // why the Consolidatable condition is not True
  std::vector<std::string> reschedulable_pods;  // keys
  std::vector<MethodVerdict> methods;
  // The method whose reason's budget held the node back although it would have disrupted it ("Empty"), or "".
  std::string held_by_budget;
};

// A NodeClaim a command launches in place of its nodes.
struct Replacement {
  std::string node_pool;
  std::vector<std::string> instance_types;  // the options, cheapest first
  std::vector<std::string> requirements;    // the NodeClaim's requirements as created
  // The launch kplace expects: the cheapest option's cheapest available offering under the requirements.
  std::string instance_type, zone, capacity_type;
  double price = 0;
  std::vector<std::string> pods;  // keys of the pods the simulation put there
  karpenter::ClaimOutcome claim;  // the simulation's NodeClaim (labels, taints) for a caller that launches it
};

// Where a pod of a disrupted node goes in the simulation.
struct PodMove {
  std::string pod, from;
  std::string to;  // a node name, or "replacement <n>" (1-based); "" when it would not schedule
  std::string error;
};

struct Command {
  std::string method;    // Emptiness, Drift, MultiNodeConsolidation, SingleNodeConsolidation
  std::string reason;    // Empty, Drifted, Underutilized
  std::string decision;  // delete, replace
  std::vector<std::string> nodes;
  std::string text;    // upstream's short String(): "replace: [a] -> [1 replacement]"
  double price = 0;    // per hour: the disrupted nodes' prices (SourceCost)
  double savings = 0;  // per hour: EstimatedSavings
  std::vector<Replacement> replacements;
  std::vector<PodMove> pods;  // the disrupted nodes' pods the simulation placed again, by key
};

// `--explain node/NAME`: everything the dry run knows about one node, and two what-ifs.
struct NodeExplanation {
  std::string node;
  std::vector<CandidacyCheck> checks;  // NewCandidate's checks in order, up to the first it fails
  // Single-node consolidation of this node alone, whatever the methods' order and budgets: its decision ("delete",
  // "replace") or why not in upstream's words; "" when it is no consolidation candidate (see the node's verdicts).
  std::string consolidation;
  std::optional<Command> consolidation_command;
  // A candidate of a Balanced NodePool: its NodePool's totals and the score of deleting it (the best case).
  std::optional<NodePoolTotals> balanced_totals;
  std::optional<ScoreResult> balanced_best;
  // Drain it (delete its NodeClaim): Karpenter's simulation of its pods elsewhere (as Drift runs it): where each
  // pod would go, what would launch, what would stay ("stays: ..." in error).
  std::optional<Command> drain;
  std::string drain_error;  // the simulation could not run ("the node is already being deleted", ...)
};

struct Report {
  std::int64_t now = 0;
  std::vector<NodeReport> nodes;  // by name
  // Per NodePool, per reason (Empty, Drifted, Underutilized).
  std::map<std::string, std::map<std::string, NodePoolBudget>> budgets;
  std::vector<Command> commands;
  // A simulation error that ended the reconcile ("creating scheduler, no nodepools found"), with its method.
  std::string error;
  std::vector<Event> events;               // deduplicated, in the order the controller publishes them
  std::vector<NodeExplanation> explained;  // the nodes asked about, in the order asked
};

// One reconcile of the disruption controller at EvaluationTime(sc). nominated: the nodes Karpenter's provisioning
// nominated pending pods to.
// explain: node names to explain (Report::explained); a name that is no node is skipped.
Report DryRun(const Scenario& sc, const std::set<std::string>& nominated, const std::vector<std::string>& explain = {});

}  // namespace kplace::karpenter::disruption
