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
      in.AddNode(it.value().value("reasons", std::vector<std::string>{}));
    if (c.contains("absentNodesStatus"))
      in.absent_reasons = c["absentNodesStatus"].value("reasons", std::vector<std::string>{});
    in.pre_filter_msg = c.value("preFilterMsg", "");
    in.post_filter_msg = c.value("postFilterMsg", "");
    EXPECT_EQ(FitErrorMessage(in), c["want"].get<std::string>());
  }
}

// Statuses as plugins return them: a constant reason (counted by address), the same text owned by another status,
// several reasons in one status. The histogram counts by text, once per reason per node.
TEST(FitError, StatusesCountByText) {
  using framework::Code;
  using framework::Status;
  static const char kCpu[] = "Insufficient cpu";
  std::string cpu_copy = kCpu;  // the same text at another address
  FitErrorInput in;
  in.num_all_nodes = 6;
  in.AddNode(Status(Code::Unschedulable, kCpu));
  in.AddNode(Status(Code::Unschedulable, kCpu));
  in.AddNode(Status(Code::Unschedulable, cpu_copy.c_str()));
  in.AddNode(Status(Code::Unschedulable, std::vector<std::string>{"Insufficient cpu", "Insufficient memory"}));
  in.AddNode(Status(Code::UnschedulableAndUnresolvable, std::string("node(s) had untolerated taint {a: b}")));
  in.absent_reasons = {"Preemption is not helpful for scheduling"};
  EXPECT_EQ(FitErrorMessage(in),
            "0/6 nodes are available: 1 Insufficient memory, 1 Preemption is not helpful for scheduling, 1 node(s) "
            "had untolerated taint {a: b}, 4 Insufficient cpu.");
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
