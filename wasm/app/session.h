// Simulation state of the playground: the scenario text and the last good result. The UI reads a Snapshot and
// never changes it; every edit of the text re-runs the core (wasm/engine.h) and, when the text is valid, replaces
// the snapshot. While the text is invalid the old snapshot stays, marked stale.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/model/resource.h"
#include "core/model/scenario.h"
#include "core/sim/simulation.h"

namespace kplace::app {

enum class PodStatus : std::uint8_t { Scheduled, Pending, Gated, BoundAtStart, Preempted, Terminal };

// Display data of one pod, derived once per run.
struct PodView {
  std::string key;
  std::string name;   // without the namespace
  std::string owner;  // "Deployment/web", the app label, or the pod name: what chips are coloured by
  PodStatus status = PodStatus::Pending;
  const sim::PodResult* result = nullptr;
  const Pod* pod = nullptr;  // nullptr if the scenario has no such pod object
  Resource requests;         // what the pod occupies (framework PodRequests)
};

struct NodeView {
  const Node* node = nullptr;
  std::vector<int> pods;  // indices into Snapshot::pods, in bind order
  Resource requested;     // sum of the pods' requests
};

// One run of the core over one text. Immutable once built; internal pointers point into its own members.
struct Snapshot {
  Scenario scenario;  // as parsed, DaemonSet pods expanded (admission), before scheduling
  sim::SimResult result;
  std::string result_json;  // exactly `kplace run --format json`
  std::vector<NodeView> nodes;
  std::vector<PodView> pods;  // sorted by key
  std::vector<int> unplaced;  // Pending, Gated and Preempted pods
  std::unordered_map<std::string, int> pod_index;
  double run_ms = 0;
  std::uint64_t generation = 0;  // which edit of the text produced it

  int FindPod(const std::string& key) const;
};

class Session {
 public:
  // Replaces the text and re-runs. Returns whether the text ran.
  bool SetText(std::string text);
  // Re-runs the current text (after the editor changed it in place).
  bool Rerun();

  std::string& text() { return text_; }
  const std::string& text() const { return text_; }
  const Snapshot* snapshot() const { return snapshot_.get(); }
  const std::string& error() const { return error_; }
  // The snapshot on screen does not belong to the current text (the text is invalid).
  bool stale() const { return snapshot_ && snapshot_->generation != generation_; }
  std::uint64_t generation() const { return generation_; }

 private:
  std::string text_;
  std::string error_;
  std::uint64_t generation_ = 0;
  std::unique_ptr<const Snapshot> snapshot_;
};

}  // namespace kplace::app
