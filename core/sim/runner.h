// The run loop of scheduler and cluster modes (internal to core/sim): kube-scheduler's queue over a cluster that
// may grow, and in cluster mode the rounds that hand pending pods to Karpenter and launch its NodeClaims.
//   runner.cpp         admission, the scheduling queue's passes, one attempt per pod (bind, fail, preempt)
//   cluster_round.cpp  cluster mode: Karpenter between rounds, launching NodeClaims, disagreements at the end
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/scheduler/cluster_state.h"
#include "core/scheduler/framework/framework.h"
#include "core/scheduler/queue/scheduling_queue.h"
#include "core/scheduler/scheduler.h"
#include "core/sim/simulation.h"

namespace kplace::sim {

// A run that keeps making changes ends after this many passes (each pass binds or deletes at least one pod, so a
// scenario cannot need more than pods x 2 passes; the cap guards against a bug turning into a hang).
constexpr std::size_t kMaxPassesPerPod = 4;

// cluster mode: rounds of kube-scheduler + Karpenter. Each round that launches NodeClaims lets kube-scheduler bind
// more pods or ends the loop; the cap guards against a scenario where both keep disagreeing.
constexpr int kMaxRounds = 16;

// Fills the header every mode's result carries.
SimResult NewResult(const Scenario& sc);
void SortPodsByKey(std::vector<PodResult>& pods);
// Positions of pods in key order.
std::vector<std::uint32_t> KeyOrder(const std::vector<PodResult>& pods);
// karpenter mode (karpenter_mode.cpp).
SimResult RunKarpenter(Scenario sc, const RunOptions& options);

// scheduler and cluster modes: kube-scheduler's queue over a cluster that may grow (cluster mode launches
// Karpenter's NodeClaims as Nodes between rounds).
class Runner {
 public:
  Runner(Scenario sc, const RunOptions& options) : sc_(std::move(sc)), options_(options), result_(NewResult(sc_)) {}

  SimResult Run();
  // After Run, with keep_settled: the cluster as the run left it (each pod on the node kube-scheduler holds it on,
  // with its admitted priority; Nodes launched in the run included), as the disruption dry run sees it.
  bool keep_settled = false;
  Scenario TakeSettled() { return std::move(*settled_); }

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
  // The settled cluster (settled_), and in cluster mode with Karpenter-managed nodes in the input the disruption dry
  // run over it.
  void DisruptionDryRun();
  std::optional<Scenario> settled_;
  bool managed_input_ = false;
  // The timeline (RunOptions::record_timeline; nullptr when not recording).
  // Appends step in the current round and pass; events_end: SimResult::events up to it (default: all so far).
  void Record(TimelineStep step, std::size_t events_end = static_cast<std::size_t>(-1));
  void NewRound(int round);  // cluster mode: result_.rounds gets round (1-based)
  // The queue now: active[from..] the rest of the pass, the waiting pods that happened or a move (moved: a MoveReason
  // code per pod) sent to backoffQ, the other waiting pods, the gated ones.
  std::vector<QueuedPod> QueueNow(const std::vector<std::size_t>& active, std::size_t from,
                                  framework::ClusterEvents happened, const std::vector<std::uint8_t>& moved) const;
  Timeline* timeline_ = nullptr;
  int round_ = 0, pass_ = 0;
  std::size_t attempts_ = 0;
  bool stopped_ = false;  // RunOptions::stop_after_attempts reached
  // Why each pod of the pass is in it: the events that woke it, a move (MoveReason code); none: it is new.
  std::vector<framework::ClusterEvents> woken_by_;
  std::vector<std::uint8_t> moved_by_;
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
  // Claims and PersistentVolumes as the run left them (Reserve binds and provisions), kept across rebuilds.
  std::shared_ptr<framework::VolumeCache> volumes_;
  std::vector<std::unique_ptr<framework::Framework>> fws_;  // one per profile
  std::unique_ptr<ClusterState> cluster_;
  std::unique_ptr<Scheduler> scheduler_;
  std::vector<std::size_t> fresh_;  // pods created by the last launch (DaemonSet pods)
  std::size_t done_ = 0, todo_ = 0;
  int hostname_seq_ = 0;  // Karpenter's hostname placeholder counter, carried across rounds as upstream's is
};

}  // namespace kplace::sim
