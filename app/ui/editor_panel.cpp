// The scenario editor: the JSON text, edited in place; every edit re-runs the core. On an input error the message
// shows with its line:column and the last good result stays on screen, marked stale.
#include "app/model/json_text.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "imgui.h"
#include "imgui_stdlib.h"

namespace kplace::app {

void DrawEditor(Session& session, UiState& ui) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Scenario");
  ImGui::SameLine();
  ImGui::TextDisabled("(a Kubernetes List in JSON; every edit re-places the pods)");

  if (!session.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(70, 28, 32, 255));
    const float wrap = ImGui::GetContentRegionAvail().x - Em(1);
    const auto pos = json_text::ErrorPosition(session.text(), session.error());
    std::string text = session.error();
    if (pos && text.rfind("invalid JSON at line", 0) != 0)
      text = "line " + std::to_string(pos->line) + ", column " + std::to_string(pos->column) + ": " + text;
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
