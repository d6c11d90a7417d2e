// InterPodAffinity PreScore / Score / NormalizeScore (upstream interpodaffinity/scoring.go).
#pragma once

#include <memory>
#include <vector>

#include "core/scheduler/plugins/interpodaffinity/plugin.h"

namespace kplace::plugins::interpodaffinity {

struct PreScoreState : framework::StateData {
  // Sum of weights per topology pair; keys() lists the topology keys that received any addition.
  PairCounts topology_score;
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreScoreState>(*this); }
};

// Builds the state; nullptr when nothing contributes (PreScore returns Skip).
std::unique_ptr<PreScoreState> ComputePreScoreState(const InterPodAffinityArgs& args, const framework::PodInfo& pod,
                                                    const std::vector<const framework::NodeInfo*>& nodes,
                                                    const framework::Snapshot& snapshot);

std::int64_t ScoreNode(const PreScoreState& state, const framework::NodeInfo& node);

// Min-max scaling of the raw scores to [0, kMaxNodeScore].
void NormalizeScores(std::vector<framework::NodeScore>& scores);

}  // namespace kplace::plugins::interpodaffinity
