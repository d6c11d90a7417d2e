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

// The topology scores of every bound pod for an incoming pod, kept between cycles for the next pod with the same
// namespace, labels and preferred terms (what the bound pods' terms and the pod's own are matched against).
class ScoreCounts {
 public:
  struct Key {
    Symbol namespace_ = kEmptySymbol;
    std::vector<std::pair<Symbol, Symbol>> labels;
    std::vector<TermKey> preferred_affinity, preferred_anti_affinity;
    std::int32_t hard_pod_affinity_weight = 0;
    bool operator==(const Key&) const = default;
  };
  // Whether the counts are for key; then records it for the next call.
  bool Same(const Key& key);
  PerNodeCounts counts;

 private:
  Key key_;
};

// Builds the state; nullptr when nothing contributes (PreScore returns Skip). cache (may be null) keeps the counts
// between cycles.
std::unique_ptr<PreScoreState> ComputePreScoreState(const InterPodAffinityArgs& args, const framework::PodInfo& pod,
                                                    const std::vector<const framework::NodeInfo*>& nodes,
                                                    const framework::Snapshot& snapshot, ScoreCounts* cache = nullptr);

std::int64_t ScoreNode(const PreScoreState& state, const framework::NodeInfo& node);

// Min-max scaling of the raw scores to [0, kMaxNodeScore].
void NormalizeScores(std::vector<framework::NodeScore>& scores);

}  // namespace kplace::plugins::interpodaffinity
