// The pod chip every view draws pods with: a rounded rect in the owner's colour (pending amber, gated / preempted
// grey) with the pod's name, a warning corner when Karpenter meant to place the pod elsewhere, and a tooltip with
// its requests, priority, NodeClaim and disagreement. And wrapped coloured text, which the inspectors share.
#include <string>

#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "imgui.h"

namespace kplace::app {

bool PodChip(const PodView& pod, const UiState& ui, float width) {
  const bool selected = pod.key == ui.selected_pod;
  const auto mark = ui.marks.empty() ? ui.marks.end() : ui.marks.find(pod.key);
  const float h = ImGui::GetTextLineHeight() + Em(0.2f);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::PushID(pod.key.c_str());
  const bool clicked = ImGui::InvisibleButton("chip", ImVec2(width, h));
  ImGui::PopID();
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImU32 fill = OwnerColor(pod.owner);
  if (pod.status == PodStatus::Pending) fill = IM_COL32(90, 60, 30, 255);
  if (pod.status == PodStatus::Gated || pod.status == PodStatus::Preempted || pod.status == PodStatus::OtherScheduler)
    fill = IM_COL32(70, 70, 80, 255);
  const ImVec2 q(p.x + width, p.y + h);
  dl->AddRectFilled(p, q, fill, h * 0.3f);
  if (selected || hovered) dl->AddRect(p, q, colors::kSelected, h * 0.3f, 0, selected ? Em(0.15f) : Em(0.07f));
  const float text_w = ImGui::CalcTextSize(pod.name.c_str()).x;
  const float inner = width - Em(0.8f);
  // Truncated: keep the end, where replica suffixes differ.
  const float x = text_w <= inner ? p.x + Em(0.4f) : p.x + width - Em(0.4f) - text_w;
  ClippedText(dl, ImVec2(x, p.y + Em(0.1f)), colors::kText, pod.name.c_str(), p, q);
  const std::string& disagreement = pod.result->disagreement;
  if (!disagreement.empty())  // Karpenter meant another place: a warning corner
    dl->AddTriangleFilled(ImVec2(q.x - h * 0.55f, p.y), ImVec2(q.x, p.y), ImVec2(q.x, p.y + h * 0.55f), colors::kWarn);
  const auto change = static_cast<sim::PodChange::Kind>(mark == ui.marks.end() ? 0 : mark->second);
  if (mark != ui.marks.end())  // the last edit or the comparison changed its answer: a dot in the change's colour
  {
    // A dark ring keeps it visible on a chip of the same colour.
    const ImVec2 c(p.x + h * 0.3f, p.y + h * 0.3f);
    dl->AddCircleFilled(c, h * 0.26f, colors::kBarBack);
    dl->AddCircleFilled(c, h * 0.18f, ChangeColor(change));
  }
  if (hovered) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(pod.key.c_str());
    ImGui::TextDisabled("owner: %s", pod.owner.c_str());
    if (pod.pod)
      ImGui::TextDisabled("requests: cpu %s, memory %s", FormatCpu(pod.requests.milli_cpu).c_str(),
                          FormatBytes(pod.requests.memory).c_str());
    ImGui::TextDisabled("priority: %d", static_cast<int>(pod.result->priority));
    if (!pod.result->node_claim.empty())
      ImGui::TextDisabled("on the Node of NodeClaim %s (launched by Karpenter)", pod.result->node_claim.c_str());
    if (pod.status == PodStatus::OnNewClaim && pod.karpenter && pod.karpenter->claim >= 0)
      ImGui::TextDisabled("Karpenter would launch a NodeClaim for it (not running yet)");
    if (mark != ui.marks.end())
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ChangeColor(change)), "%s (Changes / Compare tab)",
                         sim::ChangeName(change));
    if (!disagreement.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, colors::kWarn);
      ImGui::TextUnformatted(disagreement.c_str());
      ImGui::PopStyleColor();
    }
    ImGui::EndTooltip();
  }
  return clicked;
}

void ClippedText(ImDrawList* dl, ImVec2 pos, ImU32 color, const char* text, ImVec2 min, ImVec2 max) {
  const ImVec4 clip(min.x, min.y, max.x, max.y);
  dl->AddText(nullptr, 0.0f, pos, color, text, nullptr, 0.0f, &clip);
}

void Wrapped(ImU32 color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

}  // namespace kplace::app
