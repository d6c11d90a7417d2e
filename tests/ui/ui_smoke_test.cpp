// A headless smoke test of the playground's UI: the ImGui panels (app/ui over app/model, without the browser seam
// in wasm/) drawn for some frames over every preset and a Karpenter scenario (smoke_scenarios.h, in
// karpenter and cluster mode) without a renderer, with each pod selected and each details tab shown, the mouse
// swept over the window (hover tooltips), compact and full cluster views, every direct edit of every node and its
// undo, and a background run answered the way the Web Worker answers; and the cluster view's draw commands counted
// (more chips or cards must not add any). Every IM_ASSERT counts as a failure (smoke_imconfig.h): unbalanced
// Begin/End or Push/Pop, bad IDs, ... Built for node by the wasm preset:
//   node build/wasm/wasm/ui_smoke_test.js
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/model/edits.h"
#include "app/model/presets.h"
#include "app/model/session.h"
#include "app/model/text_lines.h"
#include "app/ui/panels.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "core/io/result_writer.h"
#include "core/io/run_text.h"
#include "core/io/scenario_parser.h"
#include "imgui.h"
#include "tests/ui/smoke_scenarios.h"

namespace {

int failures = 0;
int frames = 0;

void Frame(kplace::app::Session& session, kplace::app::UiState& ui, ImVec2 mouse = ImVec2(-1, -1), bool click = false) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(1280, 800);
  io.DeltaTime = 1.0f / 60.0f;
  io.MousePos = mouse;
  io.MouseDown[0] = click;
  ImGui::NewFrame();
  ImGui::PushFont(kplace::app::GetFonts().ui);
  kplace::app::DrawApp(session, ui);
  ImGui::PopFont();
  ImGui::Render();
  ++frames;
}

// Draws the session's scenario every way a user can: hover everywhere (compared with itself in karpenter mode), each
// pod selected with each details tab (panels.h), compact and full cards, every direct edit of every node in the text
// and its undo (each edit's Changes).
void Exercise(kplace::app::Session& session, kplace::app::UiState& ui, const std::string& name) {
  using kplace::app::Edit;
  if (!session.snapshot() || !session.error().empty()) {
    std::printf("FAIL %s: %s\n", name.c_str(), session.error().c_str());
    ++failures;
    return;
  }
  for (int i = 0; i < 3; ++i) Frame(session, ui);
  // Compared with itself in karpenter mode (the Compare tab's table), except a preset that names its own comparison.
  if (!session.comparison()) session.CompareWith("mode=karpenter");
  for (const kplace::app::Panel* panel : kplace::app::DetailPanels()) {
    ui.select_tab = panel->id;
    for (float y = 0; y < 800; y += 37)  // hover everything: tooltips, hovered badges and chips
      for (float x = 0; x < 1280; x += 53) Frame(session, ui, ImVec2(x, y));
  }
  std::vector<std::string> pods;
  for (const auto& pod : session.snapshot()->pods) pods.push_back(pod.key);
  for (const auto& key : pods) {
    ui.selected_pod = key;
    Frame(session, ui);
    for (float y = 400; y < 800; y += 41) Frame(session, ui, ImVec2(1000, y));  // the inspector's tooltips
    ui.events_selected_only = !ui.events_selected_only;
    for (const kplace::app::Panel* panel : kplace::app::DetailPanels()) {
      ui.select_tab = panel->id;
      Frame(session, ui);
      Frame(session, ui);
    }
  }
  ui.selected_pod.clear();
  for (int compact : {1, 0, -1}) {
    ui.compact = compact;
    Frame(session, ui);
  }
  // The timeline: every step with its tab in front (the cluster view draws the cluster after it), then every tab and
  // a hover sweep at the middle step.
  if (const auto& timeline = session.snapshot()->result.timeline) {
    const int steps = static_cast<int>(timeline->steps.size());
    for (int step = 0; step <= steps; ++step) {
      ui.timeline_step = step;
      ui.select_tab = "timeline";
      Frame(session, ui);
    }
    ui.timeline_step = steps / 2;
    for (const kplace::app::Panel* panel : kplace::app::DetailPanels()) {
      ui.select_tab = panel->id;
      for (float y = 0; y < 800; y += 61)
        for (float x = 0; x < 1280; x += 97) Frame(session, ui, ImVec2(x, y));
    }
    ui.timeline_step = -1;
  }
  // Every direct edit of every node written in the text (Nodes Karpenter launched are not), each undone.
  struct NodeInfo {
    std::string name;
    std::size_t taints;
    bool cordoned;
  };
  std::vector<NodeInfo> nodes;
  for (const auto& nv : session.snapshot()->nodes)
    if (nv.node->item_index >= 0)
      nodes.push_back(NodeInfo{nv.node->meta.name, nv.node->taints.size(), nv.node->unschedulable});
  for (const auto& [node, taints, cordoned] : nodes) {
    std::vector<Edit> edits = {Edit{cordoned ? Edit::Kind::Uncordon : Edit::Kind::Cordon, node, 0, "", ""}};
    for (std::size_t t = 0; t < taints; ++t) {
      edits.push_back(Edit{Edit::Kind::TaintEffect, node, t, "", ""});
      edits.push_back(Edit{Edit::Kind::RemoveTaint, node, t, "", ""});
      if (!pods.empty()) edits.push_back(Edit{Edit::Kind::AddToleration, node, t, "", pods.front()});
    }
    for (const auto& edit : edits) {
      const std::string before = session.text();
      if (!kplace::app::ApplyEdit(session, ui, edit)) {
        std::printf("FAIL %s: edit %d of %s did not apply\n", name.c_str(), static_cast<int>(edit.kind), node.c_str());
        ++failures;
        continue;
      }
      if (!session.error().empty()) {
        std::printf("FAIL %s: edit %d of %s: %s\n", name.c_str(), static_cast<int>(edit.kind), node.c_str(),
                    session.error().c_str());
        ++failures;
      }
      Frame(session, ui);
      kplace::app::UndoEdit(session, ui);
      if (session.text() != before) {
        std::printf("FAIL %s: undo of edit %d of %s\n", name.c_str(), static_cast<int>(edit.kind), node.c_str());
        ++failures;
      }
    }
  }
}

// The session's scenario answered as a background run (the Web Worker's envelope): the views rebuild Karpenter's
// records from the result JSON and must put every pod where the run in the frame did, then draw them.
void Background(kplace::app::Session& session, kplace::app::UiState& ui, const std::string& name) {
  const kplace::app::Snapshot* fg = session.snapshot();
  if (!fg) return;
  auto layout = [](const kplace::app::Snapshot& snap) {
    std::vector<std::string> out;
    for (const auto& pod : snap.pods) out.push_back(pod.key + ":" + std::to_string(static_cast<int>(pod.status)));
    for (const auto& nv : snap.nodes) {
      std::string line = nv.node->meta.name + (nv.launched ? "(new)" : "") + ":";
      for (int i : nv.pods) line += " " + snap.pods[i].key;
      out.push_back(line);
    }
    for (const auto& cv : snap.claims) out.push_back("claim " + cv.claim->name + ":" + std::to_string(cv.pods.size()));
    return out;
  };
  const std::vector<std::string> want = layout(*fg);
  std::uint64_t asked = 0;
  std::string text;
  session.SetAsyncRunner(
      [&](std::uint64_t seq, const std::string& t) {
        asked = seq;
        text = t;
      },
      0);
  session.Rerun();
  const kplace::io::Outcome out = kplace::io::RunText(text, false, false);
  const kplace::io::Json envelope = {{"status", "success"}, {"result", kplace::io::ResultToJson(out.result)}};
  if (!session.Complete(asked, envelope.dump()) || !session.snapshot()) {
    std::printf("FAIL %s: the background answer was not taken: %s\n", name.c_str(), session.error().c_str());
    ++failures;
  } else {
    const std::vector<std::string> got = layout(*session.snapshot());
    for (std::size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
      const std::string w = i < want.size() ? want[i] : "", g = i < got.size() ? got[i] : "";
      if (w == g) continue;
      std::printf("FAIL %s in the background: %s, not %s\n", name.c_str(), g.c_str(), w.c_str());
      ++failures;
      break;
    }
    for (const auto& pod : session.snapshot()->pods) {
      ui.selected_pod = pod.key;
      for (const kplace::app::Panel* panel : kplace::app::DetailPanels()) {
        ui.select_tab = panel->id;
        Frame(session, ui);
      }
    }
    ui.selected_pod.clear();
  }
  // The same text made large (whitespace between the items): it is read a slice per frame while the runner runs
  // it; an answer that comes first waits for the reading, and the result is the same.
  const std::string original = session.text();
  std::string large = original;
  const std::size_t items_at = large.find("\"items\"");
  if (items_at != std::string::npos)
    large.insert(large.find('[', items_at) + 1, std::string(kplace::app::Session::kSlicedParseBytes, ' '));
  session.SetText(large);
  if (!session.running() || session.reading_progress() < 0 || text != large) {
    std::printf("FAIL %s: a large text was not read in slices while it runs in the background\n", name.c_str());
    ++failures;
  }
  if (session.Complete(asked, envelope.dump())) {
    std::printf("FAIL %s: the answer landed before the text was read\n", name.c_str());
    ++failures;
  }
  for (int i = 0; i < 1000 && session.running(); ++i) Frame(session, ui);
  if (session.running() || !session.snapshot() || session.snapshot()->generation != asked ||
      layout(*session.snapshot()) != want) {
    std::printf("FAIL %s: the large text's result did not land as the small one's: %s\n", name.c_str(),
                session.error().c_str());
    ++failures;
  }
  // Invalid: the reading reports the error ParseScenario reports, the runner's answer is dropped.
  std::string bad = large;
  bad.insert(bad.rfind(']'), ", {\"kind\": \"Node\", \"metadata\": {\"name\": 7}}");
  session.SetText(bad);
  std::string want_error;
  try {
    kplace::io::ParseScenario(bad);
  } catch (const kplace::io::InputError& e) {
    want_error = e.what();
  }
  for (int i = 0; i < 1000 && session.running(); ++i) Frame(session, ui);
  if (session.running() || session.error().empty() || session.error() != want_error ||
      session.Complete(asked, envelope.dump())) {
    std::printf("FAIL %s: a large invalid text: \"%s\", want \"%s\"\n", name.c_str(), session.error().c_str(),
                want_error.c_str());
    ++failures;
  }
  session.SetAsyncRunner(nullptr, 0);
  session.SetText(original);
}

// A large text (an imported cluster): the editor shows it read-only, a screenful of lines at a time (hovered and
// scrolled through, a line longer than it shows included), and as the usual text box once the user asks for it.
void LargeText(kplace::app::Session& session, kplace::app::UiState& ui) {
  kplace::app::LoadPreset(session, ui, kplace::app::DefaultPreset());
  const std::string original = session.text();
  std::string pad;
  while (pad.size() < (4u << 20)) pad += std::string(pad.size() % 97, ' ') + "\n";
  pad += std::string(10000, ' ') + "\n";
  std::string large = original;
  large.insert(large.find('[', large.find("\"items\"")) + 1, pad);
  kplace::app::ReplaceText(session, ui, large);
  ImGuiIO& io = ImGui::GetIO();
  for (int i = 0; i < 40; ++i) {
    io.MouseWheel = i < 20 ? -30.0f : 25.0f;  // down through the lines, then back up
    Frame(session, ui, ImVec2(200, 400));
  }
  for (float y = 0; y < 800; y += 37) Frame(session, ui, ImVec2(230, y));
  if (!session.error().empty() || !session.snapshot() ||
      ui.editor_lines.count() != kplace::app::TextLines(large).count()) {
    std::printf("FAIL a large text: the read-only view did not index its %zu lines (%s)\n",
                kplace::app::TextLines(large).count(), session.error().c_str());
    ++failures;
  }
  ui.editor_edit_large = ui.editor_epoch;  // "Edit it here anyway"
  for (int i = 0; i < 3; ++i) Frame(session, ui, ImVec2(200, 400));
  if (session.text() != large) {
    std::printf("FAIL a large text changed in the editor without an edit\n");
    ++failures;
  }
  kplace::app::ReplaceText(session, ui, original);
  Frame(session, ui);
}

// A cluster of `nodes` tainted nodes with `pods` bound pods each, every name longer than a chip or card shows.
std::string Cluster(int nodes, int pods) {
  std::string text = R"({"apiVersion": "v1", "kind": "List", "items": [)";
  for (int n = 0; n < nodes; ++n) {
    const std::string node = "ip-10-0-0-" + std::to_string(n) + ".eu-west-1.compute.internal";
    text += std::string(n ? "," : "") + R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + node +
            R"("}, "spec": {"taints": [{"key": "dedicated-to-a-rather-long-team-name", "value": "batch",
            "effect": "PreferNoSchedule"}]}, "status": {"allocatable": {"cpu": "16", "memory": "64Gi", "pods": "110"}}})";
    for (int p = 0; p < pods; ++p)
      text += R"(,{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "checkout-service-7d9f8b6c5d-)" +
              std::to_string(n * 100 + p) + R"(", "namespace": "default"}, "spec": {"nodeName": ")" + node +
              R"(", "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m"}}}]}})";
  }
  return text + "]}";
}

int DrawCommands() {
  const ImDrawData* data = ImGui::GetDrawData();
  int commands = 0;
  for (int i = 0; i < data->CmdListsCount; ++i) commands += data->CmdLists[i]->CmdBuffer.Size;
  return commands;
}

// The cluster view's draw commands (a draw call each in the browser, where software WebGL pays for each) do not
// grow with the cards and chips it shows: names cut at a chip's, badge's or compact card's edge are cut glyph by
// glyph (ClippedText), not inside a clip rect of their own. Full cards: 2 nodes with 1 pod each, then 8 (more chips);
// compact cards: 2 nodes, then 10 (more cards). All in view: no scrollbar in either.
void DrawCommandsDoNotGrowWithChips(kplace::app::Session& session, kplace::app::UiState& ui) {
  struct Case {
    int compact, nodes[2], pods[2];
  };
  for (const Case& c : {Case{0, {2, 2}, {1, 8}}, Case{1, {2, 10}, {1, 1}}}) {
    ui.compact = c.compact;
    int commands[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      kplace::app::ReplaceText(session, ui, Cluster(c.nodes[k], c.pods[k]));
      for (int i = 0; i < 3; ++i) Frame(session, ui);
      commands[k] = DrawCommands();
      const auto pods = static_cast<std::size_t>(c.nodes[k] * c.pods[k]);
      if (!session.error().empty() || !session.snapshot() || session.snapshot()->pods.size() != pods) {
        std::printf("FAIL the draw-command cluster did not run: %s\n", session.error().c_str());
        ++failures;
      }
    }
    if (commands[0] != commands[1]) {
      std::printf("FAIL %s cards: %d draw commands for %d nodes with %d pods each, %d for %d with %d\n",
                  c.compact ? "compact" : "full", commands[0], c.nodes[0], c.pods[0], commands[1], c.nodes[1],
                  c.pods[1]);
      ++failures;
    }
  }
  ui.compact = -1;
}

}  // namespace

void KplaceSmokeAssertFailed(const char* expr, const char* file, int line) {
  if (failures < 20) std::printf("FAIL IM_ASSERT(%s) at %s:%d (frame %d)\n", expr, file, line, frames);
  ++failures;
}

int main() {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  ImFont* font = io.Fonts->AddFontDefault();
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the atlas; no texture upload without a renderer
  kplace::app::GetFonts().ui = font;
  kplace::app::GetFonts().mono = font;
  kplace::app::ApplyStyle(1.0f);

  kplace::app::Session session;
  kplace::app::UiState ui;
  const auto& presets = kplace::app::Presets();
  for (int p = 0; p < static_cast<int>(presets.size()); ++p) {
    kplace::app::LoadPreset(session, ui, p);
    Exercise(session, ui, presets[p].name);
  }
  // Karpenter: the smoke scenario in karpenter mode, then switched to cluster mode (the top bar's Mode switch).
  kplace::app::ReplaceText(session, ui, kplace::smoke::kKarpenter);
  Exercise(session, ui, "karpenter-smoke");
  Background(session, ui, "karpenter-smoke");
  if (const auto* snap = session.snapshot(); snap && session.error().empty()) {
    bool on_claim = false;
    for (const auto& pod : snap->pods) on_claim |= pod.status == kplace::app::PodStatus::OnNewClaim;
    if (snap->claims.empty() || !on_claim || snap->events.empty()) {
      std::printf("FAIL karpenter-smoke: no NodeClaim to launch, no pod on one, or no Karpenter events\n");
      ++failures;
    }
  }
  // The top bar's mode switch, clicked: one undoable edit of spec.mode.
  Frame(session, ui);
  if (auto it = ui.targets.find("mode:cluster"); it != ui.targets.end()) {
    const ImVec2 c((it->second.x0 + it->second.x1) / 2, (it->second.y0 + it->second.y1) / 2);
    Frame(session, ui, c, true);
    Frame(session, ui, c, false);
  }
  if (session.text().find("\"mode\": \"cluster\"") == std::string::npos || !session.can_undo()) {
    std::printf("FAIL karpenter-smoke: the mode switch did not set cluster mode\n");
    ++failures;
  } else {
    Exercise(session, ui, "karpenter-smoke (cluster mode)");
    Background(session, ui, "karpenter-smoke (cluster mode)");
  }

  LargeText(session, ui);
  DrawCommandsDoNotGrowWithChips(session, ui);

  // A background run: the runner gets the text, the answer comes back as the Web Worker sends it.
  std::uint64_t asked = 0;
  std::string asked_text;
  session.SetAsyncRunner(
      [&](std::uint64_t seq, const std::string& text) {
        asked = seq;
        asked_text = text;
      },
      0);
  kplace::app::LoadPreset(session, ui, kplace::app::DefaultPreset());
  Frame(session, ui);
  if (!session.running() || asked == 0) {
    std::printf("FAIL the async runner was not asked\n");
    ++failures;
  }
  const std::string failure = R"({"status":"failure","errors":[{"message":"boom","internal":true}]})";
  if (session.Complete(asked + 1, failure) || !session.running()) {
    std::printf("FAIL a stale answer was taken\n");
    ++failures;
  }
  if (session.Complete(asked, failure) || session.error() != "boom") {
    std::printf("FAIL a failed background run: %s\n", session.error().c_str());
    ++failures;
  }
  // Success: kplace-core's envelope as api.cpp builds it; the rebuilt result must give the same placements.
  session.Rerun();  // asks the runner again (a new seq)
  const kplace::io::Outcome out = kplace::io::RunText(asked_text, false, false);
  kplace::io::Json envelope = {{"status", "success"}, {"result", kplace::io::ResultToJson(out.result)}};
  if (!session.Complete(asked, envelope.dump()) || session.running() || !session.snapshot()) {
    std::printf("FAIL a background run's answer was not taken: %s\n", session.error().c_str());
    ++failures;
  } else {
    const auto& snap = *session.snapshot();
    if (snap.result_json != kplace::io::Dump(kplace::io::ResultToJson(out.result)) ||
        kplace::io::Dump(kplace::io::ResultToJson(snap.result)) != snap.result_json) {
      std::printf("FAIL the rebuilt result differs from the core's\n");
      ++failures;
    }
  }
  // Explanations on demand for that background snapshot: asked through the inspector's request, answered as
  // kplace_explain answers.
  std::string explain_pod;
  std::uint64_t explain_seq = 0;
  session.SetExplainRunner([&](std::uint64_t seq, const std::string&, const std::string& pod) {
    explain_seq = seq;
    explain_pod = pod;
  });
  for (const auto& pod : session.snapshot()->pods) {
    ui.selected_pod = pod.key;
    Frame(session, ui);
    ui.explain_request = pod.key;
    Frame(session, ui);
    if (explain_pod != pod.key || !session.explaining(pod.key)) {
      std::printf("FAIL no explanation asked for %s\n", pod.key.c_str());
      ++failures;
      continue;
    }
    const kplace::io::Outcome ex = kplace::io::RunText(asked_text, false, false, {pod.key});
    kplace::io::Json answer = {{"status", "success"}, {"explanations", kplace::io::Json::object()}};
    for (const auto& r : ex.result.pods)
      if (r.key == pod.key) answer["explanations"][r.key] = kplace::io::ExplanationToJson(r);
    if (!session.CompleteExplanation(explain_seq, pod.key, answer.dump()) || !session.explanation(pod.key)) {
      std::printf("FAIL the explanation of %s was not taken\n", pod.key.c_str());
      ++failures;
    }
    Frame(session, ui);
  }
  Frame(session, ui);

  ImGui::DestroyContext();
  std::printf("%s: ui smoke (%zu presets, %d frames, %d failures)\n", failures ? "FAILED" : "ok", presets.size(),
              frames, failures);
  return failures ? 1 : 0;
}
