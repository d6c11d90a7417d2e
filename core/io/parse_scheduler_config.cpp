// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1): profiles, plugin sets and plugin args.

#include <algorithm>
#include <map>
#include <set>

#include "core/io/compare.h"
#include "core/io/object_parsers.h"

namespace kplace::io {

int ParseKubernetesVersion(const std::string& v, const Reader& r) {
  if (std::optional<int> minor = kplace::ParseKubernetesVersion(v)) return *minor;
  r.Fail("unsupported kubernetesVersion \"" + v + "\" (" + SupportedVersionsText() + ")");
}

namespace {

// []ResourceSpec of NodeResourcesFit / NodeResourcesBalancedAllocation args. v1 defaulting (config/v1/defaults.go):
// an empty list means the default set, weight 0 or absent means 1.
std::vector<ResourceSpec> ParseResourceSpecs(const Json& v, const Reader& r, std::vector<ResourceSpec> defaults) {
  r.ExpectArray(v);
  if (v.empty()) return defaults;
  std::vector<ResourceSpec> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    Reader at = r.Index(i);
    at.ExpectObject(v[i]);
    ResourceSpec spec;
    auto name = at.String(v[i], "name");
    if (!name || name->empty()) at.Field("name").Fail("required");
    spec.name = *name;
    spec.weight = at.Int(v[i], "weight", 0, 100).value_or(0);
    if (spec.weight == 0) spec.weight = 1;
    out.push_back(spec);
  }
  return out;
}

// validateFunctionShape: at least one point, utilization 0..100 increasing, score 0..10.
std::vector<UtilizationShapePoint> ParseShape(const Json& shape, const Reader& r) {
  std::vector<UtilizationShapePoint> out;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    Reader pr = r.Index(i);
    pr.ExpectObject(shape[i]);
    UtilizationShapePoint p;
    p.utilization = static_cast<std::int32_t>(pr.Int(shape[i], "utilization", 0, 100).value_or(0));
    p.score = static_cast<std::int32_t>(pr.Int(shape[i], "score", 0, 10).value_or(0));
    if (!out.empty() && p.utilization <= out.back().utilization)
      pr.Field("utilization").Fail("utilization values must be sorted in increasing order");
    out.push_back(p);
  }
  if (out.empty()) r.Fail("at least one point must be specified");
  return out;
}

}  // namespace

void ParsePluginArgs(const std::string& plugin, const Json& args, const Reader& r, PluginArgs& out) {
  if (args.is_null()) return;
  r.ExpectObject(args);
  if (plugin == "NodeResourcesFit") {
    auto& a = out.fit;
    if (const Json* ir = r.Array(args, "ignoredResources"))
      for (std::size_t i = 0; i < ir->size(); ++i)
        a.ignored_resources.push_back(r.Field("ignoredResources").Index(i).AsString((*ir)[i]));
    if (const Json* ig = r.Array(args, "ignoredResourceGroups"))
      for (std::size_t i = 0; i < ig->size(); ++i) {
        Reader gr = r.Field("ignoredResourceGroups").Index(i);
        a.ignored_resource_groups.push_back(gr.AsString((*ig)[i]));
        if (a.ignored_resource_groups.back().find('/') != std::string::npos)
          gr.Fail("resource group name can't contain '/'");
      }
    if (const Json* ss = r.Object(args, "scoringStrategy")) {
      Reader sr = r.Field("scoringStrategy");
      // No default for type once scoringStrategy is given (validation_pluginargs.go: "" is not supported).
      auto type = sr.String(*ss, "type").value_or("");
      if (auto t = StrategyFromName(type))
        a.strategy = *t;
      else
        sr.Field("type").Fail("unsupported scoring strategy \"" + type +
                              "\" (LeastAllocated, MostAllocated or RequestedToCapacityRatio)");
      if (auto it = ss->find("resources"); it != ss->end() && !it->is_null())
        a.resources = ParseResourceSpecs(*it, sr.Field("resources"), a.resources);
      if (const Json* rtcr = sr.Object(*ss, "requestedToCapacityRatio")) {
        Reader rr = sr.Field("requestedToCapacityRatio");
        if (const Json* shape = rr.Array(*rtcr, "shape")) a.shape = ParseShape(*shape, rr.Field("shape"));
      }
      bool has_ratio = ss->contains("requestedToCapacityRatio") && !ss->at("requestedToCapacityRatio").is_null();
      if (a.strategy == ScoringStrategyType::RequestedToCapacityRatio && !has_ratio)
        sr.Field("requestedToCapacityRatio").Fail("required for RequestedToCapacityRatio");
      if (a.strategy != ScoringStrategyType::RequestedToCapacityRatio && has_ratio)
        sr.Field("requestedToCapacityRatio").Fail("must be nil when type is not RequestedToCapacityRatio");
    }
  } else if (plugin == "NodeResourcesBalancedAllocation") {
    if (auto it = args.find("resources"); it != args.end() && !it->is_null()) {
      auto& resources = out.balanced_allocation.resources;
      resources = ParseResourceSpecs(*it, r.Field("resources"), resources);
      // ValidateNodeResourcesBalancedAllocationArgs: unique names, weight exactly 1.
      for (std::size_t i = 0; i < resources.size(); ++i) {
        Reader rr = r.Field("resources").Index(i);
        for (std::size_t j = 0; j < i; ++j)
          if (resources[j].name == resources[i].name)
            rr.Field("name").Fail("duplicate \"" + resources[i].name + "\" (also resources[" + std::to_string(j) +
                                  "])");
        if (resources[i].weight != 1) rr.Field("weight").Fail("must be 1, got " + std::to_string(resources[i].weight));
      }
    }
  } else if (plugin == "VolumeBinding") {
    // bindTimeoutSeconds only bounds PreBind's wait, which kplace completes at once.
    if (const Json* shape = r.Array(args, "shape")) {
      out.volume_binding.shape = ParseShape(*shape, r.Field("shape"));
      out.volume_binding.shape_path = r.Field("shape").path();
    }
  } else if (plugin == "PodTopologySpread") {
    auto& a = out.topology_spread;
    auto type = r.String(args, "defaultingType").value_or("");
    if (type == "System" || type.empty())
      a.system_defaulting = true;
    else if (type == "List")
      a.system_defaulting = false;
    else
      r.Field("defaultingType").Fail("unsupported value \"" + type + "\" (System or List)");
    if (const Json* dc = r.Array(args, "defaultConstraints")) {
      if (a.system_defaulting && !dc->empty())
        r.Field("defaultConstraints").Fail("when .defaultingType is \"System\", .defaultConstraints must be empty");
      for (std::size_t i = 0; i < dc->size(); ++i) {
        Reader cr = r.Field("defaultConstraints").Index(i);
        if ((*dc)[i].is_object() && (*dc)[i].contains("labelSelector") && !(*dc)[i].at("labelSelector").is_null())
          cr.Field("labelSelector").Fail("constraint must not define a selector, as they deduced for each pod");
        a.default_constraints.push_back(ParseSpreadConstraint((*dc)[i], cr));
        const auto& c = a.default_constraints.back();
        for (std::size_t j = 0; j + 1 < a.default_constraints.size(); ++j) {
          const auto& other = a.default_constraints[j];
          if (other.topology_key == c.topology_key && other.when_unsatisfiable == c.when_unsatisfiable)
            cr.Fail("duplicate {" + Text(c.topology_key) + ", " +
                    (c.when_unsatisfiable == UnsatisfiableAction::DoNotSchedule ? "DoNotSchedule" : "ScheduleAnyway") +
                    "} (also defaultConstraints[" + std::to_string(j) + "])");
        }
      }
    }
  } else if (plugin == "InterPodAffinity") {
    auto& a = out.inter_pod_affinity;
    if (auto w = r.Int(args, "hardPodAffinityWeight", 0, 100))
      a.hard_pod_affinity_weight = static_cast<std::int32_t>(*w);
    if (auto b = r.Bool(args, "ignorePreferredTermsOfExistingPods")) a.ignore_preferred_terms_of_existing_pods = *b;
  } else if (plugin == "NodeAffinity") {
    if (const Json* aa = r.Object(args, "addedAffinity"))
      out.node_affinity.added_affinity = ParseNodeAffinity(*aa, r.Field("addedAffinity"), false);
  } else if (plugin == "DefaultPreemption") {
    // validation_pluginargs.go ValidateDefaultPreemptionArgs.
    auto& a = out.default_preemption;
    if (auto p = r.Int(args, "minCandidateNodesPercentage", 0, 100))
      a.min_candidate_nodes_percentage = static_cast<std::int32_t>(*p);
    if (auto n = r.Int(args, "minCandidateNodesAbsolute", 0, INT32_MAX))
      a.min_candidate_nodes_absolute = static_cast<std::int32_t>(*n);
    if (a.min_candidate_nodes_percentage == 0 && a.min_candidate_nodes_absolute == 0)
      r.Fail("minCandidateNodesPercentage and minCandidateNodesAbsolute: cannot be both zero");
  }
}

namespace {

// One entry of profiles[]: its plugin sets and pluginConfig args. A lone profile without schedulerName is the
// default-scheduler (v1 defaults.go sets the name only when there is a single profile); otherwise the name is
// required (validation.go validateKubeSchedulerProfile).
SchedulerProfile ParseProfile(const Json& prof, const Reader& pr, bool lone) {
  pr.ExpectObject(prof);
  SchedulerProfile profile;
  const std::optional<std::string> name = pr.String(prof, "schedulerName");
  if (name || !lone) profile.scheduler_name = name.value_or("");
  if (profile.scheduler_name.empty()) pr.Field("schedulerName").Fail("Required value");
  if (auto p = pr.Int(prof, "percentageOfNodesToScore", 0, 100))
    profile.percentage_of_nodes_to_score = static_cast<std::int32_t>(*p);
  if (const Json* plugins = pr.Object(prof, "plugins")) {
    Reader pl = pr.Field("plugins");
    for (const char* point : kExtensionPoints) {
      const Json* set = pl.Object(*plugins, point);
      if (!set) continue;
      Reader sr = pl.Field(point);
      PluginSet ps;
      for (const char* which : {"enabled", "disabled"}) {
        const Json* list = sr.Array(*set, which);
        if (!list) continue;
        for (std::size_t i = 0; i < list->size(); ++i) {
          Reader er = sr.Field(which).Index(i);
          er.ExpectObject((*list)[i]);
          auto plugin = er.String((*list)[i], "name");
          if (!plugin || plugin->empty()) er.Field("name").Fail("required");
          if (std::string(which) == "enabled") {
            auto w = er.Int((*list)[i], "weight", 0, 100).value_or(0);
            ps.enabled.push_back({*plugin, static_cast<std::int32_t>(w)});
          } else {
            ps.disabled.push_back(*plugin);
          }
        }
      }
      profile.plugins[point] = std::move(ps);
    }
  }
  if (const Json* pc = pr.Array(prof, "pluginConfig")) {
    std::map<std::string, std::size_t> seen;  // upstream rejects a repeated pluginConfig name
    for (std::size_t i = 0; i < pc->size(); ++i) {
      Reader cr = pr.Field("pluginConfig").Index(i);
      const Json& entry = (*pc)[i];
      cr.ExpectObject(entry);
      auto plugin = cr.String(entry, "name");
      if (!plugin || plugin->empty()) cr.Field("name").Fail("required");
      if (auto [it, inserted] = seen.emplace(*plugin, i); !inserted)
        cr.Field("name").Fail("duplicate \"" + *plugin + "\" (also pluginConfig[" + std::to_string(it->second) + "])");
      if (auto it = entry.find("args"); it != entry.end())
        ParsePluginArgs(*plugin, *it, cr.Field("args"), profile.args);
    }
  }
  return profile;
}

// The value of profiles[i].plugins.queueSort as written (null when absent).
Json QueueSortJson(const Json& prof) {
  if (auto pl = prof.find("plugins"); pl != prof.end() && pl->is_object())
    if (auto qs = pl->find("queueSort"); qs != pl->end()) return *qs;
  return nullptr;
}

// The args of profile's pluginConfig entry for plugin (null when none).
Json PluginConfigArgs(const Json& prof, const std::string& plugin) {
  if (auto pc = prof.find("pluginConfig"); pc != prof.end() && pc->is_array())
    for (const auto& e : *pc)
      if (e.is_object() && e.value("name", "") == plugin) return e.value("args", Json());
  return nullptr;
}

// validateCommonQueueSort (apis/config/validation/validation.go): the scheduling queue is shared, so every profile
// must have profiles[0]'s queueSort plugin set and that plugin's args. Sets compare as upstream's Semantic.DeepEqual
// does after defaulting: enabled names and weights and disabled names, in order; an absent list equals an empty one.
void ValidateCommonQueueSort(const std::vector<SchedulerProfile>& profiles, const Json& raw, const Reader& r) {
  const auto set_of = [](const SchedulerProfile& p) {
    auto it = p.plugins.find("queueSort");
    return it == p.plugins.end() ? PluginSet{} : it->second;
  };
  const PluginSet canon = set_of(profiles[0]);
  if (canon.enabled.size() > 1)
    r.Index(0)
        .Field("plugins")
        .Field("queueSort")
        .Field("Enabled")
        .Fail("Invalid value: " + std::to_string(canon.enabled.size()) + ": only one queue sort plugin can be enabled");
  const std::string name = canon.enabled.empty() ? "" : canon.enabled[0].name;
  const Json canon_args = name.empty() ? Json() : PluginConfigArgs(raw[0], name);
  for (std::size_t i = 1; i < profiles.size(); ++i) {
    const PluginSet curr = set_of(profiles[i]);
    const bool same =
        curr.disabled == canon.disabled && curr.enabled.size() == canon.enabled.size() &&
        std::equal(curr.enabled.begin(), curr.enabled.end(), canon.enabled.begin(),
                   [](const PluginRef& a, const PluginRef& b) { return a.name == b.name && a.weight == b.weight; });
    if (!same)
      r.Index(i)
          .Field("plugins")
          .Field("queueSort")
          .Fail("Invalid value: " + QueueSortJson(raw[i]).dump() + ": must be the same for all profiles");
    if (!name.empty())
      if (auto pc = raw[i].find("pluginConfig"); pc != raw[i].end() && pc->is_array())
        for (const auto& e : *pc)
          if (e.is_object() && e.value("name", "") == name && e.value("args", Json()) != canon_args)
            r.Index(i)
                .Field("pluginConfig")
                .Field("args")
                .Fail("Invalid value: " + e.value("args", Json()).dump() +
                      ": queueSort must be the same for all profiles");
  }
}

}  // namespace

SchedulerConfig ParseSchedulerConfig(const Json& v, const Reader& r) {
  SchedulerConfig cfg;
  if (auto p = r.Int(v, "percentageOfNodesToScore", 0, 100))
    cfg.percentage_of_nodes_to_score = static_cast<std::int32_t>(*p);
  const Json* profiles = r.Array(v, "profiles");
  if (!profiles || profiles->empty()) return cfg;
  Reader pr = r.Field("profiles");
  cfg.profiles.clear();
  for (std::size_t i = 0; i < profiles->size(); ++i) {
    cfg.profiles.push_back(ParseProfile((*profiles)[i], pr.Index(i), profiles->size() == 1));
    // ValidateKubeSchedulerConfiguration: schedulerNames are unique.
    const std::string& name = cfg.profiles.back().scheduler_name;
    for (std::size_t j = 0; j < i; ++j)
      if (cfg.profiles[j].scheduler_name == name)
        pr.Index(i).Field("schedulerName").Fail("Duplicate value: \"" + name + "\"");
  }
  ValidateCommonQueueSort(cfg.profiles, *profiles, pr);
  return cfg;
}

}  // namespace kplace::io
