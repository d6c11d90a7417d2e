// The layers only point down (docs/architecture.md): core/model <- scheduler <- karpenter <- sim <- io <- app/model
// <- app/ui <- wasm. A file in one layer of core/ includes headers of its own layer or of layers below it, never
// above; nothing in core/ includes the app, the CLI or the browser code; the app model knows no ImGui.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

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

// The app's model has no ImGui and no browser code; its panels no browser code.
TEST(Layers, AppModelIsPlainCpp) {
  const std::filesystem::path root(KPLACE_SOURCE_DIR);
  const std::pair<const char*, std::vector<std::string>> kRules[] = {
      {"app/model", {"#include \"app/ui/", "#include \"wasm/", "#include \"cli/", "imgui", "emscripten"}},
      {"app/ui", {"#include \"wasm/", "#include \"cli/", "emscripten"}},
  };
  for (const auto& [dir, banned] : kRules) {
    int files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root / dir)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".h" && ext != ".cpp")) continue;
      ++files;
      const std::string text = testing::ReadFile(e.path().string());
      for (const auto& b : banned)
        EXPECT_EQ(text.find(b), std::string::npos)
            << std::filesystem::relative(e.path(), root).string() << " has " << b;
    }
    EXPECT_GT(files, 3) << dir;
  }
}

}  // namespace
}  // namespace kplace
