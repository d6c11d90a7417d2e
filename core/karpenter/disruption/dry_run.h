// Karpenter's disruption controller as a dry run over a scenario's cluster (pkg/controllers/disruption
// controller.go Reconcile): every node's candidacy and the verdict of each method, the NodePools' budgets, and the
// command the first method that acts would issue. So far Emptiness decides; Drift and consolidation report their
// candidates (their scheduling simulation is not modelled yet).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/karpenter/disruption/cluster.h"
#include "core/karpenter/result.h"
#include "core/model/scenario.h"

namespace kplace::karpenter::disruption {

struct MethodVerdict {
  std::string method;  // Emptiness, Drift, Consolidation
  bool considered = false;
  std::string why;  // why it does not consider the node ("" when it does)
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
  std::string not_consolidatable;               // why the Consolidatable condition is not True
  std::vector<std::string> reschedulable_pods;  // keys
  std::vector<MethodVerdict> methods;
  // The method whose reason's budget held the node back although it would have disrupted it ("Empty"), or "".
  std::string held_by_budget;
};

struct Command {
  std::string method;    // Emptiness
  std::string reason;    // Empty
  std::string decision;  // delete
  std::vector<std::string> nodes;
  double savings = 0;  // per hour: the deleted nodes' prices
};

struct Report {
  std::int64_t now = 0;
  std::vector<NodeReport> nodes;  // by name
  // Per NodePool, per reason (Empty, Drifted, Underutilized).
  std::map<std::string, std::map<std::string, NodePoolBudget>> budgets;
  std::vector<Command> commands;
  // Methods that found candidates but whose decision needs the scheduling simulation (not modelled yet).
  std::vector<std::string> undecided;
  std::vector<Event> events;  // deduplicated, in the order the controller publishes them
};

// One reconcile of the disruption controller at EvaluationTime(sc). nominated: the nodes Karpenter's provisioning
// nominated pending pods to.
Report DryRun(const Scenario& sc, const std::set<std::string>& nominated);

}  // namespace kplace::karpenter::disruption
