// A comparison as text: the settings a side runs under ("mode=karpenter", "kubernetesVersion=1.33", ...) and the
// diff of two results (sim::Compare) as JSON (`kplace diff --format json`, the core API's kplace_compare).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/json_writer.h"
#include "core/model/scenario.h"
#include "core/sim/compare.h"

namespace kplace::io {

// "mode=karpenter", "seed=7", "kubernetesVersion=1.33", "scoringStrategy=MostAllocated"; several in one argument
// separated by commas. Throws InputError naming the setting.
void ParseOverrides(std::string_view settings, SimulationOverrides& out);
// The settings back as text, in the order above, comma separated ("" when none).
std::string OverridesText(const SimulationOverrides& o);

// How the document names each side.
struct DiffSide {
  std::string source;    // the file (or "" when the caller has no name for it)
  std::string settings;  // OverridesText of the side's overrides ("" when none)
  // What the side ran as, when it ran from a scenario ("" for a result read back, whose document does not say).
  std::string mode, kubernetes_version;
  std::uint64_t seed = 0;
  bool ran = false;  // mode, kubernetes_version and seed are known
};

// {"a": side, "b": side, "cost", "nodeClaims": [...], "pods": [...], "summary"}: docs/scenario-format.md
// "Comparing two runs".
void WriteDiff(const sim::ResultDiff& diff, const DiffSide& a, const DiffSide& b, JsonWriter& w);
std::string DiffText(const sim::ResultDiff& diff, const DiffSide& a, const DiffSide& b);
// The side of a run from a scenario.
DiffSide SideOf(const sim::SimResult& result, std::string source, const SimulationOverrides& overrides);
const char* ModeName(Mode mode);
const char* StrategyName(ScoringStrategyType type);
// Their inverses ("karpenter" -> Mode::Karpenter); nullopt for any other text. The Simulation's spec.mode and a
// profile's scoringStrategy.type read the same names.
std::optional<Mode> ModeFromName(std::string_view name);
std::optional<ScoringStrategyType> StrategyFromName(std::string_view name);

}  // namespace kplace::io
