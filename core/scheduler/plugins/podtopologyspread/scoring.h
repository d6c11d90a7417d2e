// PodTopologySpread PreScore, Score and NormalizeScore (upstream plugins/podtopologyspread/scoring.go).
// PreScore does all the counting and leaves each feasible node's raw score in the state; Score reads it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/scheduler/framework/cycle_state.h"
#include "core/scheduler/framework/interface.h"
#include "core/scheduler/plugins/podtopologyspread/snapshot_cache.h"

namespace kplace::plugins::podtopologyspread {

// preScoreState. Immutable after PreScore, so clones share it (upstream Clone returns the same object). The plugin
// recycles the object (and its capacity) once no state refers to it.
struct PreScoreData {
  std::vector<Constraint> constraints;  // soft (ScheduleAnyway) constraints
  bool require_all_topologies = true;
  std::vector<double> weights;                             // TopologyNormalizingWeight
  std::vector<std::shared_ptr<const KeyDomains>> domains;  // per constraint
  // Per constraint except kubernetes.io/hostname, by domain id (one more slot stands for a missing label, which
  // counts as the value ""): matching pods (TopologyValueToPodCounts).
  std::vector<std::vector<std::int64_t>> counts;
  // Per snapshot node: the raw score of a feasible node, kIgnored (IgnoredNodes) or kNotScored.
  std::vector<std::int64_t> raw;
  const framework::NodeInfo* nodes = nullptr;
  std::size_t num_nodes = 0;
};
inline constexpr std::int64_t kIgnored = -1;
inline constexpr std::int64_t kNotScored = -2;

struct PreScoreState : framework::StateData {
  std::shared_ptr<const PreScoreData> data;
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreScoreState>(*this); }
};

// initPreScoreState + the counting of PreScore. constraints must not be empty.
std::unique_ptr<PreScoreState> ComputePreScoreState(const framework::PodInfo& pod, std::vector<Constraint> constraints,
                                                    bool require_all_topologies,
                                                    const std::vector<const framework::NodeInfo*>& feasible,
                                                    const framework::Snapshot& snapshot, Scratch& scratch,
                                                    std::shared_ptr<PreScoreData>& recycled);

std::int64_t ScoreNode(const PreScoreState& s, const framework::PodInfo& pod, const framework::NodeInfo& node);

void NormalizeScores(const PreScoreState& s, std::vector<framework::NodeScore>& scores);

}  // namespace kplace::plugins::podtopologyspread
