// A headless smoke test of the playground's UI: the ImGui app (wasm/app, without the browser seam
// platform_web.cpp) drawn for some frames over every preset without a renderer, with each pod selected, the
// mouse swept over the window (hover tooltips), compact and full cluster views, every direct edit of every node
// and its undo, and a background run answered the way the Web Worker answers. Every IM_ASSERT counts as a failure
// (smoke_imconfig.h): unbalanced Begin/End or Push/Pop, bad IDs, ... Built for node by the wasm preset:
//   node build/wasm/wasm/ui_smoke_test.js
#include <cstdio>
#include <string>
#include <vector>

#include "core/io/result_writer.h"
#include "imgui.h"
#include "wasm/app/edits.h"
#include "wasm/app/presets.h"
#include "wasm/app/session.h"
#include "wasm/app/theme.h"
#include "wasm/app/ui.h"
#include "wasm/engine.h"

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

}  // namespace

void KplaceSmokeAssertFailed(const char* expr, const char* file, int line) {
  if (failures < 20) std::printf("FAIL IM_ASSERT(%s) at %s:%d (frame %d)\n", expr, file, line, frames);
  ++failures;
}

int main() {
  using kplace::app::Edit;
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
    if (!session.snapshot() || !session.error().empty()) {
      std::printf("FAIL preset %s: %s\n", presets[p].name.c_str(), session.error().c_str());
      ++failures;
      continue;
    }
    for (int i = 0; i < 3; ++i) Frame(session, ui);
    for (float y = 0; y < 800; y += 37)  // hover everything: tooltips, hovered badges and chips
      for (float x = 0; x < 1280; x += 53) Frame(session, ui, ImVec2(x, y));
    std::vector<std::string> pods;
    for (const auto& pod : session.snapshot()->pods) pods.push_back(pod.key);
    for (const auto& key : pods) {
      ui.selected_pod = key;
      Frame(session, ui);
      Frame(session, ui);
      ui.events_selected_only = !ui.events_selected_only;
      Frame(session, ui);
    }
    ui.selected_pod.clear();
    for (int compact : {1, 0, -1}) {
      ui.compact = compact;
      Frame(session, ui);
    }
    // Every direct edit of every node, each undone.
    struct NodeInfo {
      std::string name;
      std::size_t taints;
      bool cordoned;
    };
    std::vector<NodeInfo> nodes;
    for (const auto& nv : session.snapshot()->nodes)
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
          std::printf("FAIL preset %s: edit %d of %s did not apply\n", presets[p].name.c_str(),
                      static_cast<int>(edit.kind), node.c_str());
          ++failures;
          continue;
        }
        if (!session.error().empty()) {
          std::printf("FAIL preset %s: edit %d of %s: %s\n", presets[p].name.c_str(), static_cast<int>(edit.kind),
                      node.c_str(), session.error().c_str());
          ++failures;
        }
        Frame(session, ui);
        kplace::app::UndoEdit(session, ui);
        if (session.text() != before) {
          std::printf("FAIL preset %s: undo of edit %d of %s\n", presets[p].name.c_str(), static_cast<int>(edit.kind),
                      node.c_str());
          ++failures;
        }
      }
    }
  }

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
  const kplace::wasm::Outcome out = kplace::wasm::RunText(asked_text, false, false);
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
    const kplace::wasm::Outcome ex = kplace::wasm::RunText(asked_text, false, false, {pod.key});
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
