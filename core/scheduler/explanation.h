// The record of why a pod went where it did (or nowhere): what the UI and `kplace run --explain` render.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/scheduler/framework/framework.h"
#include "core/scheduler/framework/status.h"

namespace kplace {

// One node's Filter outcome. Filter stops at the first failing plugin, so plugins before it passed and plugins
// after it did not run.
struct NodeFilterRecord {
  std::string node;
  bool feasible = false;
  std::string plugin;  // the failing plugin, "" when feasible
  framework::Code code = framework::Code::Success;
  std::vector<std::string> reasons;
};

struct NodeScoreRecord {
  std::string node;
  std::int64_t total = 0;
  std::vector<framework::PluginScore> plugins;
};

// One scheduling attempt (cycle) of one pod.
struct CycleExplanation {
  int attempt = 0;
  std::vector<std::string> filter_plugins;  // in the order they ran
  std::string prefilter_plugin;             // set when PreFilter rejected the pod
  std::string prefilter_message;
  std::string nominated_node;  // status.nominatedNodeName evaluated first, if any
  bool nominated_node_fit = false;
  std::vector<NodeFilterRecord> nodes;  // in evaluation order; nodes never evaluated are absent
  std::size_t num_all_nodes = 0;
  std::size_t num_nodes_to_find = 0;    // percentageOfNodesToScore cut-off
  std::vector<NodeScoreRecord> scores;  // sorted by total desc, then name
  std::string chosen;
  std::vector<std::string> tied;  // nodes sharing the top score (chosen included), sorted
  std::string post_filter_message;
  std::string message;  // FailedScheduling message when unschedulable
};

}  // namespace kplace
