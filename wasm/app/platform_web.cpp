// The browser seam: GLFW (Emscripten's built-in port) + WebGL2, the frame loop, devicePixelRatio handling, fonts,
// the clipboard glue and the functions the web shell (web/kplace.js) calls. Every browser quirk lives here.
//
// Pixels: the canvas's CSS size comes from the page; each frame the backing store is set to CSS size x
// devicePixelRatio and ImGui works in device pixels (Emscripten's GLFW reports the mouse in backing-store pixels).
// Fonts are rasterised at size x devicePixelRatio and the style is scaled by it, so text stays crisp at DPR 1, 2, 3
// and sizes (in font units) keep their CSS size. A DPR change (zoom, another screen) rebuilds fonts and style.
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "nlohmann/json.hpp"
#include "wasm/app/json_text.h"
#include "wasm/app/presets.h"
#include "wasm/app/session.h"
#include "wasm/app/theme.h"
#include "wasm/app/ui.h"

namespace {

constexpr float kUiFontCssPx = 15.0f;
constexpr float kMonoFontCssPx = 14.0f;
constexpr const char* kCanvas = "#canvas";
// The content height reported to the page (CSS pixels) is clamped to these: an embed's iframe is never smaller
// than a usable view nor longer than a docs page wants (large clusters scroll inside the cluster view).
constexpr int kMinContentCssPx = 320;
constexpr int kMaxContentCssPx = 1600;
// Scenarios with more (nodes + instance types + 1) x pods than this run in the page's Web Worker
// (web/kplace-worker.js), not in the frame.
constexpr std::size_t kAsyncThreshold = 20000;

struct Web {
  GLFWwindow* window = nullptr;
  std::vector<unsigned char> sans, mono;  // TTF bytes (owned here; the atlas only borrows them)
  float scale = 0;                        // devicePixelRatio the fonts and style were built for
  std::uint64_t notified = 0;             // generation of the snapshot the page was last told about (onResult)
  int frames = 0;                         // frames drawn so far
  int content_height = 0;                 // the last frame's content height in CSS pixels (0 before the first)
  std::string clipboard;                  // last text copied in the app or pasted into the page
  kplace::app::Session session;
  kplace::app::UiState ui;
};
Web* web = nullptr;

// clang-format off
EM_JS(void, JsWriteClipboard, (const char* text), {
  const s = UTF8ToString(text);
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(s).catch(() => {});
});
EM_JS(void, JsNotifyResult, (), {
  if (Module["onKplaceResult"]) Module["onKplaceResult"]();
});
EM_JS(void, JsRunInBackground, (int seq, const char* text), {
  if (Module["onKplaceRunAsync"]) Module["onKplaceRunAsync"](seq, UTF8ToString(text));
});
EM_JS(void, JsExplainInBackground, (int seq, const char* text, const char* pod), {
  if (Module["onKplaceExplainAsync"]) Module["onKplaceExplainAsync"](seq, UTF8ToString(text), UTF8ToString(pod));
});
EM_JS(void, JsNotifyHeight, (int height), {
  if (Module["onKplaceHeight"]) Module["onKplaceHeight"](height);
});
EM_JS(int, JsIsApple, (), {
  return /Mac|iPhone|iPad|iPod/.test(navigator.platform || "") ? 1 : 0;
});
// clang-format on

const char* GetClipboard(void*) { return web->clipboard.c_str(); }
void SetClipboard(void*, const char* text) {
  web->clipboard = text;
  JsWriteClipboard(text);
}

void BuildFonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  // Latin-1, general punctuation (dashes, ellipsis), arrows, check marks. The site's fonts are subset to these
  // (wasm/CMakeLists.txt KPLACE_FONT_UNICODES): widen both together.
  static const ImWchar kRanges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF, 0x2713, 0x2717, 0};
  ImFontConfig cfg;
  cfg.FontDataOwnedByAtlas = false;
  cfg.OversampleH = 2;
  auto add = [&](std::vector<unsigned char>& ttf, float css_px) -> ImFont* {
    if (ttf.empty()) {
      ImFontConfig def;
      def.SizePixels = std::round(13.0f * scale);
      return io.Fonts->AddFontDefault(&def);
    }
    return io.Fonts->AddFontFromMemoryTTF(ttf.data(), static_cast<int>(ttf.size()), std::round(css_px * scale), &cfg,
                                          kRanges);
  };
  kplace::app::GetFonts().ui = add(web->sans, kUiFontCssPx);
  kplace::app::GetFonts().mono = add(web->mono, kMonoFontCssPx);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

// Backing store in device pixels; returns its size.
ImVec2 SyncCanvas(float dpr) {
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  const int w = std::max(1, static_cast<int>(std::lround(css_w * dpr)));
  const int h = std::max(1, static_cast<int>(std::lround(css_h * dpr)));
  int cur_w = 0, cur_h = 0;
  emscripten_get_canvas_element_size(kCanvas, &cur_w, &cur_h);
  if (cur_w != w || cur_h != h) emscripten_set_canvas_element_size(kCanvas, w, h);
  return ImVec2(static_cast<float>(w), static_cast<float>(h));
}

// Tells the page (window.kplace.onResult) about a new result, whoever caused it: the editor, a preset, the API.
void NotifyIfNew() {
  const kplace::app::Snapshot* snap = web->session.snapshot();
  if (!snap || snap->generation == web->notified) return;
  web->notified = snap->generation;
  JsNotifyResult();
}

// Tells the page (embeds post it to their parent) when the height the content needs changed: after the frame that
// laid out a new scenario, a new width or a folded / unfolded editor, never before.
void NotifyHeightIfChanged(float dpr) {
  const float css = web->ui.content_need / (dpr > 0 ? dpr : 1);
  const int height = std::clamp(static_cast<int>(std::ceil(css)), kMinContentCssPx, kMaxContentCssPx);
  if (height == web->content_height) return;
  web->content_height = height;
  JsNotifyHeight(height);
}

void Frame() {
  const auto dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
  const ImVec2 size = SyncCanvas(dpr);
  if (dpr != web->scale) {
    web->scale = dpr;
    BuildFonts(dpr);
    kplace::app::ApplyStyle(dpr);
  }

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = size;  // GLFW's idea of the window size is stale: the canvas size is the truth
  // A slow frame (a busy machine, software WebGL) must not turn a short key press into an auto-repeat: ImGui 1.86
  // samples keys once per frame and repeats after KeyRepeatDelay of accumulated DeltaTime.
  io.DeltaTime = std::min(io.DeltaTime, 0.1f);
  io.DisplayFramebufferScale = ImVec2(1, 1);
  ImGui::NewFrame();
  ImGui::PushFont(kplace::app::GetFonts().ui);
  kplace::app::DrawApp(web->session, web->ui);
  ImGui::PopFont();
  ImGui::Render();

  glViewport(0, 0, static_cast<int>(size.x), static_cast<int>(size.y));
  glClearColor(0.106f, 0.114f, 0.137f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  NotifyIfNew();
  ++web->frames;
  NotifyHeightIfChanged(dpr);
}

}  // namespace

extern "C" {

// Starts the app on the page's #canvas with the UI and editor fonts (TTF bytes, copied). Returns 0 when WebGL2 or
// GLFW is unavailable.
int kplace_app_start(const unsigned char* sans, int sans_len, const unsigned char* mono, int mono_len) {
  if (web) return 1;
  web = new Web;
  if (sans && sans_len > 0) web->sans.assign(sans, sans + sans_len);
  if (mono && mono_len > 0) web->mono.assign(mono, mono + mono_len);

  if (!glfwInit()) return 0;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  const float dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  web->window = glfwCreateWindow(std::max(1, static_cast<int>(css_w * dpr)), std::max(1, static_cast<int>(css_h * dpr)),
                                 "kplace", nullptr, nullptr);
  if (!web->window) return 0;
  glfwMakeContextCurrent(web->window);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no files in the browser; layout lives in UiState
  io.LogFilename = nullptr;
  io.ConfigMacOSXBehaviors = JsIsApple() != 0;
  ImGui_ImplGlfw_InitForOpenGL(web->window, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  // Emscripten's GLFW has no clipboard: the app keeps its own, mirrored to navigator.clipboard on copy and filled
  // from the page's paste events (kplace_app_paste).
  io.SetClipboardTextFn = SetClipboard;
  io.GetClipboardTextFn = GetClipboard;
  io.ClipboardUserData = nullptr;

  web->session.SetAsyncRunner(
      [](std::uint64_t seq, const std::string& text) { JsRunInBackground(static_cast<int>(seq), text.c_str()); },
      kAsyncThreshold);
  web->session.SetExplainRunner([](std::uint64_t seq, const std::string& text, const std::string& pod) {
    JsExplainInBackground(static_cast<int>(seq), text.c_str(), pod.c_str());
  });

  const int preset = kplace::app::DefaultPreset();
  if (preset >= 0) kplace::app::LoadPreset(web->session, web->ui, preset);
  NotifyIfNew();
  emscripten_set_main_loop(Frame, 0, false);
  return 1;
}

// window.kplace.load(text): replaces the scenario and re-runs. Returns 1 when it ran, 0 on an input error, 2 when
// it runs in the background (the result comes through onResult).
int kplace_app_load(const char* text) {
  if (!web) return 0;
  const std::string_view view = text ? text : "";
  const auto& presets = kplace::app::Presets();
  web->ui.preset = -1;  // text from elsewhere, unless it is a preset's
  for (std::size_t i = 0; i < presets.size(); ++i)
    if (view == presets[i].text) web->ui.preset = static_cast<int>(i);
  web->ui.preset_edited = false;
  const bool ok = kplace::app::ReplaceText(web->session, web->ui, std::string(view));
  NotifyIfNew();
  return !ok ? 0 : web->session.running() ? 2 : 1;
}

// The Web Worker's answer to run seq (kplace-core's envelope). Returns 1 when it became the result on screen.
int kplace_app_complete(int seq, const char* envelope) {
  if (!web || !envelope) return 0;
  const bool ok = web->session.Complete(static_cast<std::uint64_t>(seq), envelope);
  NotifyIfNew();
  return ok ? 1 : 0;
}

// The Web Worker's answer to an explanation request (kplace_explain's envelope) for snapshot seq.
int kplace_app_explained(int seq, const char* pod, const char* envelope) {
  if (!web || !pod || !envelope) return 0;
  return web->session.CompleteExplanation(static_cast<std::uint64_t>(seq), pod, envelope) ? 1 : 0;
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

// The last good result (exactly `kplace run --format json`), "" before the first.
const char* kplace_app_result() {
  return web && web->session.snapshot() ? web->session.snapshot()->result_json.c_str() : "";
}

// The current input error, "" when the text ran.
const char* kplace_app_error() { return web ? web->session.error().c_str() : ""; }

// 1 when the result on screen belongs to an older text (the current one has an error).
int kplace_app_stale() { return web && web->session.stale() ? 1 : 0; }

// window.kplace.setMode(m): sets the Simulation's spec.mode in the text (nothing else changes) and re-runs.
int kplace_app_set_mode(const char* mode) {
  if (!web || !mode) return 0;
  auto text = kplace::app::json_text::WithMode(web->session.text(), mode);
  if (!text) return 0;
  if (*text != web->session.text()) web->session.PushUndo();
  const bool ok = kplace::app::ReplaceText(web->session, web->ui, std::move(*text));
  NotifyIfNew();
  return ok ? 1 : 0;
}

// The page's paste event: what the next Ctrl+V / Cmd+V in the app inserts.
void kplace_app_paste(const char* text) {
  if (web && text) web->clipboard = text;
}

// Selects a pod in the inspector ("" clears).
void kplace_app_select(const char* pod) {
  if (web) web->ui.selected_pod = pod ? pod : "";
}

// The pod selected in the inspector, "" when none (share links and autosave carry it).
const char* kplace_app_selected() { return web ? web->ui.selected_pod.c_str() : ""; }

// Embedded in another page (?embed=1): the cluster view and inspector first, the editor folded (a button in the
// top bar brings it back). editable is the page's business (it reverts edits of read-only embeds).
void kplace_app_set_embed(int editable) {
  if (!web) return;
  (void)editable;
  web->ui.embed = true;
  web->ui.editor_collapsed = true;
  web->ui.fit_cluster = true;
}

// The height in CSS pixels that shows the top bar, every card of the cluster view at the current width and an
// inspector below it, as laid out by the last frame (clamped to 320..1600; 0 before the first frame). It does not
// depend on the canvas's height, so an iframe resized to it keeps it. Embeds post it to their parent page.
int kplace_app_content_height() { return web ? web->content_height : 0; }

// Frames drawn so far: lets tests hold a key for exactly one frame (ImGui 1.86 samples key state per frame).
int kplace_app_frames() { return web ? web->frames : 0; }

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
