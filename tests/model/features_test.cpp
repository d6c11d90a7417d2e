// The release table (core/model/features.h): which behaviour each release has, how versions parse, and that the
// parser's message, the CLI and the docs derive from the table.
#include "core/model/features.h"

#include <gtest/gtest.h>

#include <string>

#include "core/io/scenario_parser.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

TEST(Features, EachReleaseHasTheFeaturesOfItsTableRows) {
  const Features f33(33), f34(34), f35(35);
  EXPECT_FALSE(f33.Enabled(Feature::PodLevelResources));
  EXPECT_FALSE(f33.Enabled(Feature::DynamicResourceAllocation));
  EXPECT_FALSE(f33.Enabled(Feature::NodeResourcesFitUnresolvableOverAllocatable));
  EXPECT_FALSE(f33.Enabled(Feature::TaintTolerationGenericReason));
  EXPECT_TRUE(f34.Enabled(Feature::PodLevelResources));
  EXPECT_TRUE(f34.Enabled(Feature::DynamicResourceAllocation));
  EXPECT_TRUE(f34.Enabled(Feature::NodeResourcesFitUnresolvableOverAllocatable));
  EXPECT_FALSE(f34.Enabled(Feature::TaintTolerationGenericReason));
  EXPECT_TRUE(f35.Enabled(Feature::TaintTolerationGenericReason));
  EXPECT_FALSE(f35.Enabled(Feature::BalancedAllocationScoresBalanceChange));
  EXPECT_FALSE(f35.Enabled(Feature::NodeDeclaredFeatures));
  const Features f36(36), f37(37);
  EXPECT_TRUE(f36.Enabled(Feature::BalancedAllocationScoresBalanceChange));
  EXPECT_TRUE(f36.Enabled(Feature::NodeDeclaredFeatures));
  EXPECT_TRUE(f36.Enabled(Feature::ImageLocalityImageVolumes));
  EXPECT_FALSE(f36.Enabled(Feature::ImageLocalityThresholdCountsImageVolumes));
  EXPECT_FALSE(f36.Enabled(Feature::DynamicResourcesQuietPostFilter));
  EXPECT_FALSE(f36.Enabled(Feature::NominatedGatedPods));
  EXPECT_TRUE(f37.Enabled(Feature::ImageLocalityThresholdCountsImageVolumes));
  EXPECT_TRUE(f37.Enabled(Feature::DynamicResourcesQuietPostFilter));
  EXPECT_TRUE(f37.Enabled(Feature::NominatedGatedPods));
  EXPECT_EQ(Features().minor(), 37);
  EXPECT_EQ(Features().minor(), kDefaultMinor);
  for (const FeatureSpec& spec : kFeatureTable)
    for (int minor : kReleases)
      EXPECT_EQ(Features(minor).Enabled(spec.feature), minor >= spec.since_minor) << spec.name;
}

TEST(Features, ParsesVersionsOfSupportedReleasesOnly) {
  EXPECT_EQ(ParseKubernetesVersion("1.34"), 34);
  EXPECT_EQ(ParseKubernetesVersion("v1.35"), 35);
  EXPECT_EQ(ParseKubernetesVersion("1.33.7"), 33);
  EXPECT_EQ(ParseKubernetesVersion("1.3"), std::nullopt);
  EXPECT_EQ(ParseKubernetesVersion("1.350"), std::nullopt);
  EXPECT_EQ(ParseKubernetesVersion("1.32"), std::nullopt);
  EXPECT_EQ(ParseKubernetesVersion(""), std::nullopt);
  EXPECT_EQ(ParseKubernetesVersion("v1.37.0"), 37);
  EXPECT_EQ(ParseKubernetesVersion("1.36"), 36);
  EXPECT_EQ(ParseKubernetesVersion("1.38"), std::nullopt);
  EXPECT_EQ(SupportedVersionsText(), "\"1.33\", \"1.34\", \"1.35\", \"1.36\" or \"1.37\"");
  EXPECT_EQ(VersionRangeText(), "1.33-1.37");
}

TEST(Features, TheParserNamesTheSupportedReleases) {
  const std::string scenario =
      R"({"kind":"List","items":[{"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},)"
      R"("spec":{"kubernetesVersion":"1.30"}}]})";
  try {
    io::ParseScenario(scenario);
    FAIL() << "1.30 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unsupported kubernetesVersion \"1.30\" (" + SupportedVersionsText() + ")"),
              std::string::npos)
        << e.what();
  }
}

// docs/scenario-format.md holds `kplace releases` between two markers; regenerate it with
//   kplace releases  (and paste it between the markers) when the table changes.
TEST(Features, TheDocsHoldTheTable) {
  const std::string docs = testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/docs/scenario-format.md");
  const std::string begin = "<!-- kplace releases: begin -->\n", end = "<!-- kplace releases: end -->";
  const auto b = docs.find(begin), e = docs.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  EXPECT_EQ(docs.substr(b + begin.size(), e - b - begin.size()), FeatureTableMarkdown());
}

}  // namespace
}  // namespace kplace
