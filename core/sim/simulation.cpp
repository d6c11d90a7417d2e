#include "core/sim/simulation.h"

#include <algorithm>
#include <map>
#include <memory>

#include "core/karpenter/scheduler.h"
#include "core/model/input_error.h"
#include "core/scheduler/cluster_state.h"
#include "core/scheduler/framework/framework.h"
#include "core/scheduler/queue/scheduling_queue.h"
#include "core/scheduler/scheduler.h"
#include "core/sim/admission.h"
#include "core/sim/launch.h"

namespace kplace::sim {
namespace {

// A run that keeps making changes ends after this many passes (each pass binds or deletes at least one pod, so a
// scenario cannot need more than pods x 2 passes; the cap guards against a bug turning into a hang).
constexpr std::size_t kMaxPassesPerPod = 4;

// cluster mode: rounds of kube-scheduler + Karpenter. Each round that launches NodeClaims lets kube-scheduler bind
// more pods or ends the loop; the cap guards against a scenario where both keep disagreeing.
constexpr int kMaxRounds = 16;

// Fills the header every mode's result carries.
SimResult NewResult(const Scenario& sc) {
  SimResult result;
  result.mode = sc.simulation.mode;
  result.seed = sc.simulation.seed;
  result.kubernetes_minor = sc.simulation.kubernetes_minor;
  result.warnings = sc.warnings;
  return result;
}

void SortPodsByKey(std::vector<PodResult>& pods) {
  std::sort(pods.begin(), pods.end(), [](const PodResult& a, const PodResult& b) { return a.key < b.key; });
}

// karpenter mode: one provisioning round of Karpenter's scheduler over the pending pods (no kube-scheduler, no
// DaemonSet expansion: Karpenter reserves DaemonSet overhead itself).
SimResult RunKarpenter(Scenario sc, const RunOptions& options) {
  for (auto& p : sc.pods) AddDefaultTolerations(p);
  std::vector<std::int32_t> priorities = ResolvePriorities(sc);
  karpenter::ProvisionOptions popts;
  popts.explain_all = options.explain_all;
  popts.explain = options.explain;
  SimResult result = NewResult(sc);
  karpenter::Result k = karpenter::Provision(sc, popts);
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    const Pod& p = sc.pods[i];
    const karpenter::PodOutcome& o = k.pods[i];
    PodResult r;
    r.key = p.Key();
    r.generated_from = p.generated_from;
    r.priority = priorities[i];
    r.bound_at_start = !p.node_name.empty();
    r.node = p.node_name;
    if (o.kind == karpenter::PodOutcomeKind::Node) r.node = o.node;
    if (o.kind == karpenter::PodOutcomeKind::Unschedulable || o.kind == karpenter::PodOutcomeKind::Ignored)
      r.unschedulable = o.reason;
    result.pods.push_back(std::move(r));
  }
  SortPodsByKey(result.pods);
  for (const auto& n : sc.nodes) result.nodes.push_back({n.meta.name, {}});
  result.hourly_price = k.hourly_price;
  result.karpenter = std::move(k);
  return result;
}

// scheduler and cluster modes: kube-scheduler's queue over a cluster that may grow (cluster mode launches
// Karpenter's NodeClaims as Nodes between rounds).
class Runner {
 public:
  Runner(Scenario sc, const RunOptions& options) : sc_(std::move(sc)), options_(options), result_(NewResult(sc_)) {}

  SimResult Run();

 private:
  // Admission for pods [first, end): default tolerations, priorities (re-resolving earlier pods is a no-op).
  void Admit(std::size_t first);
  // (Re)builds the framework, cluster state and scheduler over sc_, replaying binds, deletions and nominations.
  void Build();
  // Runs kube-scheduler passes starting with the active pods until no pod is retried.
  void RunQueue(std::vector<std::size_t> active);
  // One scheduling cycle of pod idx; adds the cluster events it caused to happened, and marks in moved the waiting
  // pods it sends back to the active queue.
  void Attempt(std::size_t idx, std::vector<std::uint8_t>& moved, framework::ClusterEvents& happened);
  // cluster mode: hands the pending pods to Karpenter, launches its NodeClaims; false when nothing was launched.
  bool Provision(ClusterRound& round);
  // Queues the pods [first, end) that wait for kube-scheduler; returns them.
  std::vector<std::size_t> QueuePods(std::size_t first);
  void Finish();
  void Event(const char* type, const char* reason, const std::string& pod, std::string message) {
    result_.events.push_back({type, reason, pod, std::move(message), "", ""});
  }
  void Progress() {
    if (options_.progress && (++done_ % 256) == 0) options_.progress(done_, done_ + todo_);
  }

  Scenario sc_;
  const RunOptions& options_;
  SimResult result_;
  std::vector<std::int32_t> priorities_;
  std::vector<PodResult> pods_;
  SchedulingQueue queue_;
  std::map<std::string, std::string> nominations_;  // by preemption during the run

  // The cluster as kube-scheduler sees it; rebuilt when Nodes are added. Binds and deletions are logged so a
  // rebuilt state replays them in order.
  struct Change {
    bool bind = true;
    std::size_t pod = 0;
    std::string node;
  };
  std::vector<Change> changes_;
  std::unique_ptr<framework::Framework> fw_;
  std::unique_ptr<ClusterState> cluster_;
  std::unique_ptr<Scheduler> scheduler_;
  std::vector<std::size_t> fresh_;  // pods created by the last launch (DaemonSet pods)
  std::size_t done_ = 0, todo_ = 0;
  int hostname_seq_ = 0;  // Karpenter's hostname placeholder counter, carried across rounds as upstream's is
};

void Runner::Admit(std::size_t first) {
  for (std::size_t i = first; i < sc_.pods.size(); ++i) AddDefaultTolerations(sc_.pods[i]);
  priorities_ = ResolvePriorities(sc_);
}

void Runner::Build() {
  // Nominations and the rotation survive a rebuild; everything else is replayed from the change log.
  std::vector<std::string> nominated(sc_.pods.size());
  std::size_t next_start = 0;
  if (cluster_) {
    for (std::size_t i = 0; i < cluster_->NumPods(); ++i) nominated[i] = cluster_->nominator.NodeOf(&cluster_->Info(i));
    next_start = scheduler_->next_start_node_index();
  }
  const bool rebuild = cluster_ != nullptr;
  scheduler_.reset();
  cluster_.reset();
  const Features features(sc_.simulation.kubernetes_minor);
  std::string error;
  fw_ = framework::Framework::Create(sc_.scheduler_config, features, &error);
  if (!fw_) FailInput("KubeSchedulerConfiguration", "profiles[0]", error);
  cluster_ = std::make_unique<ClusterState>(sc_, priorities_);
  scheduler_ = std::make_unique<Scheduler>(*fw_, *cluster_, features, sc_.simulation.seed);
  if (!rebuild) return;
  for (const Change& c : changes_) {
    if (c.bind)
      cluster_->Bind(c.pod, *cluster_->snapshot.Get(c.node));
    else
      cluster_->Evict(c.pod);
  }
  for (std::size_t i = 0; i < cluster_->NumPods(); ++i) {
    framework::PodInfo* info = &cluster_->Info(i);
    cluster_->nominator.Remove(info);
    if (nominated[i].empty() || cluster_->NodeOf(i)) continue;
    const framework::NodeInfo* n = cluster_->snapshot.Get(nominated[i]);
    cluster_->nominator.Add(info, nominated[i], n ? n->node : nullptr);
  }
  cluster_->RefreshPdbs();
  scheduler_->set_next_start_node_index(next_start);
}

std::vector<std::size_t> Runner::QueuePods(std::size_t first) {
  const std::size_t n = sc_.pods.size();
  pods_.resize(n);
  std::vector<std::size_t> added;
  for (std::size_t i = first; i < n; ++i) {
    const Pod& p = sc_.pods[i];
    PodResult& r = pods_[i];
    r.key = p.Key();
    r.generated_from = p.generated_from;
    r.priority = priorities_[i];
    if (!p.node_name.empty()) {
      r.bound_at_start = true;
      r.node = p.node_name;
      continue;
    }
    if (p.Terminal()) continue;
    r.scheduling_gates = p.scheduling_gates;
    if (!p.scheduling_gates.empty()) continue;
    added.push_back(i);
  }
  queue_.Add(added, sc_.pods, priorities_);
  return added;
}

void Runner::RunQueue(std::vector<std::size_t> active) {
  // Each pass runs the active pods in queue order. Pods that fail wait as unschedulable; after the pass, those a
  // change of the cluster may help (queueing hints: a bind, a deletion, their own preemption, a cleared
  // nomination) are retried in the next pass. The run ends when no pod is retried.
  const std::size_t max_passes = kMaxPassesPerPod * (queue_.order().size() + 1);
  for (std::size_t pass = 0; !active.empty(); ++pass) {
    if (pass == max_passes) {
      result_.warnings.push_back("the scheduling queue was still changing after " + std::to_string(pass) +
                                 " passes; stopped");
      break;
    }
    std::vector<std::uint8_t> moved(sc_.pods.size(), 0);
    framework::ClusterEvents happened = 0;
    todo_ = active.size();
    for (std::size_t idx : active) {
      Attempt(idx, moved, happened);
      if (todo_ > 0) --todo_;
      Progress();
    }
    // Unschedulable pods come back when a change may help them, in queue order.
    active = queue_.Wake(happened, moved);
  }
}

void Runner::Attempt(std::size_t idx, std::vector<std::uint8_t>& moved, framework::ClusterEvents& happened) {
  ClusterState& cluster = *cluster_;
  PodResult& r = pods_[idx];
  framework::PodInfo& info = cluster.Info(idx);
  if (sc_.pods[idx].meta.deleting) {
    // skipPodSchedule (schedule_one.go): a pod being deleted gets no cycle and is not requeued.
    r.unschedulable = "skip schedule deleting pod: " + r.key;
    queue_.Done(idx);
    Event("Warning", "FailedScheduling", r.key, r.unschedulable);
    return;
  }
  bool explain = options_.explain_all || options_.explain.count(r.key) > 0;
  int attempt = static_cast<int>(r.attempts.size()) + 1;
  CycleExplanation ex;
  CycleOutcome out = scheduler_->ScheduleOne(idx, attempt, explain ? &ex : nullptr);
  PodAttempt a;
  a.attempt = attempt;
  if (out.node) {
    cluster.Bind(idx, *out.node);
    cluster.nominator.Remove(&info);
    changes_.push_back({true, idx, out.node->Name()});
    r.node = out.node->Name();
    r.unschedulable.clear();
    r.nominated_node.clear();
    a.node = r.node;
    happened |= framework::cluster_event::kAssignedPodAdd;
    queue_.Done(idx);
    result_.bind_order.push_back(r.key);
    if (!result_.rounds.empty()) result_.rounds.back().scheduled.push_back(r.key);
    Event("Normal", "Scheduled", r.key, "Successfully assigned " + r.key + " to " + r.node);
  } else {
    r.unschedulable = out.message;
    a.message = out.message;
    queue_.SetUnschedulable(idx, EventsForRejection(*fw_, out));
    Event("Warning", "FailedScheduling", r.key, out.message);
    if (out.preemption && out.preemption->chosen) {
      // prepareCandidate: delete the victims, clear lower-priority nominations to the node, then nominate.
      const auto& c = *out.preemption->chosen;
      Preemption pe;
      pe.preemptor = r.key;
      pe.attempt = attempt;
      pe.node = c.node->Name();
      for (const framework::PodInfo* v : c.victims) {
        cluster.Evict(v->index);
        changes_.push_back({false, v->index, ""});
        PodResult& vr = pods_[v->index];
        vr.node.clear();
        vr.preempted_by = r.key;
        vr.preempted_from = pe.node;
        pe.victims.push_back(vr.key);
        result_.preempted.push_back(vr.key);
        const std::string& uid = sc_.pods[idx].meta.uid;
        Event("Normal", "Preempted", vr.key, "Preempted by pod " + (uid.empty() ? r.key : uid) + " on node " + pe.node);
      }
      for (const framework::PodInfo* p : out.preemption->cleared_nominations) {
        cluster.nominator.Remove(p);
        PodResult& pr = pods_[p->index];
        pr.nominated_node.clear();
        pe.cleared_nominations.push_back(pr.key);
        moved[p->index] = 1;  // the status update moves it back to the active queue
        Event("Normal", "Nominated", pr.key, "nominatedNodeName cleared: " + r.key + " preempted on " + pe.node);
      }
      cluster.nominator.Add(&info, pe.node, c.node->node);
      r.nominated_node = pe.node;
      nominations_[r.key] = pe.node;
      Event("Normal", "Nominated", r.key, "nominatedNodeName set to " + pe.node);
      cluster.RefreshPdbs();
      moved[idx] = 1;  // retried once its victims are gone
      happened |= framework::cluster_event::kAssignedPodDelete;
      result_.preemptions.push_back(std::move(pe));
    } else if (out.preemption && out.preemption->clear_nomination) {
      if (!cluster.nominator.NodeOf(&info).empty())
        Event("Normal", "Nominated", r.key, "nominatedNodeName cleared: preemption found no candidate");
      cluster.nominator.Remove(&info);
      r.nominated_node.clear();
    } else {
      r.nominated_node = cluster.nominator.NodeOf(&info);
    }
  }
  r.attempts.push_back(std::move(a));
  if (explain) r.explanations.push_back(std::move(ex));
}

bool Runner::Provision(ClusterRound& round) {
  std::vector<std::size_t> waiting = queue_.Unschedulable();
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
    p.marked_unschedulable = queue_.unschedulable(i);
    p.nominated_node_name = n ? "" : cluster_->nominator.NodeOf(&cluster_->Info(i));
  }
  karpenter::ProvisionOptions popts;
  popts.explain_all = options_.explain_all;
  popts.explain = options_.explain;
  popts.only_marked_unschedulable = true;
  for (const auto& n : sc_.nodes) popts.taken_names.insert(n.meta.name);
  popts.hostname_seq = hostname_seq_;
  karpenter::Result k = karpenter::Provision(view, popts);
  hostname_seq_ = k.hostname_seq;

  for (std::size_t idx : waiting) {
    const karpenter::PodOutcome& o = k.pods[idx];
    KarpenterNomination nom;
    nom.round = round.round;
    nom.relaxations = o.relaxations;
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
    } else if (o.kind == karpenter::PodOutcomeKind::Unschedulable)
      result_.events.push_back(
          {"Warning", "FailedScheduling", o.key, "Failed to schedule pod, " + o.reason, "karpenter", ""});
    pods_[idx].karpenter.push_back(std::move(nom));
  }

  // Launch: every NodeClaim becomes a Node, registers with its startupTaints, initialises (they are removed),
  // and DaemonSet pods are created for it.
  const std::size_t first_node = sc_.nodes.size();
  std::vector<LaunchedNodeClaim> launched;
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
    // The result reports the labels the Node registered with (the claim's plus kubelet's and Karpenter's).
    l.claim.labels.clear();
    for (auto [k, v] : sc_.nodes.back().meta.labels.entries()) l.claim.labels[Text(k)] = Text(v);
    round.launched.push_back(claim.name);
    result_.hourly_price += claim.price;
    result_.events.push_back({"Normal", "Launched", "", LaunchMessage(claim), "karpenter", "NodeClaim/" + claim.name});
    if (!l.startup_taints.empty())
      result_.events.push_back({"Normal", "Initialized", "", "startupTaints removed: " + TaintsText(l.startup_taints),
                                "karpenter", "NodeClaim/" + claim.name});
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
  for (auto& l : launched) result_.node_claims.push_back(std::move(l));
  Admit(first_pod);
  fresh_ = QueuePods(first_pod);
  Build();
  return true;
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

SimResult Runner::Run() {
  ExpandDaemonSets(sc_, 0);
  Admit(0);
  QueuePods(0);
  Build();
  const bool karpenter = sc_.simulation.mode == Mode::Cluster && !sc_.node_pools.empty();
  if (karpenter) result_.rounds.push_back({1, {}, {}, std::nullopt, {}});
  RunQueue(queue_.order());
  while (karpenter) {
    ClusterRound& round = result_.rounds.back();
    if (!Provision(round)) break;
    if (static_cast<int>(result_.rounds.size()) == kMaxRounds) {
      result_.warnings.push_back("Karpenter was still launching NodeClaims after " + std::to_string(kMaxRounds) +
                                 " rounds; stopped");
      break;
    }
    result_.rounds.push_back({round.round + 1, {}, {}, std::nullopt, {}});
    // New Nodes: the unschedulable pods whose rejecting plugins registered Node/Add are tried again, with the new
    // DaemonSet pods in their queue places.
    std::vector<std::uint8_t> fresh(sc_.pods.size(), 0);
    for (std::size_t idx : fresh_) fresh[idx] = 1;
    std::vector<std::size_t> active;
    std::vector<std::uint8_t> woken(sc_.pods.size(), 0);
    for (std::size_t idx : queue_.Wake(framework::cluster_event::kNodeAdd, {})) woken[idx] = 1;
    for (std::size_t idx : queue_.order())
      if (woken[idx] || fresh[idx]) active.push_back(idx);
    RunQueue(std::move(active));
  }
  if (options_.progress) options_.progress(done_, done_);
  Finish();
  return std::move(result_);
}

}  // namespace

SimResult Run(Scenario sc, const RunOptions& options) {
  if (sc.simulation.mode == Mode::Karpenter) return RunKarpenter(std::move(sc), options);
  return Runner(std::move(sc), options).Run();
}

}  // namespace kplace::sim
