// cluster mode: what happens between kube-scheduler's rounds (Karpenter provisions for the pods left
// Unschedulable, its NodeClaims launch as Nodes) and at the end (Karpenter's nominations against kube-scheduler's
// binds).
#include <map>

#include "core/karpenter/scheduler.h"
#include "core/sim/admission.h"
#include "core/sim/launch.h"
#include "core/sim/runner.h"

namespace kplace::sim {

bool Runner::Provision(ClusterRound& round) {
  std::vector<std::size_t> waiting = queue_.Unschedulable();
  // Karpenter does not look at schedulerName (IsProvisionable, pkg/utils/pod/scheduling.go): a pending pod of
  // another scheduler is provisioned for when its own scheduler marked it PodScheduled=False, reason Unschedulable
  // (in the input: kplace does not run that scheduler); without the mark Karpenter leaves it alone.
  std::vector<std::uint8_t> other(sc_.pods.size(), 0);
  for (std::size_t i = 0; i < pods_.size(); ++i) {
    const Pod& p = sc_.pods[i];
    if (pods_[i].other_scheduler.empty() || !p.node_name.empty() || p.Terminal()) continue;
    other[i] = 1;
    if (p.marked_unschedulable) waiting.push_back(i);
  }
  for (std::size_t idx : waiting) round.unschedulable.push_back(pods_[idx].key);
  if (waiting.empty()) return false;

  // Karpenter's view of the cluster now: bound pods on their Nodes, deleted pods gone, kube-scheduler's verdicts
  // and nominations on the pending ones.
  Scenario view = sc_;
  for (std::size_t i = 0; i < view.pods.size(); ++i) {
    Pod& p = view.pods[i];
    const framework::NodeInfo* n = cluster_->NodeOf(i);
    p.node_name = n ? n->Name() : "";
    if (!pods_[i].preempted_by.empty() && !n) p.phase = "Failed";  // deleted by preemption
    if (other[i]) continue;  // as the input has it: its own scheduler's verdict and nomination
    p.marked_unschedulable = queue_.unschedulable(i);
    p.nominated_node_name = n ? "" : cluster_->nominator.NodeOf(&cluster_->Info(i));
  }
  karpenter::ProvisionOptions popts;
  popts.explain_all = options_.explain_all;
  popts.explain = options_.explain;
  popts.only_marked_unschedulable = true;
  for (const auto& n : sc_.nodes) popts.taken_names.insert(n.meta.name);
  popts.hostname_seq = hostname_seq_;
  // Claims as kube-scheduler's rounds left them: a claim bound or provisioned for a pod placed earlier pins its
  // volume's zone for the pods that share it.
  popts.storage = volumes_.get();
  karpenter::Result k = karpenter::Provision(view, popts);
  hostname_seq_ = k.hostname_seq;
  // Karpenter's events in the order it publishes them (provisioning/scheduling/events.go): FailedScheduling on the
  // pods it ignores (provisioner.go GetPendingPods), NoCompatibleInstanceTypes on each NodePool NewScheduler drops,
  // then per pod below (Results.Record).
  for (std::size_t idx : waiting) {
    const karpenter::PodOutcome& o = k.pods[idx];
    if (o.kind == karpenter::PodOutcomeKind::Ignored && karpenter::PublishesFailedScheduling(o))
      result_.events.push_back(
          {"Warning", "FailedScheduling", o.key, "Failed to schedule pod, " + o.reason, "karpenter", ""});
  }
  for (const auto& e : k.events) result_.events.push_back({e.type, e.reason, "", e.message, "karpenter", e.object});

  for (std::size_t idx : waiting) {
    const karpenter::PodOutcome& o = k.pods[idx];
    KarpenterNomination nom;
    nom.round = round.round;
    nom.relaxations = o.relaxations;
    nom.volume_requirements = o.volume_requirements;
    switch (o.kind) {
      case karpenter::PodOutcomeKind::Node:
        nom.target = "node/" + o.node;
        nom.node = o.node;
        break;
      case karpenter::PodOutcomeKind::Claim:
        nom.target = "nodeclaim/" + k.claims[static_cast<std::size_t>(o.claim)].name;
        nom.node = k.claims[static_cast<std::size_t>(o.claim)].name;
        break;
      default:
        nom.reason = o.reason;
        break;
    }
    // Karpenter logs each relaxation step ("relaxing soft constraints for pod since it previously failed to
    // schedule" with what it removed or added, preferences.go); kplace shows them as events on the pod.
    for (const auto& step : o.relaxations)
      result_.events.push_back({"Normal", "Relaxed", o.key, step, "karpenter", ""});
    // Karpenter's events on the pod (events.NominatePodEvent, PodFailedToScheduleEvent): a Node it launched
    // earlier is named with its NodeClaim.
    if (!nom.target.empty()) {
      std::string where = nom.target;
      if (o.kind == karpenter::PodOutcomeKind::Node)
        for (const auto& l : result_.node_claims)
          if (l.node == nom.node) where = "nodeclaim/" + l.claim.name + ", " + where;
      result_.events.push_back({"Normal", "Nominated", o.key, "Pod should schedule on: " + where, "karpenter", ""});
    } else if (o.kind == karpenter::PodOutcomeKind::Unschedulable && karpenter::PublishesFailedScheduling(o))
      result_.events.push_back(
          {"Warning", "FailedScheduling", o.key, "Failed to schedule pod, " + o.reason, "karpenter", ""});
    pods_[idx].karpenter.push_back(std::move(nom));
  }
  if (timeline_) {
    TimelineStep step;
    step.kind = TimelineStep::Kind::Provision;
    for (std::size_t idx : waiting) step.pods.push_back(pods_[idx].key);
    step.message = std::to_string(k.claims.size()) + " NodeClaim(s) to launch";
    Record(std::move(step));
  }

  // Launch: every NodeClaim becomes a Node, registers with its startupTaints, initialises (they are removed),
  // and DaemonSet pods are created for it.
  const std::size_t first_node = sc_.nodes.size();
  // The CSI node plugins register the same drivers on each new Node (see LaunchedNodeCSINode).
  const std::optional<CSINode> csi_node = LaunchedNodeCSINode(sc_);
  std::vector<LaunchedNodeClaim> launched;
  std::vector<std::pair<std::size_t, std::size_t>> events_end;  // each claim's Launched, Initialized (timeline)
  for (const auto& claim : k.claims) {
    LaunchedNodeClaim l;
    l.round = round.round;
    l.claim = claim;
    l.node = claim.name;
    const NodePool* pool = nullptr;
    for (const auto& np : sc_.node_pools)
      if (np.meta.name == claim.node_pool) pool = &np;
    if (pool) l.startup_taints = pool->startup_taints;
    sc_.nodes.push_back(NodeForClaim(sc_, claim));
    if (csi_node) {
      CSINode mine = *csi_node;
      mine.meta.name = claim.name;
      for (auto& d : mine.drivers) d.node_id = claim.name;
      volumes_->AddCSINode(std::move(mine));
    }
    // The result reports the labels the Node registered with (the claim's plus kubelet's and Karpenter's).
    l.claim.labels.clear();
    for (auto [k, v] : sc_.nodes.back().meta.labels.entries()) l.claim.labels[Text(k)] = Text(v);
    round.launched.push_back(claim.name);
    result_.hourly_price += claim.price;
    result_.events.push_back({"Normal", "Launched", "", LaunchMessage(claim), "karpenter", "NodeClaim/" + claim.name});
    events_end.emplace_back(result_.events.size(), 0);
    if (!l.startup_taints.empty())
      result_.events.push_back({"Normal", "Initialized", "", "startupTaints removed: " + TaintsText(l.startup_taints),
                                "karpenter", "NodeClaim/" + claim.name});
    events_end.back().second = result_.events.size();
    launched.push_back(std::move(l));
  }
  round.provision = std::move(k);
  if (launched.empty()) return false;

  const std::size_t first_pod = sc_.pods.size();
  ExpandDaemonSets(sc_, first_node);
  // ExpandDaemonSets names each daemon pod <daemonset>-<node>.
  std::map<std::string, std::size_t> new_pods;
  for (std::size_t i = first_pod; i < sc_.pods.size(); ++i) new_pods[sc_.pods[i].meta.name] = i;
  for (auto& l : launched)
    for (const auto& w : sc_.workloads) {
      if (w.kind != "DaemonSet") continue;
      auto it = new_pods.find(w.meta.name + "-" + l.node);
      if (it != new_pods.end() && sc_.pods[it->second].meta.namespace_ == w.meta.namespace_)
        l.daemon_pods.push_back(sc_.pods[it->second].Key());
    }
  for (std::size_t i = 0; timeline_ && i < launched.size(); ++i) {
    const LaunchedNodeClaim& l = launched[i];
    TimelineStep step;
    step.kind = TimelineStep::Kind::Launch;
    step.node = l.node;
    step.message = LaunchMessage(l.claim);
    step.pods = l.daemon_pods;
    Record(std::move(step), events_end[i].first);
    step = {};
    step.kind = TimelineStep::Kind::Initialize;
    step.node = l.node;
    if (!l.startup_taints.empty()) step.message = "startupTaints removed: " + TaintsText(l.startup_taints);
    Record(std::move(step), events_end[i].second);
  }
  for (auto& l : launched) result_.node_claims.push_back(std::move(l));
  Admit(first_pod);
  fresh_ = QueuePods(first_pod);
  Build();
  return true;
}

void Runner::DisruptionDryRun() {
  if (!managed_input_ && !keep_settled) return;
  // The cluster as the run leaves it: each pod on the node kube-scheduler's snapshot holds it on (preempted and
  // pending pods on none), with its admitted priority; Nodes launched in the run are in sc_ already.
  Scenario settled = sc_;
  for (auto& p : settled.pods) p.node_name.clear();
  for (const auto& n : cluster_->snapshot.nodes)
    for (const auto* p : n.pods) settled.pods[p->index].node_name = n.Name();
  std::set<std::string> nominated;
  for (std::size_t i = 0; i < settled.pods.size(); ++i) {
    settled.pods[i].priority = priorities_[i];
    const PodResult& r = pods_[i];
    // A pod left pending carries kube-scheduler's PodScheduled=False/Unschedulable (Karpenter's provisionable pods).
    if (settled.pods[i].node_name.empty() && !r.unschedulable.empty()) settled.pods[i].marked_unschedulable = true;
    if (r.node.empty() && !r.karpenter.empty() && r.karpenter.back().target.rfind("node/", 0) == 0)
      nominated.insert(r.karpenter.back().node);
  }
  if (managed_input_) result_.disruption = options_.disruption(settled, nominated, options_.explain_nodes);
  if (keep_settled) settled_ = std::move(settled);
}

void Runner::Finish() {
  for (const auto& n : cluster_->snapshot.nodes) {
    NodeSummary s;
    s.name = n.Name();
    for (const auto* p : n.pods) s.pods.push_back(p->pod->Key());
    result_.nodes.push_back(std::move(s));
  }
  std::map<std::string, LaunchedNodeClaim*> launched;
  for (auto& l : result_.node_claims) launched[l.node] = &l;
  for (const auto& n : result_.nodes) {
    auto it = launched.find(n.name);
    if (it != launched.end()) it->second->pods = n.pods;
  }
  // Pods of one workload are interchangeable: kube-scheduler putting replica 3 where Karpenter meant replica 1
  // changes nothing when every node still gets as many of that workload's pods as Karpenter planned. Counted over
  // the pods Karpenter nominated, per (node, workload).
  auto shape = [](const PodResult& r) { return r.generated_from.empty() ? "Pod/" + r.key : r.generated_from; };
  std::map<std::pair<std::string, std::string>, int> planned, got;
  std::vector<PodResult*> nominated;  // pods whose last Karpenter nomination has a target, pod order
  for (auto& r : pods_) {
    if (!r.node.empty() && launched.count(r.node)) r.node_claim = r.node;
    if (r.karpenter.empty() || r.karpenter.back().target.empty()) continue;
    // Another scheduler's pod: its binding is not simulated, so there is nothing to compare Karpenter's plan with.
    if (!r.other_scheduler.empty()) continue;
    ++planned[{r.karpenter.back().node, shape(r)}];
    if (!r.node.empty()) ++got[{r.node, shape(r)}];
    nominated.push_back(&r);
  }
  for (PodResult* p : nominated) {
    PodResult& r = *p;
    // The last nomination is what Karpenter expected kube-scheduler to do.
    const KarpenterNomination& last = r.karpenter.back();
    if (last.node == r.node) continue;
    std::string what = "Karpenter nominated " + last.target + " (round " + std::to_string(last.round) + "); ";
    if (!r.node.empty())
      r.disagreement = what + "kube-scheduler bound it to " + r.node;
    else if (!r.preempted_by.empty())
      r.disagreement = what + "it was preempted by " + r.preempted_by;
    else
      r.disagreement = what + "kube-scheduler left it pending: " + r.unschedulable;
    const std::string w = shape(r);
    r.interchangeable = !r.node.empty() && !r.generated_from.empty() &&
                        planned[{last.node, w}] == got[{last.node, w}] && planned[{r.node, w}] == got[{r.node, w}];
    if (r.interchangeable)
      r.disagreement += " (interchangeable: every node got as many " + w + " pods as Karpenter planned)";
  }
  result_.nominations.assign(nominations_.begin(), nominations_.end());
  result_.pods = std::move(pods_);
  SortPodsByKey(result_.pods);
}

}  // namespace kplace::sim
