#include "core/scheduler/framework/framework.h"

#include <algorithm>
#include <iterator>
#include <set>

namespace kplace::framework {

namespace {

// A pass the plugin cached for this node (FilterWithVerdicts would return it at once): no call needed.
bool CachedPass(const ActiveFilter& a, const NodeInfo& node) {
  const auto at = static_cast<std::size_t>(node.index);
  return a.verdict && at < a.size && a.layout[at] == node.node && a.verdict[at] == NodeVerdictCache::kPass;
}

}  // namespace

Status Framework::RunReserve(CycleState& state, const PodInfo& pod, const NodeInfo& node, Snapshot& snapshot) {
  for (ReservePlugin* p : reserve_) {
    Status s = p->Reserve(state, pod, node, snapshot);
    if (!s.IsSuccess()) {
      s.WithPlugin(p->Name());
      return s;
    }
  }
  return {};
}

void Framework::ResetState(CycleState& state) const {
  state.Reset(NumSlots());
  state.skip_filter.assign(plugins_.size(), false);
  state.skip_score.assign(plugins_.size(), false);
}

Plugin* Framework::Find(const std::string& name) const {
  for (const auto& p : plugins_)
    if (name == p->Name()) return p.get();
  return nullptr;
}

Status Framework::RunPreFilter(CycleState& state, const PodInfo& pod, const Snapshot& snapshot, PreFilterResult& result,
                               std::vector<std::string>* plugins_with_nodes) {
  result.reset();
  // The states PreFilter writes are new: the active Filter list (which points into them) is built again.
  state.active_filters_ready = false;
  std::vector<std::string> with_nodes;
  Status unschedulable;  // the first Unschedulable status; later plugins still run
  for (auto* p : pre_filter_) {
    PreFilterResult r;
    Status s = p->PreFilter(state, pod, snapshot, r);
    if (s.IsSkip()) {
      state.skip_filter[p->prefilter_slot / 2] = true;
      state.active_filters_ready = false;
      continue;
    }
    if (!s.IsSuccess()) {
      s.WithPlugin(p->Name());
      if (s.code() == Code::UnschedulableAndUnresolvable || s.code() == Code::Error) return s;
      if (unschedulable.IsSuccess()) unschedulable = s;
      continue;
    }
    if (r) {
      with_nodes.push_back(p->Name());
      if (!result) {
        result = std::move(r);
      } else {
        std::set<std::string> both;
        std::set_intersection(result->begin(), result->end(), r->begin(), r->end(), std::inserter(both, both.begin()));
        result = std::move(both);
      }
      if (result->empty()) {
        // The merged node set is empty: no node can pass (framework.go RunPreFilterPlugins).
        std::sort(with_nodes.begin(), with_nodes.end());
        if (with_nodes.size() == 1)
          return Status(Code::UnschedulableAndUnresolvable, "node(s) didn't satisfy plugin " + with_nodes[0]);
        std::string list;
        for (const auto& n : with_nodes) list += (list.empty() ? "" : " ") + n;
        return Status(Code::UnschedulableAndUnresolvable,
                      "node(s) didn't satisfy plugin(s) [" + list + "] simultaneously");
      }
    }
  }
  std::sort(with_nodes.begin(), with_nodes.end());
  if (plugins_with_nodes) *plugins_with_nodes = std::move(with_nodes);
  return unschedulable;
}

std::size_t FilterPlugin::FilterNodes(const CycleState& state, const PodInfo& pod, const NodeInfo* const* nodes,
                                      std::uint32_t* alive, std::size_t n, Status* statuses) const {
  std::size_t kept = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t i = alive[k];
    Status s = Filter(state, pod, *nodes[i]);
    if (s.IsSuccess()) {
      alive[kept++] = i;
    } else {
      if (*s.plugin() == '\0') s.WithPlugin(Name());
      statuses[i] = std::move(s);
    }
  }
  return kept;
}

void Framework::PrepareActiveFilters(const CycleState& state, const PodInfo& pod) const {
  if (state.active_filters_ready) return;
  state.active_filters.clear();
  for (const auto* p : filter_) {
    if (state.skip_filter[p->prefilter_slot / 2] || p->PassesEveryNode(pod)) continue;
    ActiveFilter a;
    a.plugin = p;
    if (const auto* vs = state.Read<VerdictState>(p->prefilter_slot); vs && vs->row) {
      a.verdict = vs->row->verdict.data();
      a.layout = vs->row->nodes->data();
      a.size = std::min(vs->row->verdict.size(), vs->row->nodes->size());
    }
    state.active_filters.push_back(a);
  }
  state.active_filters_ready = true;
}

Status Framework::RunFilter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  PrepareActiveFilters(state, pod);
  for (const auto& a : state.active_filters) {
    if (CachedPass(a, node)) continue;
    const FilterPlugin* p = a.plugin;
    Status s = p->Filter(state, pod, node);
    if (!s.IsSuccess()) {
      // Anything but a rejection is an internal error (upstream turns it into Error).
      s.WithPlugin(p->Name());
      return s;
    }
  }
  return {};
}

void Framework::RunFilterNodes(const CycleState& state, const PodInfo& pod, const NodeInfo* const* nodes,
                               std::size_t count, Status* statuses, const Snapshot& snapshot,
                               const Nominator* nominator) {
  PrepareActiveFilters(state, pod);
  // Nodes with nominated pods go one by one (RunFilterWithNominatedPods); the others through the plugins a batch at
  // a time. A node leaves the batch at its first failing plugin, so its Status is the one RunFilter would return:
  // Filter plugins depend on (state, pod, node) only, so visiting plugin by plugin decides nothing differently.
  auto& alive = filter_alive_;
  alive.clear();
  // A nominated node's Status without a plugin name takes the name of the first plugin that rejects a node of the
  // batch (as every failure still unnamed did when each plugin's rejections were named after it ran).
  bool unnamed_nominated = false;
  if (!nominator || nominator->NoneOnNodes()) {
    alive.resize(count);
    for (std::size_t i = 0; i < count; ++i) alive[i] = static_cast<std::uint32_t>(i);
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      const auto* nominated = nominator->ForNode(nodes[i]->node);
      if (nominated) {
        statuses[i] = RunFilterWithNominated(state, pod, *nodes[i], snapshot, *nominated);
        unnamed_nominated |= !statuses[i].IsSuccess() && *statuses[i].plugin() == '\0';
      } else {
        alive.push_back(static_cast<std::uint32_t>(i));
      }
    }
  }
  std::size_t n = alive.size();
  for (const auto& a : state.active_filters) {
    if (n == 0) break;
    const FilterPlugin* p = a.plugin;
    std::uint32_t* live = alive.data();
    std::size_t kept = 0;
    if (a.verdict) {
      // Cached passes need no call; the rest (unknown or failed verdicts) call Filter, which records its verdict.
      // A local copy: the stores below would otherwise make the compiler re-read the verdict row per node.
      const ActiveFilter f = a;
      for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t i = live[k];
        const NodeInfo& node = *nodes[i];
        if (CachedPass(f, node)) {
          live[kept++] = i;
          continue;
        }
        Status s = p->Filter(state, pod, node);
        if (s.IsSuccess()) {
          live[kept++] = i;
        } else {
          if (*s.plugin() == '\0') s.WithPlugin(p->Name());
          statuses[i] = std::move(s);
        }
      }
    } else {
      kept = p->FilterNodes(state, pod, nodes, live, n, statuses);  // names the Statuses it writes
    }
    if (kept != n && unnamed_nominated) {
      for (std::size_t i = 0; i < count; ++i)
        if (!statuses[i].IsSuccess() && *statuses[i].plugin() == '\0') statuses[i].WithPlugin(p->Name());
      unnamed_nominated = false;
    }
    n = kept;
  }
}

Status Framework::RunFilterWithNominated(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                         const Snapshot& snapshot, const std::vector<const PodInfo*>& nominated) {
  // addGENominatedPods: only pods at least as important as the incoming one reserve their room.
  std::optional<CycleState> state_with;
  std::optional<NodeInfo> node_with;
  for (const PodInfo* p : nominated) {
    if (p == &pod || p->priority < pod.priority) continue;
    if (!state_with) {
      state_with.emplace(state.Clone());
      node_with.emplace(node);
    }
    node_with->AddPod(p);
    Status s = RunAddPod(*state_with, pod, *p, *node_with, snapshot);
    if (!s.IsSuccess()) return Status(Code::Error, s.Message()).WithPlugin(s.plugin());
  }
  if (!state_with) return RunFilter(state, pod, node);
  Status with = RunFilter(*state_with, pod, *node_with);
  if (!with.IsSuccess()) return with;
  return RunFilter(state, pod, node);
}

Status Framework::RunPreScore(CycleState& state, const PodInfo& pod, const std::vector<const NodeInfo*>& nodes,
                              const Snapshot& snapshot) {
  for (auto* p : pre_score_) {
    Status s = p->PreScore(state, pod, nodes, snapshot);
    if (s.IsSkip()) {
      state.skip_score[p->prescore_slot / 2] = true;
      continue;
    }
    if (!s.IsSuccess()) return s.WithPlugin(p->Name());
  }
  return {};
}

Status Framework::RunScore(const CycleState& state, const PodInfo& pod, const std::vector<const NodeInfo*>& nodes,
                           std::vector<NodeScores>& out, bool detail) const {
  const std::size_t n = nodes.size();
  auto& list = score_list_;
  auto& raw = raw_scores_;
  auto& totals = score_totals_;
  list.resize(n);
  totals.assign(n, 0);
  out.resize(n);
  if (detail) {
    raw.resize(n);
    for (auto& o : out) o.plugins.clear();
  }
  for (std::size_t i = 0; i < n; ++i) list[i] = {nodes[i], 0};
  for (const auto& entry : score_) {
    const ScorePlugin* p = entry.plugin;
    const bool skipped = state.skip_score[p->prescore_slot / 2];
    // A skipped plugin adds 0 to every node: only an explanation needs its rows.
    if (skipped && !detail) continue;
    // Every score is 0 here (the loop below clears what the previous plugin left).
    Status s;  // a plugin sets it only to fail
    if (!skipped) {
      p->ScoreNodes(state, pod, list, s);
      if (!s.IsSuccess()) return s.WithPlugin(p->Name());
    }
    if (detail)
      for (std::size_t i = 0; i < n; ++i) raw[i] = list[i].score;
    if (!skipped && p->HasNormalize()) {
      Status s = p->NormalizeScore(state, pod, list);
      if (!s.IsSuccess()) return s.WithPlugin(p->Name());
    }
    // One pass: check the range, add the weighted score, clear it for the next plugin (an explanation keeps it for
    // its rows first). Raw pointers: the stores would otherwise make the compiler re-read the vectors. The totals a
    // failing plugin leaves behind are not returned.
    const std::int64_t weight = entry.weight;
    NodeScore* scores = list.data();
    std::int64_t* sum = totals.data();
    bool in_range = true;
    std::int64_t bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t v = scores[i].score;
      if (v > kMaxNodeScore || v < kMinNodeScore) {
        if (in_range) bad = v;
        in_range = false;
      }
      sum[i] += v * weight;
      if (!detail) scores[i].score = 0;
    }
    if (!in_range)
      return Status(Code::Error, std::string("plugin \"") + p->Name() + "\" returns an invalid score " +
                                     std::to_string(bad) + ", it should in the range of [0, 100] after normalizing")
          .WithPlugin(p->Name());
    if (detail) {
      for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t v = scores[i].score;
        out[i].plugins.push_back({p->Name(), raw[i], v, v * weight, entry.weight, skipped});
        scores[i].score = 0;
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    out[i].node = nodes[i];
    out[i].total = totals[i];
    if (!detail) out[i].plugins.clear();
  }
  return {};
}

Status Framework::RunAddPod(CycleState& state, const PodInfo& pod, const PodInfo& added, const NodeInfo& node,
                            const Snapshot& snapshot) {
  for (auto* p : pre_filter_) {
    if (state.skip_filter[p->prefilter_slot / 2] || !p->HasExtensions()) continue;
    Status s = p->AddPod(state, pod, added, node, snapshot);
    if (!s.IsSuccess()) return s.WithPlugin(p->Name());
  }
  return {};
}

Status Framework::RunRemovePod(CycleState& state, const PodInfo& pod, const PodInfo& removed, const NodeInfo& node,
                               const Snapshot& snapshot) {
  for (auto* p : pre_filter_) {
    if (state.skip_filter[p->prefilter_slot / 2] || !p->HasExtensions()) continue;
    Status s = p->RemovePod(state, pod, removed, node, snapshot);
    if (!s.IsSuccess()) return s.WithPlugin(p->Name());
  }
  return {};
}

void DefaultNormalizeScore(std::int64_t max_priority, bool reverse, std::vector<NodeScore>& scores) {
  std::int64_t max_count = 0;
  for (const auto& s : scores) max_count = std::max(max_count, s.score);
  if (max_count == 0) {
    if (reverse)
      for (auto& s : scores) s.score = max_priority;
    return;
  }
  for (auto& s : scores) {
    std::int64_t v = max_priority * s.score / max_count;
    s.score = reverse ? max_priority - v : v;
  }
}

}  // namespace kplace::framework
