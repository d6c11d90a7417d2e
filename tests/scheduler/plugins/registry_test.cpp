// The in-tree plugin table: every factory builds the plugin its row names, the default profile follows the
// release, and names outside the table are unknown.
#include "core/scheduler/plugins/registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace kplace::plugins {
namespace {

TEST(Registry, EveryFactoryBuildsThePluginItsRowNames) {
  std::set<std::string> seen;
  for (const InTreePlugin& p : InTreePlugins()) {
    EXPECT_TRUE(seen.insert(p.name).second) << "listed twice: " << p.name;
    EXPECT_EQ(FindInTreePlugin(p.name), &p);
    auto plugin = NewPlugin(p.name, PluginArgs{}, Features());
    EXPECT_EQ(plugin != nullptr, p.factory != nullptr) << p.name;
    if (plugin) {
      EXPECT_STREQ(plugin->Name(), p.name);
    }
  }
  EXPECT_EQ(FindInTreePlugin("NoSuchPlugin"), nullptr);
  EXPECT_EQ(NewPlugin("NoSuchPlugin", PluginArgs{}, Features()), nullptr);
}

std::string Names(const std::vector<DefaultPlugin>& list) {
  std::string out;
  for (const auto& p : list) out += std::string(out.empty() ? "" : " ") + p.name;
  return out;
}

TEST(Registry, DynamicResourcesJoinsTheDefaultProfileWithDra) {
  EXPECT_EQ(Names(DefaultMultiPoint(Features(33))).find("DynamicResources"), std::string::npos);
  const std::string with = Names(DefaultMultiPoint(Features(34)));
  EXPECT_NE(with.find("InterPodAffinity DynamicResources DefaultPreemption"), std::string::npos) << with;
}

}  // namespace
}  // namespace kplace::plugins
