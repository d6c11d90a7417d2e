// The cluster as Karpenter's disruption controller sees it (pkg/controllers/state StateNode: a Node and its
// NodeClaim), the NodeClaim conditions it reads (Consolidatable, from nodeclaim/disruption/consolidation.go) and the
// per-NodePool budgets (disruption/helpers.go BuildDisruptionBudgetMapping).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/karpenter/result.h"
#include "core/model/scenario.h"

namespace kplace::karpenter::disruption {

struct StateNode {
  const Node* node = nullptr;        // null: a launched NodeClaim that has not registered a Node
  const NodeClaim* claim = nullptr;  // null: no NodeClaim (not managed), unless the claim is inferred
  // A Node labelled karpenter.sh/nodepool that no NodeClaim of the input names stands for its NodeClaim too (a
  // dump or a hand-written cluster without NodeClaims): managed, registered and initialized.
  bool inferred_claim = false;
  std::string name;               // the Node's name, or the NodeClaim's without a Node
  std::vector<std::size_t> pods;  // Scenario::pods bound to the node (spec.nodeName), input order
  bool nominated = false;         // Karpenter nominated it for a pending pod (state.StateNode.Nominated)

  bool Managed() const { return claim || inferred_claim; }
  // Initialized: the Node's karpenter.sh/initialized label is "true" (an inferred claim: always).
  bool Initialized() const;
  // MarkedForDeletion: the NodeClaim is being deleted or its InstanceTerminating condition is True; without a
  // NodeClaim, the Node is being deleted.
  bool MarkedForDeletion() const;
  // A Node without a Ready condition counts as Ready (hand-written nodes list no conditions; a dump always does).
  bool Ready() const { return !node || node->ready.value_or(true); }
  // Labels and annotations come from the Node once it is registered (label karpenter.sh/registered "true", or
  // inferred), else from the NodeClaim (statenode.go Labels / Annotations).
  bool Registered() const;
  const Labels& LabelSet() const;
  std::optional<std::string> Label(std::string_view key) const;
  const std::string* Annotation(std::string_view key) const;
  std::string NodePoolName() const { return Label("karpenter.sh/nodepool").value_or(""); }
};

// Whether the scenario has a cluster Karpenter manages (a NodeClaim, or a Node labelled with a NodePool).
bool HasManagedNodes(const Scenario& sc);

// Every Node and every launched NodeClaim, paired by the NodeClaim's status.nodeName; in name order (upstream's
// order is a Go map's, random: kplace picks names). nominated: node names Karpenter's provisioning nominated pods to.
std::vector<StateNode> BuildStateNodes(const Scenario& sc, const std::set<std::string>& nominated = {});

// The time the controller evaluates at: Simulation spec.now, else the latest time the input states (creation
// times, pod start times, NodeClaim condition and pod-event times), else 0.
std::int64_t EvaluationTime(const Scenario& sc);

// When the node's pods last changed (NodeClaim status.lastPodEventTime, else the Initialized condition's
// lastTransitionTime). An inferred claim: the latest creation or start time of its pods, else the Node's creation.
std::optional<std::int64_t> LastPodEventTime(const StateNode& n, const Scenario& sc);

// The NodeClaim's Consolidatable condition as the nodeclaim disruption controller sets it at now: consolidateAfter
// Never or not initialized: not consolidatable; else consolidatable once consolidateAfter has passed since the last
// pod event (IsUnderConsolidateAfter; 0s: at once). why (optional) gets the reason when it is not.
bool Consolidatable(const StateNode& n, const NodePool& pool, const Scenario& sc, std::int64_t now,
                    std::string* why = nullptr);

// IsUnderConsolidateAfter (pkg/utils/disruption): the NodePool's consolidateAfter (neither Never nor 0) has not
// passed since the node's last pod event, once its NodeClaim is initialized.
bool IsUnderConsolidateAfter(const StateNode& n, const NodePool& pool, const Scenario& sc, std::int64_t now);

// Why the NodeClaim has drifted from its NodePool, as the nodeclaim disruption controller's Drift sets the Drifted
// condition (nodeclaim/disruption/drift.go): "" when it has not. A Drifted condition given on the NodeClaim wins
// (True: its reason, or "Drifted"; False: not drifted); otherwise, for a launched NodeClaim: NodePoolDrifted when the
// NodePool's karpenter.sh/nodepool-hash annotation differs from the NodeClaim's (both with the same hash version),
// RequirementsDrifted when the NodeClaim's labels do not meet the NodePool's requirements. Not modelled:
// InstanceTypeNotFound and the cloud provider's own drift.
std::string DriftReason(const StateNode& n, const NodePool& pool);

struct NodePoolBudget {
  std::int64_t nodes = 0;       // managed, initialized nodes of the NodePool (not InstanceTerminating)
  std::int64_t disrupting = 0;  // of those, NotReady or marked for deletion
  std::int64_t allowed = 0;     // MustGetAllowedDisruptions for the reason (before subtracting disrupting)
  std::int64_t remaining = 0;   // max(allowed - disrupting, 0): what the method may disrupt
  std::string error;            // a budget in error (it blocks the NodePool)
};

// BuildDisruptionBudgetMapping for one reason, per NodePool name (every NodePool of the scenario). events receives
// DisruptionBlocked "No allowed disruptions for disruption reason <reason> due to blocking budget" on each NodePool
// that has nodes but allows none.
std::map<std::string, NodePoolBudget> BuildBudgetMapping(const Scenario& sc, const std::vector<StateNode>& nodes,
                                                         std::int64_t now, const std::string& reason,
                                                         std::vector<Event>* events = nullptr);

}  // namespace kplace::karpenter::disruption
