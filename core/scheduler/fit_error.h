// The FailedScheduling message (upstream framework/types.go FitError.Error).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/scheduler/framework/status.h"

namespace kplace {

struct FitErrorInput {
  std::size_t num_all_nodes = 0;
  // Explicit per-node statuses (only their reasons matter).
  std::vector<std::vector<std::string>> node_reasons;
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
