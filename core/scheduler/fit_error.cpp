#include "core/scheduler/fit_error.h"

#include <algorithm>
#include <map>
#include <optional>

namespace kplace {

std::string FitErrorMessage(const FitErrorInput& in) {
  std::string msg = "0/" + std::to_string(in.num_all_nodes) + " nodes are available:";
  if (!in.pre_filter_msg.empty()) {
    msg += " " + in.pre_filter_msg + ".";
  } else {
    std::map<std::string, std::size_t> counts;
    for (const auto& reasons : in.node_reasons)
      for (const auto& r : reasons) ++counts[r];
    if (in.node_reasons.size() < in.num_all_nodes)
      for (const auto& r : in.absent_reasons) counts[r] += in.num_all_nodes - in.node_reasons.size();
    std::vector<std::string> entries;
    for (const auto& [reason, n] : counts) entries.push_back(std::to_string(n) + " " + reason);
    std::sort(entries.begin(), entries.end());  // plain string order: "10 x" sorts before "2 y"
    if (!entries.empty()) {
      msg += " ";
      for (std::size_t i = 0; i < entries.size(); ++i) msg += (i ? ", " : "") + entries[i];
      msg += ".";
    }
  }
  if (!in.post_filter_msg.empty()) msg += " " + in.post_filter_msg;
  return msg;
}

std::size_t NumFeasibleNodesToFind(std::optional<std::int32_t> percentage, std::size_t num_all_nodes) {
  constexpr std::size_t kMinFeasibleNodesToFind = 100;
  constexpr std::int64_t kMinFeasibleNodesPercentageToFind = 5;
  if (num_all_nodes < kMinFeasibleNodesToFind) return num_all_nodes;
  std::int64_t pct = percentage.value_or(0);
  if (pct == 0) {
    pct = 50 - static_cast<std::int64_t>(num_all_nodes) / 125;
    if (pct < kMinFeasibleNodesPercentageToFind) pct = kMinFeasibleNodesPercentageToFind;
  }
  auto n = static_cast<std::size_t>(static_cast<std::int64_t>(num_all_nodes) * pct / 100);
  return std::max(n, kMinFeasibleNodesToFind);
}

}  // namespace kplace
