// Framework: builds the plugin lists of one profile and runs the extension points in order
// (upstream framework/runtime/framework.go).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"
#include "core/scheduler/framework/nominator.h"

namespace kplace::framework {

struct ScorePluginEntry {
  ScorePlugin* plugin = nullptr;
  std::int64_t weight = 1;
};

// Per-plugin scores of one node, for the explanation.
struct PluginScore {
  const char* plugin = "";
  std::int64_t raw = 0;
  std::int64_t normalized = 0;
  std::int64_t weighted = 0;
  std::int64_t weight = 1;
  bool skipped = false;  // PreScore returned Skip: the plugin contributes 0 to every node
};

struct NodeScores {
  const NodeInfo* node = nullptr;
  std::int64_t total = 0;
  std::vector<PluginScore> plugins;  // filled only when RunScore is asked for detail
};

class Framework {
 public:
  // Builds config.profiles[profile_index]; returns nullptr and sets *error for an unknown plugin or bad
  // configuration.
  static std::unique_ptr<Framework> Create(const SchedulerConfig& config, const Features& features, std::string* error,
                                           std::size_t profile_index = 0);

  // RunPreFilterPlugins: Skip marks the plugin's Filter skipped; an Unschedulable* status aborts.
  // result receives the intersection of the plugins' PreFilterResults. On rejection the status's plugin()
  // names the rejecting plugin.
  // plugins_with_nodes (optional) receives the names of plugins that returned a node set, sorted.
  Status RunPreFilter(CycleState& state, const PodInfo& pod, const Snapshot& snapshot, PreFilterResult& result,
                      std::vector<std::string>* plugins_with_nodes = nullptr);
  // RunFilterPlugins: stops at the first plugin that does not return Success.
  Status RunFilter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const;
  // RunFilterWithNominatedPods over nodes[0..count): statuses[i] (Success on entry) receives node i's Status. The
  // same verdicts as one call per node, in a batch: the cycle's filter pass hands its candidates over in runs.
  void RunFilterNodes(const CycleState& state, const PodInfo& pod, const NodeInfo* const* nodes, std::size_t count,
                      Status* statuses, const Snapshot& snapshot, const Nominator* nominator);
  // RunFilterPluginsWithNominatedPods (runtime/framework.go): when pods with priority >= pod's are nominated to
  // node, the filters run first with them added to a copy of the node (and of the state, via AddPod), then, if
  // that passed, on the node as it is; both must pass. Without such pods it is RunFilter.
  Status RunFilterWithNominatedPods(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                    const Snapshot& snapshot, const Nominator* nominator) {
    // Inline, and the case with nominated pods out of line: most nodes have none, and the copies the other case
    // makes (CycleState, NodeInfo) cost every call a large stack frame.
    const auto* nominated = nominator ? nominator->ForNode(node.node) : nullptr;
    if (!nominated) return RunFilter(state, pod, node);
    return RunFilterWithNominated(state, pod, node, snapshot, *nominated);
  }
  Status RunPreScore(CycleState& state, const PodInfo& pod, const std::vector<const NodeInfo*>& nodes,
                     const Snapshot& snapshot);
  // RunScorePlugins: Score, NormalizeScore, weight. Returns per-node totals and per-plugin parts.
  // detail: also record each plugin's raw / normalized / weighted score per node (for explanations).
  Status RunScore(const CycleState& state, const PodInfo& pod, const std::vector<const NodeInfo*>& nodes,
                  std::vector<NodeScores>& out, bool detail = true) const;
  // RunReservePluginsReserve: every Reserve plugin in order; the first failure stops them.
  Status RunReserve(CycleState& state, const PodInfo& pod, const NodeInfo& node, Snapshot& snapshot);
  // PreFilterExtensions over every PreFilter plugin that was not skipped.
  Status RunAddPod(CycleState& state, const PodInfo& pod, const PodInfo& added, const NodeInfo& node,
                   const Snapshot& snapshot);
  Status RunRemovePod(CycleState& state, const PodInfo& pod, const PodInfo& removed, const NodeInfo& node,
                      const Snapshot& snapshot);

  std::size_t NumSlots() const { return 2 * plugins_.size(); }
  void ResetState(CycleState& state) const;

  const std::vector<PreFilterPlugin*>& pre_filter() const { return pre_filter_; }
  const std::vector<FilterPlugin*>& filter() const { return filter_; }
  const std::vector<PreScorePlugin*>& pre_score() const { return pre_score_; }
  const std::vector<ScorePluginEntry>& score() const { return score_; }
  const std::vector<std::string>& post_filter() const { return post_filter_; }
  std::optional<std::int32_t> percentage_of_nodes_to_score() const { return percentage_; }
  // The profile's schedulerName (upstream's Framework.ProfileName).
  const std::string& profile_name() const { return profile_name_; }
  const DefaultPreemptionArgs& default_preemption_args() const { return preemption_args_; }
  // Finds an instantiated plugin by name, or nullptr.
  Plugin* Find(const std::string& name) const;

 private:
  // RunFilterWithNominatedPods for a node with nominated pods.
  Status RunFilterWithNominated(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                const Snapshot& snapshot, const std::vector<const PodInfo*>& nominated);
  // The Filter plugins this pod's state runs, with their cached verdicts (once per PreFilter).
  void PrepareActiveFilters(const CycleState& state, const PodInfo& pod) const;
  std::vector<std::unique_ptr<Plugin>> plugins_;
  std::vector<PreFilterPlugin*> pre_filter_;
  std::vector<FilterPlugin*> filter_;
  std::vector<PreScorePlugin*> pre_score_;
  std::vector<ScorePluginEntry> score_;
  std::vector<ReservePlugin*> reserve_;
  std::vector<std::string> post_filter_;  // names; PostFilter behaviour lives in the scheduler
  std::optional<std::int32_t> percentage_;
  std::string profile_name_;
  DefaultPreemptionArgs preemption_args_;
  // Scratch buffers reused by RunScore (the framework runs one cycle at a time).
  mutable std::vector<NodeScore> score_list_;
  mutable std::vector<std::int64_t> raw_scores_;
  mutable std::vector<std::int64_t> score_totals_;
  // Scratch of RunFilterNodes: the batch's nodes still passing.
  std::vector<std::uint32_t> filter_alive_;
};

}  // namespace kplace::framework
