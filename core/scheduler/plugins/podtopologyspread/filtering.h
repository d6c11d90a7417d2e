// PodTopologySpread PreFilter state, Filter and AddPod/RemovePod (upstream plugins/podtopologyspread/filtering.go,
// release-1.35: per-constraint TpValueToMatchNum plus a 2-slot critical-path minimum).
#pragma once

#include <climits>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/scheduler/framework/cycle_state.h"
#include "core/scheduler/framework/status.h"
#include "core/scheduler/plugins/podtopologyspread/snapshot_cache.h"

namespace kplace::plugins::podtopologyspread {

// criticalPaths: the two domains with the fewest matching pods; [0] always holds the minimum. Domains are ids.
struct CriticalPaths {
  struct Path {
    std::int32_t domain = -1;
    int num = INT_MAX;  // math.MaxInt32 in upstream
  };
  Path p[2];
  void Update(std::int32_t domain, int num);
};

// What PreFilter computes once per pod and never changes afterwards; clones share it.
struct PreFilterData {
  std::vector<Constraint> constraints;  // hard (DoNotSchedule) constraints
  std::vector<char> self_match;         // constraint selector matches the incoming pod's labels
  std::vector<std::vector<Symbol>> values;  // per constraint: domain id -> topology value
  // Per snapshot node and constraint ([slot * C + i]): the domain id of the node's value, kNoDomain when no
  // included node has that value, kMissingKey when the node lacks the constraint's topology key.
  std::vector<std::int32_t> node_domain;
  const framework::NodeInfo* nodes = nullptr;  // the snapshot's nodes (valid for the scheduling cycle)
  std::size_t num_nodes = 0;
};
inline constexpr std::int32_t kNoDomain = -1;
inline constexpr std::int32_t kMissingKey = -2;

// preFilterState. Clone() copies the counts; constraints and domain maps are shared.
struct PreFilterState : framework::StateData {
  std::shared_ptr<const PreFilterData> data;
  std::vector<std::vector<int>> counts;  // per constraint, by domain id (TpValueToMatchNum)
  // Domains first seen in AddPod/RemovePod (only for a node outside the snapshot): their values, ids after
  // data->values[i].
  std::vector<std::vector<Symbol>> extra_values;
  std::vector<CriticalPaths> paths;

  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreFilterState>(*this); }
  // The global minimum for constraint i, 0 when there are fewer domains than minDomains (minMatchNum).
  int MinMatchNum(std::size_t i) const;
};

// calPreFilterState over every node of the snapshot. constraints must not be empty.
std::unique_ptr<PreFilterState> ComputePreFilterState(const framework::PodInfo& pod, std::vector<Constraint> constraints,
                                                      const framework::Snapshot& snapshot, Scratch& scratch);

// Filter for one node.
framework::Status FilterNode(const PreFilterState& s, const framework::PodInfo& pod, const framework::NodeInfo& node);

// updateWithPod: pod `updated` is added to (delta 1) or removed from (delta -1) node in a what-if.
void UpdateWithPod(PreFilterState& s, const framework::PodInfo& updated, const framework::PodInfo& incoming,
                   const framework::NodeInfo& node, int delta);

}  // namespace kplace::plugins::podtopologyspread
