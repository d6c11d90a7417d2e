// The Changes panel: what the last edit changed (Snapshot::changes, sim::Compare of the result before and after):
// the pods that moved, got placed, became pending or pend for another reason, the NodeClaims added, gone or
// different, the cost. Click a pod to inspect it. An undo shows the reverse. DrawDiff (the table) is the Compare
// tab's too.
#include <string>

#include "app/ui/panels.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "imgui.h"

namespace kplace::app {
namespace {

using Change = sim::PodChange::Kind;

}  // namespace

void Cell(const std::string& text) {
  ImGui::TextUnformatted(text.c_str());
  if (ImGui::IsItemHovered() && ImGui::CalcTextSize(text.c_str()).x > ImGui::GetColumnWidth()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(Em(40));
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

ImU32 ChangeColor(Change k) {
  switch (k) {
    case Change::Placed:
    case Change::Added:
      return colors::kOk;
    case Change::Unplaced:
    case Change::Removed:
      return colors::kError;
    case Change::Moved:
      return colors::kNew;
    case Change::Changed:
      return colors::kWarn;
  }
  return colors::kText;
}

void UpdateMarks(const Session& session, UiState& ui) {
  const Snapshot* snap = session.snapshot();
  const Session::Comparison* c = session.comparison();
  const sim::ResultDiff* d = c && c->diff ? &*c->diff : snap && snap->changes ? &*snap->changes : nullptr;
  if (session.diffs_version() == ui.marks_version) return;
  ui.marks_version = session.diffs_version();
  ui.marks.clear();
  if (d)
    for (const auto& change : d->changes) ui.marks[change.pod] = static_cast<std::uint8_t>(change.kind);
}

void DrawDiff(const sim::ResultDiff& d, UiState& ui, const char* id, const char* a, const char* b, const char* none) {
  std::string summary;
  if (d.changes.empty()) {
    summary = none;
  } else {
    summary = std::to_string(d.changes.size()) + " of " + std::to_string(d.pods) + " pods differ:";
    for (Change k : {Change::Moved, Change::Placed, Change::Unplaced, Change::Changed, Change::Added, Change::Removed})
      if (std::size_t n = d.Count(k)) {
        summary += (summary.back() == ':' ? " " : ", ") + std::to_string(n) + " " + sim::ChangeName(k);
      }
  }
  if (!d.node_claims.empty()) summary += "; " + std::to_string(d.node_claims.size()) + " NodeClaim(s) changed";
  if (d.hourly_a != d.hourly_b)
    summary += "; new capacity " + FormatHourly(d.hourly_a) + " -> " + FormatHourly(d.hourly_b);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", summary.c_str());

  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                     ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable(id, 4, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Object", ImGuiTableColumnFlags_WidthFixed, Em(14));
  ImGui::TableSetupColumn("Change", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("unplaced").x);
  ImGui::TableSetupColumn(a, ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn(b, ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  const int pods = static_cast<int>(d.changes.size());
  ImGuiListClipper clipper;
  clipper.Begin(pods + static_cast<int>(d.node_claims.size()));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(row);
      if (row < pods) {
        const sim::PodChange& c = d.changes[static_cast<std::size_t>(row)];
        if (ImGui::Selectable(("pod/" + c.pod).c_str(), c.pod == ui.selected_pod)) ui.selected_pod = c.pod;
        RecordTarget(ui, std::string(id) + ":" + c.pod);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: click to inspect", c.pod.c_str());
        ImGui::TableNextColumn();
        ImGui::PushStyleColor(ImGuiCol_Text, ChangeColor(c.kind));
        ImGui::TextUnformatted(sim::ChangeName(c.kind));
        ImGui::PopStyleColor();
        ImGui::TableNextColumn();
        Cell(c.kind == Change::Added ? "(no such pod)" : sim::Describe(c.a));
        ImGui::TableNextColumn();
        Cell(c.kind == Change::Removed ? "(no such pod)" : sim::Describe(c.b));
      } else {
        const sim::NodeClaimChange& c = d.node_claims[static_cast<std::size_t>(row - pods)];
        ImGui::TextUnformatted(("NodeClaim/" + c.name).c_str());
        ImGui::TableNextColumn();
        const bool added = c.kind == sim::NodeClaimChange::Kind::Added;
        const bool removed = c.kind == sim::NodeClaimChange::Kind::Removed;
        ImGui::PushStyleColor(ImGuiCol_Text, added ? colors::kOk : removed ? colors::kError : colors::kWarn);
        ImGui::TextUnformatted(sim::ClaimChangeName(c.kind));
        ImGui::PopStyleColor();
        auto line = [](const sim::NodeClaimSummary& s) {
          return s.instance_type + " " + s.zone + " " + s.capacity_type + " " + FormatHourly(s.price) + ", " +
                 std::to_string(s.pods.size()) + " pod(s)";
        };
        ImGui::TableNextColumn();
        Cell(added ? "(none)" : line(c.a));
        ImGui::TableNextColumn();
        Cell(removed ? "(none)" : line(c.b));
      }
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
}

extern const Panel kChangesPanel;
const Panel kChangesPanel = {
    "changes",
    [](const Snapshot& snap, const UiState&) -> std::string {
      if (!snap.changes) return "";
      return "Changes (" + std::to_string(snap.changes->changes.size() + snap.changes->node_claims.size()) + ")";
    },
    [](const Snapshot& snap, const Session&, UiState& ui) {
      if (snap.changes) DrawDiff(*snap.changes, ui, "change", "Before", "After", "No pod changed with the last edit");
    }};

}  // namespace kplace::app
