#include "app/ui/pane_backdrop.h"

#include <algorithm>
#include <cmath>

#include "app/ui/theme.h"

namespace kplace::app {

ImVec4 ClearColour() { return ImGui::ColorConvertU32ToFloat4(ImGui::ColorConvertFloat4ToU32(colors::kPane)); }

void PaneBackdrop::Begin() {
  root_ = ImGui::GetWindowDrawList();
  window_.min = ImGui::GetWindowPos();
  window_.max = ImVec2(window_.min.x + ImGui::GetWindowWidth(), window_.min.y + ImGui::GetWindowHeight());
  panes_.clear();
  root_->ChannelsSplit(2);
  root_->ChannelsSetCurrent(1);
}

void PaneBackdrop::AddPane() {
  const ImVec2 pos = ImGui::GetWindowPos();
  panes_.push_back({pos, ImVec2(pos.x + ImGui::GetWindowWidth(), pos.y + ImGui::GetWindowHeight())});
}

void PaneBackdrop::End() {
  root_->ChannelsSetCurrent(0);
  root_->PushClipRect(window_.min, window_.max, false);
  const ImU32 window_bg = ImGui::GetColorU32(ImGuiCol_WindowBg);
  const ImU32 pane_bg = ImGui::ColorConvertFloat4ToU32(colors::kPane);  // what ImGui fills a child with
  const float rounding = ImGui::GetStyle().ChildRounding;               // a child window's corners
  // Each pane's interior, whole pixels at least its rounding and one pixel inside its edge: there, filling the pane
  // over WindowBg leaves exactly the clear colour. Around the interiors: WindowBg, then the pane's own fill clipped
  // to the band between interior and edge (one pixel beyond it), where its corners and anti-aliasing are.
  const auto interior = [rounding](const Rect& p) {
    const float in = rounding + 1;
    return Rect{ImVec2(std::ceil(p.min.x + in), std::ceil(p.min.y + in)),
                ImVec2(std::floor(p.max.x - in), std::floor(p.max.y - in))};
  };
  std::vector<Rect> inner;
  for (const Rect& p : panes_) inner.push_back(interior(p));
  std::sort(inner.begin(), inner.end(), [](const Rect& a, const Rect& b) { return a.min.x < b.min.x; });
  // The panes stand side by side with the same top and height; anything else (a window too small for an interior)
  // falls back to filling each pane.
  bool side_by_side = !inner.empty();
  for (std::size_t i = 0; i < inner.size(); ++i) {
    const Rect& r = inner[i];
    side_by_side = side_by_side && r.min.x < r.max.x && r.min.y < r.max.y && r.min.y == inner[0].min.y &&
                   r.max.y == inner[0].max.y && (i == 0 || inner[i - 1].max.x <= r.min.x);
  }
  const ImVec2 w0(std::floor(window_.min.x), std::floor(window_.min.y));
  const ImVec2 w1(std::ceil(window_.max.x), std::ceil(window_.max.y));
  if (!side_by_side) {
    root_->AddRectFilled(w0, w1, window_bg);
    for (const Rect& p : panes_) root_->AddRectFilled(p.min, p.max, pane_bg, rounding);
  } else {
    const float top = inner[0].min.y, bottom = inner[0].max.y;
    root_->AddRectFilled(w0, ImVec2(w1.x, top), window_bg);
    root_->AddRectFilled(ImVec2(w0.x, bottom), w1, window_bg);
    float x = w0.x;
    for (const Rect& r : inner) {
      if (x < r.min.x) root_->AddRectFilled(ImVec2(x, top), ImVec2(r.min.x, bottom), window_bg);
      x = r.max.x;
    }
    if (x < w1.x) root_->AddRectFilled(ImVec2(x, top), ImVec2(w1.x, bottom), window_bg);
    for (const Rect& p : panes_) {
      const ImVec2 o0(std::floor(p.min.x) - 1, std::floor(p.min.y) - 1);
      const ImVec2 o1(std::ceil(p.max.x) + 1, std::ceil(p.max.y) + 1);
      const auto [i0, i1] = interior(p);
      // Four bands that do not overlap (a pixel blended twice would differ): top, bottom, left, right.
      const Rect bands[] = {{o0, ImVec2(o1.x, i0.y)},
                            {ImVec2(o0.x, i1.y), o1},
                            {ImVec2(o0.x, i0.y), ImVec2(i0.x, i1.y)},
                            {ImVec2(i1.x, i0.y), ImVec2(o1.x, i1.y)}};
      for (const Rect& band : bands) {
        root_->PushClipRect(band.min, band.max, true);
        root_->AddRectFilled(p.min, p.max, pane_bg, rounding);
        root_->PopClipRect();
      }
    }
  }
  root_->PopClipRect();
  root_->ChannelsMerge();
}

}  // namespace kplace::app
