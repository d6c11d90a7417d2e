#include "core/karpenter/disruption/simulate.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>

namespace kplace::karpenter::disruption {
namespace {

bool FullyBlocking(const PodDisruptionBudget& b) {
  // pdb.go newPdb isFullyBlocking.
  if (b.max_unavailable && b.max_unavailable->value == 0) return true;
  return b.min_available && b.min_available->is_percent && b.min_available->value == 100;
}

bool FullyBlocked(const Scenario& sc, const Pod& p, std::int64_t now) {
  if (!IsEvictable(p, now)) return false;
  std::vector<const PodDisruptionBudget*> matching;
  for (const auto& b : sc.pdbs)
    if (b.meta.namespace_ == p.meta.namespace_ && b.selector.Matches(p.meta.labels)) matching.push_back(&b);
  if (matching.size() > 1) return true;
  for (const auto* b : matching) {
    if (b->always_allow_unhealthy && p.ready_false) return false;
    if (FullyBlocking(*b)) return true;
  }
  return false;
}

}  // namespace

bool IsCurrentlyReschedulable(const Scenario& sc, const Pod& p, std::int64_t now) {
  return IsReschedulable(p) && IsDisruptable(p, now) && !FullyBlocked(sc, p, now);
}

bool SimulationResults::AllNonPendingPodsScheduled() const {
  return std::none_of(pod_errors.begin(), pod_errors.end(), [&](const auto& e) {
    auto it = non_pending.find(e.first);
    return it != non_pending.end() && it->second;
  });
}

std::string SimulationResults::NonPendingPodSchedulingErrors() const {
  std::vector<const std::pair<const std::string, std::string>*> errs;
  for (const auto& e : pod_errors) {
    auto it = non_pending.find(e.first);
    if (it != non_pending.end() && it->second) errs.push_back(&e);
  }
  if (errs.empty()) return "No Pod Scheduling Errors";
  std::string msg = "not all pods would schedule, ";
  constexpr std::size_t kMaxErrors = 5;
  std::size_t n = 0;
  for (const auto* e : errs) {
    msg += e->first + " => " + e->second + " ";
    if (++n >= kMaxErrors) {
      msg += " and " + std::to_string(errs.size() - kMaxErrors) + " other(s)";
      break;
    }
  }
  return msg;
}

SimulationResults SimulateScheduling(const Scenario& sc, const std::vector<StateNode>& nodes,
                                     const std::vector<const Candidate*>& candidates, std::int64_t now,
                                     bool consolidation, const std::vector<ExistingNode>* existing) {
  SimulationResults out;
  SimulationOptions sim;
  std::set<std::string> candidate_names;
  for (const Candidate* c : candidates) candidate_names.insert(c->state->name);
  std::vector<const StateNode*> deleting;
  for (const auto& n : nodes)
    if (n.MarkedForDeletion()) {
      if (candidate_names.count(n.name)) {
        out.candidate_deleting = true;
        return out;
      }
      deleting.push_back(&n);
      sim.deleting_nodes.insert(n.name);
      sim.excluded_nodes.insert(n.name);
    }
  for (const auto& name : candidate_names) sim.excluded_nodes.insert(name);
  // The candidates' pods that are currently reschedulable, candidate by candidate, then the deleting nodes' (only
  // those with a Node have pods).
  for (const Candidate* c : candidates)
    for (std::size_t i : c->reschedulable_pods)
      if (IsCurrentlyReschedulable(sc, sc.pods[i], now)) sim.reschedule.push_back(i);
  for (const StateNode* n : deleting)
    if (n->node)
      for (std::size_t i : n->pods)
        if (IsCurrentlyReschedulable(sc, sc.pods[i], now)) sim.reschedule.push_back(i);
  if (consolidation)
    for (const auto& n : nodes)
      if (!sim.excluded_nodes.count(n.name) && n.Managed())
        if (const NodePool* pool = FindNodePool(sc, n.NodePoolName());
            pool && IsUnderConsolidateAfter(n, *pool, sc, now))
          sim.under_consolidate_after.insert(n.name);
  // provisioner.NewScheduler: no NodePool to schedule with.
  if (sc.node_pools.empty()) {
    out.error = "creating scheduler, no nodepools found";
    return out;
  }
  ProvisionOptions opts;
  opts.only_marked_unschedulable = sc.simulation.mode == Mode::Cluster;
  opts.simulation = &sim;
  opts.existing_nodes = existing;
  out.simulation = Simulate(sc, opts);
  out.moved = sim.reschedule;
  std::set<std::size_t> moved(sim.reschedule.begin(), sim.reschedule.end());
  std::set<std::size_t> from_deleting;
  for (const StateNode* n : deleting)
    for (std::size_t i : n->pods) from_deleting.insert(i);
  for (const PodOutcome& o : out.simulation.result.pods) {
    if (o.kind == PodOutcomeKind::Unschedulable) {
      out.pod_errors[o.key] = o.reason;
      out.non_pending[o.key] = moved.count(o.index) > 0;
    }
  }
  // UninitializedNodeError: pods placed on an existing node that has not initialized, unless they come from a
  // deleting node.
  // Hashed views of the names (a simulation per candidate: a tree of copied names was a tenth of the dry run).
  std::unordered_map<std::string_view, const StateNode*> by_name;
  by_name.reserve(nodes.size());
  for (const auto& n : nodes) by_name[n.name] = &n;
  for (const SimulatedNode& sn : out.simulation.nodes) {
    auto it = by_name.find(sn.name);
    const StateNode* state = it == by_name.end() ? nullptr : it->second;
    const bool initialized = state ? state->Initialized() : sn.initialized;
    if (initialized) continue;
    std::string where;
    if (state && state->claim) where = "nodeclaim/" + state->claim->meta.name;
    if (!state || state->node) where += std::string(where.empty() ? "" : ", ") + "node/" + sn.name;
    for (std::size_t i : sn.pods) {
      if (from_deleting.count(i)) continue;
      const std::string key = sc.pods[i].Key();
      out.pod_errors[key] = "would schedule against uninitialized " + where;
      out.non_pending[key] = moved.count(i) > 0;
    }
  }
  return out;
}

}  // namespace kplace::karpenter::disruption
