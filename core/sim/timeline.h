// The run step by step (RunOptions::record_timeline): every scheduling attempt, preemption, nomination, NodeClaim
// launch and initialisation, queue pass and cluster round of scheduler and cluster modes, in the order they
// happened, with kube-scheduler's queue as each pass starts. StateAt / ResultAt rebuild the cluster and the queue as
// they stood after any number of steps, from the record alone: the timeline view, `kplace run --timeline --at N`.
//
// kplace runs the queue in passes (core/scheduler/queue/scheduling_queue.h); the queue the steps show follows
// upstream's three queues (backend/queue/scheduling_queue.go): activeQ holds the pods the pass pops in PrioritySort
// order; a pod whose attempt fails waits in unschedulablePods for a cluster event its rejecting plugins registered;
// the event (or a move, e.g. its nomination cleared) sends it to backoffQ, where it waits out its backoff and is
// popped in the next pass; a pod with schedulingGates waits gated, outside the queue's three.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kplace::sim {

struct SimResult;

// A pod in kube-scheduler's queue.
struct QueuedPod {
  enum class Queue : std::uint8_t { Active, Backoff, Unschedulable, Gated };
  std::string pod;  // key
  Queue queue = Queue::Active;
  // Active / Backoff: the cluster events that woke it ("" events and no move: it is new). Unschedulable: the events
  // that would.
  std::vector<std::string> events;
  std::string moved;    // Active / Backoff: moved without an event ("nominatedNodeName cleared", "preempted")
  std::string message;  // Unschedulable: its last FailedScheduling message
  std::vector<std::string> gates;  // Gated: spec.schedulingGates
};

const char* QueueName(QueuedPod::Queue queue);  // activeQ, backoffQ, unschedulablePods, gated

// Why a waiting pod moved to backoffQ without a cluster event (the run's move marks): another pod's preemption cleared
// its nominatedNodeName, or it preempted and waits for its victims to go.
inline constexpr std::uint8_t kMoveNominationCleared = 1, kMovePreempted = 2;
const char* MoveReason(std::uint8_t code);  // "" for none

struct TimelineStep {
  enum class Kind : std::uint8_t {
    Round,            // cluster mode with NodePools: a round of kube-scheduler + Karpenter begins (round)
    Pass,             // kube-scheduler starts a pass over the active pods (queue)
    Attempt,          // a scheduling cycle of pod: bound to node, or failed with message (waiting for events)
    Preempt,          // pod (a victim) deleted from node by the preemptor (by)
    Nominate,         // pod's nominatedNodeName set to node
    ClearNomination,  // pod's nominatedNodeName cleared (message: why)
    Provision,   // cluster mode: Karpenter provisions for the round's pending pods (pods; message: what it decided)
    Launch,      // Karpenter launched NodeClaim node (message: its Launched event; pods: its DaemonSet pods)
    Initialize,  // NodeClaim node initialised: its Node is ready for pods (startupTaints removed)
  };
  Kind kind = Kind::Attempt;
  int round = 0;  // 1-based cluster round; 0 without rounds
  int pass = 0;   // 1-based pass of the round
  std::string pod;
  int attempt = 0;
  std::string node;
  std::string by;       // Preempt: the preemptor's key
  std::string message;  // Attempt (failed): FailedScheduling; ClearNomination: why; Launch: the Launched event
  // Attempt: the cluster events the cycle caused (a bind: AssignedPodAdd, ...), or when it failed the events that
  // would wake it.
  std::vector<std::string> events;
  std::vector<std::string> pods;  // Launch: the DaemonSet pods created for the Node
  std::vector<QueuedPod> queue;   // Pass: the queue as the pass starts (activeQ in pass order, then by queue and pod)
  std::size_t events_end = 0;     // SimResult::events recorded up to and including this step
};

const char* StepKindName(TimelineStep::Kind kind);
// One line: "attempt 2 of default/web-1: bound to node-a", "default/low deleted from node-a (preempted by ...)".
std::string DescribeStep(const TimelineStep& step);

struct Timeline {
  std::vector<TimelineStep> steps;
  // Pods bound in the input: (node, pod) in the order the cluster holds them.
  std::vector<std::pair<std::string, std::string>> bound_at_start;
  // Pending pods nominated in the input (status.nominatedNodeName the queue honours): (pod, node).
  std::vector<std::pair<std::string, std::string>> nominated_at_start;
  // RunOptions::stop_after_attempts stopped the run before its next attempt: the queue then, read from the run's own
  // queue (not rebuilt from the steps; a test compares the two). Empty when the run finished.
  bool stopped = false;
  std::vector<QueuedPod> stopped_queue;
};

// The cluster and the queue after the first `step` steps.
struct TimelineState {
  std::size_t step = 0;
  int round = 0, pass = 0;
  std::vector<std::pair<std::string, std::string>> bound;      // (pod, node), by pod key
  std::vector<std::pair<std::string, std::string>> nominated;  // (pod, node), by pod key
  std::vector<std::string> deleted;                            // preempted pods, by key
  std::vector<std::string> launched;                           // NodeClaims launched, launch order
  std::vector<std::string> initialized;                        // ... and initialised
  std::vector<QueuedPod> queue;                                // as TimelineStep::queue orders it
};

// Requires result.timeline. step is clamped to the number of steps.
TimelineState StateAt(const SimResult& result, std::size_t step);
// The result as it stood after `step` steps, for views that draw a result: pods not created yet are left out, the
// others where they were (bound, pending with their last message and attempts so far, nominated, deleted), nodes with
// their pods in bind order, NodeClaims launched so far (LaunchedNodeClaim::initialized), the events so far. The
// timeline itself is kept whole.
SimResult ResultAt(const SimResult& result, std::size_t step);

// Cluster event names (upstream framework.ClusterEvent labels): AssignedPodAdd, AssignedPodDelete, NodeAdd, ...
std::vector<std::string> ClusterEventNames(std::uint8_t events);

}  // namespace kplace::sim
