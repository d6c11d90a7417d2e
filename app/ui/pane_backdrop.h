// The window's backdrop: WindowBg around the two panes, the pane colour in them, drawn without filling the panes.
//
// Each frame is cleared to the panes' colour (ClearColour(), the page's backend clears to it), so the panes, most of
// the window, need no fill of their own: with software WebGL (SwiftShader: no GPU, as on many VMs and remote
// desktops) a window-sized layer of pixels costs the frame milliseconds. The root window fills WindowBg around them
// instead, a few strips, and redraws each pane's rounded, anti-aliased edge over that in a band along its border, so
// every pixel is what filling WindowBg and then the panes gives.
#pragma once

#include <vector>

#include "imgui.h"

namespace kplace::app {

// The colour each frame is cleared to: the panes' (colors::kPane), as ImGui quantises it.
ImVec4 ClearColour();

class PaneBackdrop {
 public:
  // Right after the root window's Begin (whose own background is off): what the frame draws next in the root
  // window goes above the backdrop.
  void Begin();
  // Inside a pane, right after its BeginChild (the pane's background is off): the pane's rectangle.
  void AddPane();
  // Right before the root window's End: draws the backdrop under what the root window drew.
  void End();

 private:
  struct Rect {
    ImVec2 min, max;
  };
  ImDrawList* root_ = nullptr;
  Rect window_;
  std::vector<Rect> panes_;
};

}  // namespace kplace::app
