// The layers of core/ only point down (docs/architecture.md): model <- scheduler <- karpenter <- sim <- io. A file
// in one layer includes headers of its own layer or of layers below it, never above; nothing in core/ includes the
// app, the CLI or the browser code.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "tests/testing/table.h"

namespace kplace {
namespace {

TEST(Layers, CoreIncludesPointDown) {
  const std::map<std::string, int> rank = {{"model", 0}, {"scheduler", 1}, {"karpenter", 2}, {"sim", 3}, {"io", 4}};
  const std::filesystem::path core = std::filesystem::path(KPLACE_SOURCE_DIR) / "core";
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(core)) {
    if (!e.is_regular_file()) continue;
    const std::string ext = e.path().extension().string();
    if (ext != ".h" && ext != ".cpp") continue;
    ++files;
    const std::string layer = std::filesystem::relative(e.path(), core).begin()->string();
    ASSERT_TRUE(rank.count(layer)) << "core/" << layer << " is not a known layer: add it to this test and the docs";
    const std::string text = testing::ReadFile(e.path().string());
    // Every `#include "<top>/<dep>/..."` (std::regex is avoided: GCC 12 warns inside it under -O1).
    const std::string marker = "#include \"";
    for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) {
      const auto start = at + marker.size();
      const auto slash1 = text.find('/', start), quote = text.find('"', start);
      if (slash1 == std::string::npos || quote == std::string::npos || slash1 > quote) continue;  // "file.h"
      const auto slash2 = text.find('/', slash1 + 1);
      if (slash2 == std::string::npos || slash2 > quote) continue;
      const std::string top = text.substr(start, slash1 - start), dep = text.substr(slash1 + 1, slash2 - slash1 - 1);
      const std::string where = std::filesystem::relative(e.path(), core.parent_path()).string();
      EXPECT_EQ(top, "core") << where << " includes " << text.substr(start, quote - start)
                             << ": core/ must not depend on " << top << "/";
      if (top != "core") continue;
      ASSERT_TRUE(rank.count(dep)) << where << " includes an unknown layer " << dep;
      EXPECT_LE(rank.at(dep), rank.at(layer)) << where << " (" << layer << ") reaches up to " << dep;
    }
  }
  EXPECT_GT(files, 50);
}

}  // namespace
}  // namespace kplace
