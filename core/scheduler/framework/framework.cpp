#include "core/scheduler/framework/framework.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "core/scheduler/plugins/names.h"
#include "core/scheduler/plugins/registry.h"

namespace kplace::framework {

namespace {

// mergePluginSet (apis/config/v1/default_plugins.go): defaults minus disabled ("*" = all), a default that is also
// enabled takes the custom entry in the default's place; other custom entries follow in their order.
std::vector<PluginRef> MergePluginSet(const std::vector<PluginRef>& defaults, const PluginSet& custom) {
  std::set<std::string> disabled(custom.disabled.begin(), custom.disabled.end());
  bool all_disabled = disabled.count("*") > 0;
  std::vector<PluginRef> out;
  std::set<std::string> replaced;
  if (!all_disabled) {
    for (const auto& d : defaults) {
      if (disabled.count(d.name)) continue;
      auto it = std::find_if(custom.enabled.begin(), custom.enabled.end(),
                             [&](const PluginRef& p) { return p.name == d.name; });
      if (it != custom.enabled.end()) {
        out.push_back(*it);
        replaced.insert(d.name);
      } else {
        out.push_back(d);
      }
    }
  }
  for (const auto& e : custom.enabled)
    if (!replaced.count(e.name)) out.push_back(e);
  return out;
}

template <typename T>
T* As(Plugin* p) {
  return dynamic_cast<T*>(p);
}

}  // namespace

std::unique_ptr<Framework> Framework::Create(const SchedulerConfig& config, const Features& features,
                                             std::string* error, std::size_t profile_index) {
  auto fw = std::unique_ptr<Framework>(new Framework());
  const SchedulerProfile& profile = config.profiles.at(profile_index);
  fw->profile_name_ = profile.scheduler_name;
  // The profile's percentageOfNodesToScore overrides the global one (schedule_one.go numFeasibleNodesToFind).
  fw->percentage_ =
      profile.percentage_of_nodes_to_score ? profile.percentage_of_nodes_to_score : config.percentage_of_nodes_to_score;
  fw->preemption_args_ = profile.args.default_preemption;
  // ValidateVolumeBindingArgsWithOptions: a shape needs StorageCapacityScoring.
  if (const auto& vb = profile.args.volume_binding; vb.shape && !features.Enabled(Feature::StorageCapacityScoring)) {
    std::string value = "[]config.UtilizationShapePoint{";
    for (std::size_t i = 0; i < vb.shape->size(); ++i)
      value += (i ? ", " : "") + std::string("config.UtilizationShapePoint{Utilization:") +
               std::to_string((*vb.shape)[i].utilization) + ", Score:" + std::to_string((*vb.shape)[i].score) + "}";
    // The caller names the profile; the path goes on from its pluginConfig.
    std::string path = vb.shape_path;
    if (path.rfind("profiles[", 0) == 0 && path.find('.') != std::string::npos) path = path.substr(path.find('.') + 1);
    *error = path + ": Invalid value: " + value +
             "}: unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring";
    return nullptr;
  }
  const auto& custom = profile.plugins;
  auto custom_set = [&](const char* point) {
    auto it = custom.find(point);
    return it == custom.end() ? PluginSet{} : it->second;
  };
  for (const auto& [point, set] : custom) {
    for (const auto& p : set.enabled) {
      if (!plugins::FindInTreePlugin(p.name)) {
        // runtime/framework.go: e.g. `FilterPlugin "Foo" does not exist`.
        std::string kind = point;
        kind[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(kind[0])));
        *error = "plugins." + point + ".enabled: " + kind + "Plugin \"" + p.name + "\" does not exist";
        return nullptr;
      }
    }
  }
  std::vector<PluginRef> defaults;
  for (const auto& d : plugins::DefaultMultiPoint(features)) defaults.push_back({d.name, d.weight});
  std::vector<PluginRef> multipoint = MergePluginSet(defaults, custom_set("multiPoint"));

  // Instantiate each named plugin once.
  std::map<std::string, Plugin*> by_name;
  auto instance = [&](const std::string& name) -> Plugin* {
    if (auto it = by_name.find(name); it != by_name.end()) return it->second;
    auto p = plugins::NewPlugin(name, profile.args, features);
    Plugin* raw = p.get();
    if (p) {
      p->prefilter_slot = 2 * fw->plugins_.size();
      p->prescore_slot = 2 * fw->plugins_.size() + 1;
      fw->plugins_.push_back(std::move(p));
    }
    by_name[name] = raw;
    return raw;
  };

  // expandMultiPointPlugins (runtime/framework.go): per extension point, plugins enabled there explicitly that
  // are also in multiPoint come first (in that point's order), then multiPoint plugins, then the rest of that
  // point's explicit plugins. Disabled entries of the point remove multiPoint ones.
  auto expand = [&](const char* point, auto implements) {
    PluginSet specific = custom_set(point);
    std::set<std::string> disabled(specific.disabled.begin(), specific.disabled.end());
    bool all_disabled = disabled.count("*") > 0;
    std::set<std::string> mp_names;
    for (const auto& m : multipoint) mp_names.insert(m.name);
    std::vector<PluginRef> out;
    std::set<std::string> seen;
    for (const auto& e : specific.enabled)
      if (mp_names.count(e.name) && seen.insert(e.name).second) out.push_back(e);
    for (const auto& m : multipoint) {
      if (all_disabled || disabled.count(m.name) || seen.count(m.name)) continue;
      if (!implements(instance(m.name))) continue;
      seen.insert(m.name);
      out.push_back(m);
    }
    for (const auto& e : specific.enabled)
      if (!mp_names.count(e.name) && seen.insert(e.name).second) out.push_back(e);
    std::vector<PluginRef> result;
    for (const auto& r : out)
      if (implements(instance(r.name))) result.push_back(r);
    return result;
  };
  for (const auto& r : expand("preFilter", [](Plugin* p) { return As<PreFilterPlugin>(p) != nullptr; }))
    fw->pre_filter_.push_back(As<PreFilterPlugin>(instance(r.name)));
  for (const auto& r : expand("filter", [](Plugin* p) { return As<FilterPlugin>(p) != nullptr; }))
    fw->filter_.push_back(As<FilterPlugin>(instance(r.name)));
  for (const auto& r : expand("preScore", [](Plugin* p) { return As<PreScorePlugin>(p) != nullptr; }))
    fw->pre_score_.push_back(As<PreScorePlugin>(instance(r.name)));
  for (const auto& r : expand("score", [](Plugin* p) { return As<ScorePlugin>(p) != nullptr; })) {
    std::int64_t w = r.weight;
    if (w == 0) {
      // A score plugin enabled without a weight takes its multiPoint weight, else 1.
      for (const auto& m : multipoint)
        if (m.name == r.name && m.weight != 0) w = m.weight;
      if (w == 0) w = 1;
    }
    fw->score_.push_back({As<ScorePlugin>(instance(r.name)), w});
  }
  for (const auto& r : expand("reserve", [](Plugin* p) { return As<ReservePlugin>(p) != nullptr; }))
    fw->reserve_.push_back(As<ReservePlugin>(instance(r.name)));
  // PostFilter plugins are run by the scheduler; keep their names in order.
  {
    PluginSet specific = custom_set("postFilter");
    std::set<std::string> disabled(specific.disabled.begin(), specific.disabled.end());
    for (const auto& m : multipoint) {
      if (disabled.count("*") || disabled.count(m.name)) continue;
      const plugins::InTreePlugin* p = plugins::FindInTreePlugin(m.name);
      if (p && p->post_filter) fw->post_filter_.push_back(m.name);
    }
  }
  return fw;
}

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

Status Framework::RunFilter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  if (!state.active_filters_ready) {
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
  const auto at = static_cast<std::size_t>(node.index);
  for (const auto& a : state.active_filters) {
    // A pass the plugin cached for this node (FilterWithVerdicts would return it at once): no call.
    if (a.verdict && at < a.size && a.layout[at] == node.node && a.verdict[at] == NodeVerdictCache::kPass) continue;
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

Status Framework::RunFilterWithNominatedPods(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                                             const Snapshot& snapshot, const Nominator* nominator) {
  const auto* nominated = nominator ? nominator->ForNode(node.node) : nullptr;
  if (!nominated) return RunFilter(state, pod, node);
  // addGENominatedPods: only pods at least as important as the incoming one reserve their room.
  std::optional<CycleState> state_with;
  std::optional<NodeInfo> node_with;
  for (const PodInfo* p : *nominated) {
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
  out.resize(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    out[i].node = nodes[i];
    out[i].total = 0;
    out[i].plugins.clear();
  }
  auto& list = score_list_;
  auto& raw = raw_scores_;
  list.resize(nodes.size());
  raw.resize(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) list[i].node = nodes[i];
  for (const auto& entry : score_) {
    const ScorePlugin* p = entry.plugin;
    const bool skipped = state.skip_score[p->prescore_slot / 2];
    // A skipped plugin adds 0 to every node: only an explanation needs its rows.
    if (skipped && !detail) continue;
    Status s;  // a plugin sets it only to fail
    for (auto& l : list) l.score = 0;
    if (!skipped) {
      p->ScoreNodes(state, pod, list, s);
      if (!s.IsSuccess()) return s.WithPlugin(p->Name());
    }
    if (detail)
      for (std::size_t i = 0; i < nodes.size(); ++i) raw[i] = list[i].score;
    if (!skipped && p->HasNormalize()) {
      Status s = p->NormalizeScore(state, pod, list);
      if (!s.IsSuccess()) return s.WithPlugin(p->Name());
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      std::int64_t n = list[i].score;
      if (n > kMaxNodeScore || n < kMinNodeScore) {
        return Status(Code::Error, std::string("plugin \"") + p->Name() + "\" returns an invalid score " +
                                       std::to_string(n) + ", it should in the range of [0, 100] after normalizing")
            .WithPlugin(p->Name());
      }
      out[i].total += n * entry.weight;
      if (detail) out[i].plugins.push_back({p->Name(), raw[i], n, n * entry.weight, entry.weight, skipped});
    }
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
