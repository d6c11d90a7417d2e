// The functions the web shell (web/kplace.js and its modules) calls on the app: window.kplace's load, text, result,
// setMode, select, direct edits and undo, the Web Worker's answers, the embed's height, the test targets. Each
// takes and gives plain C data; the app behind them is wasm/app_backend.h.
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/model/json_text.h"
#include "app/model/presets.h"
#include "app/ui/ui.h"
#include "core/io/compare.h"
#include "core/io/result_writer.h"
#include "nlohmann/json.hpp"
#include "wasm/app_backend.h"

using kplace::webapp::NotifyIfNew;
using kplace::webapp::Wake;
using kplace::webapp::web;

namespace {

// A setMode-like edit of the text (nullopt: the text has no place for it): one undo step, then the run.
int ApplySimulationEdit(std::optional<std::string> text) {
  Wake();
  if (!text) return 0;
  if (*text != web->session.text()) web->session.PushUndo();
  const bool ok = kplace::app::ReplaceText(web->session, web->ui, std::move(*text));
  NotifyIfNew();
  return ok ? 1 : 0;
}

// Texts the page is copying into the app's heap (kplace_app_stage), by their bytes' address.
std::vector<std::unique_ptr<std::string>>& Staged() {
  static std::vector<std::unique_ptr<std::string>> staged;
  return staged;
}

// The staged text whose bytes start at data, or nullptr.
std::string* FindStaged(const char* data) {
  for (const auto& t : Staged())
    if (t->data() == data) return t.get();
  return nullptr;
}

int LoadText(std::string text) {
  Wake();
  const auto& presets = kplace::app::Presets();
  web->ui.preset = -1;  // text from elsewhere, unless it is a preset's
  for (std::size_t i = 0; i < presets.size(); ++i)
    if (text == presets[i].text) web->ui.preset = static_cast<int>(i);
  web->ui.preset_edited = false;
  const bool ok = kplace::app::ReplaceText(web->session, web->ui, std::move(text));
  NotifyIfNew();
  return !ok ? 0 : web->session.running() ? 2 : 1;
}

}  // namespace

extern "C" {

// Starts the app on the page's #canvas with the UI and editor fonts (TTF bytes, copied). Returns 0 when WebGL2 or
// GLFW is unavailable.
int kplace_app_start(const unsigned char* sans, int sans_len, const unsigned char* mono, int mono_len) {
  return kplace::webapp::Start(sans, sans_len, mono, mono_len) ? 1 : 0;
}

// window.kplace.load(text): replaces the scenario and re-runs. Returns 1 when it ran, 0 on an input error, 2 when
// it runs in the background (the result comes through onResult).
int kplace_app_load(const char* text) {
  if (!web) return 0;
  return LoadText(text ? text : "");
}

// A text of `size` UTF-8 bytes the page writes into the app's heap itself (an imported cluster's tens of MB, a slice
// per task) and then loads with kplace_app_load_staged, which takes the buffer over: no copy, no scan for its end.
// Returns where to write (nullptr when out of memory); before writing a slice the page calls kplace_app_stage_grow,
// which makes the text that many bytes longer (zeroed: the first touch of fresh memory is slow too, so a slice at a
// time as well).
char* kplace_app_stage(double size) {
  try {
    auto text = std::make_unique<std::string>();
    text->reserve(static_cast<std::size_t>(size));
    char* data = text->data();
    Staged().push_back(std::move(text));
    return data;
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

// Grows the staged text at data by `bytes` (within the size it was staged with). Returns 0 when data is not a staged
// text or the size would be passed.
int kplace_app_stage_grow(char* data, double bytes) {
  std::string* text = FindStaged(data);
  const auto more = static_cast<std::size_t>(bytes);
  if (!text || text->capacity() - text->size() < more) return 0;
  text->resize(text->size() + more);
  return 1;
}

// Loads the staged text at data as kplace_app_load does (0 as well when data is not a staged text); unstage: frees
// it instead (the page gave up on it).
int kplace_app_load_staged(char* data, int unstage) {
  std::string* staged = FindStaged(data);
  if (!staged) return 0;
  std::string text = std::move(*staged);
  std::erase_if(Staged(), [staged](const auto& t) { return t.get() == staged; });
  if (unstage || !web) return 0;
  return LoadText(std::move(text));
}

// The Web Worker's answer to run seq (kplace-core's envelope). Returns 1 when it became the result on screen.
int kplace_app_complete(int seq, const char* envelope) {
  if (!web || !envelope) return 0;
  Wake();
  const bool ok = web->session.Complete(static_cast<std::uint64_t>(seq), envelope);
  NotifyIfNew();
  return ok ? 1 : 0;
}

// The Web Worker's answer to an explanation request (kplace_explain's envelope) for snapshot seq.
int kplace_app_explained(int seq, const char* pod, const char* envelope) {
  if (!web || !pod || !envelope) return 0;
  Wake();
  return web->session.CompleteExplanation(static_cast<std::uint64_t>(seq), pod, envelope) ? 1 : 0;
}

// The Web Worker's answer to a disruption request (kplace_disruption's envelope) for snapshot seq.
int kplace_app_disrupted(int seq, const char* node, const char* envelope) {
  if (!web || !node || !envelope) return 0;
  Wake();
  return web->session.CompleteDisruption(static_cast<std::uint64_t>(seq), node, envelope) ? 1 : 0;
}

// Karpenter's disruption dry run for the snapshot on screen (JSON text), with node's explanation as "node" when node
// is not "" and it has come; "" when the dry run has not come.
const char* kplace_app_disruption(const char* node) {
  static std::string json;
  json.clear();
  const kplace::io::Json* d = web ? web->session.disruption() : nullptr;
  if (!d) return json.c_str();
  kplace::io::Json doc = *d;
  if (node && *node)
    if (const kplace::io::Json* x = web->session.node_explanation(node)) doc["node"] = *x;
  json = doc.dump();
  return json.c_str();
}

// The on-demand explanation of pod (JSON text) for the snapshot on screen, "" when there is none.
const char* kplace_app_explanation(const char* pod) {
  static std::string json;
  const kplace::io::Json* ex = web && pod ? web->session.explanation(pod) : nullptr;
  json = ex ? ex->dump() : "";
  return json.c_str();
}

// 1 while a run is under way in the Web Worker.
int kplace_app_running() { return web && web->session.running() ? 1 : 0; }

// A direct edit, as the UI makes it: kind is "taintEffect" (effect "" cycles), "removeTaint", "cordon",
// "uncordon" or "addToleration" (tolerate taint of node for pod). Returns 1 when the text changed.
int kplace_app_edit(const char* kind, const char* node, int taint, const char* effect, const char* pod) {
  if (!web || !kind || !node || taint < 0) return 0;
  Wake();
  using Kind = kplace::app::Edit::Kind;
  const std::string_view k = kind;
  Kind kk;
  if (k == "taintEffect") {
    kk = Kind::TaintEffect;
  } else if (k == "removeTaint") {
    kk = Kind::RemoveTaint;
  } else if (k == "cordon") {
    kk = Kind::Cordon;
  } else if (k == "uncordon") {
    kk = Kind::Uncordon;
  } else if (k == "addToleration") {
    kk = Kind::AddToleration;
  } else {
    return 0;
  }
  const kplace::app::Edit edit{kk, node, static_cast<std::size_t>(taint), effect ? effect : "", pod ? pod : ""};
  const bool ok = kplace::app::ApplyEdit(web->session, web->ui, edit);
  NotifyIfNew();
  return ok ? 1 : 0;
}

// Undoes the last direct edit. Returns 1 when there was one.
int kplace_app_undo() {
  if (!web) return 0;
  Wake();
  const bool ok = kplace::app::UndoEdit(web->session, web->ui);
  NotifyIfNew();
  return ok ? 1 : 0;
}

// The last frame's clickable edit targets in CSS pixels: {"taint:gpu-1:0": [x0, y0, x1, y1], ...}.
const char* kplace_app_targets() {
  static std::string json;
  nlohmann::json out = nlohmann::json::object();
  const float s = web && web->scale > 0 ? web->scale : 1;
  if (web)
    for (const auto& [name, r] : web->ui.targets) out[name] = {r.x0 / s, r.y0 / s, r.x1 / s, r.y1 / s};
  json = out.dump();
  return json.c_str();
}

// Loads presets/<name>.json as the picker does. Returns 0 for an unknown name.
int kplace_app_load_preset(const char* name) {
  if (!web || !name) return 0;
  Wake();
  const auto& presets = kplace::app::Presets();
  for (std::size_t i = 0; i < presets.size(); ++i) {
    if (presets[i].name != name) continue;
    kplace::app::LoadPreset(web->session, web->ui, static_cast<int>(i));
    NotifyIfNew();
    return 1;
  }
  return 0;
}

const char* kplace_app_text() { return web ? web->session.text().c_str() : ""; }

// Its size in bytes (UTF-8), without copying it out.
double kplace_app_text_bytes() { return web ? static_cast<double>(web->session.text().size()) : 0; }

// The last good result (exactly `kplace run --format json`), "" before the first.
const char* kplace_app_result() {
  return web && web->session.snapshot() ? web->session.snapshot()->result_json.c_str() : "";
}

// What the result on screen changed against the one before it (`kplace diff --format json`'s document without the
// sides' names), "" when it has no record of that (the first result, an imported cluster).
const char* kplace_app_changes() {
  static std::string json;
  json.clear();
  const kplace::sim::ResultDiff* d = web ? web->session.changes() : nullptr;
  if (d) json = kplace::io::DiffText(*d, {}, {});
  return json.c_str();
}

// The comparison (Session::comparison) as `kplace diff --format json` prints it, its sides named by what they are
// ("pinned" / "on screen", or "as it is" / the settings) plus "error" when there is no diff; "" when none.
const char* kplace_app_comparison() {
  static std::string json;
  json.clear();
  const kplace::app::Session::Comparison* c = web ? web->session.comparison() : nullptr;
  if (!c) return json.c_str();
  kplace::io::DiffSide a, b;
  a.source = c->pinned ? "pinned" : "as it is";
  b.source = c->pinned ? "on screen" : c->from_scenario ? "scenario" : "settings";
  if (!c->pinned) b.settings = c->settings;
  if (c->diff) {
    json = kplace::io::DiffText(*c->diff, a, b);
  } else {
    json =
        nlohmann::json{
            {"a", {{"source", a.source}}}, {"b", {{"settings", b.settings}, {"source", b.source}}}, {"error", c->error}}
            .dump();
  }
  return json.c_str();
}

// Pins the result on screen as A (1), compares under settings (1, or 0 with the settings' error in
// kplace_app_compare_error), stops comparing.
int kplace_app_pin() {
  Wake();
  return web && web->session.Pin() ? 1 : 0;
}
int kplace_app_compare(const char* settings) {
  Wake();
  if (!web || !settings) return 0;
  web->ui.compare_error.clear();
  return web->session.CompareWith(settings, &web->ui.compare_error) ? 1 : 0;
}
// The pinned comparison's A text (share links carry it), "" when none is pinned.
const char* kplace_app_pinned_text() {
  const kplace::app::Session::Comparison* c = web ? web->session.comparison() : nullptr;
  return c && c->pinned ? c->a_text.c_str() : "";
}
const char* kplace_app_compare_error() { return web ? web->ui.compare_error.c_str() : ""; }
void kplace_app_stop_comparing() {
  Wake();
  if (web) web->session.StopComparing();
}

// The run step by step (Timeline tab): `kplace run --timeline --format json`'s "timeline" plus "step", the step the
// cluster view shows (the number of steps for the whole run); "" when the result on screen has no timeline (karpenter
// mode, a run in the background).
const char* kplace_app_timeline() {
  static std::string json;
  json.clear();
  const kplace::app::Snapshot* snap = web ? web->session.snapshot() : nullptr;
  if (!snap || !snap->result.timeline) return json.c_str();
  const std::size_t n = snap->result.timeline->steps.size();
  const int at = web->ui.timeline_step;
  kplace::io::JsonWriter w(json);
  kplace::io::WriteTimeline(w, *snap->result.timeline, at < 0 || static_cast<std::size_t>(at) > n ? n : at);
  return json.c_str();
}

// The cluster and the queue after step steps (sim::StateAt): {"bound", "deleted", "description", "initialized",
// "launched", "nominated", "of", "pass", "queue", "round", "step"}; "" without a timeline.
const char* kplace_app_timeline_at(int step) {
  static std::string json;
  json.clear();
  const kplace::app::Snapshot* snap = web ? web->session.snapshot() : nullptr;
  if (!snap || !snap->result.timeline) return json.c_str();
  const auto& steps = snap->result.timeline->steps;
  const std::size_t at = step < 0 ? steps.size() : static_cast<std::size_t>(step);
  const kplace::sim::TimelineState st = kplace::sim::StateAt(snap->result, at);
  kplace::io::JsonWriter w(json);
  w.BeginObject();
  w.Key("bound").BeginObject();
  for (const auto& [pod, node] : st.bound) w.Member(pod, node);
  w.EndObject();
  w.Member("deleted", st.deleted);
  w.Member("description", st.step > 0 ? kplace::sim::DescribeStep(steps[st.step - 1]) : "");
  w.Member("initialized", st.initialized);
  w.Member("launched", st.launched);
  w.Key("nominated").BeginObject();
  for (const auto& [pod, node] : st.nominated) w.Member(pod, node);
  w.EndObject();
  w.Member("of", steps.size());
  w.Member("pass", st.pass);
  kplace::io::WriteQueue(w.Key("queue"), st.queue);
  w.Member("round", st.round);
  w.Member("step", st.step);
  w.EndObject();
  return json.c_str();
}

// Shows the cluster after step steps (negative or past the last: the whole run). Returns 0 without a timeline.
int kplace_app_set_step(int step) {
  Wake();
  const kplace::app::Snapshot* snap = web ? web->session.snapshot() : nullptr;
  if (!snap || !snap->result.timeline) return 0;
  web->ui.timeline_step = step < 0 || static_cast<std::size_t>(step) >= snap->result.timeline->steps.size() ? -1 : step;
  if (step >= 0) web->ui.select_tab = "timeline";
  return 1;
}

// The current input error, "" when the text ran.
const char* kplace_app_error() { return web ? web->session.error().c_str() : ""; }

// 1 when the result on screen belongs to an older text (the current one has an error).
int kplace_app_stale() { return web && web->session.stale() ? 1 : 0; }

// window.kplace.setMode(m): sets the Simulation's spec.mode in the text (nothing else changes) and re-runs.
int kplace_app_set_mode(const char* mode) {
  if (!web || !mode) return 0;
  return ApplySimulationEdit(kplace::app::json_text::WithMode(web->session.text(), mode));
}

// window.kplace.setKubernetesVersion(v): sets the Simulation's spec.kubernetesVersion in the text and re-runs.
int kplace_app_set_kubernetes_version(const char* version) {
  if (!web || !version) return 0;
  return ApplySimulationEdit(kplace::app::json_text::WithKubernetesVersion(web->session.text(), version));
}

// The page's paste event: what the next Ctrl+V / Cmd+V in the app inserts.
void kplace_app_paste(const char* text) {
  Wake();
  if (web && text) web->clipboard = text;
}

// Selects a pod in the inspector ("" clears).
void kplace_app_select(const char* pod) {
  Wake();
  if (web) web->ui.selected_pod = pod ? pod : "";
}

// The pod selected in the inspector, "" when none (share links and autosave carry it).
const char* kplace_app_selected() { return web ? web->ui.selected_pod.c_str() : ""; }

// Embedded in another page (?embed=1): the cluster view and inspector first, the editor folded (a button in the
// top bar brings it back). editable is the page's business (it reverts edits of read-only embeds).
void kplace_app_set_embed(int editable) {
  if (!web) return;
  Wake();
  (void)editable;
  web->ui.embed = true;
  web->ui.editor_collapsed = true;
  web->ui.fit_cluster = true;
}

// The height in CSS pixels that shows the top bar, every card of the cluster view at the current width and an
// inspector below it, as laid out by the last frame (clamped to 320..1600; 0 before the first frame). It does not
// depend on the canvas's height, so an iframe resized to it keeps it. Embeds post it to their parent page.
int kplace_app_content_height() { return web ? web->content_height : 0; }

// Frames drawn so far: lets tests hold a key for exactly one frame (ImGui 1.86 samples key state per frame). With
// `rendered`, those of them the renderer drew (a frame where nothing changed leaves the canvas as it is).
int kplace_app_frames(int rendered) { return web ? (rendered ? web->rendered : web->frames) : 0; }

// Draws the whole of the next frame, not only what changed since the last one (tests compare the two).
void kplace_app_redraw() {
  if (!web) return;
  web->renderer.Forget();
  kplace::webapp::Wake();
}

// Milliseconds spent drawing those frames: the app's own work (its layout, draw lists and WebGL calls), not the
// browser's rendering. Over a span, (work1 - work0) / (frames1 - frames0) is the app's cost per frame.
double kplace_app_frame_work() { return web ? web->frame_ms : 0; }

// The presets as JSON: [{"name", "title", "description"}].
const char* kplace_app_presets() {
  static std::string json;
  if (json.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : kplace::app::Presets())
      list.push_back({{"name", p.name}, {"title", p.title}, {"description", p.description}});
    json = list.dump();
  }
  return json.c_str();
}

}  // extern "C"
