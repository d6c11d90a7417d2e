// One scheduling cycle of one pod (upstream pkg/scheduler/schedule_one.go): nominated node first, PreFilter, the
// Filter pass over nodes from nextStartNodeIndex until enough feasible nodes are found, PreScore / Score, host
// selection with a seeded tie-break, and on failure the FitError message plus PostFilter.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/scheduler/explanation.h"
#include "core/scheduler/framework/framework.h"
#include "core/sim/cluster_state.h"

namespace kplace {

struct CycleOutcome {
  framework::NodeInfo* node = nullptr;  // chosen node, nullptr when unschedulable
  std::string message;                  // FailedScheduling message
  // Statuses of every node that was filtered (for PostFilter / preemption).
  std::vector<std::pair<framework::NodeInfo*, framework::Status>> node_statuses;
  framework::Status prefilter_status;
};

class Scheduler {
 public:
  Scheduler(framework::Framework& fw, sim::ClusterState& cluster, Features features, std::uint64_t seed)
      : fw_(fw), cluster_(cluster), features_(features), seed_(seed) {}

  // Runs one cycle for pod_index; explain (may be null) receives the full record.
  CycleOutcome ScheduleOne(std::size_t pod_index, int attempt, CycleExplanation* explain);

 private:
  // Filters one node, honouring nominated pods (RunFilterPluginsWithNominatedPods; no nominations yet).
  framework::Status FilterNode(framework::CycleState& state, const framework::PodInfo& pod,
                               const framework::NodeInfo& node);
  std::string PostFilter(const framework::PodInfo& pod, const CycleOutcome& outcome);
  // DefaultPreemption's dry run over the nodes where removing lower-priority pods might help; returns the
  // "preemption: ..." message when no node can become feasible (empty when one can).
  std::string PreemptionDryRun(const framework::PodInfo& pod, const CycleOutcome& outcome);
  // Seeded, order-independent choice among n tied nodes for this pod and attempt.
  std::size_t TieBreak(const framework::PodInfo& pod, int attempt, std::size_t n) const;

  framework::Framework& fw_;
  sim::ClusterState& cluster_;
  Features features_;
  std::uint64_t seed_;
  std::size_t next_start_node_index_ = 0;
  framework::CycleState state_;
};

}  // namespace kplace
