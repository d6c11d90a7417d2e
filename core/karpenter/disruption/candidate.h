// Disruption candidates (karpenter v1.14.1 pkg/controllers/disruption/types.go NewCandidate, state/statenode.go
// ValidateNodeDisruptable / ValidatePodsDisruptable, utils/pod, utils/pdb, utils/disruption): which nodes a method
// may disrupt, and for every other node the reason in upstream's words.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/karpenter/disruption/cluster.h"
#include "core/karpenter/result.h"
#include "core/model/scenario.h"

namespace kplace::karpenter::disruption {

// Graceful: Emptiness and consolidation; eventual: Drift (a NodeClaim with terminationGracePeriod may then be
// disrupted although its pods block eviction).
enum class DisruptionClass { Graceful, Eventual };

// pkg/utils/pod predicates.
bool IsOwnedBy(const Pod& p, const char* api_version, const char* kind);
bool IsActive(const Pod& p);  // neither terminal nor terminating
bool IsReschedulable(const Pod& p);
// karpenter.sh/do-not-disrupt on the pod: "true", or a positive duration not yet elapsed since status.startTime (no
// startTime: active). events receives the pod events upstream publishes while deciding (invalid value, until, elapsed).
bool IsDoNotDisruptActive(const Pod& p, std::int64_t now, std::vector<Event>* events = nullptr);
bool IsDisruptable(const Pod& p, std::int64_t now, std::vector<Event>* events = nullptr);
// pod.IsEvictable: the pods a PDB can hold back (active, not tolerating karpenter.sh/disrupted:NoSchedule, not a
// mirror pod, no active do-not-disrupt).
bool IsEvictable(const Pod& p, std::int64_t now, std::vector<Event>* events = nullptr);
// The scenario's NodePool of that name, or null.
const NodePool* FindNodePool(const Scenario& sc, const std::string& name);
// disruption.EvictionCost: 1 + pod-deletion-cost / 2^27 + priority / 2^25, clamped to [-10, 10].
double EvictionCost(const Pod& p);

// pdb.Limits.CanEvictPods over the node's pods (candidacy: a matching PDB with status.disruptionsAllowed 0 blocks;
// two or more PDBs matching one pod always block). "" when every pod may be evicted, else the error.
std::string PdbBlocks(const Scenario& sc, const std::vector<std::size_t>& pods, std::int64_t now);

struct Candidate {
  const StateNode* state = nullptr;
  const NodePool* node_pool = nullptr;
  const InstanceType* instance_type = nullptr;  // label node.kubernetes.io/instance-type in the catalogue, or null
  std::string instance_type_name, zone, capacity_type;
  double price = 0;  // the first offering of its zone and capacity type (0 when none)
  std::vector<std::size_t> reschedulable_pods;
  double reschedule_cost = 1;  // 1 + Σ max(0, EvictionCost) over reschedulable pods
  bool IsEmpty() const { return reschedule_cost <= 1.0; }
  double SavingsRatio() const { return price / reschedule_cost; }
};

// NewCandidate: the first check the node fails, in upstream's order, as the error it returns ("node isn't
// initialized", `pod has "karpenter.sh/do-not-disrupt" annotation (Pod=ns/name)`, ...); nullopt and *error set when
// it is not a candidate. events receives DisruptionBlocked on the Node and the NodeClaim (none for an unmanaged
// node) with the message sentence-cased, and the pod events of do-not-disrupt durations.
// One of NewCandidate's checks, for an explanation: what it checks, whether the node passed, and the error if not.
struct CandidacyCheck {
  std::string check;
  bool passed = false;
  std::string error;
};

std::optional<Candidate> NewCandidate(const StateNode& n, const Scenario& sc, DisruptionClass cls, std::int64_t now,
                                      std::string* error, std::vector<Event>* events = nullptr,
                                      std::vector<CandidacyCheck>* checks = nullptr);

// A node's price per hour as a candidate has it: the first offering of its instance type in its zone and capacity
// type (labels), 0 when there is none (types.go resolveNodePrice).
double NodePrice(const StateNode& n, const Scenario& sc);
// The price of the first offering in zone and capacity type of the first instance type named type, availability
// ignored (cloudprovider InstanceType.OfferingPrice); 0 when there is none. No NaN guard (NodePrice adds one).
double OfferingPrice(const Scenario& sc, std::string_view type, std::string_view zone, std::string_view capacity_type);

// Go's pretty.Sentence: the first byte upper-cased.
std::string Sentence(std::string s);

// Events on a candidate's Node and then its NodeClaim (what upstream's disruption events publish on).
void PublishOnNode(const StateNode& n, const std::string& reason, const std::string& message,
                   std::vector<Event>* events);

}  // namespace kplace::karpenter::disruption
