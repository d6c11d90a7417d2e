// The NodeClaims Karpenter would launch (karpenter mode) as ghost cards, the cost line of new capacity, and the
// small drawing helpers the node cards share with them (cluster_cards.h).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/ui/cluster_cards.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "core/model/symbol.h"
#include "core/model/taint.h"
#include "core/sim/launch.h"

namespace kplace::app {

std::string FormatHourly(double price) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "$%.4f/h", price);
  return buf;
}

std::string FormatMonthly(double hourly) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "$%.2f/month", hourly * 730);
  return buf;
}

std::string ClaimSummary(const karpenter::ClaimOutcome& c) {
  std::string s;
  for (const std::string* part : {&c.instance_type, &c.zone, &c.capacity_type})
    if (!part->empty()) s += (s.empty() ? "" : " \u00b7 ") + *part;
  if (c.price > 0) s += (s.empty() ? "" : " \u00b7 ") + FormatHourly(c.price);
  return s;
}

std::string NodeLabel(const Node& node, const char* key) {
  const std::string* value = node.meta.LabelValue(key);
  return value ? *value : "";
}

bool InFlight(const Node& node) {
  return !NodeLabel(node, "karpenter.sh/nodepool").empty() && NodeLabel(node, "karpenter.sh/initialized") != "true";
}

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

void ResourceBars(ImDrawList* dl, ImVec2 pos, float w, float line, const Resource& requested,
                  const Resource& allocatable) {
  const Resource& r = requested;
  const Resource& a = allocatable;
  Bar(dl, pos, w, line, "cpu", r.milli_cpu, a.milli_cpu, FormatCpu(r.milli_cpu) + " / " + FormatCpu(a.milli_cpu));
  Bar(dl, ImVec2(pos.x, pos.y + line), w, line, "memory", r.memory, a.memory,
      FormatBytes(r.memory) + " / " + FormatBytes(a.memory));
}

void DashedRect(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color, float thickness) {
  const float dash = Em(0.5f), gap = Em(0.3f);
  auto line = [&](ImVec2 p, ImVec2 q) {
    const float len = std::hypot(q.x - p.x, q.y - p.y);
    if (len <= 0) return;
    const ImVec2 d((q.x - p.x) / len, (q.y - p.y) / len);
    for (float t = 0; t < len; t += dash + gap) {
      const float e = std::min(len, t + dash);
      dl->AddLine(ImVec2(p.x + d.x * t, p.y + d.y * t), ImVec2(p.x + d.x * e, p.y + d.y * e), color, thickness);
    }
  };
  line(a, ImVec2(b.x, a.y));
  line(ImVec2(b.x, a.y), b);
  line(b, ImVec2(a.x, b.y));
  line(ImVec2(a.x, b.y), a);
}

float BadgeWidth(const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x + Em(0.6f); }

float Badge(ImDrawList* dl, ImVec2 pos, ImU32 color, const std::string& text) {
  const float w = BadgeWidth(text), h = ImGui::GetTextLineHeight();
  dl->AddRectFilled(pos, ImVec2(pos.x + w, pos.y + h), color, h * 0.3f);
  dl->AddText(ImVec2(pos.x + Em(0.3f), pos.y), IM_COL32(20, 22, 26, 255), text.c_str());
  return w;
}

float GhostCard(const Snapshot& snap, const ClaimView& cv, ImVec2 pos, float w, bool draw, bool compact, UiState& ui) {
  const karpenter::ClaimOutcome& c = *cv.claim;
  const float pad = compact ? Em(0.3f) : Em(0.5f), line = ImGui::GetTextLineHeight();
  const float gap = compact ? Em(0.15f) : Em(0.3f);
  const float left = pos.x + pad, right = pos.x + w - pad;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float y = pos.y + pad;
  const std::string badge = compact ? "new" : "would launch";
  if (draw) {
    const float bw = BadgeWidth(badge);
    ClippedText(dl, ImVec2(left, y), colors::kText, ("nodeclaim/" + c.name).c_str(), ImVec2(left, y),
                ImVec2(right - bw - gap, y + line));
    Badge(dl, ImVec2(right - bw, y), colors::kNew, badge);
    if (ImGui::IsMouseHoveringRect(ImVec2(left, y), ImVec2(right, y + line)) && ImGui::IsWindowHovered()) {
      std::string tip = "NodeClaim " + c.name + " (NodePool " + c.node_pool + "): Karpenter would launch it.\n" +
                        ClaimSummary(c) + "\ninstance types still possible:";
      for (std::size_t i = 0; i < c.options.size() && i < 8; ++i)
        tip += "\n  " + Text(c.options[i].instance_type) + "  " + FormatHourly(c.options[i].price);
      if (c.options.size() > 8) tip += "\n  ... " + std::to_string(c.options.size() - 8) + " more";
      for (const auto& r : c.requirements) tip += "\n" + r;
      ImGui::SetTooltip("%s", tip.c_str());
    }
  }
  y += line;
  if (!compact) {
    if (draw) dl->AddText(ImVec2(left, y), colors::kTextDim, ClaimSummary(c).c_str());
    y += line;
    if (!c.taints.empty()) {
      if (draw) dl->AddText(ImVec2(left, y), colors::kTextFaint, ("taints " + sim::TaintsText(c.taints)).c_str());
      y += line;
    }
    y += gap;
    if (draw) {
      ResourceBars(dl, ImVec2(left, y), right - left, line, c.requests, cv.allocatable);
    }
    y += 2 * line + gap;
  } else {
    y += gap;
  }
  if (!cv.pods.empty()) {
    const float cell = compact ? Em(0.6f) : line + Em(0.2f);
    Flow flow{left, right, left, y, cell, gap};
    for (int i : cv.pods) {
      const PodView& pod = snap.pods[i];
      const float cw = compact ? cell : std::min(ImGui::CalcTextSize(pod.name.c_str()).x + Em(0.8f), right - left);
      const ImVec2 p = flow.Place(cw);
      if (!draw) continue;
      if (compact) {
        const ImVec2 q(p.x + cell, p.y + cell);
        dl->AddRectFilled(p, q, OwnerColor(pod.owner), Em(0.1f));
        if (ImGui::IsMouseHoveringRect(p, q) && ImGui::IsWindowHovered()) {
          dl->AddRect(p, q, colors::kSelected);
          ImGui::SetTooltip("%s\non nodeclaim/%s", pod.key.c_str(), c.name.c_str());
          if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ui.selected_pod = pod.key;
        }
        if (pod.key == ui.selected_pod) dl->AddRect(p, q, colors::kSelected, 0, 0, Em(0.12f));
        continue;
      }
      ImGui::SetCursorScreenPos(p);
      if (PodChip(pod, ui, cw)) ui.selected_pod = pod.key;
    }
    y = flow.Bottom();
  }
  return y + pad - pos.y;
}

void CostLine(const Snapshot& snap) {
  std::size_t count = 0;
  double hourly = 0;
  const char* what = "";
  if (const karpenter::Result* k = snap.karpenter()) {
    count = k->claims.size();
    hourly = k->hourly_price;
    what = "to launch";
  } else if (!snap.result.node_claims.empty()) {
    count = snap.result.node_claims.size();
    hourly = snap.result.hourly_price;
    what = "launched";
  }
  if (count == 0) return;
  ImGui::PushStyleColor(ImGuiCol_Text, colors::kNew);
  ImGui::Text("New capacity: %zu NodeClaim%s %s, %s = %s", count, count == 1 ? "" : "s", what,
              FormatHourly(hourly).c_str(), FormatMonthly(hourly).c_str());
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Sum of each NodeClaim's cheapest compatible offering (price per hour); a month is 730 h.");
}

}  // namespace kplace::app
