// Framework::Create: the profile's plugin lists from the defaults and the KubeSchedulerConfiguration (apart from
// framework.cpp's extension points, which run per node: this runs once per profile and is compiled for size in wasm).
#include <algorithm>
#include <cctype>
#include <set>

#include "core/scheduler/framework/framework.h"
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

}  // namespace kplace::framework
