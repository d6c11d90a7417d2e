// Runs a scenario: admission, the scheduling queue and kube-scheduler cycles until nothing changes. The result
// records where every pod went and why.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/karpenter/result.h"
#include "core/model/scenario.h"
#include "core/scheduler/explanation.h"

namespace kplace::sim {

struct PodAttempt {
  int attempt = 0;
  std::string node;     // "" when the attempt failed
  std::string message;  // FailedScheduling message of a failed attempt
};

struct PodResult {
  std::string key;             // namespace/name
  std::string generated_from;  // e.g. "Deployment/web", "" for pods given as Pod items
  std::int32_t priority = 0;
  bool bound_at_start = false;                // spec.nodeName was set in the input
  std::string node;                           // where it runs (or ran from the start)
  std::string unschedulable;                  // last FailedScheduling message when not placed
  std::vector<std::string> scheduling_gates;  // non-empty: never entered the queue
  std::vector<PodAttempt> attempts;
  std::string nominated_node;                  // status.nominatedNodeName at the end (pending pods only)
  std::string preempted_by;                    // set when preemption deleted this pod: the preemptor's key
  std::string preempted_from;                  // the node it was deleted from
  std::vector<CycleExplanation> explanations;  // one per attempt, only for explained pods
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
  std::string reason;  // Scheduled, FailedScheduling, Preempted, Nominated
  std::string pod;     // the involved pod's key
  std::string message;
};

struct NodeSummary {
  std::string name;
  std::vector<std::string> pods;  // keys, in bind order
};

struct SimResult {
  Mode mode = Mode::Cluster;
  std::uint64_t seed = 0;
  int kubernetes_minor = 35;
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
};

struct RunOptions {
  bool explain_all = false;
  std::set<std::string> explain;  // pod keys to record explanations for
};

// Throws io::InputError for scenarios that cannot run (missing PriorityClass, unsupported mode, ...).
SimResult Run(Scenario scenario, const RunOptions& options = {});

}  // namespace kplace::sim
