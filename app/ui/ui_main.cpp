// Layout of the full-window app and the top bar.
#include <algorithm>
#include <cstdio>

#include "app/model/json_text.h"
#include "app/model/presets.h"
#include "app/ui/pane_backdrop.h"
#include "app/ui/panels.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "core/io/compare.h"
#include "core/model/features.h"
#include "imgui.h"

namespace kplace::app {
namespace {

// Embeds: the height of the inspector (its tabs) under a cluster view that shows all its cards.
constexpr float kFitInspectorEm = 18;

// The root window's background is PaneBackdrop's; its border is drawn as ImGui draws it for a window with a
// background.
void DrawRootBorder() {
  const ImGuiStyle& style = ImGui::GetStyle();
  if (style.WindowBorderSize <= 0) return;
  const ImVec2 min = ImGui::GetWindowPos(), max(min.x + ImGui::GetWindowWidth(), min.y + ImGui::GetWindowHeight());
  ImGui::PushClipRect(min, max, false);
  ImGui::GetWindowDrawList()->AddRect(min, max, ImGui::GetColorU32(ImGuiCol_Border), style.WindowRounding, 0,
                                      style.WindowBorderSize);
  ImGui::PopClipRect();
}

// A draggable bar between two panes; returns the drag delta along its axis in pixels.
float Splitter(const char* id, bool vertical, float thickness, float length) {
  const ImVec2 size = vertical ? ImVec2(thickness, length) : ImVec2(length, thickness);
  ImGui::InvisibleButton(id, size);
  const bool active = ImGui::IsItemActive();
  if (ImGui::IsItemHovered() || active)
    ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
  const ImU32 col = ImGui::GetColorU32(active                   ? ImGuiCol_SeparatorActive
                                       : ImGui::IsItemHovered() ? ImGuiCol_SeparatorHovered
                                                                : ImGuiCol_Separator);
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  if (vertical) {
    const float x = (a.x + b.x) * 0.5f;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), col, std::max(1.0f, thickness * 0.15f));
  } else {
    const float y = (a.y + b.y) * 0.5f;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), col, std::max(1.0f, thickness * 0.15f));
  }
  if (!active) return 0;
  return vertical ? ImGui::GetIO().MouseDelta.x : ImGui::GetIO().MouseDelta.y;
}

// Tab flags: selected when the embedding API, a test or a newly selected pod asked for this tab.
ImGuiTabItemFlags Select(const UiState& ui, const char* tab) {
  return ui.select_tab == tab ? ImGuiTabItemFlags_SetSelected : 0;
}

const char* ModeHelp(Mode m) {
  switch (m) {
    case Mode::Scheduler:
      return "kube-scheduler alone over the existing nodes";
    case Mode::Karpenter:
      return "one provisioning run of Karpenter over the pending pods: the NodeClaims it would launch";
    case Mode::Cluster:
      return "the loop a cluster runs: kube-scheduler binds, Karpenter launches NodeClaims for what stays pending, "
             "until nothing changes";
  }
  return "";
}

}  // namespace

bool ReplaceText(Session& session, UiState& ui, std::string text) {
  ++ui.editor_epoch;  // a fresh editor widget: an active InputText would keep its own copy of the old text
  return session.SetText(std::move(text));
}

bool ApplyEdit(Session& session, UiState& ui, const Edit& edit) {
  if (!ApplyEdit(session, edit)) return false;
  ++ui.editor_epoch;
  ui.preset_edited = ui.preset >= 0;
  return true;
}

bool UndoEdit(Session& session, UiState& ui) {
  if (!UndoEdit(session)) return false;
  ++ui.editor_epoch;
  ui.preset_edited = ui.preset >= 0;
  return true;
}

void LoadPreset(Session& session, UiState& ui, int index) {
  const auto& presets = Presets();
  if (index < 0 || index >= static_cast<int>(presets.size())) return;
  session.NewDocument();  // another scenario, not an edit: no Changes against the one before
  ReplaceText(session, ui, presets[index].text);
  ui.preset = index;
  ui.preset_edited = false;
  ui.selected_pod.clear();
}

void DrawTopBar(Session& session, UiState& ui) {
  const auto& presets = Presets();
  // Folds the scenario editor away (embeds start folded) or brings it back.
  if (ImGui::SmallButton(ui.editor_collapsed ? "Scenario >>" : "<< Scenario"))
    ui.editor_collapsed = !ui.editor_collapsed;
  RecordTarget(ui, "editor:toggle");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(ui.editor_collapsed ? "Show the scenario editor" : "Fold the scenario editor away");
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("kplace");
  if (!ui.embed) {
    ImGui::SameLine();
    ImGui::TextDisabled("Kubernetes scheduling playground");
  }
  ImGui::SameLine(0, Em(1.5f));

  ImGui::SetNextItemWidth(Em(20));
  std::string current = ui.preset >= 0 ? presets[ui.preset].title : "(custom)";
  if (ui.preset >= 0 && ui.preset_edited) current += " (edited)";
  if (ImGui::BeginCombo("Preset", current.c_str())) {
    for (int i = 0; i < static_cast<int>(presets.size()); ++i) {
      if (ImGui::Selectable(presets[i].title.c_str(), i == ui.preset)) LoadPreset(session, ui, i);
      if (!presets[i].description.empty() && ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", presets[i].description.c_str());
    }
    ImGui::EndCombo();
  }

  const Snapshot* snap = session.snapshot();
  // The mode switch, one click per mode: writes spec.mode into the text (an undoable edit).
  ImGui::SameLine(0, Em(1));
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("Mode");
  const Mode mode = snap ? snap->scenario.simulation.mode : Mode::Cluster;
  for (Mode m : {Mode::Scheduler, Mode::Karpenter, Mode::Cluster}) {
    ImGui::SameLine(0, Em(0.2f));
    const bool current = m == mode;
    if (current) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    if (ImGui::Button(io::ModeName(m)) && !current) {
      if (auto text = json_text::WithMode(session.text(), io::ModeName(m))) {
        session.PushUndo();
        ReplaceText(session, ui, std::move(*text));
      }
    }
    if (current) ImGui::PopStyleColor();
    RecordTarget(ui, std::string("mode:") + io::ModeName(m));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ModeHelp(m));
  }

  // The release picker: writes spec.kubernetesVersion (an undoable edit); the tooltip says what each release changes.
  ImGui::SameLine(0, Em(1));
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("Kubernetes");
  ImGui::SameLine(0, Em(0.2f));
  const int minor = snap ? snap->scenario.simulation.kubernetes_minor : kDefaultMinor;
  ImGui::SetNextItemWidth(Em(4.5f));
  if (ImGui::BeginCombo("##release", VersionText(minor).c_str())) {
    for (int m : kReleases) {
      const std::string label = VersionText(m) + (m == kDefaultMinor ? " (default)" : "");
      if (ImGui::Selectable(label.c_str(), m == minor) && m != minor) {
        if (auto text = json_text::WithKubernetesVersion(session.text(), VersionText(m))) {
          session.PushUndo();
          ReplaceText(session, ui, std::move(*text));
        }
      }
      if (ImGui::IsItemHovered()) {
        std::string tip = "kube-scheduler " + VersionText(m);
        for (const FeatureSpec& f : kFeatureTable)
          if (f.since_minor == m) tip += std::string("\n- new: ") + f.what;
        ImGui::SetTooltip("%s", tip.c_str());
      }
    }
    ImGui::EndCombo();
  }
  RecordTarget(ui, "release");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "The Kubernetes release whose kube-scheduler rules and messages to reproduce (spec.kubernetesVersion)");

  ImGui::SameLine(0, Em(1));
  ImGui::BeginDisabled(!session.can_undo());
  if (ImGui::Button("Undo edit")) ui.undo_requested = true;
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(
        "Undo the last direct edit (taint, cordon, toleration, mode, release). Ctrl+Z outside the editor.");

  ImGui::SameLine(0, Em(1.5f));
  if (session.running()) {  // a large scenario in the Web Worker: the last result stays until it lands
    static const char* kSpin[] = {"|", "/", "-", "\\"};
    const double t = session.running_seconds();
    ImGui::PushStyleColor(ImGuiCol_Text, colors::kWarn);
    const double read = session.reading_progress();
    if (read >= 0)
      ImGui::Text("%s reading the scenario %d%% and running it in the background... %.1f s",
                  kSpin[static_cast<int>(t * 8) % 4], static_cast<int>(read * 100), t);
    else
      ImGui::Text("%s running in the background... %.1f s", kSpin[static_cast<int>(t * 8) % 4], t);
    ImGui::PopStyleColor();
    ImGui::SameLine(0, Em(1.5f));
  }
  if (!session.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colors::kError);
    ImGui::TextUnformatted(snap ? "input error - showing the last good result (stale)" : "input error");
    ImGui::PopStyleColor();
  } else if (snap) {
    const int placed = snap->placed, pending = snap->pending, on_claims = snap->on_claims;
    ImGui::PushStyleColor(ImGuiCol_Text, colors::kOk);
    ImGui::Text("%d placed", placed);
    ImGui::PopStyleColor();
    ImGui::SameLine();
    if (!snap->claims.empty()) {  // karpenter mode
      ImGui::PushStyleColor(ImGuiCol_Text, colors::kNew);
      ImGui::Text("%d on %zu NodeClaim%s to launch", on_claims, snap->claims.size(),
                  snap->claims.size() == 1 ? "" : "s");
      ImGui::PopStyleColor();
      ImGui::SameLine();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, pending ? colors::kWarn : colors::kTextDim);
    ImGui::Text("%d pending", pending);
    ImGui::PopStyleColor();
    ImGui::SameLine();
    ImGui::TextDisabled("%zu nodes, %zu pods, %.1f ms%s", snap->nodes.size(), snap->pods.size(), snap->run_ms,
                        snap->explained ? "" : " in the background");
  }
  if (ui.preset >= 0 && !presets[ui.preset].description.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, colors::kTextDim);
    ImGui::TextWrapped("%s", presets[ui.preset].description.c_str());
    ImGui::PopStyleColor();
  }
}

void DrawApp(Session& session, UiState& ui) {
  // A large text is read a slice per frame while the Web Worker runs it (Session::Tick): about as long as the last
  // frame took to draw, so reading gets at least half of the time and the page keeps drawing.
  constexpr float kMinReadMs = 12, kMaxReadMs = 60;
  session.Tick(std::clamp(ImGui::GetIO().DeltaTime * 1000.0f, kMinReadMs, kMaxReadMs));
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  constexpr ImGuiWindowFlags kRoot = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                     ImGuiWindowFlags_NoBackground;
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::Begin("kplace", nullptr, kRoot);
  PaneBackdrop backdrop;  // the root's background: WindowBg around the panes
  backdrop.Begin();
  DrawRootBorder();
  ui.targets.clear();
  DrawTopBar(session, ui);
  ImGui::Separator();

  const float top = ImGui::GetCursorPosY();  // the top bar's height, the window's top padding included
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float split = Em(0.6f);
  const float below = split + 2 * style.ItemSpacing.y;  // under the cluster view: spacing, splitter, spacing, tabs
  const float left = std::clamp(ui.editor_width * avail.x, std::min(Em(12), avail.x * 0.5f),
                                std::max(avail.x - Em(16), avail.x * 0.5f));
  if (!ui.editor_collapsed) {
    ImGui::BeginChild("editor", ImVec2(left, avail.y), false, ImGuiWindowFlags_NoBackground);
    backdrop.AddPane();
    DrawEditor(session, ui);
    ImGui::EndChild();
    ImGui::SameLine(0, 0);
    if (float dx = Splitter("##vsplit", true, split, avail.y); dx != 0 && avail.x > 0)
      ui.editor_width = std::clamp(ui.editor_width + dx / avail.x, 0.15f, 0.85f);
    ImGui::SameLine(0, 0);
  }

  ImGui::BeginChild("right", ImVec2(0, avail.y), false, ImGuiWindowFlags_NoBackground);
  backdrop.AddPane();
  // A step of the timeline: the cluster and the details as they stood after it.
  const Snapshot* snap =
      ui.timeline_step >= 0 ? session.SnapshotAt(static_cast<std::size_t>(ui.timeline_step)) : session.snapshot();
  if (!snap) {
    ImGui::TextDisabled("No result yet: the scenario has an error.");
  } else {
    const bool inspecting = snap->FindPod(ui.selected_pod) >= 0;
    const float h = ImGui::GetContentRegionAvail().y;
    float cluster_h = std::max(Em(4), (1 - ui.inspector_height) * h - split);
    if (ui.fit_cluster && ui.cluster_need > 0)  // embeds: all the cards, unless that leaves the tabs too little
      cluster_h = std::clamp(ui.cluster_need, Em(4), std::max(Em(4), h - below - Em(kFitInspectorEm)));
    ImGui::BeginChild("cluster", ImVec2(0, cluster_h), true);
    if (snap != session.snapshot()) {
      ImGui::PushStyleColor(ImGuiCol_Text, colors::kInFlight);
      ImGui::Text("After step %d of %zu (the Timeline tab; Left / Right to step)", ui.timeline_step,
                  snap->result.timeline->steps.size());
      ImGui::PopStyleColor();
      ImGui::SameLine();
      if (ImGui::SmallButton("Whole run")) ui.timeline_step = -1;
      RecordTarget(ui, "timeline:banner-end");
    }
    UpdateMarks(session, ui);
    DrawCluster(*snap, ui, session.disruption());
    // The content's end in the child's own coordinates (scrolling does not move it) plus the bottom padding: the
    // outer height at which the cards fit without scrolling. It follows the width (cards per row) and the scenario,
    // never the child's height.
    ui.cluster_need = ImGui::GetCursorPosY() + style.WindowPadding.y;
    ImGui::EndChild();
    if (float dy = Splitter("##hsplit", false, split, ImGui::GetContentRegionAvail().x); dy != 0 && h > 0) {
      if (ui.fit_cluster) ui.inspector_height = 1 - (cluster_h + split) / h;  // dragging ends the fit, from here
      ui.fit_cluster = false;
      ui.inspector_height = std::clamp(ui.inspector_height - dy / h, 0.15f, 0.85f);
    }
    ImGui::BeginChild("details", ImVec2(0, 0), true);
    // A newly selected pod brings its tab to the front.
    const bool newly_selected = inspecting && ui.selected_pod != ui.shown_pod;
    ui.shown_pod = inspecting ? ui.selected_pod : "";
    if (newly_selected) ui.select_tab = "pod";
    if (ImGui::BeginTabBar("details_tabs")) {
      for (const Panel* panel : DetailPanels()) {
        const std::string label = panel->label(*snap, ui);
        if (label.empty()) continue;
        const bool open = ImGui::BeginTabItem((label + "###" + panel->id).c_str(), nullptr, Select(ui, panel->id));
        RecordTarget(ui, std::string("tab:") + panel->id);
        if (open) {
          panel->draw(*snap, session, ui);
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    }
    ImGui::EndChild();
  }
  ImGui::EndChild();
  backdrop.End();
  ImGui::End();
  ui.select_tab.clear();
  // The height that shows everything: the top bar, the whole cluster view, the splitter and tabs of
  // kFitInspectorEm, the window's bottom padding (device pixels; embeds post it to their parent page).
  const float right = snap ? ui.cluster_need + below + Em(kFitInspectorEm) : ImGui::GetFrameHeightWithSpacing();
  ui.content_need = top + right + style.WindowPadding.y;

  // Direct edits and their undo, after the frame's panels stopped reading the snapshot they replace.
  const ImGuiIO& io = ImGui::GetIO();
  const bool mod = io.ConfigMacOSXBehaviors ? io.KeySuper : io.KeyCtrl;
  if (mod && !io.KeyShift && !io.WantTextInput && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Z), false))
    ui.undo_requested = true;
  if (ui.undo_requested) UndoEdit(session, ui);
  ui.undo_requested = false;
  if (ui.pending_edit) ApplyEdit(session, ui, *ui.pending_edit);
  ui.pending_edit.reset();
  if (!ui.explain_request.empty()) session.RequestExplanation(ui.explain_request);
  ui.explain_request.clear();
  // Karpenter's disruption dry run, once per snapshot that has one; then what the Disruption tab asked about.
  if (session.HasDisruption() && !session.disruption() && !session.disruption_asked()) session.RequestDisruption();
  if (ui.disruption_request && session.disruption()) session.RequestDisruption(*ui.disruption_request);
  ui.disruption_request.reset();
  // The Compare tab's buttons.
  if (ui.compare_pin) session.Pin();
  if (ui.compare_stop) session.StopComparing();
  if (ui.compare_settings) {
    ui.compare_error.clear();
    session.CompareWith(*ui.compare_settings, &ui.compare_error);
  }
  ui.compare_pin = ui.compare_stop = false;
  ui.compare_settings.reset();
}

void RecordTarget(UiState& ui, const std::string& name) {
  if (!ImGui::IsItemVisible()) return;  // scrolled out of its window: not clickable
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  ui.targets[name] = Rect{a.x, a.y, b.x, b.y};
}

std::string FormatCpu(std::int64_t milli) {
  char buf[32];
  if (milli % 1000 == 0) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(milli / 1000));
  } else if (milli % 100 == 0) {
    std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(milli) / 1000);
  } else {
    std::snprintf(buf, sizeof buf, "%lldm", static_cast<long long>(milli));
  }
  return buf;
}

std::string FormatBytes(std::int64_t bytes) {
  static const char* kUnits[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  if (v == static_cast<double>(static_cast<std::int64_t>(v))) {
    std::snprintf(buf, sizeof buf, "%lld%s", static_cast<long long>(v), kUnits[u]);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f%s", v, kUnits[u]);
  }
  return buf;
}

}  // namespace kplace::app
