#include "core/scheduler/queue/scheduling_queue.h"

#include <algorithm>

#include "core/scheduler/plugins/queuesort/priority_sort.h"

namespace kplace {

void SchedulingQueue::Grow(std::size_t n) {
  if (n <= waiting_.size()) return;
  timestamp_.resize(n, 0);
  waiting_.resize(n, 0);
  wake_on_.resize(n, 0);
}

void SchedulingQueue::Add(const std::vector<std::size_t>& pods, const std::deque<Pod>& all,
                          const std::vector<std::int32_t>& priorities) {
  Grow(all.size());
  std::vector<std::size_t> arriving = pods;
  std::sort(arriving.begin(), arriving.end(), [&](std::size_t a, std::size_t b) {
    const Pod& pa = all[a];
    const Pod& pb = all[b];
    if (pa.meta.creation_unix != pb.meta.creation_unix) return pa.meta.creation_unix < pb.meta.creation_unix;
    if (pa.item_index != pb.item_index) return pa.item_index < pb.item_index;
    return a < b;
  });
  for (std::size_t i : arriving) {
    timestamp_[i] = order_.size();
    order_.push_back(i);
  }
  std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
    return plugins::PrioritySortLess({priorities[a], timestamp_[a]}, {priorities[b], timestamp_[b]});
  });
}

void SchedulingQueue::SetUnschedulable(std::size_t pod, framework::ClusterEvents events) {
  Grow(pod + 1);
  waiting_[pod] = 1;
  wake_on_[pod] = events;
}

void SchedulingQueue::Done(std::size_t pod) {
  Grow(pod + 1);
  waiting_[pod] = 0;
  wake_on_[pod] = 0;
}

std::vector<std::size_t> SchedulingQueue::Unschedulable() const {
  std::vector<std::size_t> out;
  for (std::size_t idx : order_)
    if (waiting_[idx]) out.push_back(idx);
  return out;
}

std::vector<std::size_t> SchedulingQueue::Wake(framework::ClusterEvents happened,
                                               const std::vector<std::uint8_t>& moved) const {
  std::vector<std::size_t> out;
  for (std::size_t idx : order_) {
    if (!waiting_[idx]) continue;
    if ((idx < moved.size() && moved[idx]) || (wake_on_[idx] & happened)) out.push_back(idx);
  }
  return out;
}

framework::ClusterEvents EventsForRejection(const framework::Framework& fw, const CycleOutcome& outcome) {
  // Statuses name their plugin with its name constant: collect the distinct ones first (thousands of nodes share a
  // handful of rejecting plugins).
  std::vector<const char*> rejectors;
  auto note = [&](const char* plugin) {
    if (plugin && *plugin && std::find(rejectors.begin(), rejectors.end(), plugin) == rejectors.end())
      rejectors.push_back(plugin);
  };
  note(outcome.prefilter_status.plugin());
  for (const auto& [node, status] : outcome.node_statuses) note(status.plugin());
  if (rejectors.empty()) return framework::cluster_event::kNodeAdd;
  framework::ClusterEvents events = 0;
  for (const char* name : rejectors)
    if (const framework::Plugin* p = fw.Find(name)) events |= p->EventsToRegister();
  return events;
}

}  // namespace kplace
