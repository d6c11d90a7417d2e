// The playground's panels. Each draws from the session's last snapshot and the UI state; none changes a result.
// Edits go through the session (new text -> new run).
#pragma once

#include "wasm/app/session.h"
#include "wasm/app/ui_state.h"

namespace kplace::app {

// The whole window: top bar, editor | cluster view over the pod inspector and the events (tabs). Applies the
// direct edit a panel asked for after the frame is drawn.
void DrawApp(Session& session, UiState& ui);

void DrawTopBar(Session& session, UiState& ui);
void DrawEditor(Session& session, UiState& ui);
void DrawCluster(const Snapshot& snap, UiState& ui);
void DrawInspector(const Snapshot& snap, const Session& session, UiState& ui);
void DrawEvents(const Snapshot& snap, UiState& ui);

// Loads a preset into the session (the picker and the embedding API both use it).
void LoadPreset(Session& session, UiState& ui, int index);
// Replaces the editor's text from outside the editor widget (presets, kplace.load, setMode).
bool ReplaceText(Session& session, UiState& ui, std::string text);

// Small shared widgets.
// A pod chip: rounded rect in the owner's colour with the pod's name; returns true when clicked.
bool PodChip(const PodView& pod, bool selected, float max_width);
// Human quantities: cpu in cores ("1.5"), memory in binary units ("512Mi").
std::string FormatCpu(std::int64_t milli);
std::string FormatBytes(std::int64_t bytes);

}  // namespace kplace::app
