// The Rounds panel: the loop a cluster runs, one round at a time (cluster mode): kube-scheduler bound N pods and
// left M pending -> Karpenter's provisioning run over them -> the NodeClaims it launched (instance type, zone,
// capacity type, price) -> the DaemonSet pods created for their Nodes; the next round's kube-scheduler sees them.
// In karpenter mode the one provisioning run is shown the same way (the NodeClaims it would launch). Pods are
// chips: click one to inspect it. Drawn from SimResult::rounds / node_claims / karpenter only.
#include <algorithm>
#include <string>
#include <vector>

#include "app/ui/panels.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "imgui.h"

namespace kplace::app {
namespace {

// Pods as chips, wrapping at the window's right edge. id keeps a pod listed in several places apart.
void PodChips(const Snapshot& snap, const std::vector<std::string>& keys, UiState& ui, const char* id) {
  ImGui::PushID(id);
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  bool first = true;
  for (const auto& key : keys) {
    const int i = snap.FindPod(key);
    if (i < 0) continue;
    const PodView& pod = snap.pods[i];
    const float w = std::min(ImGui::CalcTextSize(pod.name.c_str()).x + Em(0.8f), Em(14));
    if (!first && ImGui::GetItemRectMax().x + spacing + w < right) ImGui::SameLine();
    first = false;
    if (PodChip(pod, ui, w)) ui.selected_pod = pod.key;
  }
  ImGui::PopID();
}

// What Karpenter decided in one provisioning run: counts per outcome and its events.
void ProvisionSummary(const karpenter::Result& k) {
  int node = 0, claim = 0, failed = 0, ignored = 0;
  for (const auto& o : k.pods) {
    node += o.kind == karpenter::PodOutcomeKind::Node;
    claim += o.kind == karpenter::PodOutcomeKind::Claim;
    failed += o.kind == karpenter::PodOutcomeKind::Unschedulable;
    ignored += o.kind == karpenter::PodOutcomeKind::Ignored;
  }
  ImGui::TextDisabled("Karpenter: %d on existing nodes, %d on new NodeClaims, %d unschedulable, %d ignored", node,
                      claim, failed, ignored);
  for (const auto& e : k.events) Wrapped(colors::kWarn, e.object + ": " + e.reason + ": " + e.message);
}

// One row per NodeClaim: name, NodePool, type, zone, capacity type, price, pods (and DaemonSet pods when launched).
void ClaimsTable(const std::vector<const karpenter::ClaimOutcome*>& claims,
                 const std::vector<const sim::LaunchedNodeClaim*>& launched) {
  if (claims.empty()) return;
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  const bool daemons = !launched.empty();
  if (!ImGui::BeginTable("claims", daemons ? 8 : 7, kFlags)) return;
  for (const char* h : {"NodeClaim", "NodePool", "Instance type", "Zone", "Capacity", "Price", "Pods"})
    ImGui::TableSetupColumn(h);
  if (daemons) ImGui::TableSetupColumn("DaemonSet pods created", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const karpenter::ClaimOutcome& c = *claims[i];
    ImGui::TableNextRow();
    for (const std::string* text : {&c.name, &c.node_pool, &c.instance_type, &c.zone, &c.capacity_type}) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(text->c_str());
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatHourly(c.price).c_str());
    if (ImGui::IsItemHovered() && !c.options.empty()) {
      std::string tip = "cheapest compatible offering; instance types still possible:";
      for (std::size_t o = 0; o < c.options.size() && o < 10; ++o)
        tip += "\n  " + Text(c.options[o].instance_type) + "  " + FormatHourly(c.options[o].price);
      ImGui::SetTooltip("%s", tip.c_str());
    }
    ImGui::TableNextColumn();
    ImGui::Text("%zu", c.pods.size());
    if (daemons) {
      ImGui::TableNextColumn();
      std::string names;
      if (launched[i])
        for (const auto& d : launched[i]->daemon_pods) names += (names.empty() ? "" : ", ") + d;
      ImGui::PushTextWrapPos(0);
      ImGui::TextUnformatted(names.empty() ? "none" : names.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  ImGui::EndTable();
}

void KarpenterRound(const karpenter::Result& k) {
  ImGui::TextDisabled("karpenter mode: one provisioning run of Karpenter over the pending pods; nothing launches.");
  ProvisionSummary(k);
  std::vector<const karpenter::ClaimOutcome*> claims;
  for (const auto& c : k.claims) claims.push_back(&c);
  if (!claims.empty()) ImGui::Text("NodeClaims Karpenter would launch (%s):", FormatHourly(k.hourly_price).c_str());
  ClaimsTable(claims, {});
}

}  // namespace

void DrawRounds(const Snapshot& snap, UiState& ui) {
  if (const karpenter::Result* k = snap.karpenter()) {
    KarpenterRound(*k);
    return;
  }
  const auto& rounds = snap.result.rounds;
  Wrapped(colors::kTextDim,
          "Each round: kube-scheduler binds what fits; the pods it leaves Unschedulable go to Karpenter; Karpenter's "
          "NodeClaims launch as Nodes with their DaemonSet pods, which the next round's kube-scheduler sees.");
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    const sim::ClusterRound& r = rounds[i];
    ImGui::PushID(static_cast<int>(i));
    std::string title = "Round " + std::to_string(r.round) + ": kube-scheduler bound " +
                        std::to_string(r.scheduled.size()) + ", pending " + std::to_string(r.unschedulable.size());
    if (r.provision || !r.launched.empty()) title += " \u2192 Karpenter launched " + std::to_string(r.launched.size());
    if (ImGui::CollapsingHeader((title + "###round").c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
      if (!r.scheduled.empty()) {
        ImGui::TextUnformatted("kube-scheduler bound:");
        PodChips(snap, r.scheduled, ui, "scheduled");
      }
      if (!r.unschedulable.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, colors::kWarn);
        ImGui::TextUnformatted("left pending (Unschedulable), Karpenter's input:");
        ImGui::PopStyleColor();
        PodChips(snap, r.unschedulable, ui, "pending");
      }
      if (r.provision) ProvisionSummary(*r.provision);
      std::vector<const karpenter::ClaimOutcome*> claims;
      std::vector<const sim::LaunchedNodeClaim*> launched;
      for (const auto& name : r.launched)
        for (const auto& lc : snap.result.node_claims)
          if (lc.claim.name == name) {
            claims.push_back(&lc.claim);
            launched.push_back(&lc);
          }
      if (!claims.empty()) {
        double hourly = 0;
        for (const auto* c : claims) hourly += c->price;
        ImGui::PushStyleColor(ImGuiCol_Text, colors::kNew);
        ImGui::Text("\u2192 launched %zu NodeClaim%s (%s), their Nodes join the next round:", claims.size(),
                    claims.size() == 1 ? "" : "s", FormatHourly(hourly).c_str());
        ImGui::PopStyleColor();
        ClaimsTable(claims, launched);
      } else if (r.provision) {
        ImGui::TextDisabled("\u2192 nothing launched: the loop ends here.");
      }
    }
    ImGui::PopID();
  }
  if (rounds.empty()) ImGui::TextDisabled("No rounds: this run had no NodePools.");
}

// karpenter mode: "Karpenter" (its one provisioning run); cluster mode with NodePools: "Rounds (N)".
extern const Panel kRoundsPanel;
const Panel kRoundsPanel = {"rounds",
                            [](const Snapshot& snap, const UiState&) {
                              if (!snap.has_karpenter()) return std::string();
                              return snap.karpenter() ? std::string("Karpenter")
                                                      : "Rounds (" + std::to_string(snap.result.rounds.size()) + ")";
                            },
                            [](const Snapshot& snap, const Session&, UiState& ui) {
                              ImGui::BeginChild("rounds");
                              DrawRounds(snap, ui);
                              ImGui::EndChild();
                            }};

}  // namespace kplace::app
