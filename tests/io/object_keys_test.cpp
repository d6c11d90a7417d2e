#include "core/io/object_keys.h"

#include <gtest/gtest.h>

#include <string>

namespace kplace::io {
namespace {

TEST(ObjectKeys, ASecondInsertOfAKeyGivesTheFirstLabelAndKeepsIt) {
  ObjectKeys keys;
  EXPECT_FALSE(keys.Insert("Pod default/web", "items[0]"));
  EXPECT_FALSE(keys.Insert("Pod other/web", "items[1]"));
  EXPECT_FALSE(keys.Insert("Node web", "items[2]"));
  EXPECT_EQ(keys.Insert("Pod default/web", "items[7]"), "items[0]");
  EXPECT_EQ(keys.Insert("Pod default/web", "items[8]"), "items[0]");
  EXPECT_EQ(keys.size(), 3u);
  EXPECT_TRUE(keys.Contains("Node web"));
  EXPECT_FALSE(keys.Contains("Node we"));
  EXPECT_FALSE(keys.Contains("Node web "));
  EXPECT_FALSE(keys.Contains(""));
}

TEST(ObjectKeys, KeysThatArePrefixesOfOneAnotherAndTheEmptyKeyAreDistinct) {
  ObjectKeys keys;
  EXPECT_FALSE(keys.Insert("", "a"));
  EXPECT_FALSE(keys.Insert("P", "b"));
  EXPECT_FALSE(keys.Insert("Pod", "c"));
  EXPECT_FALSE(keys.Insert("Pod ", "d"));
  EXPECT_EQ(keys.Insert("", "x"), "a");
  EXPECT_EQ(keys.Insert("Pod", "x"), "c");
  EXPECT_EQ(keys.Insert("Pod ", "x"), "d");
}

TEST(ObjectKeys, EveryKeyIsFoundAfterTheTableGrowsManyTimes) {
  ObjectKeys keys;
  constexpr int kCount = 50000;
  for (int i = 0; i < kCount; ++i)
    ASSERT_FALSE(keys.Insert("Pod ns-" + std::to_string(i % 97) + "/pod-" + std::to_string(i),
                             "items[" + std::to_string(i) + "]"));
  EXPECT_EQ(keys.size(), static_cast<std::size_t>(kCount));
  for (int i = 0; i < kCount; i += 997) {
    const std::string key = "Pod ns-" + std::to_string(i % 97) + "/pod-" + std::to_string(i);
    EXPECT_TRUE(keys.Contains(key)) << key;
    EXPECT_EQ(keys.Insert(key, "later"), "items[" + std::to_string(i) + "]");
    EXPECT_FALSE(keys.Contains("Pod ns-" + std::to_string((i + 1) % 97) + "/pod-" + std::to_string(i)));
  }
  EXPECT_EQ(keys.size(), static_cast<std::size_t>(kCount));
}

}  // namespace
}  // namespace kplace::io
