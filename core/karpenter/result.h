// What a Karpenter provisioning run decided and why: per pod placement or failure with the record of every
// existing node, in-flight NodeClaim and NodePool tried, and the NodeClaims to launch.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/model/resource.h"
#include "core/model/symbol.h"
#include "core/model/taint.h"

namespace kplace::karpenter {

// One candidate tried for a pod: "node/<name>", "nodeclaim/<name>" or "nodepool/<name>"; reason "" = accepted.
struct Candidate {
  std::string target;
  std::string reason;
};

// One call of Scheduler.add: the relaxation applied just before it ("" for the first) and the candidates tried.
struct AddTry {
  std::string relaxation;
  std::vector<Candidate> candidates;
  std::string error;  // the add error ("" when it fit)
};

// One pop of the pod from the queue (trySchedule).
struct QueueAttempt {
  std::vector<AddTry> tries;
  bool fit = false;
};

enum class PodOutcomeKind { NotProvisionable, Ignored, Node, Claim, Unschedulable };

struct PodOutcome {
  std::size_t index = 0;  // in Scenario::pods
  std::string key;
  PodOutcomeKind kind = PodOutcomeKind::NotProvisionable;
  std::string reason;                    // Ignored / NotProvisionable / Unschedulable: the message
  std::string node;                      // Kind Node
  int claim = -1;                        // Kind Claim: index into Result::claims
  std::vector<std::string> relaxations;  // the reasons logged during the final attempt
  // Its volumes' topology (VolumeTopology.GetRequirements): one requirement string per alternative, empty when its
  // volumes constrain nothing.
  std::vector<std::string> volume_requirements;
  std::vector<QueueAttempt> attempts;  // only when explained
};

struct ClaimOption {
  Symbol instance_type = kEmptySymbol;  // its name (thousands of NodeClaims list hundreds of options each)
  double price = 0;                     // cheapest available compatible offering
};

struct ClaimOutcome {
  std::string name;  // "<nodepool>-<n>"
  std::string node_pool;
  std::string instance_type, zone, capacity_type;
  double price = 0;
  std::vector<ClaimOption> options;           // by price, ties in catalogue order
  std::vector<std::string> pods;              // keys, in add order
  Resource requests;                          // pods + minimum daemon overhead
  std::map<std::string, std::string> labels;  // of the node that would launch
  std::vector<Taint> taints;
  std::vector<std::string> requirements;  // requirement strings of the final NodeClaim
};

// An event Karpenter publishes on an object that is not a pod: NoCompatibleInstanceTypes on a NodePool whose
// requirements filtered out every instance type (provisioning/scheduling/events.go, published by NewScheduler).
struct Event {
  std::string type;    // Warning
  std::string reason;  // NoCompatibleInstanceTypes
  std::string object;  // the involved object: "NodePool/<name>"
  std::string message;
};

struct Result {
  std::vector<PodOutcome> pods;  // one per scenario pod, scenario order
  std::vector<ClaimOutcome> claims;
  std::vector<Event> events;  // NodePool events, in NodePool order (weight, then name descending)
  double hourly_price = 0;
  int hostname_seq = 0;  // the last hostname placeholder number used (ProvisionOptions::hostname_seq if none)
};

}  // namespace kplace::karpenter
