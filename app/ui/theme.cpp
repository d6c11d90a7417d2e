#include "app/ui/theme.h"

#include <cstdint>

namespace kplace::app {

Fonts& GetFonts() {
  static Fonts fonts;
  return fonts;
}

void ApplyStyle(float scale) {
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0;
  style.ChildRounding = 4;
  style.FrameRounding = 3;
  style.GrabRounding = 3;
  style.TabRounding = 3;
  style.WindowPadding = ImVec2(8, 8);
  style.FramePadding = ImVec2(6, 4);
  style.ItemSpacing = ImVec2(8, 5);
  style.ScrollbarSize = 12;
  style.Colors[ImGuiCol_WindowBg] = ImVec4(0.106f, 0.114f, 0.137f, 1.0f);
  style.Colors[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);  // see colors::kPane
  style.Colors[ImGuiCol_FrameBg] = ImVec4(0.086f, 0.094f, 0.114f, 1.0f);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

ImU32 EffectColor(TaintEffect effect) {
  switch (effect) {
    case TaintEffect::NoSchedule:
      return IM_COL32(196, 64, 64, 255);
    case TaintEffect::PreferNoSchedule:
      return IM_COL32(196, 140, 40, 255);
    case TaintEffect::NoExecute:
      return IM_COL32(140, 70, 190, 255);
    case TaintEffect::None:
      break;
  }
  return IM_COL32(100, 100, 100, 255);
}

ImU32 OwnerColor(std::string_view owner) {
  std::uint32_t h = 2166136261u;  // FNV-1a
  for (char c : owner) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  const float hue = static_cast<float>(h % 360) / 360.0f;
  return ImColor::HSV(hue, 0.55f, 0.62f);
}

}  // namespace kplace::app
