// InterPodAffinity PreFilter / Filter and the PreFilterExtensions (upstream interpodaffinity/filtering.go).
#pragma once

#include <memory>
#include <vector>

#include "core/scheduler/plugins/interpodaffinity/plugin.h"

namespace kplace::plugins::interpodaffinity {

struct PreFilterState : framework::StateData {
  const framework::PodInfo* pod = nullptr;
  const Labels* namespace_labels = nullptr;  // of the incoming pod's namespace
  std::vector<IncomingTerm> affinity;        // required affinity terms, unrolled
  std::vector<IncomingTerm> anti_affinity;   // required anti-affinity terms, unrolled
  bool matches_own_affinity = false;         // the pod matches all of its own affinity terms
  PairCounts existing_anti_affinity;         // existing pods' anti-affinity terms matching the pod
  PairCounts affinity_counts;                // existing pods matching all affinity terms, per term
  PairCounts anti_affinity_counts;           // existing pods matching an anti-affinity term, per term

  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreFilterState>(*this); }
  // updateWithPod: other (on node) was added (delta 1) or removed (delta -1).
  void Update(const framework::PodInfo& other, const framework::NodeInfo& node, std::int64_t delta);
};

// The incoming pod's affinity_counts and anti_affinity_counts over every bound pod, kept between cycles for the next
// pod with the same unrolled required terms (replicas of one workload come one after another): the walk over every
// bound pod was the cost of a cycle.
class IncomingCounts {
 public:
  // Sets s.affinity_counts and s.anti_affinity_counts (finished) for s.affinity / s.anti_affinity.
  void Compute(PreFilterState& s, const framework::Snapshot& snapshot);

 private:
  std::vector<TermKey> affinity_, anti_affinity_;
  PerNodeCounts affinity_counts_, anti_affinity_counts_;
};

// Builds the state; nullptr when the plugin has nothing to check for this pod (PreFilter returns Skip). counts (may
// be null) keeps the incoming pod's counts between cycles.
std::unique_ptr<PreFilterState> ComputePreFilterState(const framework::PodInfo& pod,
                                                      const framework::Snapshot& snapshot,
                                                      IncomingCounts* counts = nullptr);

framework::Status FilterNode(const PreFilterState& state, const framework::NodeInfo& node);

}  // namespace kplace::plugins::interpodaffinity
