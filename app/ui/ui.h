// The playground's panels. Each draws from the session's last snapshot and the UI state; none changes a result.
// Edits go through the session (new text -> new run).
#pragma once

#include "app/model/session.h"
#include "app/ui/ui_state.h"
#include "imgui.h"

namespace kplace::app {

// The whole window: top bar, editor | cluster view over the pod inspector and the events (tabs). Applies the
// direct edit a panel asked for after the frame is drawn.
void DrawApp(Session& session, UiState& ui);

void DrawTopBar(Session& session, UiState& ui);
void DrawEditor(Session& session, UiState& ui);
// disruption: Session::disruption (verdict badges on the node cards), or null.
void DrawCluster(const Snapshot& snap, UiState& ui, const io::Json* disruption);
void DrawInspector(const Snapshot& snap, const Session& session, UiState& ui);
void DrawEvents(const Snapshot& snap, UiState& ui);
// cluster mode: the loop round by round (kube-scheduler binds, Karpenter launches, DaemonSet pods follow).
void DrawRounds(const Snapshot& snap, UiState& ui);
// The inspector's Karpenter part (karpenter and cluster modes): the disagreement, Karpenter's outcome per round,
// every attempt's relaxation steps and candidates (existing nodes, NodeClaims of the run, NodePools) with reasons.
void DrawKarpenterInspector(const Snapshot& snap, const PodView& pod, UiState& ui);

// Loads a preset into the session (the picker and the embedding API both use it).
void LoadPreset(Session& session, UiState& ui, int index);
// Replaces the editor's text from outside the editor widget (presets, kplace.load, setMode).
bool ReplaceText(Session& session, UiState& ui, std::string text);
// A direct edit and its undo (app/model/edits.h) that also refresh the editor widget and mark a preset edited.
bool ApplyEdit(Session& session, UiState& ui, const Edit& edit);
bool UndoEdit(Session& session, UiState& ui);

// A diff of two results as a table (the Changes and Compare tabs): a summary line (none when nothing differs), then
// a row per pod that differs (its answer under columns a and b; click to inspect; test target "<id>:<pod>") and per
// NodeClaim that differs.
void DrawDiff(const sim::ResultDiff& d, UiState& ui, const char* id, const char* a, const char* b, const char* none);

// Small shared widgets.
// A pod chip: rounded rect in the owner's colour with the pod's name, outlined when selected, a dot when the last
// edit or the comparison changed its answer (UiState::marks); returns true when clicked.
bool PodChip(const PodView& pod, const UiState& ui, float max_width);
// UiState::marks for this frame: the comparison's pods that differ, else what the last edit changed.
void UpdateMarks(const Session& session, UiState& ui);
// The colour of a change (moved, placed, ...) in the Changes and Compare tabs and on chips.
ImU32 ChangeColor(sim::PodChange::Kind kind);
// One table cell that may be long (a FailedScheduling message): one line, the whole text on hover (changes_panel.cpp).
void Cell(const std::string& text);
// Text at pos cut at the edges of [min, max] (and the window's): ImGui's fine clipping of each glyph, not a clip rect
// pushed around it, which ends the draw command before and after, a draw call each (a screenful of compact cards
// cost 55 more; software WebGL pays for each).
void ClippedText(ImDrawList* dl, ImVec2 pos, ImU32 color, const char* text, ImVec2 min, ImVec2 max);
// Text in color, wrapped at the window's edge.
void Wrapped(ImU32 color, const std::string& text);
// Human quantities: cpu in cores ("1.5"), memory in binary units ("512Mi").
std::string FormatCpu(std::int64_t milli);
std::string FormatBytes(std::int64_t bytes);
// Prices: "$0.0416/h"; a month is 730 hours ("$30.37/month").
std::string FormatHourly(double price);
std::string FormatMonthly(double hourly);
// A NodeClaim in one line: "m5.large · us-east-1a · spot · $0.0416/h" (parts that are unknown are left out).
std::string ClaimSummary(const karpenter::ClaimOutcome& c);
// Karpenter's in-flight Node: managed by a NodePool (karpenter.sh/nodepool) and not karpenter.sh/initialized.
bool InFlight(const Node& node);
// A node label's value, "" when absent.
std::string NodeLabel(const Node& node, const char* key);

}  // namespace kplace::app
