// The pod inspector: why the selected pod is where it is. For each scheduling attempt, kube-scheduler's Filter
// verdict per node (the rejecting plugin and its reasons), the Score table per plugin (raw, normalized, weight,
// weighted, total), the chosen node and its tie set, the FailedScheduling message, and DefaultPreemption's
// candidates and choice. A node rejected for an untolerated taint offers "add toleration" (a direct edit). Pods of
// a background run (no explanations recorded) get theirs on demand from the Web Worker, shown as JSON. In karpenter
// and cluster modes Karpenter's record comes first (karpenter_inspector.cpp).
#include <algorithm>
#include <string>

#include "app/ui/panels.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "core/model/taint.h"
#include "core/scheduler/framework/status.h"
#include "imgui.h"

namespace kplace::app {
namespace {

std::string Join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

// What the inspector's buttons need besides the explanation.
struct Context {
  const Snapshot& snap;
  const PodView& pod;
  UiState& ui;
};

// The node's first taint the pod does not tolerate and that Filter honours (NoSchedule, NoExecute): its index in
// spec.taints, or -1.
int UntoleratedTaint(const Context& ctx, const std::string& node_name) {
  const int ni = ctx.snap.FindNode(node_name);
  if (ni < 0 || !ctx.pod.pod) return -1;
  const auto& taints = ctx.snap.nodes[ni].node->taints;
  const Taint* t = FindUntoleratedTaint(taints, ctx.pod.pod->tolerations, [](const Taint& x) {
    return x.effect == TaintEffect::NoSchedule || x.effect == TaintEffect::NoExecute;
  });
  return t ? static_cast<int>(t - taints.data()) : -1;
}

void FilterTable(const CycleExplanation& c, const Context& ctx) {
  ImGui::TextUnformatted("Filter");
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, colors::kTextDim);
  ImGui::TextWrapped("(%s)", Join(c.filter_plugins, ", ").c_str());
  ImGui::PopStyleColor();
  if (c.num_nodes_to_find > 0 && c.num_nodes_to_find < c.num_all_nodes)
    ImGui::TextDisabled("stops after %zu feasible of %zu nodes (percentageOfNodesToScore)", c.num_nodes_to_find,
                        c.num_all_nodes);
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("filter", 4, kFlags)) return;
  ImGui::TableSetupColumn("Node");
  ImGui::TableSetupColumn("Verdict");
  ImGui::TableSetupColumn("Plugin");
  ImGui::TableSetupColumn("Reasons", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const auto& n : c.nodes) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(n.node.c_str());
    ImGui::TableNextColumn();
    ImGui::PushStyleColor(ImGuiCol_Text, n.feasible ? colors::kOk : colors::kError);
    ImGui::TextUnformatted(n.feasible ? "passed" : framework::CodeName(n.code));
    ImGui::PopStyleColor();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(n.plugin.c_str());
    ImGui::TableNextColumn();
    if (!n.feasible && n.plugin == "TaintToleration") {
      if (const int taint = UntoleratedTaint(ctx, n.node); taint >= 0) {
        ImGui::PushID(n.node.c_str());
        if (ImGui::SmallButton("add toleration"))
          ctx.ui.pending_edit =
              Edit{Edit::Kind::AddToleration, n.node, static_cast<std::size_t>(taint), "", ctx.pod.key};
        RecordTarget(ctx.ui, "tolerate:" + n.node);
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("Append a toleration of this taint to the pod's spec.tolerations");
        ImGui::PopID();
        ImGui::SameLine();
      }
    }
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(Join(n.reasons, ", ").c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndTable();
}

void ScoreTable(const CycleExplanation& c) {
  if (c.scores.empty()) return;
  ImGui::Text("Score");
  ImGui::SameLine();
  ImGui::TextDisabled("(each cell: normalized x weight = weighted; raw below)");
  const auto& plugins = c.scores.front().plugins;
  const int columns = 2 + static_cast<int>(plugins.size());
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
  const float rows_h = static_cast<float>(c.scores.size() + 1) * (ImGui::GetTextLineHeightWithSpacing() * 2 + Em(0.3f));
  if (!ImGui::BeginTable("score", columns, kFlags, ImVec2(0, std::min(rows_h, Em(24))))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("Node");
  ImGui::TableSetupColumn("Total");
  for (const auto& p : plugins) ImGui::TableSetupColumn(p.plugin);
  ImGui::TableHeadersRow();
  for (const auto& s : c.scores) {
    ImGui::TableNextRow();
    const bool chosen = s.node == c.chosen;
    const bool tied = std::find(c.tied.begin(), c.tied.end(), s.node) != c.tied.end();
    if (chosen) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(40, 90, 50, 255));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(s.node.c_str());
    if (chosen) ImGui::TextDisabled("chosen");
    if (tied && c.tied.size() > 1) ImGui::TextDisabled("tie");
    ImGui::TableNextColumn();
    ImGui::Text("%lld", static_cast<long long>(s.total));
    for (const auto& p : s.plugins) {
      ImGui::TableNextColumn();
      if (p.skipped) {
        ImGui::TextDisabled("skipped");
        continue;
      }
      ImGui::Text("%lld x %lld = %lld", static_cast<long long>(p.normalized), static_cast<long long>(p.weight),
                  static_cast<long long>(p.weighted));
      ImGui::TextDisabled("raw %lld", static_cast<long long>(p.raw));
    }
  }
  ImGui::EndTable();
}

// DefaultPreemption's PostFilter: potential nodes, each candidate with its victims and PDB violations, the nodes
// that could not become candidates and why, and the criterion that chose the node.
void PreemptionSection(const PreemptionRecord& p) {
  ImGui::TextUnformatted("Preemption");
  if (!p.eligible) {
    Wrapped(colors::kWarn, "not eligible: " + p.not_eligible_reason);
    return;
  }
  if (p.potential_nodes.empty()) {
    Wrapped(colors::kTextDim,
            "No node was rejected with a plain Unschedulable status: removing lower-priority pods cannot help.");
    return;
  }
  Wrapped(colors::kTextDim, "potential nodes: " + Join(p.potential_nodes, ", ") + "; dry run from offset " +
                                std::to_string(p.offset) + ", wants " + std::to_string(p.num_candidates) +
                                " candidate(s)");
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("preemption", 4, kFlags)) {
    ImGui::TableSetupColumn("Node");
    ImGui::TableSetupColumn("Outcome");
    ImGui::TableSetupColumn("PDB violations");
    ImGui::TableSetupColumn("Victims (most important first) / why not", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (const auto& c : p.candidates) {
      ImGui::TableNextRow();
      const bool chosen = c.node == p.chosen;
      if (chosen) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(40, 90, 50, 255));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(c.node.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(chosen ? "candidate, chosen" : "candidate");
      ImGui::TableNextColumn();
      ImGui::Text("%lld", static_cast<long long>(c.num_pdb_violations));
      ImGui::TableNextColumn();
      std::vector<std::string> victims;
      for (std::size_t i = 0; i < c.victims.size(); ++i)
        victims.push_back(c.victims[i] + " (" + std::to_string(c.victim_priorities[i]) + ")");
      ImGui::PushTextWrapPos(0);
      ImGui::TextUnformatted(Join(victims, ", ").c_str());
      ImGui::PopTextWrapPos();
    }
    for (const auto& n : p.rejected) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(n.node.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted("no candidate");
      ImGui::TableNextColumn();
      ImGui::TableNextColumn();
      ImGui::PushTextWrapPos(0);
      ImGui::TextUnformatted(Join(n.reasons, ", ").c_str());
      ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
  }
  if (!p.chosen.empty()) {
    std::string text = "nominated to " + p.chosen + " (" + p.decided_by;
    if (!p.tied.empty()) text += " among " + Join(p.tied, ", ");
    text += "); its victims are deleted";
    Wrapped(colors::kOk, text);
    if (!p.cleared_nominations.empty())
      Wrapped(colors::kTextDim, "nomination cleared for lower-priority " + Join(p.cleared_nominations, ", "));
  } else if (!p.message.empty()) {
    Wrapped(colors::kWarn, p.message);
  }
}

void Attempt(const CycleExplanation& c, const Context& ctx) {
  // The pod's claims as this attempt saw them: bound (to which PV, and where that PV may attach) or waiting.
  for (const auto& r : c.claims) {
    std::string text = "Claim " + r.claim + ": " + r.status;
    if (!r.volume.empty()) text += (r.status == "Bound" ? " to PersistentVolume " : ", volumeName ") + r.volume;
    if (!r.storage_class.empty())
      text += " (StorageClass " + r.storage_class + (r.binding_mode.empty() ? "" : ", " + r.binding_mode) + ")";
    if (!r.volume_node_affinity.empty()) text += "; the volume's node affinity: " + r.volume_node_affinity;
    Wrapped(r.status == "Bound" || r.status == "Pending" ? colors::kTextDim : colors::kWarn, text);
  }
  if (!c.prefilter_message.empty())
    Wrapped(colors::kError, "PreFilter rejected the pod (" + c.prefilter_plugin + "): " + c.prefilter_message);
  if (!c.nominated_node.empty())
    ImGui::TextDisabled("nominated node %s %s", c.nominated_node.c_str(),
                        c.nominated_node_fit ? "fits: taken without scoring" : "does not fit");
  if (!c.nodes.empty()) FilterTable(c, ctx);
  ScoreTable(c);
  if (!c.chosen.empty()) {
    std::string text = "chosen: " + c.chosen;
    if (c.tied.size() > 1) text += "  (tied with " + Join(c.tied, ", ") + "; seeded tie-break)";
    Wrapped(colors::kOk, text);
  }
  if (!c.message.empty()) {
    Wrapped(colors::kWarn, "FailedScheduling: " + c.message);
  } else if (!c.post_filter_message.empty()) {
    Wrapped(colors::kTextDim, "PostFilter: " + c.post_filter_message);
  }
  if (c.preemption_ran) PreemptionSection(c.preemption);
}

}  // namespace

// A JSON value as a tree (explanations computed on demand come as kplace-core's JSON).
void JsonTree(const std::string& label, const io::Json& j, bool open) {
  if (j.is_object() || j.is_array()) {
    const std::string text = j.is_array() ? label + " [" + std::to_string(j.size()) + "]" : label;
    if (!ImGui::TreeNodeEx(label.c_str(), open ? ImGuiTreeNodeFlags_DefaultOpen : 0, "%s", text.c_str())) return;
    int i = 0;
    if (j.is_object()) {
      for (const auto& [key, value] : j.items()) {
        ImGui::PushID(i++);
        JsonTree(key, value, false);
        ImGui::PopID();
      }
    } else {
      for (const auto& value : j) {
        ImGui::PushID(i);
        JsonTree(std::to_string(i++), value, false);
        ImGui::PopID();
      }
    }
    ImGui::TreePop();
    return;
  }
  const std::string text = label + ": " + (j.is_string() ? j.get<std::string>() : j.dump());
  ImGui::TreeNodeEx(label.c_str(), ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen, "%s", text.c_str());
}

// Snapshots of background runs carry no explanations: ask the Web Worker for this pod's, then show its JSON.
void OnDemandExplanation(const PodView& pod, const Session& session, UiState& ui) {
  if (const io::Json* ex = session.explanation(pod.key)) {
    Wrapped(colors::kTextDim, "Explanation recorded by a background re-run (kplace-core's JSON):");
    ImGui::PushID("explanation");
    JsonTree("explanation", *ex, true);
    ImGui::PopID();
  } else if (session.explaining(pod.key)) {
    Wrapped(colors::kWarn, "Explaining in the background (the scenario runs again, recording this pod)...");
  } else {
    Wrapped(colors::kTextDim, "This scenario is large and ran in the background without per-node explanations.");
    if (ImGui::Button("Explain this pod")) ui.explain_request = pod.key;
    RecordTarget(ui, "explain");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Runs the scenario again in the Web Worker, recording this pod");
  }
}

void DrawInspector(const Snapshot& snap, const Session& session, UiState& ui) {
  const int idx = snap.FindPod(ui.selected_pod);
  if (idx < 0) return;
  const PodView& pod = snap.pods[idx];
  const sim::PodResult& r = *pod.result;

  ImGui::TextUnformatted(pod.key.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("owner %s, priority %d", pod.owner.c_str(), static_cast<int>(r.priority));
  ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - ImGui::CalcTextSize("close").x -
                  ImGui::GetStyle().FramePadding.x * 2);
  if (ImGui::SmallButton("close")) ui.selected_pod.clear();

  const bool karpenter_mode = pod.karpenter != nullptr;  // Karpenter alone: no kube-scheduler attempts
  switch (pod.status) {
    case PodStatus::Scheduled:
      Wrapped(colors::kOk,
              karpenter_mode ? "Karpenter expects it on the existing node " + r.node : "Scheduled on " + r.node);
      if (!r.node_claim.empty())
        Wrapped(colors::kNew, "Its Node is NodeClaim " + r.node_claim + ", launched by Karpenter in this run.");
      for (const auto& v : r.volumes)
        Wrapped(colors::kTextDim, "Volume: claim " + v.claim + " bound to PersistentVolume " + v.volume +
                                      (v.provisioned ? " (provisioned on " + r.node + " for this pod)" : ""));
      break;
    case PodStatus::OnNewClaim:
      Wrapped(colors::kNew, "Not running yet: Karpenter would launch a NodeClaim for it.");
      break;
    case PodStatus::BoundAtStart:
      Wrapped(colors::kTextDim, "Already bound to " + r.node + " in the input (spec.nodeName): not scheduled.");
      return;
    case PodStatus::OtherScheduler:
      Wrapped(colors::kTextDim, "Not scheduled here: spec.schedulerName is \"" + r.other_scheduler +
                                    "\", which names no profile of this kube-scheduler; that scheduler places it.");
      return;
    case PodStatus::Gated:
      Wrapped(colors::kTextDim,
              "Not scheduled: spec.schedulingGates holds it out of the queue: " + Join(r.scheduling_gates, ", "));
      return;
    case PodStatus::Preempted:
      Wrapped(colors::kWarn,
              "Preempted: deleted from " + r.preempted_from + " to make room for " + r.preempted_by + ".");
      if (r.explanations.empty()) return;
      break;
    case PodStatus::Terminal:
      Wrapped(colors::kTextDim, karpenter_mode ? "Not considered by Karpenter (phase Succeeded/Failed)."
                                               : "Not scheduled (phase Succeeded/Failed).");
      return;
    case PodStatus::Pending:
      if (!karpenter_mode) Wrapped(colors::kWarn, "Pending. FailedScheduling: " + r.unschedulable);
      if (!r.nominated_node.empty()) Wrapped(colors::kTextDim, "status.nominatedNodeName: " + r.nominated_node);
      break;
  }

  // Karpenter's view (karpenter mode; cluster mode: the rounds it considered the pod in), then kube-scheduler's.
  if (karpenter_mode || !r.karpenter.empty() || !r.disagreement.empty()) {
    ImGui::PushID("karpenter");
    DrawKarpenterInspector(snap, pod, ui);
    ImGui::PopID();
    if (karpenter_mode) {
      if (!snap.explained) OnDemandExplanation(pod, session, ui);  // candidates on demand
      return;
    }
    ImGui::Separator();
    ImGui::TextUnformatted("kube-scheduler");
  }
  if (!snap.explained && !r.attempts.empty()) {
    OnDemandExplanation(pod, session, ui);
    return;
  }
  const auto n = r.explanations.size();
  for (std::size_t i = n; i-- > 0;) {
    const CycleExplanation& c = r.explanations[i];
    ImGui::PushID(static_cast<int>(i));
    const std::string title = "Attempt " + std::to_string(c.attempt) + " of " + std::to_string(r.attempts.size());
    if (ImGui::CollapsingHeader(title.c_str(), i + 1 == n ? ImGuiTreeNodeFlags_DefaultOpen : 0))
      Attempt(c, Context{snap, pod, ui});
    ImGui::PopID();
  }
}

// The Pod tab: there while a pod is selected (a newly selected pod brings it to the front).
extern const Panel kPodPanel;
const Panel kPodPanel = {"pod",
                         [](const Snapshot& snap, const UiState& ui) {
                           return std::string(snap.FindPod(ui.selected_pod) >= 0 ? "Pod" : "");
                         },
                         [](const Snapshot& snap, const Session& session, UiState& ui) {
                           ImGui::BeginChild("inspector");
                           DrawInspector(snap, session, ui);
                           ImGui::EndChild();
                         }};

}  // namespace kplace::app
