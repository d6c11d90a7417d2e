// app/model/edits: every direct edit of every node of every preset (in every mode it runs in) changes the text as
// asked, re-runs, and its undo restores the text byte for byte.
#include "app/model/edits.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/model/session.h"
#include "core/model/taint.h"
#include "tests/app/app_testing.h"
#include "tests/testing/table.h"

namespace kplace::app {
namespace {

TEST(EditsTest, NextEffectCycles) {
  EXPECT_STREQ(NextEffect("NoSchedule"), "PreferNoSchedule");
  EXPECT_STREQ(NextEffect("PreferNoSchedule"), "NoExecute");
  EXPECT_STREQ(NextEffect("NoExecute"), "NoSchedule");
  EXPECT_STREQ(NextEffect(""), "NoSchedule");
}

class PresetEditsTest : public ::testing::TestWithParam<testing::PresetInMode> {};

// The node named in the snapshot of s, nullptr if gone.
const Node* NodeNamed(const Session& s, const std::string& name) {
  const int i = s.snapshot()->FindNode(name);
  return i < 0 ? nullptr : s.snapshot()->nodes[i].node;
}

TEST_P(PresetEditsTest, EveryEditAndItsUndo) {
  Session s;
  const std::string text = GetParam().text;
  if (!s.SetText(text)) GTEST_SKIP() << "does not run in this mode: " << s.error();
  // The edits the UI offers on each node of the text (launched Nodes are not in it): as the smoke test does.
  std::vector<Edit> edits;
  for (const auto& nv : s.snapshot()->nodes) {
    const Node& node = *nv.node;
    if (node.item_index < 0) continue;
    edits.push_back(Edit{node.unschedulable ? Edit::Kind::Uncordon : Edit::Kind::Cordon, node.meta.name, 0, "", ""});
    for (std::size_t t = 0; t < node.taints.size(); ++t) {
      edits.push_back(Edit{Edit::Kind::TaintEffect, node.meta.name, t, "", ""});
      edits.push_back(Edit{Edit::Kind::TaintEffect, node.meta.name, t, "NoExecute", ""});
      edits.push_back(Edit{Edit::Kind::RemoveTaint, node.meta.name, t, "", ""});
      for (const auto& pod : s.snapshot()->pods)
        if (pod.pod && pod.pod->item_index >= 0) {
          edits.push_back(Edit{Edit::Kind::AddToleration, node.meta.name, t, "", pod.key});
          break;
        }
    }
  }
  ASSERT_FALSE(edits.empty());
  for (const Edit& edit : edits) {
    SCOPED_TRACE(edit.node + " edit " + std::to_string(static_cast<int>(edit.kind)) + " taint " +
                 std::to_string(edit.taint));
    const Node before = *NodeNamed(s, edit.node);
    const bool same_effect = edit.kind == Edit::Kind::TaintEffect && !edit.effect.empty() &&
                             EffectName(before.taints[edit.taint].effect) == edit.effect;
    const bool changed = ApplyEdit(s, edit);
    if (same_effect) {  // nothing to change: no undo step either
      EXPECT_FALSE(changed);
      EXPECT_FALSE(s.can_undo());
      continue;
    }
    ASSERT_TRUE(changed);
    ASSERT_EQ(s.error(), "") << s.text();
    EXPECT_TRUE(s.can_undo());
    const Node* after = NodeNamed(s, edit.node);
    ASSERT_NE(after, nullptr);
    switch (edit.kind) {
      case Edit::Kind::TaintEffect:
        EXPECT_STREQ(
            EffectName(after->taints[edit.taint].effect),
            edit.effect.empty() ? NextEffect(EffectName(before.taints[edit.taint].effect)) : edit.effect.c_str());
        EXPECT_EQ(after->taints.size(), before.taints.size());
        break;
      case Edit::Kind::RemoveTaint:
        EXPECT_EQ(after->taints.size(), before.taints.size() - 1);
        break;
      case Edit::Kind::Cordon:
      case Edit::Kind::Uncordon:
        EXPECT_EQ(after->unschedulable, edit.kind == Edit::Kind::Cordon);
        break;
      case Edit::Kind::AddToleration: {
        const Taint& t = before.taints[edit.taint];
        const PodView& pod = s.snapshot()->pods[s.snapshot()->FindPod(edit.pod)];
        ASSERT_NE(pod.pod, nullptr);
        EXPECT_TRUE(TolerationsTolerate(pod.pod->tolerations, t));
        break;
      }
    }
    ASSERT_TRUE(UndoEdit(s));
    ASSERT_EQ(s.text(), text);
    EXPECT_FALSE(s.can_undo());
    EXPECT_EQ(s.error(), "");
  }
  EXPECT_FALSE(UndoEdit(s));
}

INSTANTIATE_TEST_SUITE_P(Presets, PresetEditsTest, ::testing::ValuesIn(testing::PresetsInEveryMode()),
                         [](const ::testing::TestParamInfo<testing::PresetInMode>& i) {
                           return kplace::testing::TestName(i.param.name);
                         });

TEST(EditsTest, EditsDoNotApplyToStaleOrUnknownTargets) {
  Session s;
  ASSERT_TRUE(s.SetText(app::Presets()[static_cast<std::size_t>(DefaultPreset())].text));
  EXPECT_FALSE(EditedText(s, Edit{Edit::Kind::Cordon, "no-such-node", 0, "", ""}));
  EXPECT_FALSE(EditedText(s, Edit{Edit::Kind::RemoveTaint, "gpu-1", 99, "", ""}));
  EXPECT_FALSE(EditedText(s, Edit{Edit::Kind::AddToleration, "gpu-1", 0, "", "default/no-such-pod"}));
  ASSERT_TRUE(EditedText(s, Edit{Edit::Kind::Cordon, "gpu-1", 0, "", ""}));
  const std::string good = s.text();
  EXPECT_FALSE(s.SetText(good + "x"));  // invalid: the snapshot on screen is not the text's
  EXPECT_FALSE(EditedText(s, Edit{Edit::Kind::Cordon, "gpu-1", 0, "", ""}));
  EXPECT_FALSE(ApplyEdit(s, Edit{Edit::Kind::Cordon, "gpu-1", 0, "", ""}));
  EXPECT_FALSE(s.can_undo());
}

}  // namespace
}  // namespace kplace::app
