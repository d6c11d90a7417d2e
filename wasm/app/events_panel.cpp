// The Events panel: the run's events as `kubectl describe` lists them (type, reason, object, message): Scheduled,
// FailedScheduling, Nominated, Preempted. Optionally only the selected pod's; click a pod to inspect it.
#include <algorithm>
#include <string>
#include <vector>

#include "imgui.h"
#include "wasm/app/theme.h"
#include "wasm/app/ui.h"

namespace kplace::app {

void DrawEvents(const Snapshot& snap, UiState& ui) {
  const auto& events = snap.result.events;
  const bool has_selection = snap.FindPod(ui.selected_pod) >= 0;
  const bool filter = has_selection && ui.events_selected_only;
  std::vector<int> shown;
  shown.reserve(events.size());
  for (int i = 0; i < static_cast<int>(events.size()); ++i)
    if (!filter || events[i].pod == ui.selected_pod) shown.push_back(i);

  if (has_selection) {
    ImGui::Checkbox(("only " + ui.selected_pod).c_str(), &ui.events_selected_only);
    ImGui::SameLine();
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%zu of %zu events, in the order the scheduler emitted them", shown.size(), events.size());

  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                     ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("events", 4, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  // Widths from the longest values, not from the rows the clipper happens to show first.
  float object_w = ImGui::CalcTextSize("Object").x;
  for (std::size_t i = 0; i < shown.size() && i < 500; ++i)
    object_w = std::max(object_w, ImGui::CalcTextSize(events[shown[i]].pod.c_str()).x);
  ImGui::TableSetupColumn("Type", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("Warning").x);
  ImGui::TableSetupColumn("Reason", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("FailedScheduling").x);
  ImGui::TableSetupColumn("Object", ImGuiTableColumnFlags_WidthFixed, std::min(object_w, Em(18)));
  ImGui::TableSetupColumn("Message", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(shown.size()));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const sim::Event& e = events[shown[row]];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushStyleColor(ImGuiCol_Text, e.type == "Warning" ? colors::kWarn : colors::kTextDim);
      ImGui::TextUnformatted(e.type.c_str());
      ImGui::PopStyleColor();
      ImGui::TableNextColumn();
      ImGui::PushStyleColor(ImGuiCol_Text, e.reason == "Scheduled"          ? colors::kOk
                                           : e.reason == "FailedScheduling" ? colors::kError
                                                                            : colors::kText);
      ImGui::TextUnformatted(e.reason.c_str());
      ImGui::PopStyleColor();
      ImGui::TableNextColumn();
      ImGui::PushID(row);
      const std::string label = "pod/" + e.pod.substr(e.pod.find('/') + 1);
      if (ImGui::Selectable(label.c_str(), e.pod == ui.selected_pod)) ui.selected_pod = e.pod;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: click to inspect", e.pod.c_str());
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(e.message.c_str());  // one line per event (the clipper wants even rows): hover for all
      if (ImGui::IsItemHovered() && ImGui::CalcTextSize(e.message.c_str()).x > ImGui::GetColumnWidth()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(Em(40));
        ImGui::TextUnformatted(e.message.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace kplace::app
