// Colours and sizes of the playground. Sizes are in font units (multiples of ImGui::GetFontSize()), so they follow
// the devicePixelRatio the fonts were rasterised for.
#pragma once

#include <string_view>

#include "core/model/taint.h"
#include "imgui.h"

namespace kplace::app {

struct Fonts {
  ImFont* ui = nullptr;
  ImFont* mono = nullptr;
};
Fonts& GetFonts();

// The style at scale 1 (dark), then ScaleAllSizes(scale).
void ApplyStyle(float scale);

// Font-relative sizes.
inline float Em(float n) { return n * ImGui::GetFontSize(); }
inline ImVec2 Em(float x, float y) { return ImVec2(Em(x), Em(y)); }

ImU32 EffectColor(TaintEffect effect);
// A stable colour per owner (Deployment/web, app label, ...): the same owner always gets the same hue.
ImU32 OwnerColor(std::string_view owner);

namespace colors {
// The two panes (the editor, and the cluster with the details beside it): the colour each frame is cleared to
// (PaneBackdrop). Every other child window is transparent (the style's ChildBg): it sits on a pane, and filling it
// again with the pane's colour would cost the frame a layer of pixels, milliseconds each where the browser
// rasterises in software.
inline const ImVec4 kPane(0.125f, 0.137f, 0.165f, 1.0f);
inline constexpr ImU32 kCard = IM_COL32(40, 44, 52, 255);
inline constexpr ImU32 kCardBorder = IM_COL32(70, 76, 88, 255);
inline constexpr ImU32 kBarBack = IM_COL32(28, 30, 36, 255);
inline constexpr ImU32 kBarFill = IM_COL32(86, 156, 214, 255);
inline constexpr ImU32 kBarFull = IM_COL32(220, 120, 60, 255);
inline constexpr ImU32 kText = IM_COL32(230, 232, 236, 255);
inline constexpr ImU32 kTextDim = IM_COL32(150, 156, 168, 255);
inline constexpr ImU32 kTextFaint = IM_COL32(105, 110, 122, 255);
inline constexpr ImU32 kSelected = IM_COL32(255, 255, 255, 255);
inline constexpr ImU32 kOk = IM_COL32(110, 200, 120, 255);
inline constexpr ImU32 kError = IM_COL32(240, 100, 100, 255);
inline constexpr ImU32 kWarn = IM_COL32(235, 180, 70, 255);
// Karpenter: NodeClaims launched in this run (new), to be launched (ghost), and Nodes not initialised (in flight).
inline constexpr ImU32 kNew = IM_COL32(70, 200, 190, 255);
inline constexpr ImU32 kGhostFill = IM_COL32(40, 44, 52, 110);
inline constexpr ImU32 kInFlight = IM_COL32(150, 130, 230, 255);
}  // namespace colors

}  // namespace kplace::app
