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

// criticalPaths (release-1.35): the two domains with the fewest matching pods, [0] holding the minimum. Exact after
// PreFilter and RemovePod; after AddPods that raise different minimal domains [0] can over-estimate the minimum
// (upstream replaced it by a histogram in 1.36). What-ifs touching one node, as kplace's, stay exact.
struct CriticalPaths {
  struct Path {
    std::int32_t domain = -1;
    int num = INT_MAX;  // math.MaxInt32 in upstream
  };
  Path p[2];
  void Update(std::int32_t domain, int num);
};

// What PreFilter computes once per pod; immutable afterwards and shared by clones. The plugin recycles the object
// (and its capacity) once no state refers to it. Domain ids are those of the key's KeyDomains; a value whose
// domain does not exist for the constraint (no eligible node) has count 0 and is not a domain for the minimum.
struct PreFilterData {
  std::vector<Constraint> constraints;                     // hard (DoNotSchedule) constraints
  std::vector<char> self_match;                            // constraint selector matches the incoming pod's labels
  std::vector<std::shared_ptr<const KeyDomains>> domains;  // per constraint
  std::vector<std::vector<int>> counts;                    // per constraint, by domain id (TpValueToMatchNum)
  std::vector<std::vector<char>> exists;  // per constraint, by domain id: the domain is in TpValueToMatchNum
  std::vector<std::size_t> num_domains;   // per constraint: len(TpValueToMatchNum[i])
  std::vector<CriticalPaths> paths;
  std::vector<int> min_match;  // per constraint: MinMatchNum without what-ifs
  // Filter without what-ifs, per constraint: each snapshot node's domain id (KeyDomains::of_node) and, by domain id,
  // whether a node there fails the skew check (the answer is the same for every node of a domain).
  std::vector<const std::int32_t*> of_node;
  std::vector<std::vector<char>> over_skew;
  const framework::NodeInfo* nodes = nullptr;  // the snapshot's nodes (valid for the scheduling cycle)
  std::size_t num_nodes = 0;
};
inline constexpr std::int32_t kNoDomain = -1;
inline constexpr std::int32_t kMissingKey = -2;

// preFilterState: the shared PreFilter result plus the what-if changes of this copy (AddPod / RemovePod), which
// are few, so Clone() is cheap.
struct PreFilterState : framework::StateData {
  std::shared_ptr<const PreFilterData> data;
  struct Delta {
    std::size_t constraint;
    std::int32_t domain;
    int delta;
  };
  std::vector<Delta> deltas;  // one entry per changed (constraint, domain)
  struct ExtraDomain {
    std::size_t constraint;
    Symbol value;
    std::int32_t domain;
  };
  // Domains a what-if created (TpValueToMatchNum[i][v] += delta on a missing entry). Ids past the key's values
  // belong to values no snapshot node has (a node outside the snapshot).
  std::vector<ExtraDomain> extra;
  std::vector<CriticalPaths> paths;  // this copy's critical paths once a what-if changed a count, else empty

  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreFilterState>(*this); }
  int Count(std::size_t i, std::int32_t domain) const;
  bool Exists(std::size_t i, std::int32_t domain) const;
  std::size_t NumDomains(std::size_t i) const;
  const CriticalPaths& Paths(std::size_t i) const { return paths.empty() ? data->paths[i] : paths[i]; }
  // The global minimum for constraint i, 0 when there are fewer domains than minDomains (minMatchNum).
  int MinMatchNum(std::size_t i) const;
};

// calPreFilterState over every node of the snapshot. constraints must not be empty. recycled: the data of an
// earlier call, reused when no state holds it any more.
std::unique_ptr<PreFilterState> ComputePreFilterState(const framework::PodInfo& pod,
                                                      std::vector<Constraint> constraints,
                                                      const framework::Snapshot& snapshot, Scratch& scratch,
                                                      std::shared_ptr<PreFilterData>& recycled);

// Filter for one node.
framework::Status FilterNode(const PreFilterState& s, const framework::PodInfo& pod, const framework::NodeInfo& node);

// Filter over nodes[alive[k]], k < n (FilterPlugin::FilterNodes); the Statuses written are named plugin.
std::size_t FilterNodes(const PreFilterState& s, const framework::PodInfo& pod, const framework::NodeInfo* const* nodes,
                        std::uint32_t* alive, std::size_t n, framework::Status* statuses, const char* plugin);

// updateWithPod: pod `updated` is added to (delta 1) or removed from (delta -1) node in a what-if.
void UpdateWithPod(PreFilterState& s, const framework::PodInfo& updated, const framework::PodInfo& incoming,
                   const framework::NodeInfo& node, int delta);

}  // namespace kplace::plugins::podtopologyspread
