#include "core/scheduler/fit_error.h"

#include <algorithm>
#include <map>
#include <optional>

namespace kplace {

void FitErrorInput::AddNode(const framework::Status& s) {
  ++num_node_statuses;
  if (const char* r = s.static_reason()) {
    for (auto& [text, n] : static_reason_counts) {
      if (text == r) {
        ++n;
        return;
      }
    }
    static_reason_counts.emplace_back(r, 1);
    return;
  }
  s.ForEachReason([&](std::string_view r) {
    auto it = reason_counts.find(r);
    if (it == reason_counts.end()) it = reason_counts.emplace(std::string(r), 0).first;
    ++it->second;
  });
}

void FitErrorInput::AddNode(const std::vector<std::string>& reasons) {
  ++num_node_statuses;
  for (const auto& r : reasons) ++reason_counts[r];
}

std::string FitErrorMessage(const FitErrorInput& in) {
  std::string msg = "0/" + std::to_string(in.num_all_nodes) + " nodes are available:";
  if (!in.pre_filter_msg.empty()) {
    msg += " " + in.pre_filter_msg + ".";
  } else {
    // Every reason with its number of nodes (upstream: a reason counted once per node status that lists it).
    std::map<std::string, std::size_t, std::less<>> counts = in.reason_counts;
    for (const auto& [text, n] : in.static_reason_counts) counts[text] += n;
    if (in.num_node_statuses < in.num_all_nodes)
      for (const auto& r : in.absent_reasons) counts[r] += in.num_all_nodes - in.num_node_statuses;
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
