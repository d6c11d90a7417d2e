// The FailedScheduling message (upstream framework/types.go FitError.Error).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/scheduler/framework/status.h"

namespace kplace {

struct FitErrorInput {
  std::size_t num_all_nodes = 0;
  // Explicit per-node statuses (only their reasons matter): AddNode once per node.
  void AddNode(const framework::Status& s);
  void AddNode(const std::vector<std::string>& reasons);
  std::size_t num_node_statuses = 0;
  std::map<std::string, std::size_t, std::less<>> reason_counts;
  // Constant reasons counted by address (thousands of nodes share a few literals), merged into reason_counts by
  // text when the message is built.
  std::vector<std::pair<const char*, std::size_t>> static_reason_counts;
  // Reasons of the status of every node without an explicit entry (PreFilterResult restriction); empty = none.
  std::vector<std::string> absent_reasons;
  std::string pre_filter_msg;
  std::string post_filter_msg;
};

// "0/N nodes are available: <sorted histogram>." + " <PostFilterMsg>".
std::string FitErrorMessage(const FitErrorInput& in);

// numFeasibleNodesToFind (schedule_one.go): how many feasible nodes the filter pass looks for.
std::size_t NumFeasibleNodesToFind(std::optional<std::int32_t> percentage, std::size_t num_all_nodes);

}  // namespace kplace
