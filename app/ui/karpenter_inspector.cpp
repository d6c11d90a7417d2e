// The inspector's Karpenter part (karpenter and cluster modes), drawn from the result only: the disagreement
// between Karpenter and kube-scheduler, Karpenter's outcome (cluster mode: per round), the relaxation steps of its
// final attempt in its own wording, and per attempt every try: the relaxation applied before it, then each
// candidate on Karpenter's path (existing nodes, NodeClaims opened earlier in the run, a new NodeClaim per NodePool)
// with the reason it was rejected, and the try's error.
#include <algorithm>
#include <string>
#include <vector>

#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "imgui.h"

namespace kplace::app {
namespace {

// Where a candidate sits on Karpenter's path.
std::string Stage(const Snapshot& snap, const std::string& target) {
  if (target.rfind("node/", 0) == 0) {
    const int n = snap.FindNode(target.substr(5));
    return n >= 0 && InFlight(*snap.nodes[n].node) ? "in-flight node" : "existing node";
  }
  if (target.rfind("nodeclaim/", 0) == 0) return "NodeClaim of this run";
  if (target.rfind("nodepool/", 0) == 0) return "new NodeClaim";
  return "";
}

void Relaxations(const std::vector<std::string>& steps) {
  if (steps.empty()) return;
  ImGui::TextUnformatted("Relaxed, in order (final attempt):");
  for (std::size_t i = 0; i < steps.size(); ++i) Wrapped(colors::kNew, std::to_string(i + 1) + ". " + steps[i]);
}

// Where the pod's volumes can attach (the topology of its bound PVs or of its claims' StorageClasses): Karpenter adds
// one alternative at a time to a node's or NodeClaim's requirements, never to the pod's own.
void VolumeTopology(const std::vector<std::string>& alternatives) {
  if (alternatives.empty()) return;
  ImGui::TextUnformatted(alternatives.size() == 1 ? "Its volumes need:" : "Its volumes need one of:");
  for (const auto& a : alternatives) Wrapped(colors::kTextDim, "  " + (a.empty() ? std::string("(anywhere)") : a));
}

void Attempts(const Snapshot& snap, const karpenter::PodOutcome& o) {
  const std::size_t n = o.attempts.size();
  for (std::size_t ai = 0; ai < n; ++ai) {
    const karpenter::QueueAttempt& a = o.attempts[ai];
    ImGui::PushID(static_cast<int>(ai));
    const std::string title = "Karpenter attempt " + std::to_string(ai + 1) + " of " + std::to_string(n) + ": " +
                              (a.fit ? "fits" : "does not fit") + "###karpenter_attempt";
    if (ImGui::TreeNodeEx(title.c_str(), ai + 1 == n ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      for (std::size_t ti = 0; ti < a.tries.size(); ++ti) {
        const karpenter::AddTry& t = a.tries[ti];
        ImGui::PushID(static_cast<int>(ti));
        if (!t.relaxation.empty()) Wrapped(colors::kNew, "relaxed: " + t.relaxation);
        constexpr ImGuiTableFlags kFlags =
            ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
        if (!t.candidates.empty() && ImGui::BeginTable("candidates", 3, kFlags)) {
          ImGui::TableSetupColumn("Step");
          ImGui::TableSetupColumn("Candidate");
          ImGui::TableSetupColumn("Verdict", ImGuiTableColumnFlags_WidthStretch);
          ImGui::TableHeadersRow();
          for (const auto& c : t.candidates) {
            ImGui::TableNextRow();
            if (c.reason.empty()) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(40, 90, 50, 255));
            ImGui::TableNextColumn();
            ImGui::TextDisabled("%s", Stage(snap, c.target).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(c.target.c_str());
            ImGui::TableNextColumn();
            if (c.reason.empty()) {
              ImGui::PushStyleColor(ImGuiCol_Text, colors::kOk);
              ImGui::TextUnformatted("fits");
              ImGui::PopStyleColor();
            } else {
              ImGui::PushTextWrapPos(0);
              ImGui::TextUnformatted(c.reason.c_str());
              ImGui::PopTextWrapPos();
            }
          }
          ImGui::EndTable();
        }
        if (!t.error.empty()) Wrapped(colors::kError, t.error);
        ImGui::PopID();
      }
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
}

// Karpenter's decision in its event wording (pkg/controllers/provisioning/scheduling/events.go).
void Outcome(const karpenter::Result& k, const karpenter::PodOutcome& o) {
  switch (o.kind) {
    case karpenter::PodOutcomeKind::Node:
      Wrapped(colors::kOk, "Karpenter: Pod should schedule on: node/" + o.node);
      break;
    case karpenter::PodOutcomeKind::Claim: {
      if (o.claim < 0 || static_cast<std::size_t>(o.claim) >= k.claims.size()) break;
      const karpenter::ClaimOutcome& c = k.claims[static_cast<std::size_t>(o.claim)];
      Wrapped(colors::kOk, "Karpenter: Pod should schedule on: nodeclaim/" + c.name);
      Wrapped(colors::kTextDim, "NodePool " + c.node_pool + ": " + ClaimSummary(c));
      break;
    }
    case karpenter::PodOutcomeKind::Unschedulable:
      Wrapped(colors::kWarn, "Karpenter: Failed to schedule pod, " + o.reason);
      break;
    case karpenter::PodOutcomeKind::Ignored:
      Wrapped(colors::kWarn, "Karpenter ignored the pod: " + o.reason);
      break;
    case karpenter::PodOutcomeKind::NotProvisionable:
      if (!o.reason.empty()) Wrapped(colors::kTextDim, "Karpenter does not provision for it: " + o.reason);
      break;
  }
}

const karpenter::PodOutcome* OutcomeIn(const karpenter::Result& k, const std::string& key) {
  for (const auto& o : k.pods)
    if (o.key == key) return &o;
  return nullptr;
}

void PathNote(const Snapshot& snap) {
  Wrapped(colors::kTextDim,
          "Karpenter tries existing nodes (initialised first), then the NodeClaims it opened earlier in the run, then "
          "a new NodeClaim from each NodePool by weight; when nothing fits it relaxes one preference and tries again.");
  if (!snap.explained) Wrapped(colors::kTextDim, "(A background run records no candidates.)");
}

}  // namespace

void DrawKarpenterInspector(const Snapshot& snap, const PodView& pod, UiState&) {
  const sim::PodResult& r = *pod.result;
  if (!r.disagreement.empty()) {  // prominent: a filled box around the line
    const std::string text = "Karpenter and kube-scheduler disagree: " + r.disagreement;
    const float wrap = std::max(Em(8), ImGui::GetContentRegionAvail().x - Em(1));
    const ImVec2 ts = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + ts.x + Em(1), p.y + ts.y + Em(0.6f)),
                                              IM_COL32(80, 60, 20, 255), Em(0.3f));
    const ImVec2 local = ImGui::GetCursorPos();
    ImGui::SetCursorPos(ImVec2(local.x + Em(0.5f), local.y + Em(0.3f)));
    ImGui::PushStyleColor(ImGuiCol_Text, colors::kWarn);
    ImGui::PushTextWrapPos(local.x + Em(0.5f) + wrap);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::SetCursorPos(ImVec2(local.x, local.y + ts.y + Em(0.6f)));
    ImGui::Dummy(ImVec2(0, Em(0.2f)));
  }
  if (const karpenter::Result* k = snap.karpenter(); k && pod.karpenter) {  // karpenter mode: one round
    Outcome(*k, *pod.karpenter);
    VolumeTopology(pod.karpenter->volume_requirements);
    Relaxations(pod.karpenter->relaxations);
    if (!pod.karpenter->attempts.empty()) {
      PathNote(snap);
      Attempts(snap, *pod.karpenter);
    }
    return;
  }
  if (r.karpenter.empty()) return;
  ImGui::TextUnformatted("Karpenter");
  PathNote(snap);
  for (std::size_t i = r.karpenter.size(); i-- > 0;) {
    const sim::KarpenterNomination& n = r.karpenter[i];
    ImGui::PushID(static_cast<int>(i));
    std::string title = "Round " + std::to_string(n.round) + ": ";
    title += n.target.empty() ? "no place" : "Pod should schedule on: " + n.target;
    if (!n.node.empty() && n.target != "node/" + n.node) title += " (Node " + n.node + ")";
    if (ImGui::CollapsingHeader((title + "###karpenter_round").c_str(),
                                i + 1 == r.karpenter.size() ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      if (!n.reason.empty()) Wrapped(n.target.empty() ? colors::kWarn : colors::kTextDim, n.reason);
      const karpenter::PodOutcome* o = nullptr;
      for (const auto& round : snap.result.rounds)
        if (round.round == n.round && round.provision) o = OutcomeIn(*round.provision, pod.key);
      VolumeTopology(n.volume_requirements);
      Relaxations(n.relaxations);
      if (o) Attempts(snap, *o);
    }
    ImGui::PopID();
  }
}

}  // namespace kplace::app
