// The Compare tab (Session::comparison): pin the result on screen as A and keep editing (B is every later result), or
// compare the scenario as it is (A) with itself under other settings (B: a mode, a release, a scoring strategy, a
// seed), recomputed at every edit; then the pods whose answers differ with both answers, the NodeClaims, the cost.
#include <string>
#include <vector>

#include "app/ui/panels.h"
#include "app/ui/theme.h"
#include "app/ui/ui.h"
#include "core/model/features.h"
#include "imgui.h"

namespace kplace::app {
namespace {

constexpr const char* kModes[] = {"as it is", "scheduler", "karpenter", "cluster"};
constexpr const char* kStrategies[] = {"as it is", "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"};

// Keeps the next item of about width on this line when it fits, else starts a new one (a narrow details pane).
void SameLineIfFits(float width) {
  const float right = ImGui::GetItemRectMax().x + Em(1) + width;
  if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine(0, Em(1));
}

void Combo(const char* label, const char* id, int& value, const char* const* items, int count, float width) {
  SameLineIfFits(ImGui::CalcTextSize(label).x + Em(0.3f) + width);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("%s", label);
  ImGui::SameLine(0, Em(0.3f));
  ImGui::SetNextItemWidth(width);
  ImGui::Combo(id, &value, items, count);
}

// B's settings as picked: "mode=karpenter,kubernetesVersion=1.33" ("" when nothing differs from the scenario).
std::string PickedSettings(const UiState& ui) {
  std::string out;
  auto add = [&out](const std::string& s) { out += (out.empty() ? "" : ",") + s; };
  if (ui.compare_mode > 0) add(std::string("mode=") + kModes[ui.compare_mode]);
  if (ui.compare_release > 0) add("kubernetesVersion=" + VersionText(kReleases[ui.compare_release - 1]));
  if (ui.compare_strategy > 0) add(std::string("scoringStrategy=") + kStrategies[ui.compare_strategy]);
  if (ui.compare_seed >= 0) add("seed=" + std::to_string(ui.compare_seed));
  return out;
}

void DrawControls(UiState& ui) {
  if (ImGui::Button("Pin this result as A")) ui.compare_pin = true;
  RecordTarget(ui, "compare:pin");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Keep the result on screen as A; every later result (edit the text, click edits) is B");
  SameLineIfFits(ImGui::CalcTextSize("or compare the scenario with itself under:").x);
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("or compare the scenario with itself under:");
  Combo("mode", "##cmp_mode", ui.compare_mode, kModes, 4, Em(6.5f));
  static std::vector<std::string> releases;
  if (releases.empty()) {
    releases.push_back("as it is");
    for (int m : kReleases) releases.push_back(VersionText(m));
  }
  static std::vector<const char*> release_items;
  if (release_items.empty())
    for (const auto& r : releases) release_items.push_back(r.c_str());
  Combo("Kubernetes", "##cmp_release", ui.compare_release, release_items.data(), static_cast<int>(release_items.size()),
        Em(5.5f));
  Combo("scoring", "##cmp_strategy", ui.compare_strategy, kStrategies, 4, Em(11));
  SameLineIfFits(Em(7));
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("seed");
  ImGui::SameLine(0, Em(0.3f));
  ImGui::SetNextItemWidth(Em(5));
  ImGui::InputInt("##cmp_seed", &ui.compare_seed, 0);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("-1: the scenario's own seed");
  if (ui.compare_seed < -1) ui.compare_seed = -1;
  const std::string picked = PickedSettings(ui);
  SameLineIfFits(Em(5));
  ImGui::BeginDisabled(picked.empty());
  if (ImGui::Button("Compare")) ui.compare_settings = picked;
  ImGui::EndDisabled();
  RecordTarget(ui, "compare:settings");
}

}  // namespace

extern const Panel kComparePanel;
const Panel kComparePanel = {
    "compare", [](const Snapshot&, const UiState&) -> std::string { return "Compare"; },
    [](const Snapshot&, const Session& session, UiState& ui) {
      DrawControls(ui);
      if (!ui.compare_error.empty()) Wrapped(colors::kError, ui.compare_error);
      const Session::Comparison* c = session.comparison();
      if (!c) {
        ImGui::TextDisabled(
            "Nothing compared yet. A is the result pinned (or the scenario as it is), B the result on screen (or the "
            "scenario under the settings picked); `kplace diff` prints the same from the command line.");
        return;
      }
      std::string sides = c->pinned ? "A: the result pinned   B: the result on screen"
                                    : "A: the scenario as it is   B: under " + c->settings +
                                          (c->from_scenario ? " (its kplace.dev/compare)" : "");
      ImGui::AlignTextToFramePadding();
      ImGui::TextUnformatted(sides.c_str());
      ImGui::SameLine(0, Em(1));
      if (ImGui::SmallButton("Stop comparing")) ui.compare_stop = true;
      RecordTarget(ui, "compare:stop");
      if (!c->error.empty()) Wrapped(colors::kWarn, c->error);
      if (c->diff) DrawDiff(*c->diff, ui, "compare", "A", "B", "A and B give every pod the same answer");
    }};

}  // namespace kplace::app
