// One scheduling cycle of one pod (upstream pkg/scheduler/schedule_one.go): nominated node first, PreFilter, the
// Filter pass over nodes from nextStartNodeIndex until enough feasible nodes are found, PreScore / Score, host
// selection with a seeded tie-break, and on failure the FitError message plus PostFilter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/scheduler/cluster_state.h"
#include "core/scheduler/explanation.h"
#include "core/scheduler/framework/framework.h"
#include "core/scheduler/preemption/evaluator.h"

namespace kplace {

struct CycleOutcome {
  framework::NodeInfo* node = nullptr;  // chosen node, nullptr when unschedulable
  std::string message;                  // FailedScheduling message
  // Statuses of every node that was filtered (for PostFilter / preemption).
  std::vector<std::pair<framework::NodeInfo*, framework::Status>> node_statuses;
  framework::Status prefilter_status;
  framework::Code absent_code = framework::Code::UnschedulableAndUnresolvable;  // nodes without a status
  // DefaultPreemption's decision when it ran (victims to evict and the node to nominate, or why not).
  std::optional<preemption::PreemptResult> preemption;
};

class Scheduler {
 public:
  Scheduler(framework::Framework& fw, ClusterState& cluster, Features features, std::uint64_t seed)
      : Scheduler(std::vector<framework::Framework*>{&fw}, cluster, features, seed) {}
  // One framework per profile (profiles[0] first); they share the queue, the cluster and nextStartNodeIndex.
  Scheduler(std::vector<framework::Framework*> profiles, ClusterState& cluster, Features features, std::uint64_t seed)
      : profiles_(std::move(profiles)), fw_(profiles_.at(0)), cluster_(cluster), features_(features), seed_(seed) {}

  // Runs one cycle for pod_index; explain (may be null) receives the full record.
  // One cycle; when it picks a node, the Reserve plugins commit to it (VolumeBinding binds the pod's claims).
  CycleOutcome ScheduleOne(std::size_t pod_index, int attempt, CycleExplanation* explain);
  // Takes a finished outcome's node statuses back (emptied) for the next cycle's: a cycle that filters thousands of
  // nodes would otherwise grow that list from nothing each time. Optional; changes no outcome.
  void Recycle(CycleOutcome&& done);

  // Tests pin DefaultPreemption's dry-run start offset (upstream tests override its random source).
  void SetPreemptionOffsetForTesting(std::optional<std::int32_t> offset) { preemption_offset_ = offset; }
  // frameworkForPod (schedule_one.go): the profile named by the pod's spec.schedulerName. The caller only queues
  // pods some profile names (responsibleForPod); others fall back to profiles[0].
  framework::Framework& FrameworkFor(const Pod& pod) const;
  // nextStartNodeIndex, carried over when the scheduler is rebuilt for a grown cluster.
  std::size_t next_start_node_index() const { return next_start_node_index_; }
  void set_next_start_node_index(std::size_t i) { next_start_node_index_ = i; }
  const framework::CycleState& cycle_state() const { return state_; }
  // The Randomness DefaultPreemption uses for pod in this attempt.
  preemption::Randomness PreemptionRandomness(const framework::PodInfo& pod, int attempt) const;

 private:
  // Filter, Score and host selection (or PostFilter) of one cycle, without Reserve.
  CycleOutcome Cycle(std::size_t pod_index, int attempt, CycleExplanation* explain);
  // Filters one node, honouring nominated pods (RunFilterPluginsWithNominatedPods).
  framework::Status FilterNode(framework::CycleState& state, const framework::PodInfo& pod,
                               const framework::NodeInfo& node);
  // PostFilter plugins in order; returns the PostFilter message ("" when preemption nominated a node).
  std::string PostFilter(const framework::PodInfo& pod, int attempt, CycleOutcome& outcome, CycleExplanation* explain);
  // Seeded, order-independent choice among n for this pod, attempt and purpose (salt).
  std::size_t SeededIndex(const framework::PodInfo& pod, int attempt, std::uint64_t salt, std::size_t n) const;

  std::vector<framework::Framework*> profiles_;
  framework::Framework* fw_;  // the profile of the cycle being run
  ClusterState& cluster_;
  Features features_;
  std::uint64_t seed_;
  std::optional<std::int32_t> preemption_offset_;
  std::size_t next_start_node_index_ = 0;
  framework::CycleState state_;
  // Per-cycle buffers reused across cycles to spare the allocator (a cycle is not reentrant).
  std::vector<framework::NodeInfo*> candidates_, feasible_;
  std::vector<const framework::NodeInfo*> score_nodes_;
  std::vector<framework::NodeScores> scores_;
  std::vector<std::size_t> top_;
  // The filter pass's current run of nodes and their statuses (Cycle).
  static constexpr std::size_t kFilterRun = 64;
  std::vector<const framework::NodeInfo*> filter_run_;
  std::vector<framework::Status> filter_status_;
  // An earlier outcome's node_statuses, emptied (Recycle): the next Cycle's to fill.
  std::vector<std::pair<framework::NodeInfo*, framework::Status>> spare_statuses_;
};

}  // namespace kplace
