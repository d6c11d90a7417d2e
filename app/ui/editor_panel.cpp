// The scenario editor: the JSON text, edited in place; every edit re-runs the core. On an input error the message
// shows with its line:column and the last good result stays on screen, marked stale. A large text (an imported
// cluster) is shown read-only, a screenful of lines at a time: ImGui's text box goes over the whole text every frame
// (a 67 MB import: 23 ms a frame natively, most of the page's frame), and more on every keystroke.
#include <algorithm>
#include <cstdio>

#include "app/model/json_text.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "imgui.h"
#include "imgui_stdlib.h"

namespace kplace::app {
namespace {

// Texts from this size on are shown read-only; up to kEditAnywayBytes the user may still choose to edit them (ImGui
// 1.86 keeps a 16-bit character per byte while the text box is active, plus copies).
constexpr std::size_t kEditableBytes = 4u << 20;
constexpr std::size_t kEditAnywayBytes = 32u << 20;
// A line longer than this shows its beginning and how much is left out (compact JSON can be one line).
constexpr std::size_t kShownLineBytes = 4096;

std::string Megabytes(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

// The read-only view: only the visible lines are drawn, found through the line index (rebuilt when the text changes:
// a new run, a direct edit from the cluster view).
void DrawLargeText(const Session& session, UiState& ui) {
  const std::string& text = session.text();
  if (ui.editor_lines_generation != session.generation() || ui.editor_lines_bytes != text.size()) {
    ui.editor_lines = TextLines(text);
    ui.editor_lines_generation = session.generation();
    ui.editor_lines_bytes = text.size();
  }
  const TextLines& lines = ui.editor_lines;
  ImGui::PushStyleColor(ImGuiCol_Text, colors::kTextDim);
  ImGui::TextWrapped(
      "%s, %zu lines: shown read-only (a text this large would be read again on every keystroke). "
      "Edit the file and import it again, or edit nodes in the cluster view.",
      Megabytes(text.size()).c_str(), lines.count());
  ImGui::PopStyleColor();
  if (text.size() <= kEditAnywayBytes) {
    if (ImGui::SmallButton("Edit it here anyway")) ui.editor_edit_large = ui.editor_epoch;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Slow: every frame and keystroke goes over the whole text");
  }
  ImGui::PushFont(GetFonts().mono);
  ImGui::BeginChild("##large", ImVec2(-1, -1), true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(std::min<std::size_t>(lines.count(), INT32_MAX)),
                ImGui::GetTextLineHeightWithSpacing());
  while (clipper.Step()) {
    std::size_t at = lines.Start(text, static_cast<std::size_t>(clipper.DisplayStart));
    for (int line = clipper.DisplayStart; line < clipper.DisplayEnd; ++line) {
      const std::size_t end = TextLines::End(text, at);
      const std::size_t shown = std::min(end, at + kShownLineBytes);
      ImGui::TextUnformatted(text.data() + at, text.data() + shown);
      if (shown < end) {
        ImGui::SameLine();
        ImGui::TextDisabled("... %zu more bytes on this line", end - shown);
      }
      at = std::min(text.size(), end + 1);
    }
  }
  ImGui::EndChild();
  ImGui::PopFont();
}

}  // namespace

void DrawEditor(Session& session, UiState& ui) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Scenario");
  ImGui::SameLine();
  ImGui::TextDisabled("(a Kubernetes List in JSON; every edit re-places the pods)");

  if (!session.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(70, 28, 32, 255));
    const float wrap = ImGui::GetContentRegionAvail().x - Em(1);
    if (ui.editor_error_generation != session.generation() || ui.editor_error != session.error()) {
      ui.editor_error_generation = session.generation();
      ui.editor_error = session.error();
      ui.editor_error_shown = session.error();
      const auto pos = json_text::ErrorPosition(session.text(), session.error());
      if (pos && session.error().rfind("invalid JSON at line", 0) != 0)
        ui.editor_error_shown =
            "line " + std::to_string(pos->line) + ", column " + std::to_string(pos->column) + ": " + session.error();
    }
    const std::string& text = ui.editor_error_shown;
    const float h = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y + Em(2.4f);
    ImGui::BeginChild("error", ImVec2(0, h), true);
    ImGui::PushStyleColor(ImGuiCol_Text, colors::kError);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::TextDisabled(session.snapshot() ? "The cluster shows the last valid scenario (stale)." : "No result yet.");
    ImGui::EndChild();
    ImGui::PopStyleColor();
  }

  if (session.text().size() >= kEditableBytes && ui.editor_edit_large != ui.editor_epoch) {
    DrawLargeText(session, ui);
    return;
  }
  ImGui::PushFont(GetFonts().mono);
  ImGui::PushID(ui.editor_epoch);
  if (ImGui::InputTextMultiline("##scenario", &session.text(), ImVec2(-1, -1))) {
    session.Rerun();
    ui.preset_edited = true;
  }
  ImGui::PopID();
  ImGui::PopFont();
}

}  // namespace kplace::app
