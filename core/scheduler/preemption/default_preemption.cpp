#include "core/scheduler/preemption/default_preemption.h"

#include <algorithm>
#include <limits>

namespace kplace::preemption {

using framework::Code;
using framework::NodeInfo;
using framework::PodInfo;
using framework::Status;

namespace {

// GetPodStartTime: a pod without status.startTime counts as starting now, later than any recorded start.
std::int64_t StartTime(const PodInfo& p) {
  return p.pod->start_unix ? *p.pod->start_unix : std::numeric_limits<std::int64_t>::max();
}

}  // namespace

bool MoreImportantPod(const PodInfo& a, const PodInfo& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  return StartTime(a) < StartTime(b);
}

std::string NotEligibleReason(const PodInfo& pod, const std::string& nominated, Code nominated_node_code,
                              const framework::Snapshot& snapshot) {
  if (pod.pod->preemption_policy && *pod.pod->preemption_policy == PreemptionPolicy::Never)
    return "not eligible due to preemptionPolicy=Never.";
  if (nominated.empty()) return "";
  // A nominated node the filters call unresolvable is fair game for another preemption.
  if (nominated_node_code == Code::UnschedulableAndUnresolvable) return "";
  auto it = snapshot.node_index.find(nominated);
  if (it == snapshot.node_index.end()) return "";
  for (const PodInfo* p : snapshot.nodes[static_cast<std::size_t>(it->second)].pods)
    if (p->priority < pod.priority && p->pod->terminating_by_preemption)
      return "not eligible due to a terminating pod on the nominated node.";
  return "";
}

void SplitByPdbViolation(const std::vector<const PodInfo*>& pods, const std::vector<PdbBudget>& pdbs,
                         std::vector<const PodInfo*>& violating, std::vector<const PodInfo*>& non_violating) {
  std::vector<std::int32_t> allowed;
  allowed.reserve(pdbs.size());
  for (const auto& pdb : pdbs) allowed.push_back(pdb.disruptions_allowed);
  for (const PodInfo* p : pods) {
    bool violated = false;
    // A pod without labels matches no PDB; a PDB with a nil or empty selector matches nothing.
    if (!p->labels().empty()) {
      for (std::size_t i = 0; i < pdbs.size(); ++i) {
        const PdbBudget& pdb = pdbs[i];
        if (pdb.namespace_ != p->namespace_) continue;
        if (pdb.selector.nil || pdb.selector.requirements.empty() || !pdb.selector.Matches(p->labels())) continue;
        // Already counted by the API server as disrupted: not a new violation.
        if (std::find(pdb.disrupted_pods.begin(), pdb.disrupted_pods.end(), p->pod->meta.name) !=
            pdb.disrupted_pods.end())
          continue;
        if (--allowed[i] < 0) violated = true;
      }
    }
    (violated ? violating : non_violating).push_back(p);
  }
}

Status SelectVictimsOnNode(Context& ctx, framework::CycleState& state, const PodInfo& pod, NodeInfo& node,
                           std::vector<const PodInfo*>& victims, std::int64_t& num_pdb_violations) {
  victims.clear();
  num_pdb_violations = 0;
  std::vector<const PodInfo*> potential;
  for (const PodInfo* p : node.pods)
    if (p->priority < pod.priority) potential.push_back(p);
  for (const PodInfo* p : potential) {
    node.RemovePod(p);
    Status s = ctx.fw.RunRemovePod(state, pod, *p, node, ctx.snapshot);
    if (!s.IsSuccess()) return Status(Code::Error, s.Message()).WithPlugin(s.plugin());
  }
  if (potential.empty())
    return Status(Code::UnschedulableAndUnresolvable, "No preemption victims found for incoming pod");

  // Even without every lower-priority pod the preemptor does not fit: this node cannot help (affinity to a
  // victim is deliberately not considered).
  Status fits = ctx.fw.RunFilterWithNominatedPods(state, pod, node, ctx.snapshot, ctx.nominator);
  if (!fits.IsSuccess()) return fits;

  std::stable_sort(potential.begin(), potential.end(),
                   [](const PodInfo* a, const PodInfo* b) { return MoreImportantPod(*a, *b); });
  std::vector<const PodInfo*> violating, non_violating;
  SplitByPdbViolation(potential, ctx.pdbs ? *ctx.pdbs : std::vector<PdbBudget>{}, violating, non_violating);
  // Reprieve: put each pod back; if the preemptor no longer fits, it is a victim after all.
  auto reprieve = [&](const PodInfo* p, bool& fits_after) -> Status {
    node.AddPod(p);
    Status s = ctx.fw.RunAddPod(state, pod, *p, node, ctx.snapshot);
    if (!s.IsSuccess()) return Status(Code::Error, s.Message()).WithPlugin(s.plugin());
    fits_after = ctx.fw.RunFilterWithNominatedPods(state, pod, node, ctx.snapshot, ctx.nominator).IsSuccess();
    if (!fits_after) {
      node.RemovePod(p);
      s = ctx.fw.RunRemovePod(state, pod, *p, node, ctx.snapshot);
      if (!s.IsSuccess()) return Status(Code::Error, s.Message()).WithPlugin(s.plugin());
      victims.push_back(p);
    }
    return {};
  };
  for (const PodInfo* p : violating) {
    bool fits_after = false;
    if (Status s = reprieve(p, fits_after); !s.IsSuccess()) return s;
    if (!fits_after) ++num_pdb_violations;
  }
  for (const PodInfo* p : non_violating) {
    bool fits_after = false;
    if (Status s = reprieve(p, fits_after); !s.IsSuccess()) return s;
  }
  // Two groups were appended one after the other: restore importance order.
  if (!violating.empty() && !non_violating.empty())
    std::stable_sort(victims.begin(), victims.end(),
                     [](const PodInfo* a, const PodInfo* b) { return MoreImportantPod(*a, *b); });
  return {};
}

std::int32_t CalculateNumCandidates(const DefaultPreemptionArgs& args, std::int32_t num_nodes) {
  std::int32_t n =
      static_cast<std::int32_t>(static_cast<std::int64_t>(num_nodes) * args.min_candidate_nodes_percentage / 100);
  n = std::max(n, args.min_candidate_nodes_absolute);
  return std::min(n, num_nodes);
}

}  // namespace kplace::preemption
