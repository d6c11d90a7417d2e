// The Disruption tab: Karpenter's disruption controller over the cluster on screen, as a dry run (the Web Worker's
// core computes it: Session::disruption). The command it would issue (savings, replacements, where each evicted pod
// goes), every node's verdict per method, the budgets, its events; with applyDisruption, each command applied in turn
// and where kube-scheduler disagreed; a what-if for any node (its candidacy checks, its consolidation alone, what
// draining it would do). Reads the result JSON (docs/scenario-format.md "disruption"); decides nothing itself.
#include <string>

#include "app/ui/cluster_cards.h"
#include "app/ui/panels.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "imgui.h"

namespace kplace::app {
namespace {

using io::Json;

std::string Str(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
double Num(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}
// A heading between the tab's parts (ImGui 1.86 has no SeparatorText).
void Heading(const char* text) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", text);
  ImGui::Separator();
}

std::string Names(const Json& list) {
  std::string out;
  if (!list.is_array()) return out;
  for (const auto& s : list)
    if (s.is_string()) out += (out.empty() ? "" : ", ") + s.get<std::string>();
  return out;
}

// Pod moves: "pod: from -> to" (or why it stays / would not schedule); click selects the pod.
void PodMoves(const Json& pods, UiState& ui) {
  if (!pods.is_array()) return;
  for (const auto& m : pods) {
    const std::string pod = Str(m, "pod"), to = Str(m, "to"), err = Str(m, "error");
    const std::string line = pod + ": " + Str(m, "from") + " \u2192 " + (to.empty() ? err : to);
    ImGui::PushID(pod.c_str());
    ImGui::Indent();
    if (ImGui::Selectable(line.c_str(), ui.selected_pod == pod)) ui.selected_pod = pod;
    ImGui::Unindent();
    ImGui::PopID();
  }
}

void CommandBlock(const Json& c, UiState& ui) {
  const bool replace = Str(c, "decision") == "replace";
  ImGui::PushStyleColor(ImGuiCol_Text, replace ? colors::kWarn : colors::kError);
  ImGui::TextWrapped("%s %s (reason %s)", Str(c, "method").c_str(), Str(c, "text").c_str(), Str(c, "reason").c_str());
  ImGui::PopStyleColor();
  const double savings = Num(c, "savings");
  ImGui::Text("saves %s (%s)", FormatHourly(savings).c_str(), FormatMonthly(savings).c_str());
  const Json& reps = c.contains("replacements") ? c["replacements"] : Json();
  if (reps.is_array())
    for (std::size_t i = 0; i < reps.size(); ++i) {
      const Json& r = reps[i];
      ImGui::BulletText("replacement %zu: NodePool %s, %s %s %s at %s", i + 1, Str(r, "nodePool").c_str(),
                        Str(r, "instanceType").c_str(), Str(r, "zone").c_str(), Str(r, "capacityType").c_str(),
                        FormatHourly(Num(r, "price")).c_str());
      if (ImGui::IsItemHovered() && r.contains("requirements"))
        ImGui::SetTooltip("options: %s\n%s", Names(r["instanceTypes"]).c_str(), Names(r["requirements"]).c_str());
    }
  if (c.contains("pods")) PodMoves(c["pods"], ui);
}

// One method's verdict on a node, as the tab's table shows it.
std::string Verdict(const Json& node, const char* method) {
  if (!node.contains("methods") || !node["methods"].contains(method)) return "";
  const Json& m = node["methods"][method];
  if (m.contains("outcome")) return Str(m, "outcome");
  return m.value("considered", false) ? "considered" : Str(m, "why");
}

void NodesTable(const Json& nodes, UiState& ui) {
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
  if (!nodes.is_object() || !ImGui::BeginTable("disruption_nodes", 5, kFlags)) return;
  ImGui::TableSetupColumn("Node");
  ImGui::TableSetupColumn("Candidate", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Emptiness");
  ImGui::TableSetupColumn("Drift");
  ImGui::TableSetupColumn("Consolidation", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const auto& [name, n] : nodes.items()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (ImGui::Selectable(name.c_str(), ui.disruption_node == name, ImGuiSelectableFlags_SpanAllColumns)) {
      ui.disruption_node = name;  // and its what-if is asked for at once
      ui.disruption_request = name;
    }
    RecordTarget(ui, "disruption-node:" + name);
    ImGui::TableNextColumn();
    if (n.value("candidate", false))
      ImGui::TextUnformatted(n.value("empty", false) ? "yes (empty)" : "yes");
    else
      Wrapped(colors::kTextDim, n.value("managed", false) ? "no: " + Str(n, "blocked") : "not managed");
    for (const char* method : {"Emptiness", "Drift", "Consolidation"}) {
      ImGui::TableNextColumn();
      const std::string v = Verdict(n, method);
      const ImU32 color = v == "delete" ? colors::kError : v == "replace" ? colors::kWarn : colors::kText;
      if (method[0] == 'C') {  // the long reasons wrap in the stretching column
        Wrapped(color, v);
      } else {
        ImGui::PushStyleColor(ImGuiCol_Text, color);
        ImGui::TextUnformatted(v.c_str());
        ImGui::PopStyleColor();
      }
    }
  }
  ImGui::EndTable();
}

void WhatIf(const Snapshot& snap, const Session& session, UiState& ui) {
  Heading("What if");
  if (ui.disruption_node.empty() || snap.FindNode(ui.disruption_node) < 0) {
    ImGui::TextDisabled("Click a node in the table: its candidacy checks, its consolidation alone, and draining it.");
    return;
  }
  const Json* x = session.node_explanation(ui.disruption_node);
  const std::string* asked = session.disruption_asked();
  if (!x) {
    if (asked && *asked == ui.disruption_node) {
      ImGui::TextDisabled("Asking about %s...", ui.disruption_node.c_str());
    } else {
      if (ImGui::Button(("Explain " + ui.disruption_node).c_str())) ui.disruption_request = ui.disruption_node;
      RecordTarget(ui, "explain-node");
    }
    return;
  }
  if (!x->is_object()) {
    ImGui::TextDisabled("Karpenter has no record of %s.", ui.disruption_node.c_str());
    return;
  }
  ImGui::Text("%s", ui.disruption_node.c_str());
  if (x->contains("checks"))
    for (const auto& c : (*x)["checks"]) {
      const bool ok = c.value("passed", false);
      Wrapped(ok ? colors::kOk : colors::kError,
              std::string(ok ? "\u2713 " : "\u2717 ") + Str(c, "check") + (ok ? "" : ": " + Str(c, "error")));
    }
  if (x->contains("balanced")) {
    const Json& b = (*x)["balanced"];
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "Balanced: deleting it alone saves %.1f%% of the NodePool's cost for %.1f%% of its disruption: "
                  "score %.2f (threshold %.2f)",
                  Num(b, "savingsFraction") * 100, Num(b, "disruptionFraction") * 100, Num(b, "score"),
                  Num(b, "threshold"));
    Wrapped(colors::kText, buf);
  }
  if (x->contains("consolidation")) Wrapped(colors::kText, "Consolidation of it alone: " + Str(*x, "consolidation"));
  if (x->contains("drainError")) Wrapped(colors::kWarn, "Draining it: " + Str(*x, "drainError"));
  if (x->contains("drain")) {
    const Json& d = (*x)["drain"];
    ImGui::Text("Draining it (its NodeClaim deleted): %s", Str(d, "text").c_str());
    if (d.contains("replacements") && !d["replacements"].empty())
      ImGui::TextDisabled("launches %zu NodeClaim(s)", d["replacements"].size());
    if (d.contains("pods")) PodMoves(d["pods"], ui);
  }
}

void Applied(const Json& a, UiState& ui) {
  Heading("Applied (karpenter.applyDisruption)");
  const double before = a.contains("before") ? Num(a["before"], "hourly") : 0;
  const double after = a.contains("after") ? Num(a["after"], "hourly") : 0;
  ImGui::Text("%s \u2192 %s (%s \u2192 %s)", FormatHourly(before).c_str(), FormatHourly(after).c_str(),
              FormatMonthly(before).c_str(), FormatMonthly(after).c_str());
  if (a.contains("steps"))
    for (std::size_t i = 0; i < a["steps"].size(); ++i) {
      const Json& s = a["steps"][i];
      const Json& c = s["command"];
      ImGui::Text("%zu. %s %s, then %s", i + 1, Str(c, "method").c_str(), Str(c, "text").c_str(),
                  FormatHourly(Num(s, "hourly")).c_str());
      if (!s.contains("pods")) continue;
      for (const auto& p : s["pods"]) {
        const std::string pod = Str(p, "pod"), dis = Str(p, "disagreement"), node = Str(p, "node");
        const std::string line = pod + ": " + Str(p, "from") + " \u2192 " + (node.empty() ? "(none)" : node) +
                                 (dis.empty() ? "" : " (Karpenter planned " + Str(p, "planned") + ")");
        ImGui::PushID(static_cast<int>(i));
        ImGui::PushID(pod.c_str());
        ImGui::Indent();
        ImGui::PushStyleColor(ImGuiCol_Text, dis.empty() ? colors::kText : colors::kWarn);
        if (ImGui::Selectable(line.c_str(), ui.selected_pod == pod)) ui.selected_pod = pod;
        ImGui::PopStyleColor();
        if (!dis.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", dis.c_str());
        ImGui::Unindent();
        ImGui::PopID();
        ImGui::PopID();
      }
    }
  ImGui::TextDisabled("Stopped: %s", Str(a, "stopped").c_str());
}

void DrawDisruption(const Snapshot& snap, const Session& session, UiState& ui) {
  const Json* d = session.disruption();
  if (!d) {
    ImGui::TextDisabled("Asking Karpenter's disruption controller (a dry run in the background)...");
    return;
  }
  if (d->contains("error")) {
    Wrapped(colors::kError, Str(*d, "error"));
    return;
  }
  if (!d->contains("disruption")) {
    ImGui::TextDisabled("No dry run: the cluster has no node Karpenter manages.");
    return;
  }
  const Json& r = (*d)["disruption"];
  ImGui::TextDisabled("Karpenter's disruption controller, one reconcile as a dry run at %s", Str(r, "now").c_str());
  if (r.contains("commands") && !r["commands"].empty()) {
    for (const auto& c : r["commands"]) CommandBlock(c, ui);
  } else {
    ImGui::TextUnformatted("Nothing to disrupt.");
  }
  if (r.contains("error")) Wrapped(colors::kError, "The reconcile failed: " + Str(r, "error"));
  if (d->contains("disruptionApplied")) Applied((*d)["disruptionApplied"], ui);
  Heading("Nodes");
  if (r.contains("nodes")) NodesTable(r["nodes"], ui);
  WhatIf(snap, session, ui);
  if (r.contains("budgets") && ImGui::CollapsingHeader("Budgets (disruptions allowed now)"))
    for (const auto& [pool, reasons] : r["budgets"].items()) {
      std::string line = pool + ":";
      for (const auto& [reason, b] : reasons.items())
        line += "  " + reason + " " + std::to_string(b.value("remaining", 0)) + " of " +
                std::to_string(b.value("allowed", 0)) + (b.contains("error") ? " (" + Str(b, "error") + ")" : "");
      ImGui::TextUnformatted(line.c_str());
    }
  if (r.contains("events") && !r["events"].empty() &&
      ImGui::CollapsingHeader(("Events (" + std::to_string(r["events"].size()) + ")").c_str()))
    for (const auto& e : r["events"])
      Wrapped(Str(e, "type") == "Warning" ? colors::kWarn : colors::kTextDim,
              Str(e, "reason") + "  " + Str(e, "object") + "  " + Str(e, "message"));
}

}  // namespace

extern const Panel kDisruptionPanel;
const Panel kDisruptionPanel = {
    "disruption", [](const Snapshot& snap, const UiState&) { return std::string(snap.disruption ? "Disruption" : ""); },
    DrawDisruption};

}  // namespace kplace::app
