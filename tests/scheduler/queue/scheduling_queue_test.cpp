// The scheduling queue: PrioritySort order with arrival timestamps, and the queueing hints each plugin registers
// deciding which unschedulable pods a cluster event wakes.
#include "core/scheduler/queue/scheduling_queue.h"

#include <gtest/gtest.h>

#include "core/io/scenario_parser.h"
#include "core/scheduler/plugins/names.h"

namespace kplace {
namespace {

namespace ev = framework::cluster_event;

Pod MakePod(std::int64_t created, int item_index) {
  Pod p;
  p.meta.creation_unix = created;
  p.item_index = item_index;
  return p;
}

TEST(SchedulingQueue, PrioritySortThenArrival) {
  std::deque<Pod> pods = {MakePod(10, 0), MakePod(5, 1), MakePod(5, 2), MakePod(1, 3)};
  std::vector<std::int32_t> priorities = {0, 0, 100, 0};
  SchedulingQueue q;
  q.Add({0, 1, 2, 3}, pods, priorities);
  // Priority 100 first; then creation time; equal creation times by input position.
  EXPECT_EQ(q.order(), (std::vector<std::size_t>{2, 3, 1, 0}));
  // A pod arriving later queues after every pod of its priority, whatever its creation time.
  pods.push_back(MakePod(0, -1));
  priorities.push_back(0);
  q.Add({4}, pods, priorities);
  EXPECT_EQ(q.order(), (std::vector<std::size_t>{2, 3, 1, 0, 4}));
}

TEST(SchedulingQueue, WakesOnlyWhatTheRejectingPluginsRegistered) {
  std::deque<Pod> pods = {MakePod(0, 0), MakePod(0, 1), MakePod(0, 2)};
  SchedulingQueue q;
  q.Add({0, 1, 2}, pods, {0, 0, 0});
  q.SetUnschedulable(0, ev::kAssignedPodDelete | ev::kNodeAdd);
  q.SetUnschedulable(1, ev::kNodeAdd);
  q.SetUnschedulable(2, ev::kAssignedPodAdd);
  EXPECT_EQ(q.Unschedulable(), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(q.Wake(ev::kAssignedPodDelete, {}), (std::vector<std::size_t>{0}));
  EXPECT_EQ(q.Wake(ev::kNodeAdd, {}), (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(q.Wake(0, {0, 1, 0}), (std::vector<std::size_t>{1}));  // moved explicitly (a cleared nomination)
  q.Done(0);
  EXPECT_FALSE(q.unschedulable(0));
  EXPECT_EQ(q.Wake(ev::kAll, {}), (std::vector<std::size_t>{1, 2}));
}

std::unique_ptr<framework::Framework> DefaultFramework() {
  Scenario sc = io::ParseScenario(R"({"kind":"List","items":[]})");
  std::string error;
  auto fw = framework::Framework::Create(sc.scheduler_config, Features(), &error);
  EXPECT_TRUE(fw) << error;
  return fw;
}

CycleOutcome RejectedBy(std::vector<const char*> plugins) {
  CycleOutcome out;
  for (const char* p : plugins)
    out.node_statuses.emplace_back(nullptr, framework::Status(framework::Code::Unschedulable, "x").WithPlugin(p));
  return out;
}

TEST(SchedulingQueue, EventsForRejectionAskThePlugins) {
  auto fw = DefaultFramework();
  EXPECT_EQ(EventsForRejection(*fw, RejectedBy({names::kNodeResourcesFit})), ev::kAssignedPodDelete | ev::kNodeAdd);
  EXPECT_EQ(EventsForRejection(*fw, RejectedBy({names::kTaintToleration, names::kNodeAffinity})), ev::kNodeAdd);
  const auto pods_and_nodes = ev::kAssignedPodAdd | ev::kAssignedPodDelete | ev::kNodeAdd;
  EXPECT_EQ(EventsForRejection(*fw, RejectedBy({names::kTaintToleration, names::kPodTopologySpread})), pods_and_nodes);
  // VolumeBinding waits for a claim or PV to change, or a new Node.
  EXPECT_EQ(EventsForRejection(*fw, RejectedBy({names::kVolumeBinding})), ev::kVolumeUpdate | ev::kNodeAdd);
  EXPECT_EQ(EventsForRejection(*fw, RejectedBy({names::kNodePorts, names::kNodeName})),
            ev::kAssignedPodDelete | ev::kNodeAdd);
  // A rejection that names no plugin waits for a new Node.
  EXPECT_EQ(EventsForRejection(*fw, RejectedBy({})), ev::kNodeAdd);
  CycleOutcome prefilter;
  prefilter.prefilter_status =
      framework::Status(framework::Code::UnschedulableAndUnresolvable, "x").WithPlugin(names::kInterPodAffinity);
  EXPECT_EQ(EventsForRejection(*fw, prefilter), pods_and_nodes);
}

}  // namespace
}  // namespace kplace
