// The browser backend: GLFW (Emscripten's built-in port) + WebGL2, the frame loop, devicePixelRatio handling, fonts,
// the clipboard glue and the calls into the page (result, height, background runs). Every browser quirk lives here
// (the functions the page calls are in app_exports.cpp).
//
// Pixels: the canvas's CSS size comes from the page; each frame the backing store is set to CSS size x
// devicePixelRatio and ImGui works in device pixels (Emscripten's GLFW reports the mouse in backing-store pixels).
// Fonts are rasterised at size x devicePixelRatio and the style is scaled by it, so text stays crisp at DPR 1, 2, 3
// and sizes (in font units) keep their CSS size. A DPR change (zoom, another screen) rebuilds fonts and style.
#include "wasm/app_backend.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "app/model/presets.h"
#include "app/ui/pane_backdrop.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "imgui.h"
#include "imgui_impl_glfw.h"

namespace kplace::webapp {

App* web = nullptr;

namespace {

constexpr float kUiFontCssPx = 15.0f;
constexpr float kMonoFontCssPx = 14.0f;
constexpr const char* kCanvas = "#canvas";
// The content height reported to the page (CSS pixels) is clamped to these: an embed's iframe is never smaller
// than a usable view nor longer than a docs page wants (large clusters scroll inside the cluster view).
constexpr int kMinContentCssPx = 320;
constexpr int kMaxContentCssPx = 1600;
// Frames are drawn on demand: after input (GLFW's callbacks), a call from the page (Wake), a canvas resize, while a
// mouse button or key is held or a text field has the keyboard, and for kSettleFrames after any of these (ImGui
// settles hover states and sizes over a frame or two); every kRunningMs while a run goes (its progress), reading the
// large text it runs (Session::Tick) for kReadMs in the animation frames between; otherwise one frame every kRestMs.
// A page at rest then costs no rendering (the browser shows the last frame), which on a small machine leaves the
// cores to the Web Worker and to reading, and on a laptop saves the battery.
constexpr int kSettleFrames = 4;
constexpr double kRestMs = 500;
constexpr double kRunningMs = 250;
constexpr double kReadMs = 40;
// Scenarios with more (nodes + instance types + 1) x pods than this run in the page's Web Worker
// (web/kplace-worker.js), not in the frame.
constexpr std::size_t kAsyncThreshold = 20000;

// clang-format off
EM_JS(void, JsWriteClipboard, (const char* text), {
  const s = UTF8ToString(text);
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(s).catch(() => {});
});
EM_JS(void, JsNotifyResult, (), {
  if (Module["onKplaceResult"]) Module["onKplaceResult"]();
});
// The text as a function: the page may already hold it as a string (kplace.load's), and a 67 MB copy out of wasm
// memory costs the frame a quarter of a second. Valid only during the call.
EM_JS(void, JsRunInBackground, (int seq, const char* text), {
  if (Module["onKplaceRunAsync"]) Module["onKplaceRunAsync"](seq, () => UTF8ToString(text));
});
EM_JS(void, JsExplainInBackground, (int seq, const char* text, const char* pod), {
  if (Module["onKplaceExplainAsync"]) Module["onKplaceExplainAsync"](seq, UTF8ToString(text), UTF8ToString(pod));
});
EM_JS(void, JsDisruptionInBackground, (int seq, const char* text, const char* node), {
  if (Module["onKplaceDisruptionAsync"]) Module["onKplaceDisruptionAsync"](seq, UTF8ToString(text), UTF8ToString(node));
});
EM_JS(void, JsNotifyHeight, (int height), {
  if (Module["onKplaceHeight"]) Module["onKplaceHeight"](height);
});
// The WebGL2 context GLFW then gets (getContext answers the canvas's one context), with GLFW's attributes (below) and
// the drawing buffer kept between frames, so a frame redraws only what changed (WebGlRenderer); whether it is kept.
EM_JS(int, JsCreateContextKeepingPixels, (), {
  const gl = Module["canvas"].getContext("webgl2", {alpha: false, depth: false, stencil: false, antialias: false,
                                                    preserveDrawingBuffer: true});
  return gl && gl.getContextAttributes().preserveDrawingBuffer ? 1 : 0;
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
  web->renderer.UploadFonts();
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

// Tells the page (embeds post it to their parent) when the height the content needs changed: after the frame that
// laid out a new scenario, a new width or a folded / unfolded editor, never before.
void NotifyHeightIfChanged(float dpr) {
  const float css = web->ui.content_need / (dpr > 0 ? dpr : 1);
  const int height = std::clamp(static_cast<int>(std::ceil(css)), kMinContentCssPx, kMaxContentCssPx);
  if (height == web->content_height) return;
  web->content_height = height;
  JsNotifyHeight(height);
}

void WakeOnCursor(GLFWwindow*, double, double) { Wake(); }
void WakeOnEnter(GLFWwindow*, int) { Wake(); }
void WakeOnButton(GLFWwindow*, int, int, int) { Wake(); }
void WakeOnScroll(GLFWwindow*, double, double) { Wake(); }
void WakeOnKey(GLFWwindow*, int, int, int, int) { Wake(); }
void WakeOnChar(GLFWwindow*, unsigned int) { Wake(); }
void WakeOnFocus(GLFWwindow*, int) { Wake(); }

// Whether this animation frame draws (see kSettleFrames).
bool WantsFrame(ImVec2 size, double now) {
  const ImGuiIO& io = ImGui::GetIO();
  bool held = io.WantTextInput;
  for (bool down : io.MouseDown) held |= down;
  for (bool down : io.KeysDown) held |= down;
  if (held || size.x != web->drawn_w || size.y != web->drawn_h) Wake();
  const double every = web->session.running() ? kRunningMs : kRestMs;
  return web->wake_frames > 0 || now - web->drawn_at >= every;
}

void Frame() {
  const double start = emscripten_get_now();
  const auto dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
  const ImVec2 size = SyncCanvas(dpr);
  if (dpr != web->scale) Wake();
  if (!WantsFrame(size, start)) {
    if (web->session.running() && web->session.Tick(kReadMs)) Wake();  // landed, or the text is invalid: show it
    return;
  }
  web->wake_frames = std::max(0, web->wake_frames - 1);
  web->drawn_at = start;
  web->drawn_w = size.x;
  web->drawn_h = size.y;
  if (dpr != web->scale) {
    web->scale = dpr;
    BuildFonts(dpr);
    kplace::app::ApplyStyle(dpr);
  }

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

  // Cleared to the panes' colour: the app fills the rest (app/ui/pane_backdrop.h). Only what changed since the last
  // frame drawn is drawn again, nothing when nothing did (WebGlRenderer::Render).
  ImVec4 bg = kplace::app::ClearColour();
  bg.w = 1.0f;
  if (web->renderer.Render(*ImGui::GetDrawData(), static_cast<int>(size.x), static_cast<int>(size.y), bg))
    ++web->rendered;
  NotifyIfNew();
  ++web->frames;
  web->frame_ms += emscripten_get_now() - start;
  NotifyHeightIfChanged(dpr);
}

}  // namespace

void Wake() {
  if (web) web->wake_frames = kSettleFrames;
}

// Tells the page (window.kplace.onResult) about a new result, whoever caused it: the editor, a preset, the API.
void NotifyIfNew() {
  const kplace::app::Snapshot* snap = web->session.snapshot();
  if (!snap || snap->generation == web->notified) return;
  web->notified = snap->generation;
  JsNotifyResult();
}

bool Start(const unsigned char* sans, int sans_len, const unsigned char* mono, int mono_len) {
  if (web) return true;
  web = new App;
  if (sans && sans_len > 0) web->sans.assign(sans, sans + sans_len);
  if (mono && mono_len > 0) web->mono.assign(mono, mono + mono_len);

  if (!glfwInit()) return false;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  // An opaque canvas without depth or stencil buffers: every frame clears to an opaque colour and draws 2D, so the
  // browser composites the canvas without blending it over the page.
  glfwWindowHint(GLFW_ALPHA_BITS, 0);
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  const bool keeps_pixels = JsCreateContextKeepingPixels() != 0;
  const float dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  web->window = glfwCreateWindow(std::max(1, static_cast<int>(css_w * dpr)), std::max(1, static_cast<int>(css_h * dpr)),
                                 "kplace", nullptr, nullptr);
  if (!web->window) return false;
  glfwMakeContextCurrent(web->window);

  // Before ImGui's GLFW backend installs its own callbacks, which then call these.
  glfwSetCursorPosCallback(web->window, WakeOnCursor);
  glfwSetCursorEnterCallback(web->window, WakeOnEnter);
  glfwSetMouseButtonCallback(web->window, WakeOnButton);
  glfwSetScrollCallback(web->window, WakeOnScroll);
  glfwSetKeyCallback(web->window, WakeOnKey);
  glfwSetCharCallback(web->window, WakeOnChar);
  glfwSetWindowFocusCallback(web->window, WakeOnFocus);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no files in the browser; layout lives in UiState
  io.LogFilename = nullptr;
  io.ConfigMacOSXBehaviors = JsIsApple() != 0;
  ImGui_ImplGlfw_InitForOpenGL(web->window, true);
  if (!web->renderer.Init()) return false;
  web->renderer.KeepPixels(keeps_pixels);
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
  web->session.SetDisruptionRunner([](std::uint64_t seq, const std::string& text, const std::string& node) {
    JsDisruptionInBackground(static_cast<int>(seq), text.c_str(), node.c_str());
  });

  const int preset = kplace::app::DefaultPreset();
  if (preset >= 0) kplace::app::LoadPreset(web->session, web->ui, preset);
  NotifyIfNew();
  emscripten_set_main_loop(Frame, 0, false);
  return true;
}

}  // namespace kplace::webapp

// ImGui's GLFW backend reads a gamepad only with ImGuiConfigFlags_NavEnableGamepad, which the app never sets. These
// stand in for Emscripten's JavaScript ones, so the page carries no gamepad polling.
extern "C" const float* glfwGetJoystickAxes(int, int* count) {
  *count = 0;
  return nullptr;
}
extern "C" const unsigned char* glfwGetJoystickButtons(int, int* count) {
  *count = 0;
  return nullptr;
}
