// The Queue panel: kube-scheduler's scheduling queue as the run went, from the result's records only: the pods in the
// order their scheduling cycles bound them (SimResult::bind_order, PrioritySort's order as retries and rounds
// interleave), each with its priority and attempts (hover for every attempt's node or FailedScheduling message), then
// the pods it left pending. Runs in the frame record the order; background runs' result JSON does not carry it, so
// the tab is absent for them (and in karpenter mode, where kube-scheduler does not run). Click a pod to inspect it.
#include <string>
#include <vector>

#include "app/ui/panels.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "imgui.h"

namespace kplace::app {
namespace {

// Every attempt of the pod, one line each.
void AttemptsTooltip(const sim::PodResult& r) {
  ImGui::BeginTooltip();
  for (const auto& a : r.attempts) {
    if (!a.node.empty()) {
      ImGui::Text("attempt %d: bound to %s", a.attempt, a.node.c_str());
    } else {
      ImGui::PushTextWrapPos(Em(40));
      ImGui::Text("attempt %d: %s", a.attempt, a.message.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  ImGui::EndTooltip();
}

// One row: position in the order ("" for pods left pending), the pod (a button), priority, attempts, outcome.
void Row(const Snapshot& snap, const std::string& order, int index, UiState& ui) {
  const PodView& pod = snap.pods[static_cast<std::size_t>(index)];
  const sim::PodResult& r = *pod.result;
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", order.c_str());
  ImGui::TableNextColumn();
  ImGui::PushID(index);
  if (ImGui::Selectable(pod.key.c_str(), ui.selected_pod == pod.key, ImGuiSelectableFlags_SpanAllColumns))
    ui.selected_pod = pod.key;
  const bool hovered = ImGui::IsItemHovered();
  ImGui::PopID();
  ImGui::TableNextColumn();
  ImGui::Text("%d", r.priority);
  ImGui::TableNextColumn();
  ImGui::Text("%zu", r.attempts.size());
  ImGui::TableNextColumn();
  if (!r.preempted_by.empty()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kWarn), "%s, preempted by %s", r.preempted_from.c_str(),
                       r.preempted_by.c_str());
  } else if (!r.node.empty()) {
    ImGui::TextUnformatted(r.node.c_str());
  } else {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kWarn), "%s", r.unschedulable.c_str());
  }
  if (hovered && !r.attempts.empty()) AttemptsTooltip(r);
}

void DrawQueue(const Snapshot& snap, UiState& ui) {
  const auto& order = snap.result.bind_order;
  std::vector<int> pending;
  for (int i : snap.unplaced)
    if (!snap.pods[static_cast<std::size_t>(i)].result->attempts.empty()) pending.push_back(i);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%zu bound in this order, %zu left pending after their attempts", order.size(), pending.size());
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                     ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("queue", 5, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("00000").x);
  ImGui::TableSetupColumn("Pod", ImGuiTableColumnFlags_WidthFixed, Em(14));
  ImGui::TableSetupColumn("Priority", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("Priority").x);
  ImGui::TableSetupColumn("Attempts", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("Attempts").x);
  ImGui::TableSetupColumn("Node / message", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(order.size() + pending.size()));
  while (clipper.Step())
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      if (row < static_cast<int>(order.size())) {
        const int i = snap.FindPod(order[static_cast<std::size_t>(row)]);
        if (i >= 0) Row(snap, std::to_string(row + 1), i, ui);
      } else {
        Row(snap, "", pending[static_cast<std::size_t>(row) - order.size()], ui);
      }
    }
  ImGui::EndTable();
}

}  // namespace

extern const Panel kQueuePanel;
const Panel kQueuePanel = {"queue",
                           [](const Snapshot& snap, const UiState&) {
                             return std::string(snap.explained && !snap.karpenter() ? "Queue" : "");
                           },
                           [](const Snapshot& snap, const Session&, UiState& ui) { DrawQueue(snap, ui); }};

}  // namespace kplace::app
