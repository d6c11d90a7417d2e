// Direct edits: what a click on a taint badge, a node's cordon switch or the inspector's "tolerate" button asks
// for. Each becomes new scenario text (json_text keeps everything else byte for byte), replaces the session's text
// like a keystroke would and can be undone (the top bar's Undo button, Ctrl+Z outside the editor). The UI's
// versions (app/ui/ui.h) also refresh the editor widget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kplace::app {

class Session;

struct Edit {
  enum class Kind : std::uint8_t { TaintEffect, RemoveTaint, Cordon, Uncordon, AddToleration };
  Kind kind = Kind::TaintEffect;
  std::string node;       // the node's name (for AddToleration: the node whose taint is tolerated)
  std::size_t taint = 0;  // index into the node's spec.taints
  std::string effect;     // TaintEffect: the new effect; "" cycles NoSchedule -> PreferNoSchedule -> NoExecute
  std::string pod;        // AddToleration: the pod's namespace/name
};

// The edited text, or nullopt when the edit does not apply (unknown node or pod, stale result, text shape).
std::optional<std::string> EditedText(const Session& session, const Edit& edit);
// Applies the edit: new text, re-run, one undo step. Returns whether the text changed.
bool ApplyEdit(Session& session, const Edit& edit);
// Restores the text before the last direct edit (or setMode). Returns false when there is nothing to undo.
bool UndoEdit(Session& session);

// The effect after effect in the badge's cycle.
const char* NextEffect(std::string_view effect);

}  // namespace kplace::app
