// ClusterState's PodDisruptionBudget budgets: the pods each PDB selects are indexed once (namespace, then the
// selector's first In / Equals requirement); RefreshPdbs derives disruptionsAllowed from them as the disruption
// controller does, or takes status.disruptionsAllowed less the matching pods evicted since.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/io/scenario_parser.h"
#include "core/scheduler/cluster_state.h"

namespace kplace {
namespace {

using io::Json;

Json PodItem(const std::string& ns, const std::string& name, Json labels, bool bound, bool owned) {
  Json meta = {{"name", name}, {"namespace", ns}, {"labels", labels}};
  if (owned)
    meta["ownerReferences"] =
        Json::array({{{"apiVersion", "apps/v1"}, {"kind", "ReplicaSet"}, {"name", "web-rs"}, {"controller", true}}});
  Json spec = {{"containers", Json::array({{{"name", "c"}}})}};
  if (bound) spec["nodeName"] = "n1";
  return {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", meta}, {"spec", spec}};
}

Json Pdb(const std::string& ns, const std::string& name, Json spec, Json status = nullptr) {
  Json j = {{"apiVersion", "policy/v1"},
            {"kind", "PodDisruptionBudget"},
            {"metadata", {{"name", name}, {"namespace", ns}}},
            {"spec", spec}};
  if (!status.is_null()) j["status"] = status;
  return j;
}

Json In(const std::vector<std::string>& values) {
  return {{"matchExpressions", Json::array({{{"key", "app"}, {"operator", "In"}, {"values", values}}})}};
}

TEST(ClusterStatePdbs, SelectsTheRightPodsAndRefreshesAfterEvictions) {
  Json items = Json::array();
  items.push_back({{"apiVersion", "v1"},
                   {"kind", "Node"},
                   {"metadata", {{"name", "n1"}}},
                   {"status", {{"allocatable", {{"cpu", "100"}, {"memory", "100Gi"}, {"pods", "110"}}}}}});
  for (int i = 0; i < 4; ++i)
    items.push_back(PodItem("default", "web-" + std::to_string(i), {{"app", "web"}}, true, true));
  items.push_back(PodItem("default", "web-4", {{"app", "web"}}, false, true));  // pending: matches, not healthy
  items.push_back(PodItem("default", "api-0", {{"app", "api"}}, true, false));
  items.push_back(PodItem("default", "api-1", {{"app", "api"}}, true, false));
  items.push_back(PodItem("prod", "web-p0", {{"app", "web"}}, true, false));
  items.push_back(Pdb("default", "a-min2", {{"selector", {{"matchLabels", {{"app", "web"}}}}}, {"minAvailable", 2}}));
  items.push_back(Pdb("default", "b-in", {{"selector", In({"web", "api", "web"})}, {"minAvailable", 3}}));
  items.push_back(Pdb("default", "c-notin",
                      {{"selector",
                        {{"matchExpressions",
                          Json::array({{{"key", "app"}, {"operator", "NotIn"}, {"values", Json::array({"api"})}}})}}},
                       {"minAvailable", 1}}));
  items.push_back(Pdb("default", "d-everything", {{"selector", Json::object()}, {"minAvailable", 5}}));
  items.push_back(Pdb("default", "e-nil", {{"minAvailable", 0}}));
  items.push_back(
      Pdb("default", "f-percent", {{"selector", {{"matchLabels", {{"app", "web"}}}}}, {"maxUnavailable", "50%"}}));
  items.push_back(Pdb("prod", "g-prod", {{"selector", {{"matchLabels", {{"app", "web"}}}}}, {"minAvailable", 0}}));
  items.push_back(
      Pdb("default", "h-given", {{"selector", In({"api"})}, {"minAvailable", 1}}, {{"disruptionsAllowed", 2}}));
  items.push_back(Pdb("default", "i-none", {{"selector", In({"db"})}, {"minAvailable", 0}}));
  Scenario sc = io::ParseScenarioJson(Json{{"kind", "List"}, {"items", items}});
  ClusterState cs(sc, std::vector<std::int32_t>(sc.pods.size(), 0));
  auto allowed = [&] {
    std::map<std::string, int> out;
    for (const auto& b : cs.pdbs) out[b.name] = b.disruptions_allowed;
    return out;
  };
  // a: 5 web pods match, 4 healthy, 2 must stay. b: 7 match (the duplicate value counts once), 6 healthy.
  // c: the 5 web pods. d: all 7. e: a null selector selects nothing. f: web-rs (not in the scenario) controls 5
  // pods: 5 - ceil(2.5) = 2 must stay. g: prod's pod only. h: as given. i: nothing matches.
  std::map<std::string, int> want = {{"a-min2", 2},    {"b-in", 3},   {"c-notin", 3}, {"d-everything", 1}, {"e-nil", 0},
                                     {"f-percent", 2}, {"g-prod", 1}, {"h-given", 2}, {"i-none", 0}};
  EXPECT_EQ(allowed(), want);

  auto index = [&](const std::string& name) {
    for (std::size_t i = 0; i < sc.pods.size(); ++i)
      if (sc.pods[i].meta.name == name && sc.pods[i].meta.namespace_ == "default") return i;
    ADD_FAILURE() << name;
    return std::size_t{0};
  };
  ASSERT_TRUE(cs.Evict(index("web-0")));
  ASSERT_TRUE(cs.Evict(index("api-0")));
  cs.RefreshPdbs();
  // a: 4 match, 3 healthy. b: 5 match, 4 healthy. c: 3 healthy. d: 4 healthy. f: still 5 controlled, 3 healthy.
  // h: 2 less the one matching pod evicted.
  want = {{"a-min2", 1},    {"b-in", 1},   {"c-notin", 2}, {"d-everything", 0}, {"e-nil", 0},
          {"f-percent", 1}, {"g-prod", 1}, {"h-given", 1}, {"i-none", 0}};
  EXPECT_EQ(allowed(), want);
}

}  // namespace
}  // namespace kplace
