// KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1): profiles, plugin sets and plugin args.

#include <algorithm>
#include <map>
#include <set>

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
      if (type == "LeastAllocated")
        a.strategy = ScoringStrategyType::LeastAllocated;
      else if (type == "MostAllocated")
        a.strategy = ScoringStrategyType::MostAllocated;
      else if (type == "RequestedToCapacityRatio")
        a.strategy = ScoringStrategyType::RequestedToCapacityRatio;
      else
        sr.Field("type").Fail("unsupported scoring strategy \"" + type +
                              "\" (LeastAllocated, MostAllocated or RequestedToCapacityRatio)");
      if (auto it = ss->find("resources"); it != ss->end() && !it->is_null())
        a.resources = ParseResourceSpecs(*it, sr.Field("resources"), a.resources);
      if (const Json* rtcr = sr.Object(*ss, "requestedToCapacityRatio")) {
        Reader rr = sr.Field("requestedToCapacityRatio");
        if (const Json* shape = rr.Array(*rtcr, "shape")) {
          a.shape.clear();
          for (std::size_t i = 0; i < shape->size(); ++i) {
            Reader pr = rr.Field("shape").Index(i);
            pr.ExpectObject((*shape)[i]);
            UtilizationShapePoint p;
            p.utilization = static_cast<std::int32_t>(pr.Int((*shape)[i], "utilization", 0, 100).value_or(0));
            p.score = static_cast<std::int32_t>(pr.Int((*shape)[i], "score", 0, 10).value_or(0));
            if (!a.shape.empty() && p.utilization <= a.shape.back().utilization)
              pr.Field("utilization").Fail("utilization values must be sorted in increasing order");
            a.shape.push_back(p);
          }
          if (a.shape.empty()) rr.Field("shape").Fail("at least one point must be specified");
        }
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

SchedulerConfig ParseSchedulerConfig(const Json& v, const Reader& r, std::vector<std::string>& warnings) {
  SchedulerConfig cfg;
  if (auto p = r.Int(v, "percentageOfNodesToScore", 0, 100))
    cfg.percentage_of_nodes_to_score = static_cast<std::int32_t>(*p);
  const Json* profiles = r.Array(v, "profiles");
  if (!profiles || profiles->empty()) return cfg;
  Reader pr = r.Field("profiles").Index(0);
  const Json& prof = (*profiles)[0];
  pr.ExpectObject(prof);
  auto& profile = cfg.profile;
  profile.scheduler_name = pr.String(prof, "schedulerName").value_or("default-scheduler");
  if (profiles->size() > 1) {
    std::vector<std::string> names;
    for (std::size_t i = 1; i < profiles->size(); ++i) {
      Reader ri = r.Field("profiles").Index(i);
      ri.ExpectObject((*profiles)[i]);
      auto name = ri.String((*profiles)[i], "schedulerName").value_or("");
      // validation.go validateKubeSchedulerProfile / the duplicate check in ValidateKubeSchedulerConfiguration.
      if (name.empty()) ri.Field("schedulerName").Fail("Required value");
      if (name == profile.scheduler_name ||
          std::find(cfg.other_profiles.begin(), cfg.other_profiles.end(), name) != cfg.other_profiles.end())
        ri.Field("schedulerName").Fail("Duplicate value: \"" + name + "\"");
      cfg.other_profiles.push_back(name);
      names.push_back("\"" + name + "\"");
    }
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
    warnings.push_back("KubeSchedulerConfiguration: only profiles[0] is simulated; pods of " + list +
                       " are left pending");
  }
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
          auto name = er.String((*list)[i], "name");
          if (!name || name->empty()) er.Field("name").Fail("required");
          if (std::string(which) == "enabled") {
            auto w = er.Int((*list)[i], "weight", 0, 100).value_or(0);
            ps.enabled.push_back({*name, static_cast<std::int32_t>(w)});
          } else {
            ps.disabled.push_back(*name);
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
      auto name = cr.String(entry, "name");
      if (!name || name->empty()) cr.Field("name").Fail("required");
      if (auto [it, inserted] = seen.emplace(*name, i); !inserted)
        cr.Field("name").Fail("duplicate \"" + *name + "\" (also pluginConfig[" + std::to_string(it->second) + "])");
      if (auto it = entry.find("args"); it != entry.end()) ParsePluginArgs(*name, *it, cr.Field("args"), profile.args);
    }
  }
  return cfg;
}

}  // namespace kplace::io
