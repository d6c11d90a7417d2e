// PrioritySort, the default QueueSort plugin (upstream plugins/queuesort/priority_sort.go): the scheduling queue's
// order. Higher priority first; among equals, the pod that entered the queue first.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kplace::plugins {

struct QueuedPod {
  std::int32_t priority = 0;
  std::size_t timestamp = 0;  // QueuedPodInfo.Timestamp: the pod's arrival position in the queue
};

// PrioritySort.Less: true when a goes before b.
inline bool PrioritySortLess(const QueuedPod& a, const QueuedPod& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  return a.timestamp < b.timestamp;
}

}  // namespace kplace::plugins
