// Scenario-level tests over presets/: each preset runs, is deterministic, and matches its hand-derived golden
// result in tests/golden/ when one exists.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

std::vector<std::string> Presets() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(KPLACE_SOURCE_DIR) + "/presets"))
    if (e.path().extension() == ".json") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string RunPreset(const std::string& name) {
  std::string text = testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/presets/" + name + ".json");
  sim::RunOptions options;
  options.disruption = &karpenter::disruption::DryRun;
  options.apply_disruption = &sim::ApplyDisruption;
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

INSTANTIATE_TEST_SUITE_P(Presets, PresetTest, ::testing::ValuesIn(Presets()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return testing::TestName(i.param); });

}  // namespace
}  // namespace kplace
