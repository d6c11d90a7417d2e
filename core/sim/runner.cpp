#include "core/sim/runner.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/model/input_error.h"
#include "core/sim/admission.h"

namespace kplace::sim {

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
  fws_.clear();
  std::vector<framework::Framework*> profiles;
  for (std::size_t i = 0; i < sc_.scheduler_config.profiles.size(); ++i) {
    fws_.push_back(framework::Framework::Create(sc_.scheduler_config, features, &error, i));
    if (!fws_.back()) {
      // Plugin resolution fails here, after parsing: name the item as the parser would.
      const int at = sc_.scheduler_config.item_index;
      FailInput(at < 0 ? "KubeSchedulerConfiguration" : sc_.ItemLabel(at) + " (KubeSchedulerConfiguration)",
                "profiles[" + std::to_string(i) + "]", error);
    }
    profiles.push_back(fws_.back().get());
  }
  // The claims and PVs keep what earlier rounds bound and provisioned.
  cluster_ = std::make_unique<ClusterState>(sc_, priorities_, volumes_);
  volumes_ = cluster_->volumes();
  scheduler_ = std::make_unique<Scheduler>(std::move(profiles), *cluster_, features, sc_.simulation.seed);
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
    if (p.Terminal()) r.terminal_phase = p.phase;
    if (!p.node_name.empty()) {
      r.bound_at_start = true;
      r.node = p.node_name;
      continue;
    }
    if (p.Terminal()) continue;
    if (sc_.scheduler_config.ProfileIndex(p.scheduler_name) < 0) {
      // The scheduler only takes pods whose schedulerName is one of its profiles (responsibleForPod,
      // pkg/scheduler/eventhandlers.go); another scheduler owns this one.
      r.other_scheduler = p.scheduler_name;
      continue;
    }
    // With several profiles the result names the one that schedules the pod.
    if (sc_.scheduler_config.profiles.size() > 1) r.profile = p.scheduler_name;
    r.scheduling_gates = p.scheduling_gates;
    if (!p.scheduling_gates.empty()) continue;
    added.push_back(i);
  }
  queue_.Add(added, sc_.pods, priorities_);
  woken_by_.resize(n, 0);
  moved_by_.resize(n, 0);
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
    ++pass_;
    if (timeline_) {
      TimelineStep step;
      step.kind = TimelineStep::Kind::Pass;
      step.queue = QueueNow(active, 0, 0, moved);
      Record(std::move(step));
    }
    for (std::size_t k = 0; k < active.size(); ++k) {
      if (options_.stop_after_attempts > 0 && attempts_ == options_.stop_after_attempts) {
        stopped_ = true;
        if (timeline_) {
          timeline_->stopped = true;
          timeline_->stopped_queue = QueueNow(active, k, happened, moved);
        }
        return;
      }
      ++attempts_;
      Attempt(active[k], moved, happened);
      if (todo_ > 0) --todo_;
      Progress();
    }
    // Unschedulable pods come back when a change may help them, in queue order.
    active = queue_.Wake(happened, moved);
    for (std::size_t idx : active) {
      woken_by_[idx] = queue_.wake_on(idx) & happened;
      moved_by_[idx] = moved[idx];
    }
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
    if (timeline_) {
      TimelineStep step;
      step.pod = r.key;
      step.message = r.unschedulable;  // no events: it left the queue
      Record(std::move(step));
    }
    return;
  }
  bool explain = options_.explain_all || options_.explain.count(r.key) > 0;
  int attempt = static_cast<int>(r.attempts.size()) + 1;
  CycleExplanation ex;
  const std::uint64_t volume_generation = volumes_->generation();
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
    if (volumes_->generation() != volume_generation) happened |= framework::cluster_event::kVolumeUpdate;
    r.volumes.clear();
    for (const auto& v : sc_.pods[idx].volumes) {
      if (v.kind == PodVolume::Kind::Other) continue;
      const PersistentVolumeClaim* c = volumes_->Claim(sc_.pods[idx].meta.namespace_, v.claim_name);
      if (!c || c->volume_name.empty()) continue;
      r.volumes.push_back({v.claim_name, c->volume_name, volumes_->Provisioned(c->volume_name)});
    }
    queue_.Done(idx);
    result_.bind_order.push_back(r.key);
    if (!result_.rounds.empty()) result_.rounds.back().scheduled.push_back(r.key);
    Event("Normal", "Scheduled", r.key, "Successfully assigned " + r.key + " to " + r.node);
    if (timeline_) {
      TimelineStep step;
      step.pod = r.key;
      step.attempt = attempt;
      step.node = r.node;
      step.events = ClusterEventNames(
          framework::cluster_event::kAssignedPodAdd |
          (volumes_->generation() != volume_generation ? framework::cluster_event::kVolumeUpdate : 0));
      Record(std::move(step));
    }
  } else {
    r.unschedulable = out.message;
    a.message = out.message;
    // The rejecting plugins' queueing hints are those of the pod's profile.
    queue_.SetUnschedulable(idx, EventsForRejection(scheduler_->FrameworkFor(sc_.pods[idx]), out));
    Event("Warning", "FailedScheduling", r.key, out.message);
    if (timeline_) {
      TimelineStep step;
      step.pod = r.key;
      step.attempt = attempt;
      step.message = out.message;
      step.events = ClusterEventNames(queue_.wake_on(idx));
      Record(std::move(step));
    }
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
        if (timeline_) {
          TimelineStep step;
          step.kind = TimelineStep::Kind::Preempt;
          step.pod = vr.key;
          step.node = pe.node;
          step.by = r.key;
          step.events = ClusterEventNames(framework::cluster_event::kAssignedPodDelete);
          Record(std::move(step));
        }
      }
      for (const framework::PodInfo* p : out.preemption->cleared_nominations) {
        cluster.nominator.Remove(p);
        PodResult& pr = pods_[p->index];
        pr.nominated_node.clear();
        pe.cleared_nominations.push_back(pr.key);
        moved[p->index] = kMoveNominationCleared;  // the status update moves it back to the active queue
        Event("Normal", "Nominated", pr.key, "nominatedNodeName cleared: " + r.key + " preempted on " + pe.node);
        if (timeline_) {
          TimelineStep step;
          step.kind = TimelineStep::Kind::ClearNomination;
          step.pod = pr.key;
          step.by = r.key;
          step.message = r.key + " preempted on " + pe.node;
          Record(std::move(step));
        }
      }
      cluster.nominator.Add(&info, pe.node, c.node->node);
      r.nominated_node = pe.node;
      nominations_[r.key] = pe.node;
      Event("Normal", "Nominated", r.key, "nominatedNodeName set to " + pe.node);
      cluster.RefreshPdbs();
      moved[idx] = kMovePreempted;  // retried once its victims are gone
      if (timeline_) {
        TimelineStep step;
        step.kind = TimelineStep::Kind::Nominate;
        step.pod = r.key;
        step.node = pe.node;
        Record(std::move(step));
      }
      happened |= framework::cluster_event::kAssignedPodDelete;
      result_.preemptions.push_back(std::move(pe));
    } else if (out.preemption && out.preemption->clear_nomination) {
      if (!cluster.nominator.NodeOf(&info).empty()) {
        Event("Normal", "Nominated", r.key, "nominatedNodeName cleared: preemption found no candidate");
        if (timeline_) {
          TimelineStep step;
          step.kind = TimelineStep::Kind::ClearNomination;
          step.pod = r.key;
          step.message = "preemption found no candidate";
          Record(std::move(step));
        }
      }
      cluster.nominator.Remove(&info);
      r.nominated_node.clear();
    } else {
      r.nominated_node = cluster.nominator.NodeOf(&info);
    }
  }
  r.attempts.push_back(std::move(a));
  if (explain) r.explanations.push_back(std::move(ex));
  scheduler_->Recycle(std::move(out));
}

SimResult Runner::Run() {
  managed_input_ =
      options_.disruption && sc_.simulation.mode == Mode::Cluster && karpenter::disruption::HasManagedNodes(sc_);
  ExpandDaemonSets(sc_, 0);
  Admit(0);
  QueuePods(0);
  Build();
  if (options_.record_timeline) {
    timeline_ = &result_.timeline.emplace();
    for (const auto& n : cluster_->snapshot.nodes)
      for (const auto* p : n.pods) timeline_->bound_at_start.emplace_back(n.Name(), p->pod->Key());
    for (std::size_t i = 0; i < cluster_->NumPods(); ++i) {
      const std::string node = cluster_->nominator.NodeOf(&cluster_->Info(i));
      if (!node.empty()) timeline_->nominated_at_start.emplace_back(sc_.pods[i].Key(), node);
    }
  }
  const bool karpenter = sc_.simulation.mode == Mode::Cluster && !sc_.node_pools.empty();
  if (karpenter) NewRound(1);
  RunQueue(queue_.order());
  while (karpenter && !stopped_) {
    ClusterRound& round = result_.rounds.back();
    if (!Provision(round)) break;
    if (static_cast<int>(result_.rounds.size()) == kMaxRounds) {
      result_.warnings.push_back("Karpenter was still launching NodeClaims after " + std::to_string(kMaxRounds) +
                                 " rounds; stopped");
      break;
    }
    NewRound(round.round + 1);
    // New Nodes: the unschedulable pods whose rejecting plugins registered Node/Add are tried again, with the new
    // DaemonSet pods in their queue places.
    std::vector<std::uint8_t> fresh(sc_.pods.size(), 0);
    for (std::size_t idx : fresh_) fresh[idx] = 1;
    std::vector<std::size_t> active;
    std::vector<std::uint8_t> woken(sc_.pods.size(), 0);
    for (std::size_t idx : queue_.Wake(framework::cluster_event::kNodeAdd, {})) {
      woken[idx] = 1;
      woken_by_[idx] = queue_.wake_on(idx) & framework::cluster_event::kNodeAdd;
      moved_by_[idx] = 0;
    }
    for (std::size_t idx : queue_.order())
      if (woken[idx] || fresh[idx]) active.push_back(idx);
    RunQueue(std::move(active));
  }
  if (options_.progress) options_.progress(done_, done_);
  if (!stopped_) DisruptionDryRun();
  Finish();
  return std::move(result_);
}

void Runner::NewRound(int round) {
  result_.rounds.push_back({round, {}, {}, std::nullopt, {}});
  round_ = round;
  pass_ = 0;
  if (!timeline_) return;
  TimelineStep step;
  step.kind = TimelineStep::Kind::Round;
  Record(std::move(step));
}

void Runner::Record(TimelineStep step, std::size_t events_end) {
  step.round = round_;
  step.pass = pass_;
  step.events_end = std::min(events_end, result_.events.size());
  timeline_->steps.push_back(std::move(step));
}

std::vector<QueuedPod> Runner::QueueNow(const std::vector<std::size_t>& active, std::size_t from,
                                        framework::ClusterEvents happened,
                                        const std::vector<std::uint8_t>& moved) const {
  std::vector<QueuedPod> out;
  // Which queue each pod is in (activeQ: the rest of the pass, listed first in its order).
  constexpr std::uint8_t kNone = 0xff;
  std::vector<std::uint8_t> in(pods_.size(), kNone);
  for (std::size_t k = from; k < active.size(); ++k) {
    const std::size_t idx = active[k];
    in[idx] = static_cast<std::uint8_t>(QueuedPod::Queue::Active);
    QueuedPod q;
    q.pod = pods_[idx].key;
    q.events = ClusterEventNames(woken_by_[idx]);
    q.moved = MoveReason(moved_by_[idx]);
    out.push_back(std::move(q));
  }
  for (std::size_t idx : queue_.Unschedulable()) {
    if (in[idx] != kNone) continue;
    const bool woken = (queue_.wake_on(idx) & happened) || (idx < moved.size() && moved[idx]);
    in[idx] = static_cast<std::uint8_t>(woken ? QueuedPod::Queue::Backoff : QueuedPod::Queue::Unschedulable);
  }
  for (std::size_t idx = 0; idx < pods_.size(); ++idx)
    if (!pods_[idx].scheduling_gates.empty() && pods_[idx].node.empty())
      in[idx] = static_cast<std::uint8_t>(QueuedPod::Queue::Gated);
  // The others by queue, then by pod.
  const std::vector<std::uint32_t> by_key = KeyOrder(pods_);
  for (auto queue : {QueuedPod::Queue::Backoff, QueuedPod::Queue::Unschedulable, QueuedPod::Queue::Gated})
    for (std::uint32_t idx : by_key) {
      if (in[idx] != static_cast<std::uint8_t>(queue)) continue;
      QueuedPod q;
      q.pod = pods_[idx].key;
      q.queue = queue;
      const framework::ClusterEvents woken = queue_.wake_on(idx) & happened;
      if (queue == QueuedPod::Queue::Backoff) {
        q.events = ClusterEventNames(woken);
        q.moved = MoveReason(idx < moved.size() ? moved[idx] : 0);
      } else if (queue == QueuedPod::Queue::Unschedulable) {
        q.events = ClusterEventNames(queue_.wake_on(idx));
        q.message = pods_[idx].unschedulable;
      } else {
        q.gates = pods_[idx].scheduling_gates;
      }
      out.push_back(std::move(q));
    }
  return out;
}

// Here, not in simulation.cpp, which the page builds for size: a sort of every pod by key, string comparisons
// inlined.
std::vector<std::uint32_t> KeyOrder(const std::vector<PodResult>& pods) {
  std::vector<std::uint32_t> order(pods.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&pods](std::uint32_t a, std::uint32_t b) { return pods[a].key < pods[b].key; });
  return order;
}

void SortPodsByKey(std::vector<PodResult>& pods) {
  const auto by_key = [](const PodResult& a, const PodResult& b) { return a.key < b.key; };
  // Keys are unique (the parser refuses a second pod of one name), so the order is the same either way; a dump
  // usually lists its pods in key order already, and a PodResult is large to swap about.
  if (std::is_sorted(pods.begin(), pods.end(), by_key)) return;
  // Sort positions, then move each PodResult into place once, a cycle of the permutation at a time: sorting the
  // structs themselves swaps them about (and std::sort over them was 8 KB of the page's wasm), a second vector of
  // them was 5 MB of fresh memory for 10,000 pods. Position k takes the pod at order[k].
  // A position filled is marked order[j] = j, so each cycle is walked once.
  std::vector<std::uint32_t> order = KeyOrder(pods);
  for (std::uint32_t k = 0; k < order.size(); ++k) {
    if (order[k] == k) continue;
    PodResult first = std::move(pods[k]);
    std::uint32_t j = k;
    while (order[j] != k) {
      pods[j] = std::move(pods[order[j]]);
      j = std::exchange(order[j], j);
    }
    pods[j] = std::move(first);
    order[j] = j;
  }
}

}  // namespace kplace::sim
