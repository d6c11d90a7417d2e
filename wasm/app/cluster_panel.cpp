// The cluster view: the pending lane (pods that did not get a node, with kube-scheduler's message), then one card
// per node: name, zone / instance type, taint badges coloured by effect, requested vs allocatable bars, and the
// node's pods as chips coloured by owner. Click a chip to inspect the pod. Direct edits: click a taint badge for
// the next effect, right-click it to remove it, click "cordon" / "cordoned" to flip spec.unschedulable. Above 40
// nodes the cards are compact (name, taint dots, cpu bar, pods as squares).
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "core/model/symbol.h"
#include "imgui.h"
#include "wasm/app/theme.h"
#include "wasm/app/ui.h"

namespace kplace::app {
namespace {

std::string TaintLabel(const Taint& t) {
  std::string s = Text(t.key);
  if (t.value != kEmptySymbol) s += "=" + Text(t.value);
  return s + ":" + EffectName(t.effect);
}

std::string Label(const Node& n, const char* key) {
  auto it = n.meta.label_text.find(key);
  return it == n.meta.label_text.end() ? "" : it->second;
}

// A flow layout: items left to right, wrapping at the right edge.
struct Flow {
  float left, right, x, y, line_h, gap;
  ImVec2 Place(float w) {
    if (x > left && x + w > right) {
      x = left;
      y += line_h + gap;
    }
    ImVec2 p(x, y);
    x += w + gap;
    return p;
  }
  float Bottom() const { return y + line_h; }
};

void Bar(ImDrawList* dl, ImVec2 pos, float w, float h, const char* name, std::int64_t used, std::int64_t total,
         const std::string& text) {
  const float label_w = Em(4);
  dl->AddText(pos, colors::kTextDim, name);
  const ImVec2 a(pos.x + label_w, pos.y + h * 0.2f), b(pos.x + w, pos.y + h * 0.8f);
  dl->AddRectFilled(a, b, colors::kBarBack, h * 0.2f);
  const float frac = total > 0 ? std::min(1.0f, static_cast<float>(used) / static_cast<float>(total)) : 0;
  if (frac > 0)
    dl->AddRectFilled(a, ImVec2(a.x + (b.x - a.x) * frac, b.y), frac >= 0.999f ? colors::kBarFull : colors::kBarFill,
                      h * 0.2f);
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  dl->AddText(ImVec2(b.x - ts.x - Em(0.3f), pos.y), colors::kText, text.c_str());
}

// Lays out one node card at pos with width w and, when draw, draws it (chips are buttons). Returns its height.
float NodeCard(const Snapshot& snap, const NodeView& nv, ImVec2 pos, float w, bool draw, UiState& ui) {
  const Node& node = *nv.node;
  const float pad = Em(0.5f), line = ImGui::GetTextLineHeight(), gap = Em(0.3f);
  const float left = pos.x + pad, right = pos.x + w - pad;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float y = pos.y + pad;

  std::vector<std::string> taints;
  for (const auto& t : node.taints) taints.push_back(TaintLabel(t));
  std::string detail;
  for (const char* key :
       {"topology.kubernetes.io/zone", "node.kubernetes.io/instance-type", "karpenter.sh/capacity-type"})
    if (auto v = Label(node, key); !v.empty()) detail += (detail.empty() ? "" : "  ") + v;

  if (draw) {
    dl->AddText(ImVec2(left, y), colors::kText, node.meta.name.c_str());
    // The cordon switch: spec.unschedulable.
    const char* tag = node.unschedulable ? "cordoned" : "cordon";
    const ImVec2 ts = ImGui::CalcTextSize(tag);
    ImGui::SetCursorScreenPos(ImVec2(right - ts.x, y));
    ImGui::PushID(node.meta.name.c_str());
    const bool clicked = ImGui::InvisibleButton("cordon", ts);
    ImGui::PopID();
    RecordTarget(ui, "cordon:" + node.meta.name);
    const bool hovered = ImGui::IsItemHovered();
    dl->AddText(ImVec2(right - ts.x, y),
                node.unschedulable ? colors::kWarn : (hovered ? colors::kText : colors::kTextFaint), tag);
    if (hovered)
      ImGui::SetTooltip(node.unschedulable ? "spec.unschedulable: true. Click to uncordon."
                                           : "Click to cordon (spec.unschedulable: true).");
    if (clicked)
      ui.pending_edit = Edit{node.unschedulable ? Edit::Kind::Uncordon : Edit::Kind::Cordon, node.meta.name, 0, "", ""};
  }
  y += line;
  if (!detail.empty()) {
    if (draw) dl->AddText(ImVec2(left, y), colors::kTextDim, detail.c_str());
    y += line;
  }

  if (!taints.empty()) {
    y += gap;
    Flow flow{left, right, left, y, line, gap};
    for (std::size_t i = 0; i < taints.size(); ++i) {
      const float tw = std::min(ImGui::CalcTextSize(taints[i].c_str()).x + Em(0.8f), right - left);
      const ImVec2 p = flow.Place(tw);
      if (draw) {
        // Click: next effect; right-click: remove the taint.
        ImGui::SetCursorScreenPos(p);
        ImGui::PushID(node.meta.name.c_str());
        ImGui::PushID(static_cast<int>(i));
        const bool clicked = ImGui::InvisibleButton("taint", ImVec2(tw, line));
        ImGui::PopID();
        ImGui::PopID();
        RecordTarget(ui, "taint:" + node.meta.name + ":" + std::to_string(i));
        const bool hovered = ImGui::IsItemHovered();
        const ImVec2 q(p.x + tw, p.y + line);
        dl->AddRectFilled(p, q, EffectColor(node.taints[i].effect), line * 0.5f);
        if (hovered) dl->AddRect(p, q, colors::kSelected, line * 0.5f, 0, Em(0.07f));
        dl->PushClipRect(p, q, true);
        dl->AddText(ImVec2(p.x + Em(0.4f), p.y), colors::kText, taints[i].c_str());
        dl->PopClipRect();
        if (hovered) {
          ImGui::SetTooltip("%s\nClick: make it %s.  Right-click: remove it.", taints[i].c_str(),
                            NextEffect(EffectName(node.taints[i].effect)));
          if (ImGui::IsMouseClicked(ImGuiMouseButton_Right))
            ui.pending_edit = Edit{Edit::Kind::RemoveTaint, node.meta.name, i, "", ""};
        }
        if (clicked) ui.pending_edit = Edit{Edit::Kind::TaintEffect, node.meta.name, i, "", ""};
      }
    }
    y = flow.Bottom();
  }

  y += gap;
  if (draw) {
    const Resource& a = node.allocatable;
    const Resource& r = nv.requested;
    Bar(dl, ImVec2(left, y), right - left, line, "cpu", r.milli_cpu, a.milli_cpu,
        FormatCpu(r.milli_cpu) + " / " + FormatCpu(a.milli_cpu));
    Bar(dl, ImVec2(left, y + line), right - left, line, "memory", r.memory, a.memory,
        FormatBytes(r.memory) + " / " + FormatBytes(a.memory));
    const auto n = static_cast<std::int64_t>(nv.pods.size());
    Bar(dl, ImVec2(left, y + 2 * line), right - left, line, "pods", n, a.allowed_pod_number,
        std::to_string(n) + " / " + std::to_string(a.allowed_pod_number));
  }
  y += 3 * line + gap;

  if (!nv.pods.empty()) {
    const float chip_h = line + Em(0.2f);
    Flow flow{left, right, left, y, chip_h, gap};
    for (int i : nv.pods) {
      const PodView& pod = snap.pods[i];
      const float cw = std::min(ImGui::CalcTextSize(pod.name.c_str()).x + Em(0.8f), right - left);
      const ImVec2 p = flow.Place(cw);
      if (draw) {
        ImGui::SetCursorScreenPos(p);
        if (PodChip(pod, pod.key == ui.selected_pod, cw)) ui.selected_pod = pod.key;
      }
    }
    y = flow.Bottom();
  }
  return y + pad - pos.y;
}

// The compact card for many nodes: the name (amber when cordoned) with one dot per taint, a cpu bar, and the pods
// as small squares in their owner's colour (hover for the name, click to inspect).
float CompactCard(const Snapshot& snap, const NodeView& nv, ImVec2 pos, float w, bool draw, UiState& ui) {
  const Node& node = *nv.node;
  const float pad = Em(0.3f), line = ImGui::GetTextLineHeight(), cell = Em(0.6f), gap = Em(0.15f);
  const float left = pos.x + pad, right = pos.x + w - pad;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float y = pos.y + pad;
  if (draw) {
    const float dots = static_cast<float>(node.taints.size()) * (cell + gap);
    dl->PushClipRect(ImVec2(left, y), ImVec2(right - dots, y + line), true);
    dl->AddText(ImVec2(left, y), node.unschedulable ? colors::kWarn : colors::kText, node.meta.name.c_str());
    dl->PopClipRect();
    for (std::size_t i = 0; i < node.taints.size(); ++i) {
      const ImVec2 c(right - dots + static_cast<float>(i) * (cell + gap) + cell * 0.5f, y + line * 0.5f);
      dl->AddCircleFilled(c, cell * 0.4f, EffectColor(node.taints[i].effect));
    }
    if (ImGui::IsMouseHoveringRect(ImVec2(left, y), ImVec2(right, y + line))) {
      std::string tip = node.meta.name + (node.unschedulable ? " (cordoned)" : "");
      for (const auto& t : node.taints) tip += "\n" + TaintLabel(t);
      tip += "\ncpu " + FormatCpu(nv.requested.milli_cpu) + " / " + FormatCpu(node.allocatable.milli_cpu) + ", " +
             std::to_string(nv.pods.size()) + " pods";
      ImGui::SetTooltip("%s", tip.c_str());
    }
  }
  y += line;
  const float bar_h = Em(0.25f);
  if (draw) {
    const std::int64_t total = node.allocatable.milli_cpu;
    const float frac = total > 0 ? std::min(1.0f, static_cast<float>(nv.requested.milli_cpu) / total) : 0;
    dl->AddRectFilled(ImVec2(left, y), ImVec2(right, y + bar_h), colors::kBarBack);
    if (frac > 0)
      dl->AddRectFilled(ImVec2(left, y), ImVec2(left + (right - left) * frac, y + bar_h),
                        frac >= 0.999f ? colors::kBarFull : colors::kBarFill);
  }
  y += bar_h + gap * 2;
  if (!nv.pods.empty()) {
    Flow flow{left, right, left, y, cell, gap};
    for (int i : nv.pods) {
      const PodView& pod = snap.pods[i];
      const ImVec2 p = flow.Place(cell);
      if (!draw) continue;
      const ImVec2 q(p.x + cell, p.y + cell);
      const bool selected = pod.key == ui.selected_pod;
      dl->AddRectFilled(p, q, OwnerColor(pod.owner), Em(0.1f));
      if (ImGui::IsMouseHoveringRect(p, q) && ImGui::IsWindowHovered()) {
        dl->AddRect(p, q, colors::kSelected);
        ImGui::SetTooltip("%s\nowner: %s", pod.key.c_str(), pod.owner.c_str());
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ui.selected_pod = pod.key;
      }
      if (selected) dl->AddRect(p, q, colors::kSelected, 0, 0, Em(0.12f));
    }
    y = flow.Bottom();
  }
  return y + pad - pos.y;
}

void PendingLane(const Snapshot& snap, UiState& ui) {
  if (snap.unplaced.empty()) return;
  int pending = 0, gated = 0, preempted = 0;
  for (int i : snap.unplaced) {
    pending += snap.pods[i].status == PodStatus::Pending;
    gated += snap.pods[i].status == PodStatus::Gated;
    preempted += snap.pods[i].status == PodStatus::Preempted;
  }
  std::string title;
  for (auto [n, what] : {std::pair{pending, "pending"}, {gated, "gated"}, {preempted, "preempted"}})
    if (n) title += (title.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  ImGui::PushStyleColor(ImGuiCol_Text, colors::kWarn);
  ImGui::TextUnformatted(("Not running: " + title).c_str());
  ImGui::PopStyleColor();
  for (std::size_t n = 0; n < snap.unplaced.size() && n < 200; ++n) {
    const PodView& pod = snap.pods[snap.unplaced[n]];
    const float cw = std::min(ImGui::CalcTextSize(pod.name.c_str()).x + Em(0.8f), Em(12));
    if (PodChip(pod, pod.key == ui.selected_pod, cw)) ui.selected_pod = pod.key;
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0);
    const sim::PodResult& r = *pod.result;
    if (pod.status == PodStatus::Gated) {
      std::string gates;
      for (const auto& g : r.scheduling_gates) gates += (gates.empty() ? "" : ", ") + g;
      ImGui::TextDisabled("SchedulingGated: %s", gates.c_str());
    } else if (pod.status == PodStatus::Preempted) {
      ImGui::TextDisabled("Preempted by %s on %s", r.preempted_by.c_str(), r.preempted_from.c_str());
    } else {
      if (!r.nominated_node.empty()) ImGui::TextDisabled("nominated to %s", r.nominated_node.c_str());
      ImGui::TextUnformatted(r.unschedulable.c_str());
    }
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();
}

}  // namespace

bool PodChip(const PodView& pod, bool selected, float width) {
  const float h = ImGui::GetTextLineHeight() + Em(0.2f);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::PushID(pod.key.c_str());
  const bool clicked = ImGui::InvisibleButton("chip", ImVec2(width, h));
  ImGui::PopID();
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImU32 fill = OwnerColor(pod.owner);
  if (pod.status == PodStatus::Pending) fill = IM_COL32(90, 60, 30, 255);
  if (pod.status == PodStatus::Gated || pod.status == PodStatus::Preempted) fill = IM_COL32(70, 70, 80, 255);
  const ImVec2 q(p.x + width, p.y + h);
  dl->AddRectFilled(p, q, fill, h * 0.3f);
  if (selected || hovered) dl->AddRect(p, q, colors::kSelected, h * 0.3f, 0, selected ? Em(0.15f) : Em(0.07f));
  const float text_w = ImGui::CalcTextSize(pod.name.c_str()).x;
  const float inner = width - Em(0.8f);
  dl->PushClipRect(p, q, true);
  if (text_w <= inner) {
    dl->AddText(ImVec2(p.x + Em(0.4f), p.y + Em(0.1f)), colors::kText, pod.name.c_str());
  } else {  // truncated: keep the end, where replica suffixes differ
    dl->AddText(ImVec2(p.x + width - Em(0.4f) - text_w, p.y + Em(0.1f)), colors::kText, pod.name.c_str());
  }
  dl->PopClipRect();
  if (hovered) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(pod.key.c_str());
    ImGui::TextDisabled("owner: %s", pod.owner.c_str());
    if (pod.pod)
      ImGui::TextDisabled("requests: cpu %s, memory %s", FormatCpu(pod.requests.milli_cpu).c_str(),
                          FormatBytes(pod.requests.memory).c_str());
    ImGui::TextDisabled("priority: %d", static_cast<int>(pod.result->priority));
    ImGui::EndTooltip();
  }
  return clicked;
}

void DrawCluster(const Snapshot& snap, UiState& ui) {
  // Compact cards by default from kCompactAbove nodes on; the checkbox overrides.
  constexpr std::size_t kCompactAbove = 40;
  bool compact = ui.compact < 0 ? snap.nodes.size() > kCompactAbove : ui.compact == 1;
  if (ImGui::Checkbox("Compact", &compact)) ui.compact = compact ? 1 : 0;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Small node cards, pods as squares (hover, click to inspect)");
  ImGui::SameLine();
  ImGui::TextDisabled("%zu nodes, %zu pods", snap.nodes.size(), snap.pods.size());
  if (snap.unplaced.size() > 200) {  // a long lane would push every node out of view
    ImGui::PushStyleColor(ImGuiCol_Text, colors::kWarn);
    ImGui::Text("%zu pods not running (the first 200 are listed)", snap.unplaced.size());
    ImGui::PopStyleColor();
  }
  PendingLane(snap, ui);

  const auto card = compact ? CompactCard : NodeCard;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = compact ? Em(0.3f) : Em(0.6f);
  const float min_w = compact ? Em(9) : Em(17);
  const int per_row = std::max(1, static_cast<int>((avail + gap) / (min_w + gap)));
  const float w = std::max(min_w, (avail - gap * static_cast<float>(per_row - 1)) / static_cast<float>(per_row));
  const auto n = static_cast<int>(snap.nodes.size());
  for (int row = 0; row * per_row < n; ++row) {
    const int first = row * per_row, last = std::min(n, first + per_row);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    float row_h = 0;
    for (int i = first; i < last; ++i) row_h = std::max(row_h, card(snap, snap.nodes[i], origin, w, false, ui));
    if (ImGui::IsRectVisible(origin, ImVec2(origin.x + avail, origin.y + row_h))) {
      for (int i = first; i < last; ++i) {
        const ImVec2 pos(origin.x + static_cast<float>(i - first) * (w + gap), origin.y);
        const ImVec2 end(pos.x + w, pos.y + row_h);
        ImGui::GetWindowDrawList()->AddRectFilled(pos, end, colors::kCard, Em(0.3f));
        ImGui::GetWindowDrawList()->AddRect(pos, end, colors::kCardBorder, Em(0.3f));
        card(snap, snap.nodes[i], pos, w, true, ui);
      }
    }
    ImGui::SetCursorScreenPos(origin);
    ImGui::Dummy(ImVec2(avail, row_h + gap));
  }
  if (n == 0) ImGui::TextDisabled("No nodes in the scenario.");
}

}  // namespace kplace::app
