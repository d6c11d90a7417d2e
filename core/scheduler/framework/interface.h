// Plugin interfaces: one per extension point (upstream framework/interface.go). A plugin implements the ones it
// needs; the framework finds them at construction. Contracts:
// - PreFilter runs once per pod before Filter. Skip disables the plugin's Filter for this pod. It may narrow the
//   candidate nodes with a PreFilterResult. Unschedulable* aborts scheduling with its message.
// - Filter decides one node; it must only read the NodeInfo it is given (which may include nominated pods).
// - PreScore runs once over the feasible nodes; Skip makes Score contribute 0 for this pod.
// - Score returns an integer for one node; NormalizeScore maps the list into [0, MaxNodeScore].
// - AddPod / RemovePod (PreFilterExtensions) update the PreFilter state when a pod is added to or removed from a
//   node in a what-if (nominated pods, preemption).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/scheduler/framework/cycle_state.h"
#include "core/scheduler/framework/status.h"
#include "core/scheduler/framework/types.h"

namespace kplace::framework {

inline constexpr std::int64_t kMaxNodeScore = 100;
inline constexpr std::int64_t kMinNodeScore = 0;

// Names of nodes the pod may go to; nullopt = all nodes.
using PreFilterResult = std::optional<std::set<std::string>>;

struct NodeScore {
  const NodeInfo* node = nullptr;
  std::int64_t score = 0;
};

// Cluster events kplace models (upstream framework.ClusterEvent: a resource and an action), as a bit set.
using ClusterEvents = std::uint8_t;
namespace cluster_event {
inline constexpr ClusterEvents kAssignedPodAdd = 1u << 0;     // a pod was bound to a node
inline constexpr ClusterEvents kAssignedPodDelete = 1u << 1;  // a bound pod was deleted (preemption)
inline constexpr ClusterEvents kNodeAdd = 1u << 2;            // a Node was added (cluster mode launches NodeClaims)
// A PersistentVolume or PersistentVolumeClaim changed (a pod's Reserve bound or provisioned its claims).
inline constexpr ClusterEvents kVolumeUpdate = 1u << 3;
inline constexpr ClusterEvents kAll = kAssignedPodAdd | kAssignedPodDelete | kNodeAdd | kVolumeUpdate;
}  // namespace cluster_event

class Plugin {
 public:
  virtual ~Plugin() = default;
  virtual const char* Name() const = 0;
  // EnqueueExtensions.EventsToRegister (interface.go): the events after which a pod this plugin rejected may fit.
  // The scheduling queue retries a rejected pod only after an event one of its rejecting plugins registered
  // (core/scheduler/queue). Upstream, a plugin without EnqueueExtensions is woken by every event: so is this default.
  virtual ClusterEvents EventsToRegister() const { return cluster_event::kAll; }
  // Slots in the CycleState, assigned by the framework.
  std::size_t prefilter_slot = 0, prescore_slot = 0;
};

class PreFilterPlugin : public virtual Plugin {
 public:
  virtual Status PreFilter(CycleState& state, const PodInfo& pod, const Snapshot& snapshot,
                           PreFilterResult& result) = 0;
  // PreFilterExtensions; default: the plugin keeps no state that depends on other pods.
  virtual bool HasExtensions() const { return false; }
  virtual Status AddPod(CycleState&, const PodInfo& /*pod*/, const PodInfo& /*added*/, const NodeInfo&,
                        const Snapshot&) {
    return {};
  }
  virtual Status RemovePod(CycleState&, const PodInfo& /*pod*/, const PodInfo& /*removed*/, const NodeInfo&,
                           const Snapshot&) {
    return {};
  }
};

class FilterPlugin : public virtual Plugin {
 public:
  virtual Status Filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const = 0;
  // True when Filter returns Success on every node for this pod whatever the node (NodeName for a pod that names
  // no node): the framework then does not call it. Only a shortcut: the verdicts are the same.
  virtual bool PassesEveryNode(const PodInfo&) const { return false; }
  // Filter over a batch of the cycle's nodes: nodes[alive[k]] for k < n (alive ascending). Keeps in alive, in order,
  // the indices whose node passes, writes into statuses[index] the Status Filter returns for each other one (named
  // with Name() when Filter named no plugin), and returns how many pass. The default calls Filter per node; a plugin
  // may override it to read its state once for the batch.
  virtual std::size_t FilterNodes(const CycleState& state, const PodInfo& pod, const NodeInfo* const* nodes,
                                  std::uint32_t* alive, std::size_t n, Status* statuses) const;
};

class PreScorePlugin : public virtual Plugin {
 public:
  virtual Status PreScore(CycleState& state, const PodInfo& pod, const std::vector<const NodeInfo*>& nodes,
                          const Snapshot& snapshot) = 0;
};

// Reserve: the pod goes to node; the plugin commits what it chose for it there (VolumeBinding binds its claims).
// The snapshot is mutable here only for that.
class ReservePlugin : public virtual Plugin {
 public:
  virtual Status Reserve(CycleState& state, const PodInfo& pod, const NodeInfo& node, Snapshot& snapshot) = 0;
};

class ScorePlugin : public virtual Plugin {
 public:
  virtual std::int64_t Score(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                             Status& status) const = 0;
  // Score of every node, into scores[i].score (the node is scores[i].node; the scores arrive at 0); stops at the first
  // failure, which it sets in status. The default calls Score per node; a final plugin overrides it with ScoreEach, so
  // that the per-node call is direct and inlined rather than virtual (a cycle scores hundreds of nodes per plugin).
  virtual void ScoreNodes(const CycleState& state, const PodInfo& pod, std::vector<NodeScore>& scores,
                          Status& status) const {
    for (auto& s : scores) {
      s.score = Score(state, pod, *s.node, status);
      if (!status.IsSuccess()) return;
    }
  }
  virtual bool HasNormalize() const { return false; }
  virtual Status NormalizeScore(const CycleState&, const PodInfo&, std::vector<NodeScore>&) const { return {}; }
};

// ScorePlugin::ScoreNodes for a final plugin P: P's own Score, called without virtual dispatch.
template <typename P>
void ScoreEach(const P& plugin, const CycleState& state, const PodInfo& pod, std::vector<NodeScore>& scores,
               Status& status) {
  for (auto& s : scores) {
    s.score = plugin.P::Score(state, pod, *s.node, status);
    if (!status.IsSuccess()) return;
  }
}

// Helper of NormalizeScore used by several plugins (plugins/helper/normalize_score.go DefaultNormalizeScore):
// scales scores so the highest becomes maxPriority; reverse flips them.
void DefaultNormalizeScore(std::int64_t max_priority, bool reverse, std::vector<NodeScore>& scores);

}  // namespace kplace::framework
