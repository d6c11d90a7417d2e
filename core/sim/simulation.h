// Runs a scenario: admission, the scheduling queue and kube-scheduler cycles until nothing changes. The result
// records where every pod went and why.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/karpenter/disruption/dry_run.h"
#include "core/karpenter/result.h"
#include "core/model/scenario.h"
#include "core/scheduler/explanation.h"
#include "core/sim/timeline.h"

namespace kplace::sim {

struct PodAttempt {
  int attempt = 0;
  std::string node;     // "" when the attempt failed
  std::string message;  // FailedScheduling message of a failed attempt
};

// cluster mode: what Karpenter decided for a pod kube-scheduler left pending, in one round.
struct KarpenterNomination {
  int round = 0;       // 1-based cluster round
  std::string target;  // "nodeclaim/<name>" or "node/<name>"; "" when Karpenter did not place the pod
  std::string node;    // the Node the target is or became (a NodeClaim's node name); "" when none
  // Karpenter's own error when it could not place the pod, or why it ignored it / did not consider it.
  std::string reason;
  std::vector<std::string> relaxations;  // relaxation steps logged during the final attempt
  // Where its volumes let it run (karpenter::PodOutcome::volume_requirements): one requirement string per alternative.
  std::vector<std::string> volume_requirements;
};

// A claim of a placed pod and the PersistentVolume it is bound to once the pod is placed.
struct VolumeUse {
  std::string claim;
  std::string volume;
  bool provisioned = false;  // the PV was created in this run for the pod's node (WaitForFirstConsumer)
};

struct PodResult {
  std::string key;             // namespace/name
  std::string generated_from;  // e.g. "Deployment/web", "" for pods given as Pod items
  std::int32_t priority = 0;
  bool bound_at_start = false;                // spec.nodeName was set in the input
  std::string terminal_phase;                 // "Succeeded" / "Failed" when the input pod was terminal (not written)
  std::string node;                           // where it runs (or ran from the start)
  std::string unschedulable;                  // last FailedScheduling message when not placed
  std::vector<std::string> scheduling_gates;  // non-empty: never entered the queue
  // spec.schedulerName when it names no simulated profile: kube-scheduler leaves the pod to that scheduler.
  std::string other_scheduler;
  // The profile (its schedulerName) that schedules the pod; set only when the configuration has several profiles.
  std::string profile;
  std::vector<PodAttempt> attempts;
  std::string nominated_node;                  // status.nominatedNodeName at the end (pending pods only)
  std::string preempted_by;                    // set when preemption deleted this pod: the preemptor's key
  std::string preempted_from;                  // the node it was deleted from
  std::vector<CycleExplanation> explanations;  // one per attempt, only for explained pods
  std::vector<VolumeUse> volumes;              // placed pods: their claims (pod volume order) and PVs
  // cluster mode only:
  std::vector<KarpenterNomination> karpenter;  // one per round in which Karpenter considered the pod
  std::string node_claim;                      // the launched NodeClaim whose Node the pod runs on
  // Non-empty when Karpenter's last nomination differs from where kube-scheduler finally put the pod (or the pod
  // stayed pending): a one-line explanation.
  std::string disagreement;
  // The disagreement only swapped pods of one workload: every node holds as many of them as Karpenter planned.
  bool interchangeable = false;
};

// One successful preemption: the preemptor, the node it was nominated to and the pods deleted there.
struct Preemption {
  std::string preemptor;
  int attempt = 0;  // the preemptor's attempt whose PostFilter preempted
  std::string node;
  std::vector<std::string> victims;  // most important first
  std::vector<std::string> cleared_nominations;
};

// A kubectl-describe-like event (upstream reasons and messages; "Nominated" records a nominatedNodeName change).
struct Event {
  std::string type;    // Normal, Warning
  std::string reason;  // Scheduled, FailedScheduling, Preempted, Nominated, Launched, Initialized
  std::string pod;     // the involved pod's key ("" when the object is not a pod)
  std::string message;
  std::string source;  // the reporting component: "" = default-scheduler, "karpenter"
  std::string object;  // the involved object when it is not a pod, e.g. "NodeClaim/default-0"
};

// cluster mode: a NodeClaim Karpenter launched, and the Node it became.
struct LaunchedNodeClaim {
  int round = 0;
  karpenter::ClaimOutcome claim;  // as Karpenter decided it (name, type, zone, capacity type, price, pods)
  std::string node;               // the Node's name (the NodeClaim's name)
  // startupTaints the Node registered with; they are removed once it initialises, before kube-scheduler binds.
  std::vector<Taint> startup_taints;
  std::vector<std::string> daemon_pods;  // DaemonSet pods created for the Node
  std::vector<std::string> pods;         // every pod kube-scheduler bound to it, in bind order
  // Its Node is ready for pods (startupTaints removed). Always at the end of a run; ResultAt shows one launched and
  // not yet initialised (not written).
  bool initialized = true;
};

// cluster mode: one turn of the loop: kube-scheduler places what it can, the pods it leaves Unschedulable go to
// Karpenter, Karpenter's NodeClaims launch as Nodes (which the next round's kube-scheduler sees).
struct ClusterRound {
  int round = 0;                               // 1-based
  std::vector<std::string> scheduled;          // pods kube-scheduler bound in this round, in bind order
  std::vector<std::string> unschedulable;      // pods left pending after it (Karpenter's input)
  std::optional<karpenter::Result> provision;  // Karpenter's run (absent when nothing was pending)
  std::vector<std::string> launched;           // NodeClaims launched from it
};

struct NodeSummary {
  std::string name;
  std::vector<std::string> pods;  // keys, in bind order
};

// spec.karpenter.applyDisruption: one disruption command applied to the cluster.
struct DisruptionStepPod {
  std::string pod;      // key
  std::string from;     // the disrupted node
  std::string planned;  // where Karpenter's simulation put it (a node; a replacement by its Node's name); "" none
  std::string node;     // where kube-scheduler bound it; "" when it stayed pending or was deleted
  // Why it is not where Karpenter planned: kube-scheduler's choice, pending (with its message), or deleted (a pod
  // no controller re-creates); "" when it agrees.
  std::string disagreement;
};

struct DisruptionStep {
  karpenter::disruption::Command command;  // as the dry run before it decided
  std::vector<std::string> launched;       // the replacements' Nodes
  std::vector<std::string> deleted;        // the disrupted Nodes
  std::vector<DisruptionStepPod> pods;     // the evicted pods, by key
  // NodeClaims Karpenter's provisioning launched during the step for pods kube-scheduler could not place.
  std::vector<std::string> provisioned;
  // What the orchestration queue publishes executing it (disruption/queue.go, events.go): DisruptionLaunching and
  // DisruptionWaitingReadiness on each replacement's NodeClaim, then DisruptionTerminating on each Node and its
  // NodeClaim.
  std::vector<karpenter::Event> events;
  double hourly = 0;  // the cluster's price per hour after the step
};

// "This cluster after consolidation": the commands applied in turn to the settled cluster, until the dry run finds
// nothing more to do (or the cap).
struct DisruptionApplied {
  double hourly_before = 0;  // Σ node prices (first offering of each Node's type, zone, capacity type) before
  double hourly_after = 0;
  std::vector<DisruptionStep> steps;
  std::vector<NodeSummary> nodes;  // the cluster after the last step
  std::string stopped;             // why the loop ended
};

struct SimResult {
  Mode mode = Mode::Cluster;
  std::uint64_t seed = 0;
  int kubernetes_minor = kDefaultMinor;
  std::vector<PodResult> pods;     // sorted by key
  std::vector<NodeSummary> nodes;  // snapshot order
  std::vector<std::string> warnings;
  // Scheduling order: pod keys in the order their successful cycles ran.
  std::vector<std::string> bind_order;
  std::vector<std::string> preempted;  // victims in deletion order
  std::vector<Preemption> preemptions;
  // Pods preemption nominated during the run -> their last nominated node.
  std::vector<std::pair<std::string, std::string>> nominations;
  std::vector<Event> events;
  // karpenter mode: Karpenter's decisions (pods placed, NodeClaims, reasons); pods[] then mirrors them.
  std::optional<karpenter::Result> karpenter;
  // cluster mode with NodePools: the loop's rounds and the NodeClaims launched (round order).
  std::vector<ClusterRound> rounds;
  std::vector<LaunchedNodeClaim> node_claims;
  double hourly_price = 0;  // of the launched NodeClaims
  // What the parser made of an imported dump (shown when ImportSummary::Noteworthy()).
  ImportSummary import;
  // karpenter and cluster modes, when the input has nodes Karpenter manages: its disruption controller's dry run
  // over the cluster as the run leaves it (karpenter mode: as given, with the provisioning round's nominations).
  std::optional<karpenter::disruption::Report> disruption;
  // cluster mode with spec.karpenter.applyDisruption: the dry run's commands applied until nothing more.
  std::optional<DisruptionApplied> disruption_applied;
  // scheduler and cluster modes with RunOptions::record_timeline: the run step by step.
  std::optional<Timeline> timeline;
};

// Karpenter's disruption dry run (karpenter::disruption::DryRun): over a cluster, with the nodes provisioning
// nominated pods to.
using DisruptionDryRun = karpenter::disruption::Report (*)(const Scenario&, const std::set<std::string>&,
                                                           const std::vector<std::string>&);

struct RunOptions;
// spec.karpenter.applyDisruption (sim::ApplyDisruption): the first run's disruption commands applied to its settled
// cluster in turn. A pointer for the same reason as DisruptionDryRun.
using DisruptionApplier = DisruptionApplied (*)(Scenario settled, const SimResult& first, const RunOptions& options);

struct RunOptions {
  bool explain_all = false;
  std::set<std::string> explain;  // pod keys to record explanations for
  // Called now and then with (pods done, pods to do) scheduling attempts; the total can grow (retries, rounds).
  std::function<void(std::size_t, std::size_t)> progress;
  // The disruption dry run to add to karpenter and cluster runs of clusters Karpenter manages (SimResult::disruption),
  // or none. A pointer the caller passes, not a flag: the page's app, which does not show the dry run yet, links
  // without its code (43 KB of gzip of the page's 1.5 MB budget); the CLI and the core API pass DryRun.
  DisruptionDryRun disruption = nullptr;
  // With disruption: what applies its commands when the scenario asks (sim::ApplyDisruption), or none.
  DisruptionApplier apply_disruption = nullptr;
  // Nodes the disruption dry run explains (karpenter::disruption::Report::explained): `kplace run --explain node/X`.
  std::vector<std::string> explain_nodes;
  // scheduler and cluster modes: record SimResult::timeline.
  bool record_timeline = false;
  // scheduler and cluster modes: stop before the scheduling attempt after this many (0: run to the end). The result
  // is the cluster as it stood then (what ResultAt rebuilds from a whole run's timeline); with record_timeline the
  // timeline records the queue as the run held it (Timeline::stopped_queue).
  std::size_t stop_after_attempts = 0;
};

// cluster mode, spec.karpenter.applyDisruption: first's disruption commands applied to the settled cluster in turn,
// each followed by a cluster run, until none is left (apply_disruption.cpp).
DisruptionApplied ApplyDisruption(Scenario settled, const SimResult& first, const RunOptions& options);

// Throws InputError for scenarios that cannot run (missing PriorityClass, unsupported mode, ...).
SimResult Run(Scenario scenario, const RunOptions& options = {});

}  // namespace kplace::sim
