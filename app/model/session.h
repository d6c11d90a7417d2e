// Simulation state of the playground: the scenario text and the last good result. The UI reads a Snapshot and
// never changes it; every edit of the text re-runs the core (core/io/run_text.h) and, when the text is valid, replaces
// the snapshot. While the text is invalid the old snapshot stays, marked stale.
//
// Small scenarios run at once, in the edit's frame, with every pod explained (the inspector). Larger ones ((nodes +
// instance types + 1) x pods above a threshold) are parsed here and handed to an async runner (the page's Web Worker
// running kplace-core); Complete() takes its answer when it belongs to the newest edit, so a newer edit supersedes an
// older run. While one runs, the previous snapshot stays on screen and running() is true. Texts above
// kSlicedParseBytes (an imported cluster) are not parsed at once: the runner starts at once and Tick() reads the text
// a slice per frame meanwhile; when both are done the answer lands over a few more frames (SnapshotIndexer's phases),
// so no frame waits for a whole pass over a large cluster.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "app/model/snapshot.h"
#include "core/io/incremental_parser.h"
#include "core/io/json_reader.h"
#include "core/model/scenario.h"

namespace kplace::app {

// Compare (the Compare tab): two results and what differs between them, kept up to date as the text changes.
// Pinned: A is the result on screen when Pin() was called (and its text), B every result after it. Settings: A is
// the result on screen, B the same text run under settings (`kplace run --compare SETTINGS`), again at every
// result; a scenario whose text names kplace.dev/compare settings starts such a comparison when it loads.
struct Comparison {
  bool pinned = false;
  std::string a_text;                       // pinned: A's scenario text
  std::shared_ptr<const Snapshot> a;        // pinned: A
  std::string settings;                     // settings: io::OverridesText of B's
  std::shared_ptr<const sim::SimResult> b;  // settings: the text on screen run under them
  std::optional<sim::ResultDiff> diff;      // A against B, for the snapshot on screen
  std::string error;                        // why there is no diff (B's run failed, ...)
  bool from_scenario = false;               // settings taken from the scenario's kplace.dev/compare
  std::string named;                        // ... as the scenario wrote them
};

class Session {
 public:
  // Starts a run of text in the background; its answer comes back through Complete(seq, ...).
  using AsyncRunner = std::function<void(std::uint64_t seq, const std::string& text)>;
  // Scenarios whose nodes x pods exceed threshold go to runner from now on (nullptr: everything runs at once).
  void SetAsyncRunner(AsyncRunner runner, std::size_t threshold);
  // The runner's answer: kplace-core's envelope ({"status": "success", "result": ...} or the failure). Returns
  // whether it became the snapshot (false for a superseded run or a failure, and for a large text, whose answer lands
  // in Tick).
  bool Complete(std::uint64_t seq, std::string_view envelope);
  // A run is under way in the background.
  bool running() const { return pending_ != nullptr; }
  // Texts of at least this many bytes are read a slice per frame (Tick) while the runner runs them, instead of
  // parsed at once (about 200 ms of wasm per MB: an imported cluster would freeze the page for seconds).
  static constexpr std::size_t kSlicedParseBytes = 512 * 1024;
  // Reads more of a large text, or lands its answer, for at most budget_ms (at least one step; call once per frame).
  // Returns true when that changed what is on screen: the result landed, or the text or the run failed (error()).
  bool Tick(double budget_ms);
  // How much of a large text has been read, 0..1; -1 when none is being read.
  double reading_progress() const;
  // Seconds since the background run started (0 when none).
  double running_seconds() const;

  // Explanations on demand for snapshots of background runs (they have none): the runner re-runs the snapshot's
  // text recording only pod; CompleteExplanation takes kplace_explain's envelope when it is still for the snapshot
  // on screen. A newer request supersedes an older one.
  using ExplainRunner = std::function<void(std::uint64_t seq, const std::string& text, const std::string& pod)>;
  void SetExplainRunner(ExplainRunner runner) { explain_runner_ = std::move(runner); }
  bool RequestExplanation(const std::string& pod);
  bool CompleteExplanation(std::uint64_t seq, const std::string& pod, std::string_view envelope);
  // The pod's explanation JSON (ExplanationToJson) for the snapshot on screen, nullptr when there is none yet.
  const io::Json* explanation(const std::string& pod) const;
  // The explanation of pod was asked for and has not come back.
  bool explaining(const std::string& pod) const {
    return !explaining_.empty() && explaining_ == pod && !stale_explain();
  }

  // Karpenter's disruption dry run for the snapshot on screen, from the Web Worker's core (kplace_disruption: the app
  // does not link the dry run). A background run's result already holds it; for a run in the frame it is asked for
  // once per snapshot (RequestDisruption("")), and again with a node name for that node's explanation (what-if).
  using DisruptionRunner = std::function<void(std::uint64_t seq, const std::string& text, const std::string& node)>;
  void SetDisruptionRunner(DisruptionRunner runner) { disruption_runner_ = std::move(runner); }
  // Whether the snapshot on screen has a dry run to show (Snapshot::disruption).
  bool HasDisruption() const;
  bool RequestDisruption(const std::string& node = "");
  bool CompleteDisruption(std::uint64_t seq, const std::string& node, std::string_view envelope);
  // {"disruption": {...}, "disruptionApplied": {...}} for the snapshot on screen, nullptr until it has come.
  const io::Json* disruption() const { return stale_disruption() || disruption_.is_null() ? nullptr : &disruption_; }
  // The explanation of node (`kplace run --explain node/NAME --format json`; null: no such node), nullptr until asked
  // for and come.
  const io::Json* node_explanation(const std::string& node) const;
  // What is asked for and has not come: "" (the dry run) or a node name; nullptr when nothing is.
  const std::string* disruption_asked() const {
    return stale_disruption() || !disruption_asking_ ? nullptr : &disruption_asked_;
  }

  // The next result is of another scenario (a preset picked), not an edit: it records no Changes.
  void NewDocument() { new_document_ = true; }

  // Replaces the text and re-runs. Returns whether the text ran (or, when running(), is running).
  bool SetText(std::string text);
  // Re-runs the current text (after the editor changed it in place).
  bool Rerun();

  std::string& text() { return text_; }
  const std::string& text() const { return text_; }
  const Snapshot* snapshot() const { return snapshot_.get(); }
  const std::string& error() const { return error_; }
  // The snapshot on screen does not belong to the current text (the text is invalid).
  bool stale() const { return snapshot_ && snapshot_->generation != generation_ && !pending_; }
  std::uint64_t generation() const { return generation_; }

  // What the snapshot on screen changed against the one before it (Snapshot::changes); nullptr when it has none.
  const sim::ResultDiff* changes() const { return snapshot_ && snapshot_->changes ? &*snapshot_->changes : nullptr; }

  // Compare (the Compare tab): see Comparison above.
  using Comparison = app::Comparison;
  const Comparison* comparison() const { return comparison_ ? &*comparison_ : nullptr; }
  // A = the snapshot on screen. False when there is none.
  bool Pin();
  // B = the text on screen under settings ("mode=karpenter,kubernetesVersion=1.33": io::ParseOverrides). False, with
  // the settings' error in *error, when they do not parse.
  bool CompareWith(const std::string& settings, std::string* error = nullptr);
  void StopComparing() {
    if (comparison_ && comparison_->from_scenario) stopped_named_ = comparison_->named;
    comparison_.reset();
    ++diffs_version_;
  }
  // Changes whenever the snapshot's changes or the comparison do (the UI rebuilds what it derives from them).
  std::uint64_t diffs_version() const { return diffs_version_; }

  // The timeline (the result's, recorded by runs in the frame in kube-scheduler's modes): the snapshot on screen as it
  // stood after `step` steps (sim::ResultAt), built once per snapshot and step. The snapshot itself when it has no
  // timeline or step is its last.
  const Snapshot* SnapshotAt(std::size_t step);

  // Undo of direct edits: the text before each one (most recent last, at most kUndoDepth).
  void PushUndo();
  std::optional<std::string> PopUndo();
  bool can_undo() const { return !undo_.empty(); }

 private:
  std::string text_;
  std::string error_;
  std::uint64_t generation_ = 0;
  std::shared_ptr<const Snapshot> snapshot_;  // shared with a pinned comparison
  std::optional<Comparison> comparison_;
  std::string stopped_named_;
  std::uint64_t diffs_version_ = 0;
  bool new_document_ = false;  // the scenario's kplace.dev/compare settings whose comparison was stopped by hand
  // Recomputes the comparison's diff for the snapshot on screen (and runs B under its settings).
  void UpdateComparison();
  // Puts snap on screen; compare: record its changes against the snapshot it replaces (Snapshot::changes).
  void Show(std::unique_ptr<Snapshot> snap, bool compare);
  std::vector<std::string> undo_;
  std::unique_ptr<Snapshot> step_snapshot_;  // SnapshotAt's: of step_ steps of step_of_
  const Snapshot* step_of_ = nullptr;
  std::uint64_t step_generation_ = 0;
  std::size_t step_ = 0;
  // The runner's answer becoming the snapshot: its document and the snapshot indexed from it.
  struct Landing {
    io::Json doc;
    std::unique_ptr<Snapshot> snapshot;
    std::unique_ptr<SnapshotIndexer> indexer;
  };
  struct Pending {
    std::uint64_t generation = 0;
    Scenario scenario;
    std::chrono::steady_clock::time_point start;
    // A large text is read (parser), freed (read) and landed (landing) a step per Tick; envelope waits meanwhile.
    bool sliced = false;
    std::unique_ptr<io::IncrementalScenarioParser> parser;  // still being read, else null
    std::unique_ptr<io::IncrementalScenarioParser> read;    // read, to be freed
    std::optional<std::string> envelope;                    // the runner's answer
    std::unique_ptr<Landing> landing;
  };
  // Starts landing envelope into pending_ (false, with error() and pending_ reset: the run failed); FinishLanding makes
  // the indexed snapshot the one on screen.
  bool BeginLanding(std::string_view envelope);
  void FinishLanding();
  std::unique_ptr<Pending> pending_;
  bool stale_explain() const { return !snapshot_ || explain_generation_ != snapshot_->generation; }
  ExplainRunner explain_runner_;
  std::string explaining_;                // pod asked for, "" when none
  std::uint64_t explain_generation_ = 0;  // snapshot the explanations belong to
  std::unordered_map<std::string, io::Json> explanations_;
  bool stale_disruption() const { return !snapshot_ || disruption_generation_ != snapshot_->generation; }
  // Forgets what belongs to an older snapshot.
  void ResetDisruption();
  DisruptionRunner disruption_runner_;
  std::uint64_t disruption_generation_ = 0;  // snapshot the dry run belongs to
  io::Json disruption_;                      // null until it comes
  std::unordered_map<std::string, io::Json> node_explanations_;
  bool disruption_asking_ = false;
  std::string disruption_asked_;
  AsyncRunner runner_;
  std::size_t async_threshold_ = 0;
};

}  // namespace kplace::app
