// The browser app: its state (the session, the UI state and what the page was last told) and the GLFW/Emscripten
// backend that draws it into the page's #canvas (app_backend.cpp). The functions the page calls are in
// app_exports.cpp; everything else the app does is in app/ui (the panels) and app/model (no ImGui).
#pragma once

#include <GLFW/glfw3.h>

#include <cstdint>
#include <string>
#include <vector>

#include "app/model/session.h"
#include "app/ui/ui_state.h"
#include "wasm/webgl_renderer.h"

namespace kplace::webapp {

struct App {
  GLFWwindow* window = nullptr;
  WebGlRenderer renderer;
  std::vector<unsigned char> sans, mono;  // TTF bytes (owned here; the atlas only borrows them)
  float scale = 0;                        // devicePixelRatio the fonts and style were built for
  std::uint64_t notified = 0;             // generation of the snapshot the page was last told about (onResult)
  int frames = 0;                         // frames drawn so far (laid out)
  int rendered = 0;                       // of them, those the renderer drew (WebGlRenderer::Render)
  double frame_ms = 0;                    // time spent in them (the app's own work: layout, draw lists, WebGL calls)
  int content_height = 0;                 // the last frame's content height in CSS pixels (0 before the first)
  // Drawing on demand (app_backend.cpp): frames still to draw before the app may rest, when the last one was drawn
  // (ms, emscripten_get_now) and the canvas size it was drawn at (device pixels).
  int wake_frames = 0;
  double drawn_at = 0;
  float drawn_w = 0, drawn_h = 0;
  std::string clipboard;  // last text copied in the app or pasted into the page
  app::Session session;
  app::UiState ui;
};
// The running app, nullptr before Start.
extern App* web;

// Starts the app on the page's #canvas with the UI and editor fonts (TTF bytes, copied): WebGL2 through GLFW,
// ImGui, the background runners, the default preset, the frame loop. Returns false when WebGL2 or GLFW is
// unavailable.
bool Start(const unsigned char* sans, int sans_len, const unsigned char* mono, int mono_len);
// Tells the page (window.kplace.onResult) about a new result, whoever caused it: the editor, a preset, the API.
void NotifyIfNew();
// Something outside the frame changed what the app shows (the page called in): draw the next frames.
void Wake();

}  // namespace kplace::webapp
