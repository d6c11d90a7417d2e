// The Events panel: the run's events as `kubectl describe` lists them (type, reason, object, message): Scheduled,
// FailedScheduling, Nominated, Preempted; with Karpenter, its Nominated / FailedScheduling events and
// NoCompatibleInstanceTypes on NodePools too (a From column tells them apart). Optionally only the selected pod's;
// click a pod to inspect it.
#include <algorithm>
#include <string>
#include <vector>

#include "app/ui/panels.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "imgui.h"

namespace kplace::app {

void DrawEvents(const Snapshot& snap, UiState& ui) {
  const auto& events = snap.events;
  const bool has_selection = snap.FindPod(ui.selected_pod) >= 0;
  const bool filter = has_selection && ui.events_selected_only;
  std::vector<int> shown;
  shown.reserve(events.size());
  for (int i = 0; i < static_cast<int>(events.size()); ++i)
    if (!filter || events[i].event->pod == ui.selected_pod) shown.push_back(i);

  if (has_selection) {
    ImGui::Checkbox(("only " + ui.selected_pod).c_str(), &ui.events_selected_only);
    ImGui::SameLine();
  }
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%zu of %zu events, in the order the scheduler emitted them", shown.size(), events.size());

  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                     ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
  const bool from = snap.has_karpenter();
  if (!ImGui::BeginTable(from ? "events_from" : "events", from ? 5 : 4, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  // Widths from the longest values, not from the rows the clipper happens to show first.
  float object_w = ImGui::CalcTextSize("Object").x;
  for (std::size_t i = 0; i < shown.size() && i < 500; ++i)
    object_w = std::max(object_w, ImGui::CalcTextSize(events[shown[i]].object.c_str()).x);
  ImGui::TableSetupColumn("Type", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("Warning").x);
  ImGui::TableSetupColumn("Reason", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("FailedScheduling").x);
  if (from) ImGui::TableSetupColumn("From", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("kube-scheduler").x);
  ImGui::TableSetupColumn("Object", ImGuiTableColumnFlags_WidthFixed, std::min(object_w, Em(18)));
  ImGui::TableSetupColumn("Message", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(shown.size()));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const EventRow& er = events[shown[row]];
      const sim::Event& e = *er.event;
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
      if (from) {
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, er.karpenter ? colors::kNew : colors::kTextDim);
        ImGui::TextUnformatted(er.karpenter ? "karpenter" : "kube-scheduler");
        ImGui::PopStyleColor();
      }
      ImGui::TableNextColumn();
      ImGui::PushID(row);
      if (e.pod.empty()) {
        ImGui::TextUnformatted(er.object.c_str());
      } else {
        if (ImGui::Selectable(er.object.c_str(), e.pod == ui.selected_pod)) ui.selected_pod = e.pod;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: click to inspect", e.pod.c_str());
      }
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

extern const Panel kEventsPanel;
const Panel kEventsPanel = {
    "events",
    [](const Snapshot& snap, const UiState&) { return "Events (" + std::to_string(snap.events.size()) + ")"; },
    [](const Snapshot& snap, const Session&, UiState& ui) { DrawEvents(snap, ui); }};

}  // namespace kplace::app
