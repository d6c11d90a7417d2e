#include "core/sim/timeline.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/scheduler/framework/interface.h"
#include "core/sim/simulation.h"

namespace kplace::sim {

const char* QueueName(QueuedPod::Queue queue) {
  switch (queue) {
    case QueuedPod::Queue::Active:
      return "activeQ";
    case QueuedPod::Queue::Backoff:
      return "backoffQ";
    case QueuedPod::Queue::Unschedulable:
      return "unschedulablePods";
    case QueuedPod::Queue::Gated:
      return "gated";
  }
  return "";
}

const char* MoveReason(std::uint8_t code) {
  switch (code) {
    case kMoveNominationCleared:
      return "its nominatedNodeName was cleared";
    case kMovePreempted:
      return "it preempted: retried once its victims are gone";
    default:
      return "";
  }
}

const char* StepKindName(TimelineStep::Kind kind) {
  switch (kind) {
    case TimelineStep::Kind::Round:
      return "round";
    case TimelineStep::Kind::Pass:
      return "pass";
    case TimelineStep::Kind::Attempt:
      return "attempt";
    case TimelineStep::Kind::Preempt:
      return "preempt";
    case TimelineStep::Kind::Nominate:
      return "nominate";
    case TimelineStep::Kind::ClearNomination:
      return "clearNomination";
    case TimelineStep::Kind::Provision:
      return "provision";
    case TimelineStep::Kind::Launch:
      return "launch";
    case TimelineStep::Kind::Initialize:
      return "initialize";
  }
  return "";
}

std::vector<std::string> ClusterEventNames(std::uint8_t events) {
  // Labels of upstream's cluster events (framework.ClusterEvent.Label: a custom label for assigned pods, else the
  // resource and the action).
  namespace ev = framework::cluster_event;
  std::vector<std::string> out;
  if (events & ev::kAssignedPodAdd) out.emplace_back("AssignedPodAdd");
  if (events & ev::kAssignedPodDelete) out.emplace_back("AssignedPodDelete");
  if (events & ev::kNodeAdd) out.emplace_back("NodeAdd");
  if (events & ev::kVolumeUpdate) out.emplace_back("PersistentVolumeClaimUpdate");
  return out;
}

std::string DescribeStep(const TimelineStep& s) {
  switch (s.kind) {
    case TimelineStep::Kind::Round:
      return "round " + std::to_string(s.round) + ": kube-scheduler, then Karpenter for what it leaves pending";
    case TimelineStep::Kind::Pass: {
      std::size_t active = 0;
      for (const auto& q : s.queue) active += q.queue == QueuedPod::Queue::Active;
      return "pass " + std::to_string(s.pass) + ": " + std::to_string(active) + " pod(s) in activeQ";
    }
    case TimelineStep::Kind::Attempt:
      if (!s.node.empty()) return "attempt " + std::to_string(s.attempt) + " of " + s.pod + ": bound to " + s.node;
      if (s.events.empty()) return s.pod + ": " + s.message;
      return "attempt " + std::to_string(s.attempt) + " of " + s.pod + ": " + s.message;
    case TimelineStep::Kind::Preempt:
      return s.pod + " deleted from " + s.node + " (preempted by " + s.by + ")";
    case TimelineStep::Kind::Nominate:
      return s.pod + ": nominatedNodeName set to " + s.node;
    case TimelineStep::Kind::ClearNomination:
      return s.pod + ": nominatedNodeName cleared (" + s.message + ")";
    case TimelineStep::Kind::Provision:
      return "Karpenter provisions for " + std::to_string(s.pods.size()) + " pending pod(s): " + s.message;
    case TimelineStep::Kind::Launch:
      return "NodeClaim " + s.node + " launched: " + s.message;
    case TimelineStep::Kind::Initialize:
      return "NodeClaim " + s.node + " initialized" + (s.message.empty() ? "" : ": " + s.message);
  }
  return "";
}

TimelineState StateAt(const SimResult& result, std::size_t step) {
  const Timeline& tl = *result.timeline;
  TimelineState st;
  st.step = std::min(step, tl.steps.size());
  std::map<std::string, std::string> bound, nominated;
  for (const auto& [node, pod] : tl.bound_at_start) bound[pod] = node;
  for (const auto& [pod, node] : tl.nominated_at_start) nominated[pod] = node;
  std::set<std::string> deleted;
  // The queue: activeQ in pass order, the others by pod; within a pass the events that happened and the moves.
  std::vector<QueuedPod> active;
  std::map<std::string, QueuedPod> others;
  std::set<std::string> happened;
  std::map<std::string, std::string> moved;
  std::map<std::string, std::vector<std::string>> waits;  // of the waiting pods: the events that would wake them
  auto drop = [&](const std::string& pod) {
    active.erase(std::remove_if(active.begin(), active.end(), [&](const QueuedPod& q) { return q.pod == pod; }),
                 active.end());
    others.erase(pod);
  };
  for (std::size_t k = 0; k < st.step; ++k) {
    const TimelineStep& s = tl.steps[k];
    st.round = s.round;
    st.pass = s.pass;
    switch (s.kind) {
      case TimelineStep::Kind::Pass:
        active.clear();
        others.clear();
        happened.clear();
        moved.clear();
        waits.clear();
        for (const auto& q : s.queue) {
          if (q.queue == QueuedPod::Queue::Active)
            active.push_back(q);
          else
            others[q.pod] = q;
          if (q.queue == QueuedPod::Queue::Unschedulable) waits[q.pod] = q.events;
        }
        break;
      case TimelineStep::Kind::Attempt:
        drop(s.pod);
        if (!s.node.empty()) {
          bound[s.pod] = s.node;
          nominated.erase(s.pod);
          happened.insert(s.events.begin(), s.events.end());
        } else if (!s.events.empty()) {
          QueuedPod q;
          q.pod = s.pod;
          q.queue = QueuedPod::Queue::Unschedulable;
          q.events = s.events;
          q.message = s.message;
          others[s.pod] = q;
          waits[s.pod] = s.events;
        }
        break;
      case TimelineStep::Kind::Preempt:
        bound.erase(s.pod);
        deleted.insert(s.pod);
        happened.insert(s.events.begin(), s.events.end());
        break;
      case TimelineStep::Kind::Nominate:
        nominated[s.pod] = s.node;
        moved[s.pod] = MoveReason(kMovePreempted);
        break;
      case TimelineStep::Kind::ClearNomination:
        nominated.erase(s.pod);
        if (!s.by.empty()) moved[s.pod] = MoveReason(kMoveNominationCleared);
        break;
      case TimelineStep::Kind::Launch:
        st.launched.push_back(s.node);
        // Its DaemonSet pods are created: activeQ, popped in the next round's first pass.
        for (const auto& pod : s.pods) {
          QueuedPod q;
          q.pod = pod;
          active.push_back(q);
        }
        break;
      case TimelineStep::Kind::Initialize:
        st.initialized.push_back(s.node);
        break;
      case TimelineStep::Kind::Round:
      case TimelineStep::Kind::Provision:
        break;
    }
    // A waiting pod an event of this pass may help, or that a move marked, goes to backoffQ (the run retries it in the
    // next pass: SchedulingQueue::Wake).
    for (auto& [pod, q] : others) {
      if (q.queue == QueuedPod::Queue::Gated) continue;
      std::vector<std::string> woken;
      for (const auto& e : waits[pod])
        if (happened.count(e)) woken.push_back(e);
      auto m = moved.find(pod);
      if (woken.empty() && m == moved.end()) continue;
      q.queue = QueuedPod::Queue::Backoff;
      q.events = std::move(woken);
      q.moved = m == moved.end() ? "" : m->second;
      q.message.clear();
    }
  }
  st.bound.assign(bound.begin(), bound.end());
  st.nominated.assign(nominated.begin(), nominated.end());
  st.deleted.assign(deleted.begin(), deleted.end());
  st.queue = std::move(active);
  for (auto queue : {QueuedPod::Queue::Backoff, QueuedPod::Queue::Unschedulable, QueuedPod::Queue::Gated})
    for (auto& [pod, q] : others)  // by pod
      if (q.queue == queue) st.queue.push_back(std::move(q));
  return st;
}

SimResult ResultAt(const SimResult& result, std::size_t step) {
  SimResult out = result;  // the timeline itself stays whole
  const Timeline& tl = *result.timeline;
  if (step >= tl.steps.size()) return out;
  const TimelineState st = StateAt(result, step);
  const std::map<std::string, std::string> bound(st.bound.begin(), st.bound.end());
  const std::map<std::string, std::string> nominated(st.nominated.begin(), st.nominated.end());
  const std::set<std::string> deleted(st.deleted.begin(), st.deleted.end());
  const std::set<std::string> launched(st.launched.begin(), st.launched.end());
  const std::set<std::string> initialized(st.initialized.begin(), st.initialized.end());

  // Replay the steps taken: attempts per pod, binds per node in order, preemptions, the rounds Karpenter ran.
  std::set<std::string> unborn;  // DaemonSet pods of NodeClaims launched later
  for (std::size_t k = step; k < tl.steps.size(); ++k)
    if (tl.steps[k].kind == TimelineStep::Kind::Launch) unborn.insert(tl.steps[k].pods.begin(), tl.steps[k].pods.end());
  std::map<std::string, std::size_t> attempts;
  std::map<std::string, std::string> failed;  // pod -> its last FailedScheduling message
  std::map<std::string, std::vector<std::string>> on_node;
  for (const auto& [node, pod] : tl.bound_at_start) on_node[node].push_back(pod);
  std::size_t binds = 0, preemptions = 0;
  std::vector<std::string> preempted;
  std::vector<std::pair<std::string, std::string>> nominations;
  std::map<int, std::size_t> round_binds;
  int provisioned = 0;
  for (std::size_t k = 0; k < step; ++k) {
    const TimelineStep& s = tl.steps[k];
    if (s.kind == TimelineStep::Kind::Attempt) {
      if (s.attempt > 0) ++attempts[s.pod];  // a pod being deleted gets no cycle (attempt 0)
      if (s.node.empty()) {
        failed[s.pod] = s.message;
        continue;
      }
      on_node[s.node].push_back(s.pod);
      ++binds;
      ++round_binds[s.round];
    } else if (s.kind == TimelineStep::Kind::Preempt) {
      auto& pods = on_node[s.node];
      pods.erase(std::remove(pods.begin(), pods.end(), s.pod), pods.end());
      preempted.push_back(s.pod);
    } else if (s.kind == TimelineStep::Kind::Nominate) {
      ++preemptions;
      auto it = std::find_if(nominations.begin(), nominations.end(), [&](const auto& n) { return n.first == s.pod; });
      if (it == nominations.end())
        nominations.emplace_back(s.pod, s.node);
      else
        it->second = s.node;
    } else if (s.kind == TimelineStep::Kind::Provision) {
      provisioned = s.round;
    }
  }

  std::erase_if(out.pods, [&](const PodResult& r) { return unborn.count(r.key) > 0; });
  for (PodResult& r : out.pods) {
    const std::size_t n = attempts.count(r.key) ? attempts.at(r.key) : 0;
    if (r.attempts.size() > n) r.attempts.resize(n);
    if (r.explanations.size() > n) r.explanations.resize(n);
    auto b = bound.find(r.key);
    // A pod bound in the input keeps its spec.nodeName (even where kube-scheduler's cluster does not hold it) until
    // preemption deletes it.
    if (!r.bound_at_start || deleted.count(r.key)) r.node = b == bound.end() ? "" : b->second;
    auto f = failed.find(r.key);
    r.unschedulable = r.node.empty() && f != failed.end() ? f->second : "";
    // A pod's own status records its nomination once its attempts have run (a pending pod nominated in the input
    // shows it after its first attempt).
    auto nm = nominated.find(r.key);
    r.nominated_node = r.node.empty() && n > 0 && nm != nominated.end() ? nm->second : "";
    if (!deleted.count(r.key)) {
      r.preempted_by.clear();
      r.preempted_from.clear();
    }
    if (r.node.empty() && !deleted.count(r.key)) r.volumes.clear();
    std::erase_if(r.karpenter, [&](const KarpenterNomination& k) { return k.round > provisioned; });
    r.node_claim = launched.count(r.node) ? r.node : "";
    r.disagreement.clear();
    r.interchangeable = false;
  }
  std::erase_if(out.nodes, [&](const NodeSummary& n) {
    for (const auto& l : result.node_claims)
      if (l.node == n.name) return launched.count(n.name) == 0;
    return false;
  });
  for (NodeSummary& n : out.nodes) n.pods = on_node[n.name];
  out.bind_order.resize(std::min(out.bind_order.size(), binds));
  out.preempted = std::move(preempted);
  out.preemptions.resize(std::min(out.preemptions.size(), preemptions));
  std::sort(nominations.begin(), nominations.end());
  out.nominations = std::move(nominations);
  out.events.resize(step == 0 ? 0 : std::min(out.events.size(), tl.steps[step - 1].events_end));
  std::erase_if(out.rounds, [&](const ClusterRound& r) { return r.round > st.round; });
  for (ClusterRound& r : out.rounds) {
    r.scheduled.resize(std::min(r.scheduled.size(), round_binds[r.round]));
    if (r.round > provisioned) {
      r.unschedulable.clear();
      r.provision.reset();
    }
    std::erase_if(r.launched, [&](const std::string& name) { return launched.count(name) == 0; });
  }
  std::erase_if(out.node_claims, [&](const LaunchedNodeClaim& l) { return launched.count(l.node) == 0; });
  out.hourly_price = 0;
  for (LaunchedNodeClaim& l : out.node_claims) {
    l.initialized = initialized.count(l.node) > 0;
    l.pods = on_node[l.node];
    out.hourly_price += l.claim.price;
  }
  out.disruption.reset();
  out.disruption_applied.reset();
  return out;
}

}  // namespace kplace::sim
