// The cluster view: the cost of new capacity (Karpenter), the pending lane (pods that did not get a node, with
// kube-scheduler's message and Karpenter's reason), then the nodes (grouped by zone and NodePool when Karpenter has
// a part), one card per node: name, zone / instance type / capacity type / price, taint badges coloured by effect,
// requested vs allocatable bars, and the node's pods as chips coloured by owner (a warning corner marks a pod
// Karpenter meant to place elsewhere). Nodes Karpenter launched in this run have a "new · round N" badge and border,
// in-flight nodes a dashed border; in karpenter mode the NodeClaims it would launch are dashed ghost cards holding
// their pods. Click a chip to inspect the pod. Direct edits: click a taint badge for the next effect, right-click it to
// remove it, click "cordon" / "cordoned" to flip spec.unschedulable. Above 40 nodes the cards are compact (name, taint
// dots, cpu bar, pods as squares).
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app/ui/cluster_cards.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "core/model/symbol.h"
#include "core/sim/launch.h"
#include "imgui.h"

namespace kplace::app {
namespace {

std::string TaintLabel(const Taint& t) { return sim::TaintsText({t}); }

// Lays out one node card at pos with width w and, when draw, draws it (chips are buttons). Returns its height.
// Karpenter's disruption verdict for a node card: what the dry run's command does to it ("delete", "replace"), or
// "blocked" for a node it manages but may not disrupt; "" otherwise. tip: the command or the reason.
std::string DisruptionMark(const io::Json* d, const std::string& node, ImU32* color, std::string* tip) {
  if (!d || !d->contains("disruption")) return "";
  const io::Json& r = (*d)["disruption"];
  if (r.contains("commands"))
    for (const auto& c : r["commands"])
      for (const auto& n : c["nodes"])
        if (n == node) {
          const std::string decision = c.value("decision", "");
          *color = decision == "replace" ? colors::kWarn : colors::kError;
          *tip = "Karpenter's disruption controller: " + c.value("method", "") + " " + c.value("text", "");
          return decision;
        }
  auto it = r.find("nodes");
  if (it == r.end() || !it->contains(node)) return "";
  const io::Json& n = (*it)[node];
  if (!n.value("managed", false) || n.value("candidate", false)) return "";
  *color = colors::kTextFaint;
  *tip = "Karpenter may not disrupt it: " + n.value("blocked", "");
  return "blocked";
}

float NodeCard(const Snapshot& snap, const NodeView& nv, ImVec2 pos, float w, bool draw, UiState& ui,
               const io::Json* disruption) {
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
    if (auto v = NodeLabel(node, key); !v.empty()) detail += (detail.empty() ? "" : "  ") + v;
  if (nv.launched && nv.launched->claim.price > 0)
    detail += (detail.empty() ? "" : "  ") + FormatHourly(nv.launched->claim.price);

  if (draw) {
    dl->AddText(ImVec2(left, y), colors::kText, node.meta.name.c_str());
    ImU32 mark_color = 0;
    std::string mark_tip;
    if (const std::string mark = DisruptionMark(disruption, node.meta.name, &mark_color, &mark_tip); !mark.empty()) {
      const ImVec2 at(left + ImGui::CalcTextSize(node.meta.name.c_str()).x + gap, y);
      const float bw = Badge(dl, at, mark_color, mark);
      if (ImGui::IsMouseHoveringRect(at, ImVec2(at.x + bw, at.y + line)) && ImGui::IsWindowHovered())
        ImGui::SetTooltip("%s", mark_tip.c_str());
    }
    if (nv.launched || node.item_index < 0) {
      // Launched by Karpenter in this run: not in the text, so no direct edits; a badge instead of the switch.
      // A step of the timeline between its launch and its initialisation: in flight.
      const bool launching = nv.launched && !nv.launched->initialized;
      const std::string badge = launching     ? std::string("launching")
                                : nv.launched ? "new \u00b7 round " + std::to_string(nv.launched->round)
                                              : "new";
      Badge(dl, ImVec2(right - BadgeWidth(badge), y), launching ? colors::kInFlight : colors::kNew, badge);
      if (nv.launched && ImGui::IsMouseHoveringRect(ImVec2(left, y), ImVec2(right, y + line)) &&
          ImGui::IsWindowHovered()) {
        const sim::LaunchedNodeClaim& lc = *nv.launched;
        std::string tip = "NodeClaim " + lc.claim.name + " (NodePool " + lc.claim.node_pool +
                          ") launched by Karpenter in round " + std::to_string(lc.round) + "\n" +
                          ClaimSummary(lc.claim);
        if (!lc.startup_taints.empty()) {
          tip += "\nstartup taints (removed once it initialised):";
          for (const auto& t : lc.startup_taints) tip += " " + TaintLabel(t);
        }
        if (!lc.daemon_pods.empty()) tip += "\nDaemonSet pods: " + std::to_string(lc.daemon_pods.size());
        ImGui::SetTooltip("%s", tip.c_str());
      }
    } else {
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
        ui.pending_edit =
            Edit{node.unschedulable ? Edit::Kind::Uncordon : Edit::Kind::Cordon, node.meta.name, 0, "", ""};
      if (InFlight(node)) {
        const float x = right - ts.x - Em(0.5f) - BadgeWidth("in flight");
        Badge(dl, ImVec2(x, y), colors::kInFlight, "in flight");
        if (ImGui::IsMouseHoveringRect(ImVec2(x, y), ImVec2(right - ts.x, y + line)))
          ImGui::SetTooltip(
              "Managed by NodePool %s and not karpenter.sh/initialized: Karpenter ignores its known "
              "ephemeral taints and orders it after initialised nodes.",
              NodeLabel(node, "karpenter.sh/nodepool").c_str());
      }
    }
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
        ClippedText(dl, ImVec2(p.x + Em(0.4f), p.y), colors::kText, taints[i].c_str(), p, q);
        if (hovered && node.item_index < 0) {
          ImGui::SetTooltip("%s\nFrom the NodePool's template (this Node is not in the text).", taints[i].c_str());
        } else if (hovered) {
          ImGui::SetTooltip("%s\nClick: make it %s.  Right-click: remove it.", taints[i].c_str(),
                            NextEffect(EffectName(node.taints[i].effect)));
          if (ImGui::IsMouseClicked(ImGuiMouseButton_Right))
            ui.pending_edit = Edit{Edit::Kind::RemoveTaint, node.meta.name, i, "", ""};
        }
        if (clicked && node.item_index >= 0) ui.pending_edit = Edit{Edit::Kind::TaintEffect, node.meta.name, i, "", ""};
      }
    }
    y = flow.Bottom();
  }

  y += gap;
  if (draw) {
    const Resource& a = node.allocatable;
    ResourceBars(dl, ImVec2(left, y), right - left, line, nv.requested, a);
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
        if (PodChip(pod, ui, cw)) ui.selected_pod = pod.key;
        RecordTarget(ui, "pod:" + pod.key);
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
    ClippedText(dl, ImVec2(left, y), node.unschedulable ? colors::kWarn : colors::kText, node.meta.name.c_str(),
                ImVec2(left, y), ImVec2(right - dots, y + line));
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
      dl->AddRectFilled(p, q, OwnerColor(pod.owner));
      if (ImGui::IsMouseHoveringRect(p, q) && ImGui::IsWindowHovered()) {
        dl->AddRect(p, q, colors::kSelected);
        ImGui::SetTooltip("%s\nowner: %s", pod.key.c_str(), pod.owner.c_str());
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ui.selected_pod = pod.key;
      }
      if (selected) dl->AddRect(p, q, colors::kSelected, 0, 0, Em(0.12f));
      if (!pod.result->disagreement.empty())
        dl->AddTriangleFilled(ImVec2(q.x - cell * 0.5f, p.y), ImVec2(q.x, p.y), ImVec2(q.x, p.y + cell * 0.5f),
                              colors::kWarn);
    }
    y = flow.Bottom();
  }
  return y + pad - pos.y;
}

// Why a pod is not running as Karpenter sees it: karpenter mode, its outcome; cluster mode, its last round.
std::string KarpenterWhy(const PodView& pod) {
  if (const karpenter::PodOutcome* k = pod.karpenter) {
    switch (k->kind) {
      case karpenter::PodOutcomeKind::Unschedulable:
        return "Karpenter: " + k->reason;
      case karpenter::PodOutcomeKind::Ignored:
        return "Karpenter ignored it: " + k->reason;
      case karpenter::PodOutcomeKind::NotProvisionable:
        return "Not provisionable: " + k->reason;
      case karpenter::PodOutcomeKind::Node:
      case karpenter::PodOutcomeKind::Claim:
        break;
    }
    return "";
  }
  const auto& rounds = pod.result->karpenter;
  if (rounds.empty()) return "";
  const sim::KarpenterNomination& n = rounds.back();
  const std::string round = "Karpenter (round " + std::to_string(n.round) + "): ";
  return round + (n.target.empty() ? n.reason : "nominated " + n.target);
}

void PendingLane(const Snapshot& snap, UiState& ui) {
  if (snap.unplaced.empty()) return;
  int pending = 0, gated = 0, preempted = 0, other = 0;
  for (int i : snap.unplaced) {
    pending += snap.pods[i].status == PodStatus::Pending;
    gated += snap.pods[i].status == PodStatus::Gated;
    preempted += snap.pods[i].status == PodStatus::Preempted;
    other += snap.pods[i].status == PodStatus::OtherScheduler;
  }
  std::string title;
  for (auto [n, what] : {std::pair{pending, "pending"},
                         {gated, "gated"},
                         {preempted, "preempted"},
                         {other, "left to another scheduler"}})
    if (n) title += (title.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  ImGui::PushStyleColor(ImGuiCol_Text, colors::kWarn);
  ImGui::TextUnformatted(("Not running: " + title).c_str());
  ImGui::PopStyleColor();
  for (std::size_t n = 0; n < snap.unplaced.size() && n < 200; ++n) {
    const PodView& pod = snap.pods[snap.unplaced[n]];
    const float cw = std::min(ImGui::CalcTextSize(pod.name.c_str()).x + Em(0.8f), Em(12));
    if (PodChip(pod, ui, cw)) ui.selected_pod = pod.key;
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0);
    const sim::PodResult& r = *pod.result;
    if (pod.status == PodStatus::Gated) {
      std::string gates;
      for (const auto& g : r.scheduling_gates) gates += (gates.empty() ? "" : ", ") + g;
      ImGui::TextDisabled("SchedulingGated: %s", gates.c_str());
    } else if (pod.status == PodStatus::Preempted) {
      ImGui::TextDisabled("Preempted by %s on %s", r.preempted_by.c_str(), r.preempted_from.c_str());
    } else if (pod.status == PodStatus::OtherScheduler) {
      ImGui::TextDisabled("spec.schedulerName: %s (not kube-scheduler's)", r.other_scheduler.c_str());
    } else {
      if (!r.nominated_node.empty()) ImGui::TextDisabled("nominated to %s", r.nominated_node.c_str());
      const std::string why = KarpenterWhy(pod);
      if (!pod.karpenter && r.attempts.empty() && r.unschedulable.empty())
        ImGui::TextDisabled("in the queue, not tried yet");  // a step of the timeline
      else if (!pod.karpenter)
        ImGui::TextUnformatted(r.unschedulable.c_str());  // kube-scheduler's FailedScheduling
      if (!why.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, colors::kNew);
        ImGui::TextUnformatted(why.c_str());
        ImGui::PopStyleColor();
      }
      if (!r.disagreement.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, colors::kWarn);
        ImGui::TextUnformatted(r.disagreement.c_str());
        ImGui::PopStyleColor();
      }
    }
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();
}

using Group = ClusterGroup;

// Groups by zone (named zones first, in order), then NodePool (unmanaged nodes first); one group in snapshot order
// when Karpenter has no part in the scenario.
std::vector<Group> Groups(const Snapshot& snap) {
  if (!snap.has_karpenter() && snap.scenario.node_pools.empty()) {
    Group all;
    for (int i = 0; i < static_cast<int>(snap.nodes.size()); ++i) all.nodes.push_back(i);
    return {all};
  }
  std::map<std::pair<std::string, std::string>, Group> by_key;
  auto at = [&](const std::string& zone, const std::string& pool) -> Group& {
    Group& g = by_key[{zone.empty() ? "\x7f" : zone, pool}];
    g.zone = zone;
    g.pool = pool;
    return g;
  };
  for (int i = 0; i < static_cast<int>(snap.nodes.size()); ++i) {
    const Node& n = *snap.nodes[i].node;
    at(NodeLabel(n, "topology.kubernetes.io/zone"), NodeLabel(n, "karpenter.sh/nodepool")).nodes.push_back(i);
  }
  for (int i = 0; i < static_cast<int>(snap.claims.size()); ++i) {
    const karpenter::ClaimOutcome& c = *snap.claims[i].claim;
    at(c.zone, c.node_pool).claims.push_back(i);
  }
  std::vector<Group> out;
  for (auto& [key, g] : by_key) out.push_back(std::move(g));
  return out;
}

void GroupHeader(const Group& g) {
  std::string title = g.zone.empty() ? "no zone label" : g.zone;
  title += g.pool.empty() ? "  \u00b7  not managed by a NodePool" : "  \u00b7  NodePool " + g.pool;
  ImGui::PushStyleColor(ImGuiCol_Text, colors::kTextDim);
  ImGui::TextUnformatted(title.c_str());
  ImGui::PopStyleColor();
  ImGui::SameLine();
  std::string count = std::to_string(g.nodes.size()) + (g.nodes.size() == 1 ? " node" : " nodes");
  if (!g.claims.empty()) count += ", " + std::to_string(g.claims.size()) + " to launch";
  ImGui::TextDisabled("(%s)", count.c_str());
}

}  // namespace

void DrawCluster(const Snapshot& snap, UiState& ui, const io::Json* disruption) {
  // Compact cards by default from kCompactAbove nodes on; the checkbox overrides.
  constexpr std::size_t kCompactAbove = 40;
  bool compact = ui.compact < 0 ? snap.nodes.size() > kCompactAbove : ui.compact == 1;
  if (ImGui::Checkbox("Compact", &compact)) ui.compact = compact ? 1 : 0;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Small node cards, pods as squares (hover, click to inspect)");
  ImGui::SameLine();
  ImGui::TextDisabled("%zu nodes, %zu pods", snap.nodes.size(), snap.pods.size());
  CostLine(snap);
  if (snap.unplaced.size() > 200) {  // a long lane would push every node out of view
    ImGui::PushStyleColor(ImGuiCol_Text, colors::kWarn);
    ImGui::Text("%zu pods not running (the first 200 are listed)", snap.unplaced.size());
    ImGui::PopStyleColor();
  }
  PendingLane(snap, ui);

  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = compact ? Em(0.3f) : Em(0.6f);
  const float min_w = compact ? Em(9) : Em(17);
  const int per_row = std::max(1, static_cast<int>((avail + gap) / (min_w + gap)));
  const float w = std::max(min_w, (avail - gap * static_cast<float>(per_row - 1)) / static_cast<float>(per_row));
  // A card of the group: a node (i >= 0) or a NodeClaim to launch (claims after the nodes).
  auto card = [&](const Group& g, int item, ImVec2 pos, bool draw) {
    const int nodes = static_cast<int>(g.nodes.size());
    if (item < nodes) {
      const NodeView& nv = snap.nodes[g.nodes[item]];
      return compact ? CompactCard(snap, nv, pos, w, draw, ui) : NodeCard(snap, nv, pos, w, draw, ui, disruption);
    }
    return GhostCard(snap, snap.claims[g.claims[item - nodes]], pos, w, draw, compact, ui);
  };
  ClusterLayout& layout = ui.cluster_layout;
  if (layout.snapshot != &snap || layout.generation != snap.generation || layout.card_width != w ||
      layout.em != Em(1) || layout.per_row != per_row || layout.compact != compact) {
    layout = ClusterLayout{&snap, snap.generation, w, Em(1), per_row, compact, Groups(snap), {}};
    for (const Group& g : layout.groups) {
      std::vector<float>& heights = layout.row_heights.emplace_back();
      const int n = static_cast<int>(g.nodes.size() + g.claims.size());
      for (int first = 0; first < n; first += per_row) {
        float row_h = 0;
        for (int i = first; i < std::min(n, first + per_row); ++i)
          row_h = std::max(row_h, card(g, i, ImVec2(0, 0), false));
        heights.push_back(row_h);
      }
    }
  }
  const std::vector<Group>& groups = layout.groups;
  const bool headers = groups.size() > 1 || (!groups.empty() && (!groups[0].zone.empty() || !groups[0].pool.empty()));
  for (std::size_t k = 0; k < groups.size(); ++k) {
    const Group& g = groups[k];
    if (headers) GroupHeader(g);
    const int n = static_cast<int>(g.nodes.size() + g.claims.size());
    for (int row = 0; row * per_row < n; ++row) {
      const int first = row * per_row, last = std::min(n, first + per_row);
      const ImVec2 origin = ImGui::GetCursorScreenPos();
      const float row_h = layout.row_heights[k][static_cast<std::size_t>(row)];
      if (ImGui::IsRectVisible(origin, ImVec2(origin.x + avail, origin.y + row_h))) {
        ImDrawList* dl = ImGui::GetWindowDrawList();
        for (int i = first; i < last; ++i) {
          const ImVec2 pos(origin.x + static_cast<float>(i - first) * (w + gap), origin.y);
          const ImVec2 end(pos.x + w, pos.y + row_h);
          if (i >= static_cast<int>(g.nodes.size())) {  // a NodeClaim to launch: a ghost
            dl->AddRectFilled(pos, end, colors::kGhostFill, Em(0.3f));
            DashedRect(dl, pos, end, colors::kNew, Em(0.1f));
          } else if (const NodeView& nv = snap.nodes[g.nodes[i]]; nv.launched) {  // launched in this run
            dl->AddRectFilled(pos, end, colors::kCard, Em(0.3f));
            dl->AddRect(pos, end, colors::kNew, Em(0.3f), 0, Em(0.12f));
          } else if (InFlight(*nv.node)) {
            dl->AddRectFilled(pos, end, colors::kCard, Em(0.3f));
            DashedRect(dl, pos, end, colors::kInFlight, Em(0.1f));
          } else {
            dl->AddRectFilled(pos, end, colors::kCard, Em(0.3f));
            dl->AddRect(pos, end, colors::kCardBorder, Em(0.3f));
          }
          card(g, i, pos, true);
        }
      }
      ImGui::SetCursorScreenPos(origin);
      ImGui::Dummy(ImVec2(avail, row_h + gap));
    }
  }
  if (snap.nodes.empty() && snap.claims.empty()) ImGui::TextDisabled("No nodes in the scenario.");
}

}  // namespace kplace::app
