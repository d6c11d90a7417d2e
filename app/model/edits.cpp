#include "app/model/edits.h"

#include <utility>

#include "app/model/json_text.h"
#include "app/model/session.h"
#include "core/model/symbol.h"

namespace kplace::app {

const char* NextEffect(std::string_view effect) {
  if (effect == "NoSchedule") return "PreferNoSchedule";
  if (effect == "PreferNoSchedule") return "NoExecute";
  return "NoSchedule";
}

std::optional<std::string> EditedText(const Session& session, const Edit& edit) {
  const Snapshot* snap = session.snapshot();
  if (!snap || snap->generation != session.generation()) return std::nullopt;  // indices: the text that ran
  const int ni = snap->FindNode(edit.node);
  if (ni < 0) return std::nullopt;
  const Node& node = *snap->nodes[ni].node;
  if (node.item_index < 0) return std::nullopt;
  const auto item = static_cast<std::size_t>(node.item_index);
  const std::string& text = session.text();
  switch (edit.kind) {
    case Edit::Kind::TaintEffect: {
      if (edit.taint >= node.taints.size()) return std::nullopt;
      const std::string effect =
          edit.effect.empty() ? NextEffect(EffectName(node.taints[edit.taint].effect)) : edit.effect;
      return json_text::WithTaintEffect(text, item, edit.taint, effect);
    }
    case Edit::Kind::RemoveTaint:
      if (edit.taint >= node.taints.size()) return std::nullopt;
      return json_text::WithoutTaint(text, item, edit.taint);
    case Edit::Kind::Cordon:
    case Edit::Kind::Uncordon:
      return json_text::WithUnschedulable(text, item, edit.kind == Edit::Kind::Cordon);
    case Edit::Kind::AddToleration: {
      if (edit.taint >= node.taints.size()) return std::nullopt;
      const int pi = snap->FindPod(edit.pod);
      if (pi < 0 || !snap->pods[pi].pod || snap->pods[pi].pod->item_index < 0) return std::nullopt;
      const Pod& pod = *snap->pods[pi].pod;
      json_text::Path spec{std::string("items"), static_cast<std::size_t>(pod.item_index), std::string("spec")};
      if (!pod.generated_from.empty()) {  // a workload's pod: its template
        spec.emplace_back(std::string("template"));
        spec.emplace_back(std::string("spec"));
      }
      const Taint& t = node.taints[edit.taint];
      return json_text::WithToleration(
          text, spec,
          json_text::TolerationFor(Text(t.key), t.value == kEmptySymbol ? "" : Text(t.value), EffectName(t.effect)));
    }
  }
  return std::nullopt;
}

bool ApplyEdit(Session& session, const Edit& edit) {
  auto text = EditedText(session, edit);
  if (!text || *text == session.text()) return false;
  session.PushUndo();
  session.SetText(std::move(*text));
  return true;
}

bool UndoEdit(Session& session) {
  auto text = session.PopUndo();
  if (!text) return false;
  session.SetText(std::move(*text));
  return true;
}

}  // namespace kplace::app
