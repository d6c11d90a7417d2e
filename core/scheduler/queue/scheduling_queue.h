// kube-scheduler's scheduling queue, as kplace runs it (upstream backend/queue/scheduling_queue.go): pods enter in
// arrival order and are kept in QueueSort order (PrioritySort); a pod that fails waits as unschedulable until a
// cluster event one of its rejecting plugins registered (Plugin::EventsToRegister, the queueing hints) may help it.
//
// kplace runs the queue in passes: each pass attempts the active pods in queue order, recording the events it
// caused; the next pass is the waiting pods those events (or an explicit move, e.g. a cleared nomination) wake.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "core/model/objects.h"
#include "core/scheduler/framework/interface.h"
#include "core/scheduler/scheduler.h"

namespace kplace {

class SchedulingQueue {
 public:
  // Pods arrive by creation time, then input position (the item's index; pods of one workload keep their replica
  // order), then pod index. Pods that arrive later (DaemonSet pods of launched Nodes) enter after every pod already
  // queued, at their priority.
  void Add(const std::vector<std::size_t>& pods, const std::deque<Pod>& all,
           const std::vector<std::int32_t>& priorities);
  // Every queued pod, PrioritySort order.
  const std::vector<std::size_t>& order() const { return order_; }

  // The attempt of pod failed: it waits until one of events happens.
  void SetUnschedulable(std::size_t pod, framework::ClusterEvents events);
  // The pod left the queue for good (bound, or never to be retried).
  void Done(std::size_t pod);
  bool unschedulable(std::size_t pod) const { return pod < wake_on_.size() && waiting_[pod]; }
  // The events a waiting pod waits for.
  framework::ClusterEvents wake_on(std::size_t pod) const { return pod < wake_on_.size() ? wake_on_[pod] : 0; }
  // The waiting pods, queue order.
  std::vector<std::size_t> Unschedulable() const;
  // The waiting pods that happened wakes (their registered events) or that moved marks, queue order.
  std::vector<std::size_t> Wake(framework::ClusterEvents happened, const std::vector<std::uint8_t>& moved) const;

 private:
  void Grow(std::size_t n);
  std::vector<std::size_t> order_;
  std::vector<std::size_t> timestamp_;
  std::vector<std::uint8_t> waiting_;
  std::vector<framework::ClusterEvents> wake_on_;
};

// The events that may help a pod the cycle rejected: the union of what its rejecting plugins (the PreFilter status's
// and every node's Filter status's) registered. A rejection no plugin is named for waits for a new Node only.
framework::ClusterEvents EventsForRejection(const framework::Framework& fw, const CycleOutcome& outcome);

}  // namespace kplace
