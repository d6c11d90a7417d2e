// Volumes end to end through the parser and the run: claims the controllers create, the PV controller's binding at
// the start, VolumeBinding's verdicts, and Reserve binding claims so that the next pod sees them taken.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"
#include "tests/testing/items.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using io::Json;

Json Node(const std::string& name, const std::string& zone) {
  return testing::NodeItem(name, {{"metadata", {{"labels", {{"topology.kubernetes.io/zone", zone}}}}}});
}

Json MakePod(const std::string& name, Json spec = Json::object()) { return testing::PodItem(name, std::move(spec)); }

Json ClaimVolume(const std::string& claim) {
  return Json::array({{{"name", "data"}, {"persistentVolumeClaim", {{"claimName", claim}}}}});
}

Json Class(const std::string& name, const std::string& mode, const std::string& provisioner, bool is_default = false) {
  Json c = {{"apiVersion", "storage.k8s.io/v1"},
            {"kind", "StorageClass"},
            {"metadata", {{"name", name}}},
            {"provisioner", provisioner},
            {"volumeBindingMode", mode}};
  if (is_default) c["metadata"]["annotations"] = {{"storageclass.kubernetes.io/is-default-class", "true"}};
  return c;
}

Json Volume(const std::string& name, const std::string& cls, const std::string& zone,
            const std::string& size = "10Gi") {
  Json v = Json::parse(R"({"apiVersion": "v1", "kind": "PersistentVolume", "spec": {"accessModes": ["ReadWriteOnce"],
    "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
      {"key": "topology.kubernetes.io/zone", "operator": "In", "values": []}]}]}}}})");
  v["metadata"]["name"] = name;
  v["spec"]["capacity"]["storage"] = size;
  v["spec"]["storageClassName"] = cls;
  v["spec"]["csi"] = {{"driver", "ebs.csi.aws.com"}, {"volumeHandle", name}};
  v["spec"]["nodeAffinity"]["required"]["nodeSelectorTerms"][0]["matchExpressions"][0]["values"].push_back(zone);
  return v;
}

Json Claim(const std::string& name, const std::string& cls, const std::string& mode = "ReadWriteOnce") {
  Json c = {{"apiVersion", "v1"},
            {"kind", "PersistentVolumeClaim"},
            {"metadata", {{"name", name}, {"namespace", "default"}}},
            {"spec", {{"accessModes", {mode}}, {"resources", {{"requests", {{"storage", "5Gi"}}}}}}}};
  if (!cls.empty()) c["spec"]["storageClassName"] = cls;
  return c;
}

Json CSINode(const std::string& node) {
  return {{"apiVersion", "storage.k8s.io/v1"},
          {"kind", "CSINode"},
          {"metadata", {{"name", node}}},
          {"spec",
           {{"drivers",
             {{{"name", "ebs.csi.aws.com"},
               {"nodeID", node},
               {"allocatable", {{"count", 25}}},
               {"topologyKeys", {"topology.kubernetes.io/zone"}}}}}}}};
}

sim::SimResult RunScheduler(Json items) {
  items.push_back(Json{{"kind", "Simulation"}, {"metadata", {{"name", "s"}}}, {"spec", {{"mode", "scheduler"}}}});
  return sim::Run(io::ParseScenarioJson(Json{{"kind", "List"}, {"items", items}}));
}

sim::PodResult Find(const sim::SimResult& r, const std::string& key) {
  for (const auto& p : r.pods)
    if (p.key == key) return p;
  throw std::runtime_error("no pod " + key);
}

// A StatefulSet's claims come from its volumeClaimTemplates (data-web-<i>, default StorageClass): static PVs in
// zone-b pin its replicas there although zone-a has room, one PV per replica; the third finds none left.
TEST(Volumes, StatefulSetClaimsBindToZonalVolumesOneEach) {
  Json set = Json::parse(R"({"apiVersion": "apps/v1", "kind": "StatefulSet",
    "metadata": {"name": "web", "namespace": "default"},
    "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
             "template": {"metadata": {"labels": {"app": "web"}}},
             "volumeClaimTemplates": [{"metadata": {"name": "data"},
               "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "5Gi"}}}}]}})");
  set["spec"]["template"]["spec"] = MakePod("x")["spec"];
  auto r = RunScheduler({Node("a", "zone-a"), Node("b", "zone-b"),
                         Class("local", "WaitForFirstConsumer", "kubernetes.io/no-provisioner", true),
                         Volume("pv-1", "local", "zone-b"), Volume("pv-2", "local", "zone-b"), set});
  EXPECT_EQ(Find(r, "default/web-0").node, "b");
  EXPECT_EQ(Find(r, "default/web-1").node, "b");
  EXPECT_EQ(Find(r, "default/web-2").node, "");
  EXPECT_EQ(Find(r, "default/web-2").unschedulable,
            "0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind. preemption: 0/2 "
            "nodes are available: 2 Preemption is not helpful for scheduling.");
}

// A bound claim's PV decides the zone; the other node's verdict names the PV's node affinity.
TEST(Volumes, BoundClaimFollowsItsVolume) {
  Json claim = Claim("data", "local");
  claim["metadata"]["annotations"] = {{"pv.kubernetes.io/bind-completed", "yes"}};
  claim["spec"]["volumeName"] = "pv-1";
  auto r = RunScheduler({Node("a", "zone-a"), Node("b", "zone-b"),
                         Class("local", "WaitForFirstConsumer", "kubernetes.io/no-provisioner"),
                         Volume("pv-1", "local", "zone-a"), claim, MakePod("p", {{"volumes", ClaimVolume("data")}})});
  EXPECT_EQ(Find(r, "default/p").node, "a");
  // The same claim written without bind-completed and with a taller pod: pre-bound, so the PV controller binds it
  // when the run starts.
  Json prebound = Claim("data", "local");
  prebound["spec"]["volumeName"] = "pv-1";
  auto r2 = RunScheduler(
      {Node("a", "zone-a"), Node("b", "zone-b"), Class("local", "WaitForFirstConsumer", "kubernetes.io/no-provisioner"),
       Volume("pv-1", "local", "zone-b"), prebound, MakePod("p", {{"volumes", ClaimVolume("data")}})});
  EXPECT_EQ(Find(r2, "default/p").node, "b");
}

// An Immediate claim with a matching PV is bound before scheduling (the PV controller ignores node affinity);
// without one it stays unbound and the pod cannot be scheduled.
TEST(Volumes, ImmediateClaimsAreBoundByThePVController) {
  auto r = RunScheduler({Node("a", "zone-a"), Node("b", "zone-b"), Class("std", "Immediate", "ebs.csi.aws.com"),
                         Volume("pv-1", "std", "zone-b"), Claim("data", "std"),
                         MakePod("p", {{"volumes", ClaimVolume("data")}})});
  EXPECT_EQ(Find(r, "default/p").node, "b");
  auto r2 = RunScheduler({Node("a", "zone-a"), Class("std", "Immediate", "ebs.csi.aws.com"), Claim("data", "std"),
                          MakePod("p", {{"volumes", ClaimVolume("data")}})});
  EXPECT_EQ(Find(r2, "default/p").unschedulable,
            "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found");
}

// Dynamic provisioning: the first pod (pinned to zone-b) gets a PV created in its node's zone (the CSINode's
// topology keys); the second pod sharing the claim must follow it there, though node a is emptier.
TEST(Volumes, ProvisionedVolumeCarriesTheNodesZone) {
  Json first = MakePod(
      "first", {{"volumes", ClaimVolume("shared")}, {"nodeSelector", {{"topology.kubernetes.io/zone", "zone-b"}}}});
  Json second = MakePod("second", {{"volumes", ClaimVolume("shared")}});
  auto r = RunScheduler({Node("a", "zone-a"), Node("b", "zone-b"), CSINode("a"), CSINode("b"),
                         Class("gp3", "WaitForFirstConsumer", "ebs.csi.aws.com"),
                         Claim("shared", "gp3", "ReadWriteMany"), first, second});
  EXPECT_EQ(Find(r, "default/first").node, "b");
  EXPECT_EQ(Find(r, "default/second").node, "b");
}

// An ephemeral volume's claim is created for its pod; a claim the input lacks is counted and reported not found.
TEST(Volumes, EphemeralClaimsAreCreatedMissingOnesCounted) {
  Json eph = Json::array(
      {{{"name", "scratch"},
        {"ephemeral",
         {{"volumeClaimTemplate",
           {{"spec", {{"accessModes", {"ReadWriteOnce"}}, {"resources", {{"requests", {{"storage", "1Gi"}}}}}}}}}}}}});
  Scenario sc = io::ParseScenarioJson(
      Json{{"kind", "List"},
           {"items",
            {Node("a", "zone-a"), Class("gp3", "WaitForFirstConsumer", "ebs.csi.aws.com", true),
             MakePod("p", {{"volumes", eph}}), MakePod("q", {{"volumes", ClaimVolume("gone")}})}}});
  ASSERT_EQ(sc.persistent_volume_claims.size(), 1u);
  const PersistentVolumeClaim& c = sc.persistent_volume_claims[0];
  EXPECT_EQ(c.Key(), "default/p-scratch");
  EXPECT_EQ(c.ClassName(), "gp3");  // the default class
  ASSERT_NE(c.meta.Controller(), nullptr);
  EXPECT_EQ(c.meta.Controller()->name, "p");
  EXPECT_EQ(sc.import.missing_claims, 1u);
  auto r = sim::Run(std::move(sc));
  EXPECT_EQ(Find(r, "default/p").node, "a");
  EXPECT_EQ(Find(r, "default/q").unschedulable,
            "0/1 nodes are available: persistentvolumeclaim \"gone\" not found. not found");
}

// The parser's error for a list of the one item, or "no error".
std::string ParseError(const Json& item) {
  try {
    io::ParseScenarioJson(Json{{"kind", "List"}, {"items", {item}}});
  } catch (const InputError& e) {
    return std::string(e.what());
  }
  return std::string("no error");
}

// Bad storage objects get the API server's words, naming the item and path.
TEST(Volumes, BadStorageObjectsNameTheField) {
  const auto error = ParseError;
  Json no_modes = Claim("c", "x");
  no_modes["spec"].erase("accessModes");
  EXPECT_EQ(error(no_modes),
            "items[0] (PersistentVolumeClaim default/c): spec.accessModes: Required value: at least 1 "
            "access mode is required");
  Json no_size = Claim("c", "x");
  no_size["spec"].erase("resources");
  EXPECT_EQ(error(no_size), "items[0] (PersistentVolumeClaim default/c): spec.resources[storage]: Required value");
  Json bad_mode = Class("s", "Later", "x");
  EXPECT_EQ(error(bad_mode),
            "items[0] (StorageClass s): volumeBindingMode: Unsupported value: \"Later\": supported "
            "values: \"Immediate\", \"WaitForFirstConsumer\"");
  Json no_terms = Volume("v", "s", "z");
  no_terms["spec"]["nodeAffinity"]["required"]["nodeSelectorTerms"] = Json::array();
  EXPECT_EQ(error(no_terms),
            "items[0] (PersistentVolume v): spec.nodeAffinity.required.nodeSelectorTerms: Required "
            "value: must have at least one node selector term");
  // Each expression is validated as the API server does on create (validateVolumeNodeAffinity), not as the
  // scheduler's selector parser words it.
  Json no_values = Volume("v", "s", "z");
  no_values["spec"]["nodeAffinity"]["required"]["nodeSelectorTerms"][0]["matchExpressions"][0].erase("values");
  EXPECT_EQ(error(no_values),
            "items[0] (PersistentVolume v): spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0]."
            "values: Required value: must be specified when `operator` is 'In' or 'NotIn'");
  Json bad_value = Volume("v", "s", "z");
  bad_value["spec"]["nodeAffinity"]["required"]["nodeSelectorTerms"][0]["matchExpressions"][0]["values"] = {"a b"};
  EXPECT_EQ(error(bad_value).rfind("items[0] (PersistentVolume v): spec.nodeAffinity.required.nodeSelectorTerms[0]."
                                   "matchExpressions[0].values[0]: Invalid value: \"a b\": a valid label must be",
                                   0),
            0u)
      << error(bad_value);
  Json bad_op = Volume("v", "s", "z");
  bad_op["spec"]["nodeAffinity"]["required"]["nodeSelectorTerms"][0]["matchExpressions"][0]["operator"] = "Within";
  EXPECT_EQ(error(bad_op),
            "items[0] (PersistentVolume v): spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0]."
            "operator: Invalid value: \"Within\": not a valid selector operator");
}

// VolumeBinding's shape is only accepted with StorageCapacityScoring (1.37): ValidateVolumeBindingArgsWithOptions.
TEST(Volumes, VolumeBindingShapeNeedsStorageCapacityScoring) {
  auto run = [](const std::string& version) {
    Json items = Json::array(
        {{{"apiVersion", "kplace.dev/v1alpha1"},
          {"kind", "Simulation"},
          {"metadata", {{"name", "s"}}},
          {"spec", {{"kubernetesVersion", version}}}},
         {{"apiVersion", "kubescheduler.config.k8s.io/v1"},
          {"kind", "KubeSchedulerConfiguration"},
          {"profiles",
           {{{"schedulerName", "default-scheduler"},
             {"pluginConfig",
              {{{"name", "VolumeBinding"},
                {"args",
                 {{"shape", {{{"utilization", 0}, {"score", 0}}, {{"utilization", 100}, {"score", 10}}}}}}}}}}}}}});
    try {
      sim::Run(io::ParseScenarioJson(Json{{"kind", "List"}, {"items", items}}));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(run("1.37"), "no error");
  EXPECT_EQ(run("1.36"),
            "items[1] (KubeSchedulerConfiguration): profiles[0]: pluginConfig[0].args.shape: Invalid value: "
            "[]config.UtilizationShapePoint{config.UtilizationShapePoint{Utilization:0, Score:0}, "
            "config.UtilizationShapePoint{Utilization:100, Score:10}}: unexpected field `shape`, remove it or turn on "
            "the feature gate StorageCapacityScoring");
}

// CSIStorageCapacity items are read with the API server's checks.
TEST(Volumes, StorageCapacityItems) {
  const auto error = ParseError;
  Json cap = {{"apiVersion", "storage.k8s.io/v1"},
              {"kind", "CSIStorageCapacity"},
              {"metadata", {{"name", "c"}, {"namespace", "kube-system"}}},
              {"storageClassName", "gp3"},
              {"nodeTopology", {{"matchLabels", {{"topology.kubernetes.io/zone", "a"}}}}},
              {"capacity", "100Gi"}};
  EXPECT_EQ(error(cap), "no error");
  Json no_class = cap;
  no_class.erase("storageClassName");
  EXPECT_EQ(error(no_class), "items[0] (CSIStorageCapacity kube-system/c): storageClassName: Required value");
  Json bad = cap;
  bad["capacity"] = "-1Gi";
  EXPECT_EQ(error(bad), "items[0] (CSIStorageCapacity kube-system/c): capacity: must be greater than or equal to 0");
}

// Each explained attempt records the pod's claims as the cycle found them: bound (the PV and where it may attach),
// waiting for its first consumer, or missing.
TEST(Volumes, ExplanationsRecordTheClaims) {
  sim::RunOptions opts;
  opts.explain = {"default/db-2", "default/search"};
  const Scenario sc =
      io::ParseScenario(testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/presets/karpenter-volume-zone.json"));
  const sim::SimResult r = sim::Run(sc, opts);
  std::map<std::string, const sim::PodResult*> by;
  for (const auto& p : r.pods) by[p.key] = &p;
  ASSERT_FALSE(by.at("default/db-2")->explanations.empty());
  const auto& db = by.at("default/db-2")->explanations.front().claims;
  ASSERT_EQ(db.size(), 1u);
  EXPECT_EQ(db[0].claim, "data-db-2");
  EXPECT_EQ(db[0].status, "Bound");
  EXPECT_EQ(db[0].volume, "pv-db-2");
  EXPECT_EQ(db[0].storage_class, "gp3");
  EXPECT_EQ(db[0].binding_mode, "WaitForFirstConsumer");
  EXPECT_EQ(db[0].volume_node_affinity, "Term 0: topology.kubernetes.io/zone in [us-east-1c]");
  const auto& search = by.at("default/search")->explanations.front().claims;
  ASSERT_EQ(search.size(), 1u);
  EXPECT_EQ(search[0].status, "Pending");
  EXPECT_EQ(search[0].volume, "");
  EXPECT_EQ(search[0].storage_class, "io2-1b");
}

}  // namespace
}  // namespace kplace
