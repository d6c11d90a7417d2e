// The preemption evaluator (upstream framework/preemption/preemption.go): eligibility, potential nodes, the dry
// run over them, and the choice of one candidate. Evicting the victims and nominating the pod is the caller's
// (the simulation's) job, from the returned decision.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/scheduler/explanation.h"
#include "core/scheduler/preemption/default_preemption.h"

namespace kplace::preemption {

struct Candidate {
  framework::NodeInfo* node = nullptr;
  std::vector<const framework::PodInfo*> victims;  // most important first
  std::int64_t num_pdb_violations = 0;
};

// framework.NodeToStatus, reduced to what preemption reads: the Filter status code of every snapshot node (by
// NodeInfo::index); nodes that were not filtered carry the absent-nodes code.
struct NodeToStatus {
  std::vector<framework::Code> codes;
  framework::Code CodeOf(const framework::NodeInfo* node) const {
    const auto i = static_cast<std::size_t>(node->index);
    return i < codes.size() ? codes[i] : framework::Code::UnschedulableAndUnresolvable;
  }
};

// Seeded choices the simulation makes where upstream is random: the dry run's start offset in [0, n) and the
// final tie among equally good candidates (index into a name-sorted list of n).
struct Randomness {
  std::function<std::int32_t(std::int32_t n)> offset;
  std::function<std::size_t(std::size_t n)> tie_break;
};

struct DryRunResult {
  std::vector<Candidate> candidates;  // PDB-clean first, then violating, each in discovery order
  std::vector<std::pair<framework::NodeInfo*, framework::Status>> rejected;  // in discovery order
};

// DryRunPreemption over potential (in order, starting at offset, wrapping): stops once it has num_candidates
// candidates of which at least one violates no PDB.
DryRunResult DryRunPreemption(Context& ctx, const framework::CycleState& state, const framework::PodInfo& pod,
                              const std::vector<framework::NodeInfo*>& potential, std::int32_t offset,
                              std::int32_t num_candidates);

struct Pick {
  std::size_t index = 0;          // into the candidates
  const char* decided_by = "";    // the criterion that left one node
  std::vector<std::string> tied;  // set when the seeded tie-break decided (name-sorted)
};
// pickOneNodeForPreemption: fewest PDB violations, lowest highest-victim priority, lowest sum of victim
// priorities (each + 2^31), fewest victims, latest earliest-start among the highest-priority victims, then the
// seeded tie-break (upstream: the first in map order, i.e. arbitrary).
Pick PickOneNodeForPreemption(const std::vector<Candidate>& candidates, const Randomness& rnd);

struct PreemptResult {
  // Success: nominate to chosen->node. Otherwise the PostFilter status; its message is "preemption: ..." or ""
  // when there is none.
  framework::Status status;
  std::optional<Candidate> chosen;
  bool clear_nomination = false;  // upstream returns a PostFilterResult with an empty nominated node
  std::vector<const framework::PodInfo*> cleared_nominations;  // lower-priority pods nominated to the chosen node
};

// Evaluator.Preempt for pod after a failed Filter; record (optional) receives every step.
PreemptResult Preempt(Context& ctx, const framework::CycleState& state, const framework::PodInfo& pod,
                      const NodeToStatus& statuses, const Randomness& rnd, PreemptionRecord* record);

}  // namespace kplace::preemption
