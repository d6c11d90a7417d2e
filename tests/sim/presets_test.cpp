// Scenario-level tests over presets/: each preset runs, is deterministic, and matches its hand-derived golden
// result in tests/golden/ when one exists.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/io/compare.h"
#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

std::string RunPreset(const std::string& name, bool timeline = false) {
  std::string text = testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/presets/" + name + ".json");
  sim::RunOptions options;
  options.disruption = &karpenter::disruption::DryRun;
  options.apply_disruption = &sim::ApplyDisruption;
  options.record_timeline = timeline;
  return io::Dump(io::ResultToJson(sim::Run(io::ParseScenario(text), options)));
}

class PresetTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PresetTest, MatchesGoldenAndIsDeterministic) {
  const std::string out = RunPreset(GetParam());
  EXPECT_EQ(out, RunPreset(GetParam())) << "same input, different bytes";
  std::string golden = std::string(KPLACE_SOURCE_DIR) + "/tests/golden/" + GetParam() + ".json";
  if (std::filesystem::exists(golden)) {
    EXPECT_EQ(out, testing::ReadFile(golden));
  }
}

// A preset built to be stepped through has a golden timeline: tests/golden/<preset>.timeline.json, what
// `kplace run --timeline --format json presets/<preset>.json` prints.
TEST_P(PresetTest, TimelineMatchesGolden) {
  const std::string golden = std::string(KPLACE_SOURCE_DIR) + "/tests/golden/" + GetParam() + ".timeline.json";
  if (!std::filesystem::exists(golden)) return;
  EXPECT_EQ(RunPreset(GetParam(), true), testing::ReadFile(golden));
}

// A preset that names settings to be compared under (kplace.dev/compare) has a golden comparison:
// tests/golden/<preset>.diff.json, what `kplace diff presets/<preset>.json --format json` prints.
TEST_P(PresetTest, ComparisonMatchesGolden) {
  const std::string source = "presets/" + GetParam() + ".json";
  const std::string text = testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/" + source);
  Scenario sc = io::ParseScenario(text);
  const std::string golden = std::string(KPLACE_SOURCE_DIR) + "/tests/golden/" + GetParam() + ".diff.json";
  if (sc.simulation.compare.empty()) {
    EXPECT_FALSE(std::filesystem::exists(golden)) << "a comparison golden for a preset without kplace.dev/compare";
    return;
  }
  io::ParseOptions options;
  io::ParseOverrides(sc.simulation.compare, options.overrides);
  sim::RunOptions run;
  run.disruption = &karpenter::disruption::DryRun;
  run.apply_disruption = &sim::ApplyDisruption;
  const sim::SimResult a = sim::Run(std::move(sc), run);
  const sim::SimResult b = sim::Run(io::ParseScenario(text, options), run);
  const std::string out =
      io::DiffText(sim::Compare(a, b), io::SideOf(a, source, {}), io::SideOf(b, source, options.overrides));
  ASSERT_TRUE(std::filesystem::exists(golden)) << golden;
  EXPECT_EQ(out, testing::ReadFile(golden));
}

// The result is written as it is produced (JsonWriter); read back and printed by nlohmann it is the same text.
TEST_P(PresetTest, WrittenResultIsWhatTheTreePrints) {
  std::string text = testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/presets/" + GetParam() + ".json");
  const sim::SimResult r = sim::Run(io::ParseScenario(text));
  const std::string written = io::ResultText(r);
  EXPECT_EQ(written, io::Dump(io::Json::parse(written)));
  EXPECT_EQ(written, io::Dump(io::ResultToJson(r)));
}

TEST_P(PresetTest, ExplainsEveryPod) {
  std::string text = testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/presets/" + GetParam() + ".json");
  sim::RunOptions opts;
  opts.explain_all = true;
  auto result = sim::Run(io::ParseScenario(text), opts);
  for (const auto& p : result.pods) {
    ASSERT_EQ(p.explanations.size(), p.attempts.size()) << p.key;
    for (const auto& c : p.explanations) {
      if (!c.chosen.empty()) {
        EXPECT_NE(std::find(c.tied.begin(), c.tied.end(), c.chosen), c.tied.end()) << p.key;
      } else {
        EXPECT_FALSE(c.message.empty()) << p.key;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Presets, PresetTest, ::testing::ValuesIn(testing::PresetNames()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return testing::TestName(i.param); });

}  // namespace
}  // namespace kplace
