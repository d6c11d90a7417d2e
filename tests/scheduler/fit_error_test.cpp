// FailedScheduling message format (FitError.Error) and numFeasibleNodesToFind, from upstream tables.
#include "core/scheduler/fit_error.h"

#include <gtest/gtest.h>

#include "tests/testing/table.h"

namespace kplace {
namespace {

TEST(FitError, UpstreamTable) {
  auto table = testing::LoadJson(testing::DataPath("scheduler/fit_error.json"));
  ASSERT_GT(table["cases"].size(), 20u);
  for (const auto& c : table["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    FitErrorInput in;
    in.num_all_nodes = c["numAllNodes"].get<std::size_t>();
    for (auto it = c["nodeStatuses"].begin(); it != c["nodeStatuses"].end(); ++it)
      in.node_reasons.push_back(it.value().value("reasons", std::vector<std::string>{}));
    if (c.contains("absentNodesStatus"))
      in.absent_reasons = c["absentNodesStatus"].value("reasons", std::vector<std::string>{});
    in.pre_filter_msg = c.value("preFilterMsg", "");
    in.post_filter_msg = c.value("postFilterMsg", "");
    EXPECT_EQ(FitErrorMessage(in), c["want"].get<std::string>());
  }
}

TEST(NumFeasibleNodesToFind, UpstreamTable) {
  auto table = testing::LoadJson(testing::DataPath("scheduler/num_feasible_nodes.json"));
  ASSERT_GT(table["cases"].size(), 8u);
  for (const auto& c : table["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    // The profile's value wins when set (even 0, which means adaptive); else the global one.
    std::optional<std::int32_t> pct;
    if (!c["globalPercentage"].is_null()) pct = c["globalPercentage"].get<std::int32_t>();
    if (!c["profilePercentage"].is_null()) pct = c["profilePercentage"].get<std::int32_t>();
    EXPECT_EQ(NumFeasibleNodesToFind(pct, c["numAllNodes"].get<std::size_t>()), c["want"].get<std::size_t>());
  }
}

}  // namespace
}  // namespace kplace
