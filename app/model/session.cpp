#include "app/model/session.h"

#include <chrono>
#include <utility>

#include "core/io/compare.h"
#include "core/io/incremental_parser.h"
#include "core/io/result_writer.h"
#include "core/io/run_text.h"
#include "core/io/scenario_parser.h"

namespace kplace::app {
namespace {

// What the editor shows for a text that does not parse: the InputError (it names the item and the JSON path), or a
// bug of kplace's.
std::string ParseErrorText(const std::exception& e) {
  if (dynamic_cast<const io::InputError*>(&e)) return e.what();
  return std::string("internal error: ") + e.what();
}

std::string StringAt(const io::Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A failure envelope's first error message, else fallback.
std::string FailureMessage(const io::Json& doc, const char* fallback) {
  if (doc.is_object() && doc.contains("errors") && doc["errors"].is_array() && !doc["errors"].empty())
    return StringAt(doc["errors"][0], "message");
  return fallback;
}

// The dry run's members of a result (what the Disruption tab reads): disruption, disruptionApplied.
io::Json DisruptionOf(io::Json& result) {
  io::Json out = io::Json::object();
  for (const char* key : {"disruption", "disruptionApplied"})
    if (result.contains(key)) out[key] = std::move(result[key]);
  return out;
}

}  // namespace

void Session::PushUndo() {
  constexpr std::size_t kUndoDepth = 64;
  if (undo_.size() >= kUndoDepth) undo_.erase(undo_.begin());
  undo_.push_back(text_);
}

std::optional<std::string> Session::PopUndo() {
  if (undo_.empty()) return std::nullopt;
  std::string text = std::move(undo_.back());
  undo_.pop_back();
  return text;
}

bool Session::SetText(std::string text) {
  pending_.reset();  // its parser reads text_ in place
  text_ = std::move(text);
  return Rerun();
}

bool Session::Rerun() {
  ++generation_;
  pending_.reset();  // a background run of an older text is superseded: its answer will be dropped
  const auto start = std::chrono::steady_clock::now();
  // A large text (an imported cluster) runs in the background at once; this side reads it a slice per frame
  // (Tick), so the page keeps drawing, and shows the result when both are done.
  if (runner_ && text_.size() >= kSlicedParseBytes) {
    error_.clear();
    pending_ = std::make_unique<Pending>();
    pending_->generation = generation_;
    pending_->start = start;
    pending_->parser = std::make_unique<io::IncrementalScenarioParser>(text_);
    pending_->sliced = true;
    runner_(generation_, text_);
    return true;
  }
  // Parse first: an input error shows at once, and the scenario's size decides where the run happens.
  Scenario scenario;
  try {
    scenario = io::ParseScenario(text_);
  } catch (const std::exception& e) {
    error_ = ParseErrorText(e);
    return false;
  }
  error_.clear();
  // Candidates per pod: the nodes, and the instance types Karpenter may launch (a Karpenter scenario can start
  // with no node at all).
  const std::size_t work = (scenario.nodes.size() + scenario.instance_types.size() + 1) * scenario.pods.size();
  if (runner_ && work > async_threshold_) {
    pending_ = std::make_unique<Pending>();
    pending_->generation = generation_;
    pending_->scenario = std::move(scenario);
    pending_->start = start;
    runner_(generation_, text_);
    return true;
  }

  // Every pod explained (the inspector), and the run step by step (the Timeline tab; kube-scheduler's modes).
  sim::RunOptions options;
  options.explain_all = true;
  options.record_timeline = scenario.simulation.mode != Mode::Karpenter;
  io::Outcome out = io::RunScenario(std::move(scenario), std::move(options), /*keep_scenario=*/true);
  if (!out.ok) {
    error_ = out.error;
    return false;
  }
  auto snap = std::make_unique<Snapshot>();
  snap->scenario = std::move(out.scenario);
  snap->result = std::move(out.result);
  {
    // result_json is what `kplace run --format json` prints: without the timeline (`--timeline` adds it).
    auto timeline = std::move(snap->result.timeline);
    snap->result.timeline.reset();
    snap->result_json = io::ResultText(snap->result);
    snap->result.timeline = std::move(timeline);
  }
  IndexSnapshot(*snap);
  snap->run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  snap->generation = generation_;
  Show(std::move(snap), /*compare=*/true);
  return true;
}

void Session::Show(std::unique_ptr<Snapshot> snap, bool compare) {
  if (compare && snapshot_ && !new_document_) snap->changes = sim::Compare(snapshot_->result, snap->result);
  new_document_ = false;
  snapshot_ = std::move(snap);
  // A scenario that names settings to compare under starts (or moves) that comparison; a pinned one is kept.
  // It ends with a text that no longer names them; stopped by hand, it stays stopped for those settings.
  const std::string& named = snapshot_->scenario.simulation.compare;
  if (named.empty()) stopped_named_.clear();
  if (comparison_ && comparison_->from_scenario && named.empty()) comparison_.reset();
  const bool restart = !comparison_ || (comparison_->from_scenario && comparison_->named != named);
  if (!named.empty() && named != stopped_named_ && restart && CompareWith(named)) {
    comparison_->from_scenario = true;
    comparison_->named = named;
    return;  // CompareWith updated it
  }
  UpdateComparison();
}

const Snapshot* Session::SnapshotAt(std::size_t step) {
  const Snapshot* snap = snapshot_.get();
  if (!snap || !snap->result.timeline || step >= snap->result.timeline->steps.size()) return snap;
  if (step_snapshot_ && step_of_ == snap && step_generation_ == snap->generation && step_ == step)
    return step_snapshot_.get();
  auto at = std::make_unique<Snapshot>();
  at->scenario = Scenario(snap->scenario);  // not the copy assignment (run_text.cpp says why)
  at->result = sim::ResultAt(snap->result, step);
  at->explained = snap->explained;
  at->generation = snap->generation;
  at->run_ms = snap->run_ms;
  IndexSnapshot(*at);
  step_snapshot_ = std::move(at);
  step_of_ = snap;
  step_generation_ = snap->generation;
  step_ = step;
  return step_snapshot_.get();
}

bool Session::Pin() {
  if (!snapshot_) return false;
  comparison_.emplace();
  comparison_->pinned = true;
  comparison_->a = snapshot_;
  comparison_->a_text = text_;
  UpdateComparison();
  return true;
}

bool Session::CompareWith(const std::string& settings, std::string* error) {
  SimulationOverrides o;
  try {
    io::ParseOverrides(settings, o);
  } catch (const io::InputError& e) {
    if (error) *error = e.what();
    return false;
  }
  comparison_.emplace();
  comparison_->settings = io::OverridesText(o);
  UpdateComparison();
  return true;
}

void Session::UpdateComparison() {
  ++diffs_version_;
  if (!comparison_ || !snapshot_) return;
  Comparison& c = *comparison_;
  c.diff.reset();
  c.error.clear();
  if (c.pinned) {
    c.diff = sim::Compare(c.a->result, snapshot_->result);
    return;
  }
  c.b.reset();
  // B runs here, in the frame: only for scenarios that run in the frame themselves (a background run's scenario is too
  // large to run twice per edit on the page's thread).
  if (!snapshot_->explained) {
    c.error = "This scenario runs in the background: compare it under " + c.settings + " with `kplace diff --b " +
              c.settings + " FILE`.";
    return;
  }
  io::ParseOptions options;
  io::ParseOverrides(c.settings, options.overrides);
  Scenario scenario;
  try {
    scenario = io::ParseScenario(text_, options);
  } catch (const std::exception& e) {
    c.error = "B (" + c.settings + "): " + ParseErrorText(e);
    return;
  }
  io::Outcome out = io::RunScenario(std::move(scenario), sim::RunOptions{}, /*keep_scenario=*/false);
  if (!out.ok) {
    c.error = "B (" + c.settings + "): " + out.error;
    return;
  }
  c.b = std::make_shared<const sim::SimResult>(std::move(out.result));
  c.diff = sim::Compare(snapshot_->result, *c.b);
}

void Session::SetAsyncRunner(AsyncRunner runner, std::size_t threshold) {
  runner_ = std::move(runner);
  async_threshold_ = threshold;
}

double Session::running_seconds() const {
  if (!pending_) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - pending_->start).count();
}

bool Session::Complete(std::uint64_t seq, std::string_view envelope) {
  // Superseded by a newer edit, or answered already.
  if (!pending_ || pending_->generation != seq || pending_->envelope || pending_->landing) return false;
  if (pending_->sliced) {  // a large text: read and landed a step per frame (Tick)
    pending_->envelope = std::string(envelope);
    return false;
  }
  if (!BeginLanding(envelope)) return false;
  while (!pending_->landing->indexer->Step()) {
  }
  FinishLanding();
  return true;
}

double Session::reading_progress() const {
  if (!pending_ || !pending_->parser) return -1;
  const io::IncrementalScenarioParser& parser = *pending_->parser;
  return parser.total() == 0 ? 0 : static_cast<double>(parser.done()) / static_cast<double>(parser.total());
}

bool Session::Tick(double budget_ms) {
  if (!pending_) return false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(budget_ms);
  if (pending_->parser) {
    constexpr std::size_t kItemsPerClockCheck = 32;
    try {
      while (!pending_->parser->Step(kItemsPerClockCheck))
        if (std::chrono::steady_clock::now() >= deadline) return false;
    } catch (const std::exception& e) {
      error_ = ParseErrorText(e);
      pending_.reset();  // the background run's answer will be dropped
      return true;
    }
    pending_->scenario = pending_->parser->Take();
    pending_->read = std::move(pending_->parser);  // freed on the next tick (a long step for a large text)
    return false;
  }
  // Each of these is a step of its own: for an imported cluster each takes a good part of a frame.
  if (pending_->read) {
    pending_->read.reset();
    return false;
  }
  if (!pending_->landing) {
    if (!pending_->envelope) return false;  // the background run has not answered yet
    const std::string envelope = std::move(*pending_->envelope);
    return !BeginLanding(envelope);  // a failure is shown at once
  }
  while (!pending_->landing->indexer->Step())  // a phase per clock check
    if (std::chrono::steady_clock::now() >= deadline) return false;
  FinishLanding();
  return true;
}

bool Session::BeginLanding(std::string_view envelope) {
  auto landing = std::make_unique<Landing>();
  landing->doc = io::Json::parse(envelope, nullptr, /*allow_exceptions=*/false);
  const io::Json& doc = landing->doc;
  if (!doc.is_object() || StringAt(doc, "status") != "success" || !doc.contains("result")) {
    error_ = FailureMessage(doc, "the background run failed");
    pending_.reset();
    return false;
  }
  landing->snapshot = std::make_unique<Snapshot>();
  landing->snapshot->scenario = std::move(pending_->scenario);
  io::Json& result = landing->doc["result"];
  landing->snapshot->result_json = io::Dump(result);
  landing->indexer = std::make_unique<SnapshotIndexer>(*landing->snapshot, &result);
  pending_->landing = std::move(landing);
  return true;
}

void Session::FinishLanding() {
  std::unique_ptr<Pending> pending = std::move(pending_);
  std::unique_ptr<Snapshot> snap = std::move(pending->landing->snapshot);
  snap->explained = false;
  // The Web Worker's core ran the dry run with the result.
  io::Json disruption = DisruptionOf(pending->landing->doc["result"]);
  snap->run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pending->start).count();
  snap->generation = pending->generation;
  Show(std::move(snap), /*compare=*/!pending->sliced);
  if (disruption.contains("disruption")) {
    ResetDisruption();
    disruption_ = std::move(disruption);
  }
}

bool Session::RequestExplanation(const std::string& pod) {
  // Only the text that produced the snapshot can be explained (not an edited or pending one).
  if (!explain_runner_ || !snapshot_ || snapshot_->generation != generation_ || pending_) return false;
  if (explain_generation_ != snapshot_->generation) {
    explanations_.clear();
    explain_generation_ = snapshot_->generation;
  }
  if (explanations_.count(pod) || explaining_ == pod) return false;
  explaining_ = pod;
  explain_runner_(snapshot_->generation, text_, pod);
  return true;
}

bool Session::CompleteExplanation(std::uint64_t seq, const std::string& pod, std::string_view envelope) {
  if (stale_explain() || seq != explain_generation_ || pod != explaining_) return false;
  explaining_.clear();
  io::Json doc = io::Json::parse(envelope, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("explanations") || !doc["explanations"].is_object() ||
      !doc["explanations"].contains(pod))
    return false;
  explanations_[pod] = std::move(doc["explanations"][pod]);
  return true;
}

bool Session::HasDisruption() const { return snapshot_ && snapshot_->disruption; }

void Session::ResetDisruption() {
  if (!snapshot_ || disruption_generation_ == snapshot_->generation) return;
  disruption_generation_ = snapshot_->generation;
  disruption_ = io::Json();
  node_explanations_.clear();
  disruption_asking_ = false;
  disruption_asked_.clear();
}

bool Session::RequestDisruption(const std::string& node) {
  // Only the text that produced the snapshot (not an edited or pending one); one question at a time.
  if (!disruption_runner_ || !snapshot_ || snapshot_->generation != generation_ || pending_ || !HasDisruption())
    return false;
  ResetDisruption();
  if (disruption_asking_) return false;
  if (node.empty() ? !disruption_.is_null() : node_explanations_.count(node) > 0) return false;
  disruption_asking_ = true;
  disruption_asked_ = node;
  disruption_runner_(snapshot_->generation, text_, node);
  return true;
}

bool Session::CompleteDisruption(std::uint64_t seq, const std::string& node, std::string_view envelope) {
  if (stale_disruption() || seq != disruption_generation_ || !disruption_asking_ || node != disruption_asked_)
    return false;
  disruption_asking_ = false;
  disruption_asked_.clear();
  io::Json doc = io::Json::parse(envelope, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || StringAt(doc, "status") != "success" || !doc.contains("result")) {
    // Said in the tab (and not asked again for this snapshot).
    if (disruption_.is_null()) disruption_ = io::Json{{"error", FailureMessage(doc, "the background dry run failed")}};
    return true;
  }
  if (disruption_.is_null()) disruption_ = DisruptionOf(doc["result"]);
  if (!node.empty()) node_explanations_[node] = doc.contains("node") ? std::move(doc["node"]) : io::Json();
  return true;
}

const io::Json* Session::node_explanation(const std::string& node) const {
  if (stale_disruption()) return nullptr;
  auto it = node_explanations_.find(node);
  return it == node_explanations_.end() ? nullptr : &it->second;
}

const io::Json* Session::explanation(const std::string& pod) const {
  if (stale_explain()) return nullptr;
  auto it = explanations_.find(pod);
  return it == explanations_.end() ? nullptr : &it->second;
}

}  // namespace kplace::app
