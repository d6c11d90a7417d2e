#include "core/scheduler/preemption/evaluator.h"

#include <algorithm>
#include <limits>

#include "core/scheduler/fit_error.h"

namespace kplace::preemption {

using framework::Code;
using framework::NodeInfo;
using framework::PodInfo;
using framework::Status;

DryRunResult DryRunPreemption(Context& ctx, const framework::CycleState& state, const PodInfo& pod,
                              const std::vector<NodeInfo*>& potential, std::int32_t offset,
                              std::int32_t num_candidates) {
  DryRunResult out;
  std::vector<Candidate> clean, violating;
  const std::size_t n = potential.size();
  for (std::size_t i = 0; i < n; ++i) {
    NodeInfo* original = potential[(static_cast<std::size_t>(offset) + i) % n];
    NodeInfo copy = *original;
    framework::CycleState state_copy = state.Clone();
    Candidate c;
    c.node = original;
    Status s = SelectVictimsOnNode(ctx, state_copy, pod, copy, c.victims, c.num_pdb_violations);
    if (s.IsSuccess() && !c.victims.empty()) {
      auto& list = c.num_pdb_violations == 0 ? clean : violating;
      if (static_cast<std::int32_t>(list.size()) < num_candidates) list.push_back(std::move(c));
      if (!clean.empty() && static_cast<std::int32_t>(clean.size() + violating.size()) >= num_candidates) break;
      continue;
    }
    if (s.IsSuccess()) s = Status(Code::Error, "expected at least one victim pod on node \"" + original->Name() + "\"");
    out.rejected.emplace_back(original, std::move(s));
  }
  out.candidates = std::move(clean);
  for (auto& c : violating) out.candidates.push_back(std::move(c));
  return out;
}

Pick PickOneNodeForPreemption(const std::vector<Candidate>& candidates, const Randomness& rnd) {
  Pick pick;
  if (candidates.size() == 1) {
    pick.decided_by = "only candidate";
    return pick;
  }
  auto highest_priority = [](const Candidate& c) { return static_cast<std::int64_t>(c.victims.front()->priority); };
  // GetEarliestPodStartTime over the highest-priority victims; a pod that has not started counts as now.
  auto earliest_start_of_highest = [](const Candidate& c) {
    std::int32_t max_priority = c.victims.front()->priority;
    std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
    for (const PodInfo* v : c.victims) {
      const std::int64_t t = v->pod->start_unix ? *v->pod->start_unix : std::numeric_limits<std::int64_t>::max();
      if (v->priority > max_priority) {
        max_priority = v->priority;
        earliest = t;
      } else if (v->priority == max_priority) {
        earliest = std::min(earliest, t);
      }
    }
    return earliest;
  };
  struct Criterion {
    const char* name;
    std::function<std::int64_t(const Candidate&)> score;  // higher is better
  };
  const Criterion criteria[] = {
      {"fewest PDB violations", [](const Candidate& c) { return -c.num_pdb_violations; }},
      {"lowest highest-victim priority", [&](const Candidate& c) { return -highest_priority(c); }},
      {"lowest sum of victim priorities",
       [](const Candidate& c) {
         std::int64_t sum = 0;
         // Shifted by 2^31 so that more victims of negative priority never look cheaper.
         for (const PodInfo* v : c.victims) sum += static_cast<std::int64_t>(v->priority) + (1LL << 31);
         return -sum;
       }},
      {"fewest victims", [](const Candidate& c) { return -static_cast<std::int64_t>(c.victims.size()); }},
      {"latest start of the highest-priority victims", earliest_start_of_highest},
  };
  std::vector<std::size_t> remaining(candidates.size());
  for (std::size_t i = 0; i < remaining.size(); ++i) remaining[i] = i;
  for (const auto& crit : criteria) {
    std::int64_t best = std::numeric_limits<std::int64_t>::min();
    std::vector<std::size_t> kept;
    for (std::size_t i : remaining) {
      const std::int64_t s = crit.score(candidates[i]);
      if (s > best) {
        best = s;
        kept.clear();
      }
      if (s == best) kept.push_back(i);
    }
    remaining = std::move(kept);
    if (remaining.size() == 1) {
      pick.index = remaining.front();
      pick.decided_by = crit.name;
      return pick;
    }
  }
  std::sort(remaining.begin(), remaining.end(),
            [&](std::size_t a, std::size_t b) { return candidates[a].node->Name() < candidates[b].node->Name(); });
  for (std::size_t i : remaining) pick.tied.push_back(candidates[i].node->Name());
  pick.index = remaining[rnd.tie_break(remaining.size())];
  pick.decided_by = "seeded tie-break";
  return pick;
}

PreemptResult Preempt(Context& ctx, const framework::CycleState& state, const PodInfo& pod,
                      const NodeToStatus& statuses, const Randomness& rnd, PreemptionRecord* record) {
  PreemptResult out;
  const auto& snapshot = ctx.snapshot;
  // 1) Eligibility. The nominated node's code comes from this cycle's statuses.
  static const std::string kNone;
  const std::string& nominated = ctx.nominator ? ctx.nominator->NodeOf(&pod) : kNone;
  Code nominated_code = Code::Success;
  if (!nominated.empty()) {
    auto it = snapshot.node_index.find(nominated);
    if (it != snapshot.node_index.end())
      nominated_code = statuses.CodeOf(&snapshot.nodes[static_cast<std::size_t>(it->second)]);
  }
  if (std::string reason = NotEligibleReason(pod, nominated, nominated_code, snapshot); !reason.empty()) {
    if (record) {
      record->eligible = false;
      record->not_eligible_reason = reason;
    }
    out.status = Status(Code::Unschedulable, "preemption: " + reason);
    return out;
  }

  // 2) Potential nodes: those whose status is exactly Unschedulable, in snapshot order.
  std::vector<NodeInfo*> potential;
  for (const NodeInfo& n : snapshot.nodes)
    if (statuses.CodeOf(&n) == Code::Unschedulable) potential.push_back(const_cast<NodeInfo*>(&n));
  if (record)
    for (const NodeInfo* n : potential) record->potential_nodes.push_back(n->Name());

  DryRunResult dry;
  if (!potential.empty()) {
    const auto num_potential = static_cast<std::int32_t>(potential.size());
    const std::int32_t offset = rnd.offset(num_potential);
    const std::int32_t num_candidates = CalculateNumCandidates(ctx.args, num_potential);
    if (record) {
      record->offset = offset;
      record->num_candidates = num_candidates;
    }
    dry = DryRunPreemption(ctx, state, pod, potential, offset, num_candidates);
  }
  if (record) {
    for (const auto& [n, s] : dry.rejected)
      record->rejected.push_back({n->Name(), false, s.plugin(), s.code(), s.reasons()});
    for (const auto& c : dry.candidates) {
      PreemptionCandidateRecord r;
      r.node = c.node->Name();
      for (const PodInfo* v : c.victims) {
        r.victims.push_back(v->pod->Key());
        r.victim_priorities.push_back(v->priority);
      }
      r.num_pdb_violations = c.num_pdb_violations;
      record->candidates.push_back(std::move(r));
    }
  }

  if (dry.candidates.empty()) {
    // An internal error of the dry run with no candidate is returned as is.
    for (const auto& [n, s] : dry.rejected) {
      if (s.code() == Code::Error) {
        out.status = Status(Code::Error, s.Message());
        if (record) record->message = out.status.Message();
        return out;
      }
    }
    // A FitError over all nodes: the dry run's verdicts, every other node "not helpful".
    FitErrorInput fit;
    fit.num_all_nodes = snapshot.nodes.size();
    for (const auto& [n, s] : dry.rejected) fit.AddNode(s);
    fit.absent_reasons = {"Preemption is not helpful for scheduling"};
    out.status = Status(Code::Unschedulable, "preemption: " + FitErrorMessage(fit));
    out.clear_nomination = true;
    if (record) record->message = out.status.Message();
    return out;
  }

  // 4) The best candidate, then what prepareCandidate does besides evicting: lower-priority nominations to
  // that node are cleared.
  Pick pick = PickOneNodeForPreemption(dry.candidates, rnd);
  out.chosen = std::move(dry.candidates[pick.index]);
  if (ctx.nominator)
    if (const auto* nominated = ctx.nominator->ForNode(out.chosen->node->node))
      for (const PodInfo* p : *nominated)
        if (p->priority < pod.priority) out.cleared_nominations.push_back(p);
  if (record) {
    record->chosen = out.chosen->node->Name();
    record->decided_by = pick.decided_by;
    record->tied = std::move(pick.tied);
    for (const PodInfo* p : out.cleared_nominations) record->cleared_nominations.push_back(p->pod->Key());
  }
  return out;
}

}  // namespace kplace::preemption
