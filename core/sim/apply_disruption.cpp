// cluster mode, spec.karpenter.applyDisruption: the disruption controller's commands applied to the settled cluster
// one after another ("this cluster after consolidation"). Each command launches its replacements as Nodes, deletes
// its nodes and evicts their pods; a cluster run then lets kube-scheduler place the evicted pods with its own scores
// (and Karpenter provision for any it cannot place), and the dry run over that cluster decides the next command.
#include <algorithm>
#include <deque>
#include <set>

#include "core/karpenter/disruption/candidate.h"
#include "core/karpenter/disruption/cluster.h"
#include "core/sim/launch.h"
#include "core/sim/runner.h"

namespace kplace::sim {
namespace {

namespace kd = karpenter::disruption;

// A cluster that keeps finding something to disrupt ends after this many commands.
constexpr std::size_t kMaxDisruptionCommands = 32;

double ClusterPrice(const Scenario& sc) {
  double sum = 0;
  for (const kd::StateNode& n : kd::BuildStateNodes(sc))
    if (n.node) sum += kd::NodePrice(n, sc);
  return sum;
}

// Karpenter names a NodeClaim after its NodePool: the first "<nodepool>-<n>" no Node or NodeClaim has.
std::string FreeName(const Scenario& sc, const std::string& pool) {
  std::set<std::string> taken;
  for (const auto& n : sc.nodes) taken.insert(n.meta.name);
  for (const auto& c : sc.node_claims) taken.insert(c.meta.name);
  for (int i = 0;; ++i)
    if (std::string name = pool + "-" + std::to_string(i); !taken.count(name)) return name;
}

// The cluster once the command has run: its replacements registered and initialized, its nodes gone, their pods
// evicted (re-created pending by their controllers) or gone with them.
Scenario Apply(const Scenario& cur, const kd::Command& cmd, DisruptionStep& step) {
  Scenario next = cur;
  const std::int64_t now = kd::EvaluationTime(cur);
  std::vector<std::string> replacement_nodes;
  std::map<std::string, std::string> planned;  // pod -> where Karpenter's simulation put it
  for (const kd::Replacement& rep : cmd.replacements) {
    karpenter::ClaimOutcome claim = rep.claim;
    claim.name = FreeName(next, rep.node_pool);
    // The launch the command expects (a replacement allowed spot and on-demand was narrowed to spot).
    claim.instance_type = rep.instance_type;
    claim.zone = rep.zone;
    claim.capacity_type = rep.capacity_type;
    claim.price = rep.price;
    claim.labels["node.kubernetes.io/instance-type"] = rep.instance_type;
    claim.labels["topology.kubernetes.io/zone"] = rep.zone;
    claim.labels["karpenter.sh/capacity-type"] = rep.capacity_type;
    claim.labels["karpenter.sh/nodepool"] = rep.node_pool;
    Node n = NodeForClaim(next, claim);
    n.meta.creation_unix = now;
    next.nodes.push_back(std::move(n));
    replacement_nodes.push_back(claim.name);
    step.launched.push_back(claim.name);
    // A replacement is not initialized when the queue first looks at it.
    step.events.push_back(
        {"Normal", "DisruptionLaunching", "NodeClaim/" + claim.name, "Launching NodeClaim: " + cmd.reason});
    step.events.push_back({"Normal", "DisruptionWaitingReadiness", "NodeClaim/" + claim.name,
                           "Waiting on readiness to continue disruption"});
  }
  for (const kd::PodMove& m : cmd.pods) {
    std::string to = m.to;
    if (to.rfind("replacement ", 0) == 0) {
      const std::size_t i = std::stoul(to.substr(12)) - 1;
      to = i < replacement_nodes.size() ? replacement_nodes[i] : "";
    }
    planned[m.pod] = to;
  }
  const std::set<std::string> deleted(cmd.nodes.begin(), cmd.nodes.end());
  step.deleted = cmd.nodes;
  // The reason title-cased (it already is: Underutilized, Empty, Drifted); a Node standing for an inferred NodeClaim
  // has no NodeClaim object to name.
  for (const std::string& node : cmd.nodes) {
    step.events.push_back({"Normal", "DisruptionTerminating", "Node/" + node, "Disrupting Node: " + cmd.reason});
    for (const NodeClaim& c : cur.node_claims)
      if (c.node_name == node)
        step.events.push_back(
            {"Normal", "DisruptionTerminating", "NodeClaim/" + c.meta.name, "Disrupting NodeClaim: " + cmd.reason});
  }
  next.nodes.erase(std::remove_if(next.nodes.begin(), next.nodes.end(),
                                  [&](const Node& n) { return deleted.count(n.meta.name) > 0; }),
                   next.nodes.end());
  next.node_claims.erase(std::remove_if(next.node_claims.begin(), next.node_claims.end(),
                                        [&](const NodeClaim& c) {
                                          return deleted.count(c.node_name) > 0 || deleted.count(c.meta.name) > 0;
                                        }),
                         next.node_claims.end());
  std::deque<Pod> pods;
  for (Pod& p : next.pods) {
    // kplace's DaemonSet pods are made again for the Nodes the next run starts with.
    if (p.generated_from.rfind("DaemonSet/", 0) == 0) continue;
    if (!deleted.count(p.node_name)) {
      pods.push_back(std::move(p));
      continue;
    }
    if (!kd::IsReschedulable(p)) continue;  // DaemonSet, mirror and finished pods go with the node
    DisruptionStepPod sp;
    sp.pod = p.Key();
    sp.from = p.node_name;
    sp.planned = planned.count(sp.pod) ? planned[sp.pod] : "";
    if (!p.meta.Controller() && p.generated_from.empty()) {
      sp.disagreement = "deleted: evicted, and no controller re-creates a pod that has none";
      step.pods.push_back(std::move(sp));
      continue;
    }
    step.pods.push_back(std::move(sp));
    // Its controller re-creates it (kplace keeps its name), pending.
    p.node_name.clear();
    p.nominated_node_name.clear();
    p.marked_unschedulable = false;
    p.phase = "Pending";
    p.start_time.clear();
    p.start_unix.reset();
    p.ready.reset();
    p.ready_false = false;
    pods.push_back(std::move(p));
  }
  next.pods = std::move(pods);
  std::sort(step.pods.begin(), step.pods.end(),
            [](const DisruptionStepPod& a, const DisruptionStepPod& b) { return a.pod < b.pod; });
  return next;
}

}  // namespace

DisruptionApplied ApplyDisruption(Scenario settled, const SimResult& first, const RunOptions& options) {
  DisruptionApplied out;
  out.hourly_before = ClusterPrice(settled);
  out.nodes = first.nodes;
  RunOptions step_options;
  step_options.disruption = options.disruption;  // the steps apply nothing themselves
  std::optional<kd::Report> report = first.disruption;
  while (true) {
    if (!report) {
      out.stopped = "no node Karpenter manages is left";
      break;
    }
    if (!report->error.empty()) {
      out.stopped = "the disruption controller's reconcile failed: " + report->error;
      break;
    }
    if (report->commands.empty()) {
      out.stopped = "Karpenter would disrupt nothing more";
      break;
    }
    if (out.steps.size() == kMaxDisruptionCommands) {
      out.stopped = "stopped after " + std::to_string(kMaxDisruptionCommands) + " commands";
      break;
    }
    DisruptionStep step;
    step.command = report->commands.front();
    Scenario next = Apply(settled, step.command, step);
    Runner runner(std::move(next), step_options);
    runner.keep_settled = true;
    SimResult r = runner.Run();
    for (DisruptionStepPod& sp : step.pods) {
      if (!sp.disagreement.empty()) continue;
      auto it = std::lower_bound(r.pods.begin(), r.pods.end(), sp.pod,
                                 [](const PodResult& a, const std::string& key) { return a.key < key; });
      if (it == r.pods.end() || it->key != sp.pod) continue;
      sp.node = it->node;
      if (sp.node == sp.planned) continue;
      if (!sp.node.empty())
        sp.disagreement = "kube-scheduler bound it to " + sp.node + (sp.planned.empty() ? "" : ", not " + sp.planned);
      else
        sp.disagreement = "kube-scheduler left it pending: " + it->unschedulable;
    }
    for (const auto& l : r.node_claims) step.provisioned.push_back(l.node);
    settled = runner.TakeSettled();
    step.hourly = ClusterPrice(settled);
    out.nodes = r.nodes;
    out.steps.push_back(std::move(step));
    report = std::move(r.disruption);
  }
  out.hourly_after = ClusterPrice(settled);
  return out;
}

}  // namespace kplace::sim
