// What the playground draws from: one run of the core over one text (the scenario as parsed and its result) and
// the display data derived from it once (pods per node, requests, statuses, event rows). Immutable once built; the
// panels (app/ui) read it and never change it. A run in the frame gives the result itself; a background run (the
// page's Web Worker) gives its result JSON, read by core/io/result_reader.h and joined with the scenario here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/io/json_reader.h"
#include "core/model/resource.h"
#include "core/model/scenario.h"
#include "core/sim/compare.h"
#include "core/sim/simulation.h"

namespace kplace::app {

// OnNewClaim: karpenter mode, Karpenter put the pod on a NodeClaim it would launch (no Node exists yet).
// OtherScheduler: pending, and its spec.schedulerName names no profile of kube-scheduler (another scheduler's pod).
enum class PodStatus : std::uint8_t {
  Scheduled,
  Pending,
  Gated,
  BoundAtStart,
  Preempted,
  Terminal,
  OnNewClaim,
  OtherScheduler
};

// Display data of one pod, derived once per run.
struct PodView {
  std::string key;
  std::string name;   // without the namespace
  std::string owner;  // "Deployment/web", the app label, or the pod name: what chips are coloured by
  PodStatus status = PodStatus::Pending;
  const sim::PodResult* result = nullptr;
  const Pod* pod = nullptr;  // nullptr if the scenario has no such pod object
  Resource requests;         // what the pod occupies (framework PodRequests)
  // karpenter mode: Karpenter's outcome for the pod; the ghost claim it was put on (index into Snapshot::claims).
  const karpenter::PodOutcome* karpenter = nullptr;
  int claim = -1;
};

struct NodeView {
  const Node* node = nullptr;
  std::vector<int> pods;  // indices into Snapshot::pods, in bind order
  Resource requested;     // sum of the pods' requests
  // cluster mode: the NodeClaim Karpenter launched that became this Node (its Node object is synthesised from the
  // claim for display: Snapshot::launched_nodes).
  const sim::LaunchedNodeClaim* launched = nullptr;
};

// karpenter mode: a NodeClaim Karpenter would launch (drawn as a ghost card holding its pods).
struct ClaimView {
  const karpenter::ClaimOutcome* claim = nullptr;
  std::vector<int> pods;  // indices into Snapshot::pods, in Karpenter's add order
  Resource allocatable;   // of the Node it would become (sim::NodeForClaim); zero when the catalogue lacks its type
};

// One row of the Events panel: the run's events (cluster mode: kube-scheduler's and Karpenter's), then, in karpenter
// mode, Karpenter's decisions in its event wording.
struct EventRow {
  const sim::Event* event = nullptr;
  bool karpenter = false;  // reported by Karpenter (Event::source)
  std::string object;      // "pod/<name>", "NodeClaim/<name>", "NodePool/<name>", ...
};

// One run of the core over one text. Immutable once built; internal pointers point into its own members.
struct Snapshot {
  // As parsed, DaemonSet pods expanded (admission), before scheduling. cluster mode: plus the Node each launched
  // NodeClaim became (sim::NodeForClaim; item_index -1: not in the text, so no direct edits) and its DaemonSet pods.
  Scenario scenario;
  sim::SimResult result;
  std::string result_json;  // exactly `kplace run --format json`
  std::vector<NodeView> nodes;
  std::vector<PodView> pods;  // sorted by key (FindPod searches it)
  std::vector<int> unplaced;  // Pending, Gated and Preempted pods
  // Pods by status, for the top bar: Scheduled; Pending, Gated or another scheduler's; on a NodeClaim to launch.
  int placed = 0, pending = 0, on_claims = 0;
  std::unordered_map<std::string, int> node_index;  // name -> index into nodes
  std::vector<ClaimView> claims;                    // karpenter mode: the NodeClaims to launch
  std::vector<sim::Event> karpenter_events;         // derived from Karpenter's records (see EventRow)
  std::vector<EventRow> events;
  double run_ms = 0;
  bool explained = true;  // every pod's explanation was recorded (false for runs in the background)
  // karpenter or cluster mode over a cluster Karpenter manages: Karpenter's disruption controller has something to
  // say (the Disruption tab; Session::disruption).
  bool disruption = false;
  std::uint64_t generation = 0;  // which edit of the text produced it
  // What this result changed against the snapshot on screen before it (the edit diff: pods moved, placed, left
  // pending, NodeClaims, cost; an undo shows the reverse). None for the first result, and for a text read a slice per
  // frame (an imported cluster: comparing it with the preset before it says nothing).
  std::optional<sim::ResultDiff> changes;

  int FindPod(const std::string& key) const;
  int FindNode(const std::string& name) const;
  // Karpenter's provisioning runs: the karpenter-mode result, or each cluster round's (nullptr / empty when none).
  const karpenter::Result* karpenter() const { return result.karpenter ? &*result.karpenter : nullptr; }
  bool has_karpenter() const { return result.karpenter.has_value() || !result.rounds.empty(); }
};

// Derives the views from s.scenario (as parsed) and s.result (a run in the frame), or, given result_json (a background
// run's `kplace run --format json`), from s.scenario and that document: s.result is then rebuilt from it.
void IndexSnapshot(Snapshot& s, const io::Json* result_json = nullptr);

// IndexSnapshot a step at a time (a background run of a large cluster lands over several frames: Session::Tick): each
// step a bounded slice of one phase's pass over the pods or the nodes (at most items_per_step of them), so no step
// of a 150,000-pod cluster holds a frame. s and result_json stay where they are until it is done.
class SnapshotIndexer {
 public:
  static constexpr std::size_t kItemsPerStep = 4096;
  static constexpr std::size_t kAllAtOnce = std::size_t{1} << 24;  // the most a step takes
  SnapshotIndexer(Snapshot& s, const io::Json* result_json, std::size_t items_per_step = kItemsPerStep);
  ~SnapshotIndexer();
  // Runs the next step; returns true once the snapshot is complete (and from then on).
  bool Step();

 private:
  struct State;
  // The current phase's next step (first: its first); true when the phase is done.
  static bool RunPhase(State& st, bool first);
  static bool IndexPods(State& st, bool first);
  static bool IndexNodes(State& st, bool first);
  static bool KarpenterPods(State& st);
  std::unique_ptr<State> state_;
};
// Fills Snapshot::karpenter_events and events (karpenter_events.cpp).
void IndexEvents(Snapshot& s);

}  // namespace kplace::app
