// Two results side by side: where each pod went in A and in B, and what differs (pods moved, placed, left
// pending, with another message), the NodeClaims each launched, and the cost. For `kplace diff`, `kplace run
// --compare` and the playground's edit diff and comparison; they render this record, they do not compare anything
// themselves.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/sim/simulation.h"

namespace kplace::sim {

// What a run decided for one pod, in the words of the result document's pod entry (docs/scenario-format.md).
struct Placement {
  enum class Kind : std::uint8_t {
    Node,              // bound to node (cluster mode: node_claim when that Node is a NodeClaim Karpenter launched)
    NodeClaim,         // karpenter mode: on a NodeClaim Karpenter would launch (node_claim, node_pool, instance_type)
    Unschedulable,     // pending: message (kube-scheduler's FailedScheduling or Karpenter's error); nominated_node
    SchedulingGated,   // never queued: scheduling_gates
    OtherScheduler,    // left to spec.schedulerName = message
    Ignored,           // karpenter mode: Karpenter's validation rejected it (message)
    NotProvisionable,  // karpenter mode: not Karpenter's to provision (message)
    Preempted,         // deleted by preemption: message = the preemptor, node = the node it was deleted from
  };
  std::string pod;  // namespace/name
  Kind kind = Kind::Unschedulable;
  std::string node;
  std::string node_claim, node_pool, instance_type;
  std::string message;
  std::string nominated_node;
  std::vector<std::string> scheduling_gates;  // SchedulingGated

  bool Placed() const { return kind == Kind::Node || kind == Kind::NodeClaim; }
  // Where it runs as one word: the node, or nodeclaim/<name> for a NodeClaim not launched; "" when not placed.
  std::string Where() const;
  // The same answer: the same place (a NodeClaim by its name), or not placed for the same reason and message.
  bool Same(const Placement& other) const;
};

const char* KindName(Placement::Kind kind);
// One line for people: "node-a", "nodeclaim/default-0 (default, c5.large)", "pending: 0/3 nodes are available: ...".
std::string Describe(const Placement& p);

// The result document lists the pod (scheduler and cluster modes): placed, pending, preempted or left to others; not
// bound from the start, nor terminal.
bool Listed(const PodResult& r);
// Every pod the result document lists (not those bound in the input or finished), sorted by key.
std::vector<Placement> Placements(const SimResult& result);

struct PodChange {
  enum class Kind : std::uint8_t {
    Moved,     // placed in both, somewhere else
    Placed,    // not placed in A, placed in B
    Unplaced,  // placed in A, not in B
    Changed,   // not placed in either, for another reason or with another message
    Added,     // only in B
    Removed,   // only in A
  };
  Kind kind = Kind::Moved;
  std::string pod;
  Placement a, b;  // a for every kind but Added, b for every kind but Removed
};

const char* ChangeName(PodChange::Kind kind);

// A NodeClaim of a run: one it would launch (karpenter mode) or launched (cluster mode: pods are those kube-scheduler
// bound to its Node).
struct NodeClaimSummary {
  std::string name, node_pool, instance_type, zone, capacity_type;
  double price = 0;
  std::vector<std::string> pods;  // sorted
};

// A NodeClaim only one run has, or both with something different, by name.
struct NodeClaimChange {
  enum class Kind : std::uint8_t { Added, Removed, Changed };
  Kind kind = Kind::Added;
  std::string name;
  NodeClaimSummary a, b;            // a unless Added, b unless Removed
  std::vector<std::string> fields;  // Changed: what differs (nodePool, instanceType, zone, capacityType, price, pods)
};

const char* ClaimChangeName(NodeClaimChange::Kind kind);

struct ResultDiff {
  std::size_t pods = 0;                      // pods listed by either result
  std::size_t pods_same = 0;                 // with the same answer in both
  std::vector<PodChange> changes;            // by pod key
  std::vector<NodeClaimChange> node_claims;  // by name
  double hourly_a = 0, hourly_b = 0;         // price of the new capacity (karpenter and cluster modes)
  std::size_t Count(PodChange::Kind kind) const;
  bool Empty() const { return changes.empty() && node_claims.empty(); }
};

// B against A.
ResultDiff Compare(const SimResult& a, const SimResult& b);

}  // namespace kplace::sim
