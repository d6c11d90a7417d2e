// Profile construction: default plugins, weights, and KubeSchedulerConfiguration overrides merged as
// apis/config/v1/default_plugins.go (mergePluginSet) and runtime/framework.go (expandMultiPointPlugins) do.
#include "core/scheduler/framework/framework.h"

#include <gtest/gtest.h>

#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"

namespace kplace {
namespace {

using Weights = std::vector<std::pair<std::string, std::int64_t>>;

std::unique_ptr<framework::Framework> Build(const std::string& profile_json, int minor = 35) {
  std::string text =
      R"({"kind":"List","items":[{"kind":"KubeSchedulerConfiguration","profiles":[)" + profile_json + "]}]}";
  Scenario sc = io::ParseScenario(text);
  std::string error;
  auto fw = framework::Framework::Create(sc.scheduler_config, Features(minor), &error);
  EXPECT_TRUE(fw) << error;
  return fw;
}

std::vector<std::string> FilterNames(const framework::Framework& fw) {
  std::vector<std::string> out;
  for (const auto* p : fw.filter()) out.push_back(p->Name());
  return out;
}

Weights ScoreWeights(const framework::Framework& fw) {
  Weights out;
  for (const auto& e : fw.score()) out.emplace_back(e.plugin->Name(), e.weight);
  return out;
}

// Each profile is its own framework: its plugins, its args, its percentageOfNodesToScore (or the global one).
TEST(Framework, EachProfileOfSeveral) {
  Scenario sc = io::ParseScenario(R"({"kind":"List","items":[{"kind":"KubeSchedulerConfiguration",
    "percentageOfNodesToScore":30,
    "profiles":[{"schedulerName":"a"},
                {"schedulerName":"b","percentageOfNodesToScore":60,"plugins":{"filter":{"disabled":[{"name":"*"}]}}}]}]})");
  std::string error;
  auto a = framework::Framework::Create(sc.scheduler_config, Features(), &error, 0);
  auto b = framework::Framework::Create(sc.scheduler_config, Features(), &error, 1);
  ASSERT_TRUE(a && b) << error;
  EXPECT_EQ(a->profile_name(), "a");
  EXPECT_EQ(b->profile_name(), "b");
  EXPECT_EQ(a->percentage_of_nodes_to_score(), 30);  // the global value
  EXPECT_EQ(b->percentage_of_nodes_to_score(), 60);  // the profile's overrides it
  EXPECT_EQ(a->filter().size(), 13u);                // 1.37: NodeDeclaredFeatures after the twelve of 1.35
  EXPECT_EQ(a->filter().back()->Name(), std::string("NodeDeclaredFeatures"));
  EXPECT_EQ(framework::Framework::Create(sc.scheduler_config, Features(35), &error, 0)->filter().size(), 12u);
  EXPECT_TRUE(b->filter().empty());
}

// A plugin that does not exist fails the run with the path of the profile that names it.
TEST(Framework, UnknownPluginNamesItsProfile) {
  Scenario sc = io::ParseScenario(R"({"kind":"List","items":[{"kind":"KubeSchedulerConfiguration",
    "profiles":[{"schedulerName":"a"},{"schedulerName":"b","plugins":{"filter":{"enabled":[{"name":"Foo"}]}}}]}]})");
  try {
    sim::Run(std::move(sc));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "items[0] (KubeSchedulerConfiguration): profiles[1]: plugins.filter.enabled: FilterPlugin \"Foo\" does "
              "not exist");
  }
}

TEST(Framework, DefaultProfile) {
  auto fw = Build("{}");
  EXPECT_EQ(FilterNames(*fw),
            (std::vector<std::string>{"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
                                      "NodeResourcesFit", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding",
                                      "VolumeZone", "PodTopologySpread", "InterPodAffinity"}));
  // VolumeBinding is a Score plugin in every release (weight 1 from multiPoint); without StorageCapacityScoring its
  // PreScore skips every pod.
  EXPECT_EQ(ScoreWeights(*fw), (Weights{{"TaintToleration", 3},
                                        {"NodeAffinity", 2},
                                        {"NodeResourcesFit", 1},
                                        {"VolumeBinding", 1},
                                        {"PodTopologySpread", 2},
                                        {"InterPodAffinity", 2},
                                        {"NodeResourcesBalancedAllocation", 1},
                                        {"ImageLocality", 1}}));
  EXPECT_EQ(fw->post_filter(), (std::vector<std::string>{"DynamicResources", "DefaultPreemption"}));
  EXPECT_EQ(Build("{}", 33)->post_filter(), (std::vector<std::string>{"DefaultPreemption"}));
}

TEST(Framework, ScoreWeightOverrideComesFirst) {
  auto fw = Build(R"({"plugins":{"score":{"enabled":[{"name":"NodeResourcesFit","weight":5}]}}})");
  EXPECT_EQ(ScoreWeights(*fw), (Weights{{"NodeResourcesFit", 5},
                                        {"TaintToleration", 3},
                                        {"NodeAffinity", 2},
                                        {"VolumeBinding", 1},
                                        {"PodTopologySpread", 2},
                                        {"InterPodAffinity", 2},
                                        {"NodeResourcesBalancedAllocation", 1},
                                        {"ImageLocality", 1}}));
}

TEST(Framework, DisableAllScoresEnableOne) {
  auto fw = Build(R"({"plugins":{"score":{"disabled":[{"name":"*"}],"enabled":[{"name":"ImageLocality"}]}}})");
  EXPECT_EQ(ScoreWeights(*fw), (Weights{{"ImageLocality", 1}}));
  EXPECT_EQ(FilterNames(*fw).size(), 12u);  // filters untouched
}

TEST(Framework, MultiPointDisableRemovesEverywhere) {
  auto fw = Build(R"({"plugins":{"multiPoint":{"disabled":[{"name":"TaintToleration"}]}}})");
  for (const auto& n : FilterNames(*fw)) EXPECT_NE(n, "TaintToleration");
  for (const auto& [n, w] : ScoreWeights(*fw)) EXPECT_NE(n, "TaintToleration");
}

TEST(Framework, FilterDisableKeepsScore) {
  auto fw = Build(R"({"plugins":{"filter":{"disabled":[{"name":"TaintToleration"}]}}})");
  for (const auto& n : FilterNames(*fw)) EXPECT_NE(n, "TaintToleration");
  EXPECT_EQ(ScoreWeights(*fw).front(), (std::pair<std::string, std::int64_t>{"TaintToleration", 3}));
}

TEST(Framework, MultiPointWeightOverride) {
  auto fw = Build(R"({"plugins":{"multiPoint":{"enabled":[{"name":"ImageLocality","weight":7}]}}})");
  EXPECT_EQ(ScoreWeights(*fw).back(), (std::pair<std::string, std::int64_t>{"ImageLocality", 7}));
}

TEST(Framework, UnknownPluginIsAnError) {
  Scenario sc = io::ParseScenario(
      R"({"kind":"List","items":[{"kind":"KubeSchedulerConfiguration","profiles":[{"plugins":{"filter":{"enabled":[{"name":"Nope"}]}}}]}]})");
  std::string error;
  EXPECT_FALSE(framework::Framework::Create(sc.scheduler_config, Features(), &error));
  EXPECT_EQ(error, "plugins.filter.enabled: FilterPlugin \"Nope\" does not exist");
}

TEST(Framework, PercentageOfNodesToScoreProfileWins) {
  auto fw = Build(R"({"percentageOfNodesToScore":30})");
  EXPECT_EQ(fw->percentage_of_nodes_to_score(), 30);
}

}  // namespace
}  // namespace kplace
