// The Timeline panel: the run step by step (the result's sim::Timeline: attempts, binds, preemptions, nominations,
// NodeClaims launched and initialised, queue passes, rounds) with a scrubber. Picking a step shows the cluster as it
// stood after it (UiState::timeline_step: the frame draws Session::SnapshotAt) and, beside the steps,
// kube-scheduler's queue then (sim::StateAt: activeQ, backoffQ, unschedulablePods, gated, each with why). Left and
// Right step back and forth, Home goes to the start, End back to the whole run. Only runs in the frame record a
// timeline: for a scenario that runs in the background the tab says how to get it (`kplace run --timeline`); karpenter
// mode has none (kube-scheduler does not run).
#include <algorithm>
#include <string>

#include "app/ui/panels.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "imgui.h"

namespace kplace::app {
namespace {

ImU32 QueueColor(sim::QueuedPod::Queue q) {
  switch (q) {
    case sim::QueuedPod::Queue::Active:
      return colors::kOk;
    case sim::QueuedPod::Queue::Backoff:
      return colors::kNew;
    case sim::QueuedPod::Queue::Unschedulable:
      return colors::kWarn;
    case sim::QueuedPod::Queue::Gated:
      return colors::kTextDim;
  }
  return colors::kText;
}

std::string Why(const sim::QueuedPod& q) {
  std::string why;
  auto add = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  std::string events;
  for (const auto& e : q.events) events += (events.empty() ? "" : ", ") + e;
  switch (q.queue) {
    case sim::QueuedPod::Queue::Active:
    case sim::QueuedPod::Queue::Backoff:
      if (!events.empty()) add("woken by " + events);
      if (!q.moved.empty()) add(q.moved);
      if (why.empty()) add("new");
      break;
    case sim::QueuedPod::Queue::Unschedulable:
      add("waits for " + events + ": " + q.message);
      break;
    case sim::QueuedPod::Queue::Gated:
      for (const auto& g : q.gates) add("schedulingGate " + g);
      break;
  }
  return why;
}

void DrawSteps(const sim::Timeline& t, std::size_t at, UiState& ui, bool follow) {
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("steps", 2, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("0000").x);
  ImGui::TableSetupColumn("Step", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(t.steps.size()));
  if (follow && at > 0) clipper.ForceDisplayRangeByIndices(static_cast<int>(at - 1), static_cast<int>(at));
  while (clipper.Step())
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const sim::TimelineStep& s = t.steps[static_cast<std::size_t>(row)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%d", row + 1);
      ImGui::TableNextColumn();
      ImGui::PushID(row);
      const bool structural = s.kind == sim::TimelineStep::Kind::Round || s.kind == sim::TimelineStep::Kind::Pass;
      if (structural) ImGui::PushStyleColor(ImGuiCol_Text, colors::kTextDim);
      const std::string text = sim::DescribeStep(s);
      // Selecting step row shows the cluster after it.
      if (ImGui::Selectable(text.c_str(), static_cast<std::size_t>(row) + 1 == at, ImGuiSelectableFlags_SpanAllColumns))
        ui.timeline_step = row + 1;
      if (structural) ImGui::PopStyleColor();
      RecordTarget(ui, "timeline:step:" + std::to_string(row + 1));
      if (follow && static_cast<std::size_t>(row) + 1 == at) ImGui::SetScrollHereY(0.5f);
      ImGui::PopID();
    }
  ImGui::EndTable();
}

void DrawQueue(const sim::TimelineState& st, UiState& ui) {
  if (st.queue.empty()) {
    ImGui::TextDisabled(st.step == 0 ? "Nothing queued before the first pass." : "The queue is empty.");
    return;
  }
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV |
                                     ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("queue_at", 3, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Queue", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("unschedulablePods").x);
  ImGui::TableSetupColumn("Pod", ImGuiTableColumnFlags_WidthFixed, Em(11));
  ImGui::TableSetupColumn("Why", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < st.queue.size(); ++i) {
    const sim::QueuedPod& q = st.queue[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushStyleColor(ImGuiCol_Text, QueueColor(q.queue));
    ImGui::TextUnformatted(sim::QueueName(q.queue));
    ImGui::PopStyleColor();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Selectable(q.pod.c_str(), ui.selected_pod == q.pod)) ui.selected_pod = q.pod;
    RecordTarget(ui, "queue:" + q.pod);
    ImGui::PopID();
    ImGui::TableNextColumn();
    Cell(Why(q));
  }
  ImGui::EndTable();
}

void DrawTimeline(const Snapshot& snap, UiState& ui) {
  if (!snap.result.timeline) {
    ImGui::TextWrapped(
        "This scenario is large enough to run in the background, which records no timeline. Step through it with "
        "`kplace run --timeline FILE` (every step) and `kplace run --at N FILE` (the cluster and the queue after step "
        "N).");
    return;
  }
  const sim::Timeline& t = *snap.result.timeline;
  const int last = static_cast<int>(t.steps.size());
  const int before = ui.timeline_step;
  int at = ui.timeline_step < 0 || ui.timeline_step > last ? last : ui.timeline_step;
  // Keys: Left / Right a step, Home the start, End the whole run (not while typing in the editor).
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantTextInput) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) at = std::max(0, at - 1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) at = std::min(last, at + 1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home), false)) at = 0;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End), false)) at = last;
  }
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) at = std::max(0, at - 1);
  RecordTarget(ui, "timeline:prev");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) at = std::min(last, at + 1);
  RecordTarget(ui, "timeline:next");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(Em(8), ImGui::GetContentRegionAvail().x - Em(12)));
  ImGui::SliderInt("##step", &at, 0, last, at == last ? "the whole run (%d)" : "after step %d");
  RecordTarget(ui, "timeline:slider");
  ImGui::SameLine();
  ImGui::BeginDisabled(at == last);
  if (ImGui::Button("Whole run")) at = last;
  ImGui::EndDisabled();
  RecordTarget(ui, "timeline:end");
  ui.timeline_step = at == last ? -1 : at;
  const bool moved = ui.timeline_step != before;

  const sim::TimelineState st = sim::StateAt(snap.result, static_cast<std::size_t>(at));
  if (at == 0)
    ImGui::TextDisabled("Before the first step: the cluster as given, every pending pod not yet tried.");
  else
    ImGui::TextWrapped("%d. %s", at, sim::DescribeStep(t.steps[static_cast<std::size_t>(at - 1)]).c_str());

  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::BeginChild("steps_list", ImVec2(w * 0.5f, 0));
  DrawSteps(t, static_cast<std::size_t>(at), ui, moved);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("queue_list", ImVec2(0, 0));
  ImGui::TextDisabled("kube-scheduler's queue%s",
                      st.pass > 0 ? (" (pass " + std::to_string(st.pass) + ")").c_str() : "");
  DrawQueue(st, ui);
  ImGui::EndChild();
}

}  // namespace

extern const Panel kTimelinePanel;
const Panel kTimelinePanel = {"timeline",
                              [](const Snapshot& snap, const UiState&) {
                                const bool background =
                                    !snap.explained && !snap.karpenter();  // a run in the Web Worker: no timeline
                                return std::string(snap.result.timeline || background ? "Timeline" : "");
                              },
                              [](const Snapshot& snap, const Session&, UiState& ui) { DrawTimeline(snap, ui); }};

}  // namespace kplace::app
