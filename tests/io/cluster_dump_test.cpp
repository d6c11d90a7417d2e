// Real clusters in: settled `kubectl get` dumps and the shapes kubectl and client-go print. The fixtures are built
// here in the shape a live API server returns (managedFields, status, owner chains, pod-template-hash labels, typed
// lists whose items carry no kind, several documents one after another), and each test states what kube-scheduler
// and the controllers would do with that cluster: a settled dump schedules nothing that does not exist, a pod of
// another scheduler is left alone, a missing replica is created once.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "core/io/cluster_import.h"
#include "core/io/json_reader.h"
#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"

namespace kplace {
namespace {

using io::Json;

Json ManagedFields(const std::string& manager) {
  return Json::array({{{"apiVersion", "v1"},
                       {"fieldsType", "FieldsV1"},
                       {"fieldsV1", {{"f:metadata", {{"f:labels", {{".", Json::object()}}}}}}},
                       {"manager", manager},
                       {"operation", "Update"},
                       {"time", "2026-11-01T10:00:00Z"}}});
}

Json Meta(const std::string& name, const std::string& ns, const Json& labels = Json::object()) {
  Json m = {{"name", name},
            {"uid", "uid-" + name},
            {"resourceVersion", "4711"},
            {"creationTimestamp", "2026-11-01T10:00:00Z"},
            {"managedFields", ManagedFields("kube-controller-manager")}};
  if (!ns.empty()) m["namespace"] = ns;
  if (!labels.empty()) m["labels"] = labels;
  return m;
}

Json OwnerRef(const std::string& api, const std::string& kind, const std::string& name) {
  return Json::array({{{"apiVersion", api},
                       {"kind", kind},
                       {"name", name},
                       {"uid", "uid-" + name},
                       {"controller", true},
                       {"blockOwnerDeletion", true}}});
}

Json NodeObj(const std::string& name, const std::string& zone = "z1") {
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", Meta(name, "", {{"kubernetes.io/hostname", name}, {"topology.kubernetes.io/zone", zone}})},
          {"spec", {{"podCIDR", "10.244.1.0/24"}}},
          {"status",
           {{"allocatable", {{"cpu", "4"}, {"memory", "16Gi"}, {"pods", "110"}}},
            {"capacity", {{"cpu", "4"}, {"memory", "16Gi"}, {"pods", "110"}}},
            {"conditions", Json::array({{{"type", "Ready"}, {"status", "True"}, {"reason", "KubeletReady"}}})},
            {"nodeInfo", {{"kubeletVersion", "v1.35.0"}}}}}};
}

Json Template(const Json& labels, const std::string& cpu = "500m") {
  return {{"metadata", {{"labels", labels}}},
          {"spec",
           {{"containers", Json::array({{{"name", "app"},
                                         {"image", "registry.k8s.io/pause:3.10"},
                                         {"resources", {{"requests", {{"cpu", cpu}, {"memory", "256Mi"}}}}},
                                         {"terminationMessagePath", "/dev/termination-log"}}})},
            {"restartPolicy", "Always"},
            {"schedulerName", "default-scheduler"},
            {"terminationGracePeriodSeconds", 30}}}};
}

// A pod as the API server returns it: owner, node, phase, conditions, container statuses.
Json PodObj(const std::string& name, const std::string& ns, const Json& labels, const Json& owner,
            const std::string& node, const std::string& phase = "Running") {
  Json pod = Template(labels);
  pod["apiVersion"] = "v1";
  pod["kind"] = "Pod";
  Json meta = Meta(name, ns, labels);
  if (!owner.is_null()) meta["ownerReferences"] = owner;
  pod["metadata"] = meta;
  if (!node.empty()) pod["spec"]["nodeName"] = node;
  pod["status"] = {{"phase", phase},
                   {"startTime", "2026-11-01T10:00:05Z"},
                   {"conditions", Json::array({{{"type", "PodScheduled"}, {"status", "True"}}})},
                   {"containerStatuses", Json::array({{{"name", "app"}, {"ready", true}, {"restartCount", 0}}})}};
  return pod;
}

Json Workload(const std::string& kind, const std::string& name, const std::string& ns, int replicas, const Json& labels,
              const Json& owner = nullptr) {
  Json w = {{"apiVersion", kind == "Job" ? "batch/v1" : "apps/v1"},
            {"kind", kind},
            {"metadata", Meta(name, ns, labels)},
            {"spec", {{"selector", {{"matchLabels", labels}}}, {"template", Template(labels)}}},
            {"status", {{"observedGeneration", 1}}}};
  if (kind != "DaemonSet" && kind != "Job") w["spec"]["replicas"] = replicas;
  if (!owner.is_null()) w["metadata"]["ownerReferences"] = owner;
  return w;
}

Json List(const Json& items) {
  return {{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}, {"metadata", {{"resourceVersion", ""}}}};
}

// kubectl get all -A -o json of a settled cluster: two nodes; Deployment web -> ReplicaSet web-7d4b9c -> 3 pods;
// DaemonSet kindnet with its pod on each node; a Service. Nothing is pending.
Json SettledItems() {
  Json web = {{"app", "web"}};
  Json web_pod = {{"app", "web"}, {"pod-template-hash", "7d4b9c"}};
  Json ds = {{"app", "kindnet"}};
  Json items = Json::array();
  items.push_back(NodeObj("node-a"));
  items.push_back(NodeObj("node-b"));
  items.push_back(Workload("Deployment", "web", "shop", 3, web));
  Json rs = Workload("ReplicaSet", "web-7d4b9c", "shop", 3, web_pod, OwnerRef("apps/v1", "Deployment", "web"));
  items.push_back(rs);
  for (const char* suffix : {"abcde", "fghij", "klmno"})
    items.push_back(PodObj(std::string("web-7d4b9c-") + suffix, "shop", web_pod,
                           OwnerRef("apps/v1", "ReplicaSet", "web-7d4b9c"), suffix[0] == 'a' ? "node-a" : "node-b"));
  items.push_back(Workload("DaemonSet", "kindnet", "kube-system", 0, ds));
  items.push_back(PodObj("kindnet-x1", "kube-system", ds, OwnerRef("apps/v1", "DaemonSet", "kindnet"), "node-a"));
  items.push_back(PodObj("kindnet-x2", "kube-system", ds, OwnerRef("apps/v1", "DaemonSet", "kindnet"), "node-b"));
  items.push_back({{"apiVersion", "v1"},
                   {"kind", "Service"},
                   {"metadata", Meta("web", "shop")},
                   {"spec", {{"selector", web}, {"clusterIP", "10.96.0.10"}}}});
  return items;
}

// Pods kube-scheduler tried (pending in the input or created by a controller): bound-at-start pods are not.
std::vector<const sim::PodResult*> Scheduled(const sim::SimResult& r) {
  std::vector<const sim::PodResult*> out;
  for (const auto& p : r.pods)
    if (!p.bound_at_start && !p.attempts.empty()) out.push_back(&p);
  return out;
}

const sim::PodResult* Find(const sim::SimResult& r, const std::string& key) {
  for (const auto& p : r.pods)
    if (p.key == key) return &p;
  return nullptr;
}

TEST(ClusterDump, SettledDumpSchedulesNothing) {
  Scenario sc = io::ParseScenarioJson(List(SettledItems()));
  // 5 pods from the input; no Deployment or ReplicaSet pod is created again.
  EXPECT_EQ(sc.pods.size(), 5u);
  EXPECT_EQ(sc.import.controller_pods_kept, 5u);
  EXPECT_EQ(sc.import.workloads_represented, 1u);
  sim::SimResult r = sim::Run(std::move(sc));
  EXPECT_TRUE(Scheduled(r).empty());
  EXPECT_EQ(r.pods.size(), 5u);  // no DaemonSet pod per node either
  Json j = io::ResultToJson(r);
  EXPECT_TRUE(j["pods"].empty()) << j["pods"].dump();
  EXPECT_EQ(j["import"]["podsBound"], 5);
  EXPECT_EQ(j["import"]["podsPending"], 0);
  EXPECT_EQ(j["import"]["controllerPodsKept"], 5);
}

TEST(ClusterDump, AMissingReplicaIsCreatedOnce) {
  Json items = SettledItems();
  // One of the ReplicaSet's pods is being deleted (it no longer counts as a replica, but still holds node-b) and
  // one has failed (it holds nothing): the ReplicaSet controller creates two replacements.
  for (auto& it : items) {
    if (it["metadata"]["name"] == "web-7d4b9c-fghij") it["metadata"]["deletionTimestamp"] = "2026-11-01T11:00:00Z";
    if (it["metadata"]["name"] == "web-7d4b9c-klmno") it["status"]["phase"] = "Failed";
  }
  Scenario sc = io::ParseScenarioJson(List(items));
  EXPECT_EQ(sc.import.finished_pods, 1u);
  EXPECT_EQ(sc.import.terminating_pods, 1u);
  sim::SimResult r = sim::Run(std::move(sc));
  auto tried = Scheduled(r);
  ASSERT_EQ(tried.size(), 2u);
  EXPECT_EQ(tried[0]->key, "shop/web-7d4b9c-0");
  EXPECT_EQ(tried[1]->key, "shop/web-7d4b9c-1");
  EXPECT_EQ(tried[0]->generated_from, "ReplicaSet/web-7d4b9c");
}

TEST(ClusterDump, DeploymentWithoutItsReplicaSetCountsPodsByTemplateHash) {
  Json items = Json::array();
  for (const auto& it : SettledItems())
    if (it["kind"] != "ReplicaSet") items.push_back(it);
  // The Deployment asks for 4: its 3 pods (owned by ReplicaSet web-7d4b9c, hash 7d4b9c) count, one is created.
  for (auto& it : items)
    if (it["kind"] == "Deployment") it["spec"]["replicas"] = 4;
  sim::SimResult r = sim::Run(io::ParseScenarioJson(List(items)));
  auto tried = Scheduled(r);
  ASSERT_EQ(tried.size(), 1u);
  EXPECT_EQ(tried[0]->key, "shop/web-0");
  EXPECT_EQ(tried[0]->generated_from, "Deployment/web");
}

TEST(ClusterDump, StatefulSetCreatesItsMissingOrdinalsOnly) {
  Json labels = {{"app", "db"}};
  Json sts = Workload("StatefulSet", "db", "data", 3, labels);
  sts["spec"]["volumeClaimTemplates"] = Json::array(
      {{{"metadata", {{"name", "data"}}},
        {"spec", {{"accessModes", {"ReadWriteOnce"}}, {"resources", {{"requests", {{"storage", "1Gi"}}}}}}}}});
  Json items = Json::array({NodeObj("node-a"), sts,
                            PodObj("db-0", "data", labels, OwnerRef("apps/v1", "StatefulSet", "db"), "node-a"),
                            PodObj("db-2", "data", labels, OwnerRef("apps/v1", "StatefulSet", "db"), "", "Pending")});
  // Its claims come from the templates; a default StorageClass that provisions on first use lets db-1 bind.
  items.push_back(
      {{"apiVersion", "storage.k8s.io/v1"},
       {"kind", "StorageClass"},
       {"metadata", {{"name", "gp3"}, {"annotations", {{"storageclass.kubernetes.io/is-default-class", "true"}}}}},
       {"provisioner", "ebs.csi.aws.com"},
       {"volumeBindingMode", "WaitForFirstConsumer"}});
  Scenario sc = io::ParseScenarioJson(List(items));
  ASSERT_EQ(sc.persistent_volume_claims.size(), 3u);  // data-db-0, -1, -2: the controller creates every missing claim
  for (const auto& c : sc.persistent_volume_claims) EXPECT_EQ(c.ClassName(), "gp3") << c.Key();
  EXPECT_EQ(sc.persistent_volume_claims[1].Key(), "data/data-db-2");
  sim::SimResult r = sim::Run(std::move(sc));
  EXPECT_EQ(r.import.volume_claims, 1u);
  EXPECT_NE(io::ImportSummaryText(r.import).find("1 object uses PersistentVolumeClaims"), std::string::npos);
  auto tried = Scheduled(r);
  ASSERT_EQ(tried.size(), 2u);  // db-1 is created; db-2 is the input's pending replica
  EXPECT_EQ(tried[0]->key, "data/db-1");
  EXPECT_EQ(tried[0]->generated_from, "StatefulSet/db");
  EXPECT_EQ(tried[1]->key, "data/db-2");
  EXPECT_TRUE(tried[1]->generated_from.empty());
}

TEST(ClusterDump, JobCreatesWhatParallelismAndCompletionsLeave) {
  auto job = [](int parallelism, int completions, int succeeded) {
    Json j = Workload("Job", "etl", "batch", 0, {{"app", "etl"}});
    j["spec"].erase("selector");  // the API server generates it
    j["spec"]["parallelism"] = parallelism;
    j["spec"]["completions"] = completions;
    j["spec"]["template"]["spec"]["restartPolicy"] = "Never";
    j["status"]["succeeded"] = succeeded;
    return j;
  };
  Json running = PodObj("etl-q7x2p", "batch", {{"app", "etl"}}, OwnerRef("batch/v1", "Job", "etl"), "node-a");
  Json done = PodObj("etl-a1b2c", "batch", {{"app", "etl"}}, OwnerRef("batch/v1", "Job", "etl"), "node-a", "Succeeded");
  // 5 completions, 3 succeeded: at most 2 more may run; one runs, so one is created.
  sim::SimResult r = sim::Run(io::ParseScenarioJson(List({NodeObj("node-a"), job(3, 5, 3), running, done})));
  auto tried = Scheduled(r);
  ASSERT_EQ(tried.size(), 1u);
  EXPECT_EQ(tried[0]->key, "batch/etl-0");
  EXPECT_EQ(tried[0]->generated_from, "Job/etl");
  // 4 succeeded: the one running pod finishes the job; nothing is created.
  r = sim::Run(io::ParseScenarioJson(List({NodeObj("node-a"), job(3, 5, 4), running})));
  EXPECT_TRUE(Scheduled(r).empty());
  // A new Job with no pods: parallelism 3.
  r = sim::Run(io::ParseScenarioJson(List({NodeObj("node-a"), job(3, 5, 0)})));
  EXPECT_EQ(Scheduled(r).size(), 3u);
  // Its pods carry the labels the API server puts on a Job's template.
  Scenario sc = io::ParseScenarioJson(List({NodeObj("node-a"), job(1, 1, 0)}));
  ASSERT_EQ(sc.pods.size(), 1u);
  EXPECT_EQ(sc.pods[0].meta.LabelText().at("batch.kubernetes.io/job-name"), "etl");
  EXPECT_EQ(sc.pods[0].meta.LabelText().at("batch.kubernetes.io/controller-uid"), "uid-etl");
}

TEST(ClusterDump, DaemonSetPodsThatExistAreNotCreatedAgain) {
  Json ds = {{"app", "agent"}};
  Json items = Json::array({NodeObj("node-a"), NodeObj("node-b"), NodeObj("node-c"), NodeObj("node-d"),
                            Workload("DaemonSet", "agent", "ops", 0, ds)});
  // node-a: running. node-b: pending, pinned by the controller's matchFields affinity. node-c: terminating (still
  // counts). node-d: failed (replaced).
  items.push_back(PodObj("agent-1", "ops", ds, OwnerRef("apps/v1", "DaemonSet", "agent"), "node-a"));
  Json pinned = PodObj("agent-2", "ops", ds, OwnerRef("apps/v1", "DaemonSet", "agent"), "", "Pending");
  pinned["spec"]["affinity"] = {
      {"nodeAffinity",
       {{"requiredDuringSchedulingIgnoredDuringExecution",
         {{"nodeSelectorTerms", Json::array({{{"matchFields", Json::array({{{"key", "metadata.name"},
                                                                            {"operator", "In"},
                                                                            {"values", {"node-b"}}}})}}})}}}}}};
  items.push_back(pinned);
  Json terminating = PodObj("agent-3", "ops", ds, OwnerRef("apps/v1", "DaemonSet", "agent"), "node-c");
  terminating["metadata"]["deletionTimestamp"] = "2026-11-01T11:00:00Z";
  items.push_back(terminating);
  items.push_back(PodObj("agent-4", "ops", ds, OwnerRef("apps/v1", "DaemonSet", "agent"), "node-d", "Failed"));
  sim::SimResult r = sim::Run(io::ParseScenarioJson(List(items)));
  auto tried = Scheduled(r);
  ASSERT_EQ(tried.size(), 2u);
  EXPECT_EQ(tried[0]->key, "ops/agent-2");
  EXPECT_EQ(tried[0]->node, "node-b");
  EXPECT_EQ(tried[1]->key, "ops/agent-node-d");
  EXPECT_EQ(tried[1]->node, "node-d");
}

TEST(ClusterDump, PodsOfAnotherSchedulerAreLeftAlone) {
  Json pending = PodObj("batch-1", "default", {{"app", "b"}}, nullptr, "", "Pending");
  pending["spec"]["schedulerName"] = "volcano";
  Json ours = PodObj("web-1", "default", {{"app", "w"}}, nullptr, "", "Pending");
  sim::SimResult r = sim::Run(io::ParseScenarioJson(List({NodeObj("node-a"), pending, ours})));
  const sim::PodResult* b = Find(r, "default/batch-1");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->other_scheduler, "volcano");
  EXPECT_TRUE(b->node.empty());
  EXPECT_TRUE(b->attempts.empty());
  EXPECT_EQ(Find(r, "default/web-1")->node, "node-a");
  Json j = io::ResultToJson(r);
  EXPECT_EQ(j["pods"]["default/batch-1"], Json({{"otherScheduler", "volcano"}}));
  EXPECT_EQ(j["import"]["otherScheduler"], 1);
  EXPECT_NE(io::ImportSummaryText(r.import).find("(1 left to another scheduler)"), std::string::npos);
  // A profile named after it takes it: the pod is scheduled by that profile.
  Json cfg = {{"apiVersion", "kubescheduler.config.k8s.io/v1"},
              {"kind", "KubeSchedulerConfiguration"},
              {"profiles", Json::array({{{"schedulerName", "volcano"}}})}};
  r = sim::Run(io::ParseScenarioJson(List({cfg, NodeObj("node-a"), pending, ours})));
  EXPECT_EQ(Find(r, "default/batch-1")->node, "node-a");
  EXPECT_EQ(Find(r, "default/web-1")->other_scheduler, "default-scheduler");
}

// `kubectl cluster-info dump` and `kubectl get --raw` print typed lists (NodeList, PodList) whose items carry no
// kind or apiVersion, one list after another.
TEST(ClusterDump, TypedListsWithoutKindsOneAfterAnother) {
  Json nodes = {{"kind", "NodeList"}, {"apiVersion", "v1"}, {"metadata", {{"resourceVersion", "1"}}}};
  Json pods = {{"kind", "PodList"}, {"apiVersion", "v1"}, {"metadata", {{"resourceVersion", "1"}}}};
  nodes["items"] = Json::array();
  pods["items"] = Json::array();
  for (Json it : SettledItems()) {
    std::string kind = it["kind"];
    it.erase("kind");
    it.erase("apiVersion");
    if (kind == "Node") nodes["items"].push_back(it);
    if (kind == "Pod") pods["items"].push_back(it);
  }
  Json pending = PodObj("new-1", "default", {{"app", "n"}}, nullptr, "", "Pending");
  pending.erase("kind");
  pods["items"].push_back(pending);
  std::string text = nodes.dump(4) + "\n" + pods.dump(4) + "\n";
  Scenario sc = io::ParseScenario(text);
  EXPECT_EQ(sc.nodes.size(), 2u);
  EXPECT_EQ(sc.pods.size(), 6u);
  EXPECT_EQ(sc.import.documents, 2u);
  EXPECT_EQ(sc.import.shape, "2 documents");
  sim::SimResult r = sim::Run(std::move(sc));
  auto tried = Scheduled(r);
  ASSERT_EQ(tried.size(), 1u);
  EXPECT_EQ(tried[0]->key, "default/new-1");
  // An error names the document and the item, with the kind the list implies.
  pods["items"][0]["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "lots";
  try {
    io::ParseScenario(nodes.dump() + "\n" + pods.dump());
    FAIL() << "no error";
  } catch (const io::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "document 2, items[0] (Pod shop/web-7d4b9c-abcde): spec.containers[0].resources.requests.cpu: "
              "\"lots\" is not a quantity");
  }
}

TEST(ClusterDump, SingleObjectsAndArrays) {
  // kubectl get pod x -o json: one object; with no node it stays pending.
  Json pod = PodObj("solo", "default", {{"app", "s"}}, nullptr, "", "Pending");
  sim::SimResult r = sim::Run(io::ParseScenario(pod.dump()));
  ASSERT_NE(Find(r, "default/solo"), nullptr);
  EXPECT_EQ(Find(r, "default/solo")->unschedulable, "no nodes available to schedule pods");
  EXPECT_EQ(r.import.shape, "a single object");
  // A JSON array of objects and lists.
  Json arr = Json::array({NodeObj("node-a"), List(Json::array({pod}))});
  r = sim::Run(io::ParseScenario(arr.dump()));
  EXPECT_EQ(Find(r, "default/solo")->node, "node-a");
  EXPECT_EQ(r.import.shape, "a JSON array");
}

TEST(ClusterDump, GenerateNameGivesDeterministicUniqueNames) {
  Json a = PodObj("", "default", {{"app", "g"}}, nullptr, "", "Pending");
  a["metadata"].erase("name");
  a["metadata"]["generateName"] = "worker-";
  Json items = Json::array({NodeObj("node-a"), a, a, a});
  Scenario sc = io::ParseScenarioJson(List(items));
  ASSERT_EQ(sc.pods.size(), 3u);
  std::set<std::string> names;
  for (const auto& p : sc.pods) {
    EXPECT_EQ(p.meta.name.rfind("worker-", 0), 0u);
    EXPECT_EQ(p.meta.name.size(), 12u);
    EXPECT_EQ(p.meta.name.find_first_not_of("bcdfghjklmnpqrstvwxz2456789", 7), std::string::npos) << p.meta.name;
    names.insert(p.meta.name);
  }
  EXPECT_EQ(names.size(), 3u);
  EXPECT_EQ(sc.import.generated_names, 3u);
  // Same input, same names.
  Scenario again = io::ParseScenarioJson(List(items));
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(again.pods[i].meta.name, sc.pods[i].meta.name);
  // A name of 58 characters or more is cut to 58 before the suffix.
  a["metadata"]["generateName"] = std::string(70, 'x');
  sc = io::ParseScenarioJson(List(Json::array({a})));
  EXPECT_EQ(sc.pods[0].meta.name.size(), 63u);
}

TEST(ClusterDump, KindsNotSimulatedAreCountedOnce) {
  Json items = SettledItems();
  for (int i = 0; i < 3; ++i)
    items.push_back({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", Meta("cm" + std::to_string(i), "x")}});
  items.push_back({{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", Meta("s", "x")}});
  Scenario sc = io::ParseScenarioJson(List(items));
  ASSERT_EQ(sc.warnings.size(), 2u);
  EXPECT_EQ(sc.warnings[0], "items[11]: kind \"ConfigMap\" is not simulated; ignored (and 2 more ConfigMap items)");
  EXPECT_EQ(sc.warnings[1], "items[14]: kind \"Secret\" is not simulated; ignored");
  sim::SimResult r = sim::Run(std::move(sc));
  EXPECT_EQ(io::ImportSummaryText(r.import),
            "Imported a List: 2 nodes, 5 pods bound, 0 pending; 5 pods of listed controllers not created again; 1 "
            "Deployment represented by its ReplicaSets; not simulated: ConfigMap 3, Secret 1.\n");
}

TEST(ClusterDump, HandWrittenListsSayNothing) {
  Json items = Json::array({NodeObj("node-a"), Workload("Deployment", "web", "default", 2, {{"app", "web"}})});
  sim::SimResult r = sim::Run(io::ParseScenarioJson(List(items)));
  EXPECT_EQ(Scheduled(r).size(), 2u);
  EXPECT_FALSE(r.import.Noteworthy());
  EXPECT_FALSE(io::ResultToJson(r).contains("import"));
  EXPECT_EQ(io::ImportSummaryText(r.import), "");
}

// kplace convert kubectl: the scenario kplace reads from a dump runs exactly as the dump does.
TEST(ClusterDump, ConvertedDumpRunsAsTheDump) {
  Json items = SettledItems();
  items.push_back(PodObj("new-1", "shop", {{"app", "n"}}, nullptr, "", "Pending"));
  items.push_back(PodObj("done-1", "shop", {{"app", "d"}}, nullptr, "node-a", "Succeeded"));
  items.push_back({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", Meta("cm", "shop")}});
  items[2]["metadata"]["annotations"] = {{"kubectl.kubernetes.io/last-applied-configuration", "{\"big\": 1}"},
                                         {"deployment.kubernetes.io/revision", "1"}};
  Json pods = {{"kind", "PodList"}, {"apiVersion", "v1"}, {"items", Json::array()}};
  Json rest = List(Json::array());
  for (Json it : items) {
    if (it["kind"] == "Pod") {
      it.erase("kind");
      pods["items"].push_back(it);
    } else {
      rest["items"].push_back(it);
    }
  }
  const std::string dump = rest.dump(2) + pods.dump(2);
  ImportSummary summary;
  const std::string converted = io::ConvertClusterDump(dump, &summary);
  EXPECT_EQ(summary.finished_pods, 1u);
  // A List with one item per line: the Simulation added first; no managedFields, last-applied annotation, container
  // statuses, finished pods or kinds kplace does not simulate.
  EXPECT_EQ(
      converted.rfind("{ \"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n  {\"apiVersion\":\"kplace.dev/"
                      "v1alpha1\",\"kind\":\"Simulation\",\"metadata\":{\"name\":\"imported\"},\"spec\":{\"mode\":"
                      "\"cluster\"}},\n",
                      0),
      0u)
      << converted.substr(0, 300);
  for (const char* gone : {"managedFields", "last-applied-configuration", "containerStatuses", "done-1", "ConfigMap"})
    EXPECT_EQ(converted.find(gone), std::string::npos) << gone;
  EXPECT_NE(converted.find("deployment.kubernetes.io/revision"), std::string::npos);
  Json list = Json::parse(converted);
  // Simulation, 2 nodes, Deployment + ReplicaSet + DaemonSet, Service, 6 pods.
  EXPECT_EQ(list["items"].size(), 1u + 2 + 3 + 1 + 6);
  for (const auto& it : list["items"]) EXPECT_TRUE(it.contains("kind"));
  // Same placements and events.
  Json a = io::ResultToJson(sim::Run(io::ParseScenario(dump)));
  Json b = io::ResultToJson(sim::Run(io::ParseScenario(converted)));
  EXPECT_EQ(a["pods"], b["pods"]);
  EXPECT_EQ(a["events"], b["events"]);
  EXPECT_EQ(a["pods"]["shop/new-1"]["node"].is_string(), true);
  // Converting the converted scenario changes nothing.
  EXPECT_EQ(io::ConvertClusterDump(converted), converted);
}

Json NodePoolObj() {
  return {{"apiVersion", "karpenter.sh/v1"},
          {"kind", "NodePool"},
          {"metadata", Meta("default", "")},
          {"spec",
           {{"template",
             {{"spec",
               {{"requirements",
                 Json::array({{{"key", "karpenter.sh/capacity-type"}, {"operator", "In"}, {"values", {"on-demand"}}}})},
                {"nodeClassRef", {{"group", "karpenter.k8s.aws"}, {"kind", "EC2NodeClass"}, {"name", "default"}}}}}}},
            {"limits", {{"cpu", "10"}}}}}};
}

Json InstanceTypeObj(const std::string& name, const std::string& cpu, double price) {
  return {{"apiVersion", "kplace.dev/v1alpha1"},
          {"kind", "InstanceType"},
          {"metadata", {{"name", name}, {"labels", {{"node.kubernetes.io/instance-type", name}}}}},
          {"spec",
           {{"capacity", {{"cpu", cpu}, {"memory", "16Gi"}, {"pods", "110"}}},
            {"offerings", Json::array({{{"zone", "z1"}, {"capacityType", "on-demand"}, {"price", price}}})}}}};
}

// A NodeClaim as `kubectl get nodeclaims -o json` prints it while its instance boots: Launched, not Registered.
Json NodeClaimObj(const std::string& name, bool registered) {
  Json labels = {{"karpenter.sh/nodepool", "default"},
                 {"karpenter.sh/capacity-type", "on-demand"},
                 {"node.kubernetes.io/instance-type", "m.xlarge"},
                 {"topology.kubernetes.io/zone", "z1"}};
  Json nc = {{"apiVersion", "karpenter.sh/v1"},
             {"kind", "NodeClaim"},
             {"metadata", Meta(name, "", labels)},
             {"spec",
              {{"requirements",
                Json::array({{{"key", "karpenter.sh/nodepool"}, {"operator", "In"}, {"values", {"default"}}}})},
               {"nodeClassRef", {{"group", "karpenter.k8s.aws"}, {"kind", "EC2NodeClass"}, {"name", "default"}}}}},
             {"status",
              {{"providerID", "aws:///z1/i-0abc"},
               {"capacity", {{"cpu", "4"}, {"memory", "16Gi"}, {"pods", "110"}}},
               {"allocatable", {{"cpu", "3920m"}, {"memory", "15Gi"}, {"pods", "110"}}},
               {"conditions", Json::array({{{"type", "Launched"}, {"status", "True"}},
                                           {{"type", "Registered"}, {"status", registered ? "True" : "Unknown"}}})}}}};
  if (registered) nc["status"]["nodeName"] = "ip-10-0-1-1";
  return nc;
}

// Karpenter nominates a pending pod to a NodeClaim still booting and launches nothing (its cluster state holds the
// NodeClaim as a node that has not initialized); the NodeClaim's capacity counts against the NodePool's limits.
TEST(ClusterDump, InFlightNodeClaimTakesThePendingPod) {
  Json pending = PodObj("api-1", "default", {{"app", "api"}}, nullptr, "", "Pending");
  pending["status"]["conditions"] =
      Json::array({{{"type", "PodScheduled"}, {"status", "False"}, {"reason", "Unschedulable"}}});
  Json sim = {{"apiVersion", "kplace.dev/v1alpha1"},
              {"kind", "Simulation"},
              {"metadata", {{"name", "s"}}},
              {"spec", {{"mode", "karpenter"}}}};
  Json items = Json::array({sim, NodePoolObj(), InstanceTypeObj("m.xlarge", "4", 0.2),
                            InstanceTypeObj("m.2xlarge", "8", 0.4), NodeClaimObj("default-x7k2p", false), pending});
  Scenario sc = io::ParseScenarioJson(List(items));
  ASSERT_EQ(sc.node_claims.size(), 1u);
  ASSERT_EQ(sc.in_flight_node_claims.size(), 1u);
  EXPECT_TRUE(sc.nodes.empty());
  Json j = io::ResultToJson(sim::Run(std::move(sc)));
  EXPECT_EQ(j["pods"]["default/api-1"]["node"], "default-x7k2p") << j["pods"].dump();
  EXPECT_TRUE(j["nodeClaims"].empty()) << j["nodeClaims"].dump();
  // Without the NodeClaim, Karpenter launches one.
  items.erase(4);
  j = io::ResultToJson(sim::Run(io::ParseScenarioJson(List(items))));
  EXPECT_EQ(j["nodeClaims"].size(), 1u);
  // The in-flight NodeClaim's 4 CPUs count against the limit of 10: a pod needing 7 CPUs gets an 8-CPU type
  // without it, and none with it.
  pending["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "7";
  items = Json::array(
      {sim, NodePoolObj(), InstanceTypeObj("m.2xlarge", "8", 0.4), InstanceTypeObj("m.4xlarge", "16", 0.8), pending});
  j = io::ResultToJson(sim::Run(io::ParseScenarioJson(List(items))));
  EXPECT_EQ(j["nodeClaims"].size(), 1u);
  items.push_back(NodeClaimObj("default-x7k2p", false));
  j = io::ResultToJson(sim::Run(io::ParseScenarioJson(List(items))));
  EXPECT_TRUE(j["nodeClaims"].empty());
  EXPECT_NE(j["pods"]["default/api-1"]["unschedulable"].get<std::string>().find("exceed limits for nodepool"),
            std::string::npos)
      << j["pods"].dump();
  // A registered NodeClaim is its Node: not in flight.
  sc = io::ParseScenarioJson(List(Json::array({NodeClaimObj("default-abcde", true)})));
  EXPECT_TRUE(sc.in_flight_node_claims.empty());
}

// Old Karpenter APIs: a v1alpha5 Provisioner is read as the NodePool it became (with a warning saying how the fields
// moved) and gives the same answer; a v1beta1 NodePool is read as v1 with a warning; a v1alpha5 Machine is not
// simulated.
TEST(ClusterDump, OldKarpenterApis) {
  Json pending = PodObj("api-1", "default", {{"app", "api"}}, nullptr, "", "Pending");
  pending["status"]["conditions"] =
      Json::array({{{"type", "PodScheduled"}, {"status", "False"}, {"reason", "Unschedulable"}}});
  Json sim = {{"apiVersion", "kplace.dev/v1alpha1"},
              {"kind", "Simulation"},
              {"metadata", {{"name", "s"}}},
              {"spec", {{"mode", "karpenter"}}}};
  Json reqs = Json::array({{{"key", "karpenter.sh/capacity-type"}, {"operator", "In"}, {"values", {"on-demand"}}}});
  Json provisioner = {{"apiVersion", "karpenter.sh/v1alpha5"},
                      {"kind", "Provisioner"},
                      {"metadata", Meta("default", "")},
                      {"spec",
                       {{"requirements", reqs},
                        {"labels", {{"team", "a"}}},
                        {"limits", {{"resources", {{"cpu", "10"}}}}},
                        {"weight", 10},
                        {"providerRef", {{"name", "default"}}},
                        {"ttlSecondsAfterEmpty", 30}}}};
  Json nodepool = {{"apiVersion", "karpenter.sh/v1"},
                   {"kind", "NodePool"},
                   {"metadata", Meta("default", "")},
                   {"spec",
                    {{"template", {{"metadata", {{"labels", {{"team", "a"}}}}}, {"spec", {{"requirements", reqs}}}}},
                     {"limits", {{"cpu", "10"}}},
                     {"weight", 10}}}};
  auto run = [&](const Json& pool) {
    Scenario sc = io::ParseScenarioJson(List(Json::array(
        {sim, pool, InstanceTypeObj("m.xlarge", "4", 0.2), InstanceTypeObj("m.2xlarge", "8", 0.4), pending})));
    std::vector<std::string> warnings = sc.warnings;
    Json j = io::ResultToJson(sim::Run(std::move(sc)));
    j.erase("warnings");
    return std::pair{j, warnings};
  };
  auto [old_result, old_warnings] = run(provisioner);
  auto [new_result, new_warnings] = run(nodepool);
  EXPECT_EQ(old_result, new_result);
  EXPECT_EQ(old_result["nodeClaims"][0]["labels"]["team"], "a");
  EXPECT_TRUE(new_warnings.empty());
  ASSERT_EQ(old_warnings.size(), 1u);
  EXPECT_EQ(old_warnings[0].rfind("items[1]: karpenter.sh/v1alpha5 Provisioner default read as the karpenter.sh/v1 "
                                  "NodePool it became (spec.requirements, spec.labels,",
                                  0),
            0u)
      << old_warnings[0];
  nodepool["apiVersion"] = "karpenter.sh/v1beta1";
  auto [beta_result, beta_warnings] = run(nodepool);
  EXPECT_EQ(beta_result, new_result);
  ASSERT_EQ(beta_warnings.size(), 1u);
  EXPECT_NE(beta_warnings[0].find("karpenter.sh/v1beta1 NodePool default read as karpenter.sh/v1"), std::string::npos);
  // convert kubectl writes the Provisioner as its NodePool.
  const std::string converted = io::ConvertClusterDump(List(Json::array({provisioner})).dump());
  EXPECT_NE(converted.find(R"("kind":"NodePool")"), std::string::npos) << converted;
  EXPECT_EQ(converted.find("Provisioner"), std::string::npos);
  Scenario m = io::ParseScenarioJson(
      List(Json::array({{{"apiVersion", "karpenter.sh/v1alpha5"}, {"kind", "Machine"}, {"metadata", Meta("m", "")}}})));
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_EQ(m.warnings[0],
            "items[0]: karpenter.sh/v1alpha5 Machine m is not simulated: Karpenter v0.33 replaced Machines with "
            "NodeClaims");
}

// Errors inside a Provisioner name the Provisioner's own paths (spec.requirements[0], not the NodePool's
// spec.template.spec.requirements[0]): each bad field gives the error its NodePool twin gives, at the moved path.
TEST(ClusterDump, ProvisionerErrorsNameItsPaths) {
  struct Case {
    const char* provisioner_field;  // under the Provisioner's spec
    const char* nodepool_pointer;   // the same field in the NodePool (a JSON pointer under spec)
    Json value;
    const char* error;  // the Provisioner's error
  };
  const Json bad_req = Json::array({{{"key", "k"}, {"operator", "Near"}, {"values", {"a"}}}});
  const Json min_values = Json::array({{{"key", "k"}, {"operator", "In"}, {"values", {"a"}}},
                                       {{"key", "j"}, {"operator", "In"}, {"values", {"a"}}, {"minValues", 2}}});
  const Json gte = Json::array({{{"key", "k"}, {"operator", "Gte"}, {"values", {"x"}}}});
  const Case cases[] = {
      {"requirements", "/template/spec/requirements", bad_req,
       "items[0] (Provisioner default): spec.requirements[0]: operator: Unsupported value: \"Near\": supported values: "
       "\"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\""},
      {"requirements", "/template/spec/requirements", min_values,
       "items[0] (Provisioner default): spec.requirements[1].minValues: must be less than or equal to the number of "
       "values"},
      {"requirements", "/template/spec/requirements", gte,
       "items[0] (Provisioner default): spec.requirements[0].values: operator Gte needs a single non-negative integer "
       "value"},
      {"requirements", "/template/spec/requirements", "k=v",
       "items[0] (Provisioner default): spec.requirements: expected array, got string"},
      {"labels",
       "/template/metadata/labels",
       {{"team", 3}},
       "items[0] (Provisioner default): spec.labels.team: expected string, got integer"},
      {"taints", "/template/spec/taints", Json::array({{{"key", "k"}, {"effect", "Sometimes"}}}),
       "items[0] (Provisioner default): spec.taints[0].effect: unsupported taint effect \"Sometimes\" (NoSchedule, "
       "PreferNoSchedule or NoExecute)"},
      {"startupTaints", "/template/spec/startupTaints", Json::array({{{"effect", "NoSchedule"}}}),
       "items[0] (Provisioner default): spec.startupTaints[0].key: required"},
      {"limits",
       "/limits",
       {{"resources", {{"cpu", "abc"}}}},
       "items[0] (Provisioner default): spec.limits.resources.cpu: \"abc\" is not a quantity"},
      {"limits",
       "/limits",
       {{"resources", 5}},
       "items[0] (Provisioner default): spec.limits.resources: expected object, got integer"},
      {"weight", "/weight", 0, "items[0] (Provisioner default): spec.weight: must be between 1 and 100, got 0"},
  };
  auto error_of = [](const Json& item) -> std::string {
    try {
      io::ParseScenarioJson(List(Json::array({item})));
    } catch (const io::InputError& e) {
      return e.what();
    }
    return "<no error>";
  };
  for (const Case& c : cases) {
    Json provisioner = {{"apiVersion", "karpenter.sh/v1alpha5"},
                        {"kind", "Provisioner"},
                        {"metadata", Meta("default", "")},
                        {"spec", {{c.provisioner_field, c.value}}}};
    EXPECT_EQ(error_of(provisioner), c.error) << c.provisioner_field << " " << c.value.dump();
    // The NodePool twin: the same value where the field moved (limits.resources -> limits) gives the same error
    // at the NodePool's path.
    Json nodepool = {{"apiVersion", "karpenter.sh/v1"},
                     {"kind", "NodePool"},
                     {"metadata", Meta("default", "")},
                     {"spec", {{"template", {{"spec", Json::object()}}}}}};
    const bool limits = std::string(c.provisioner_field) == "limits";
    const Json moved = limits && c.value.is_object() ? c.value["resources"] : c.value;
    nodepool["spec"][Json::json_pointer(c.nodepool_pointer)] = moved;
    std::string want = std::string(c.error);
    const std::string from = std::string("spec.") + c.provisioner_field + (limits ? ".resources" : "");
    std::string to = "spec" + std::string(c.nodepool_pointer);
    for (char& ch : to)
      if (ch == '/') ch = '.';
    want.replace(want.find(from), from.size(), to);
    want.replace(want.find("Provisioner"), 11, "NodePool");
    EXPECT_EQ(error_of(nodepool), want) << c.provisioner_field;
  }
  // Read in place, a valid Provisioner is the NodePool `convert kubectl` writes for it.
  Json full = {{"apiVersion", "karpenter.sh/v1alpha5"},
               {"kind", "Provisioner"},
               {"metadata", Meta("default", "")},
               {"spec",
                {{"requirements", min_values},
                 {"labels", {{"team", "a"}}},
                 {"taints", Json::array({{{"key", "k"}, {"value", "v"}, {"effect", "NoSchedule"}}})},
                 {"startupTaints", Json::array({{{"key", "s"}, {"effect", "NoExecute"}}})},
                 {"limits", {{"resources", {{"cpu", "10"}, {"nodes", "3"}}}}},
                 {"weight", 7}}}};
  full["spec"]["requirements"][1]["minValues"] = 1;
  const NodePool direct = io::ParseScenarioJson(List(Json::array({full}))).node_pools.at(0);
  const NodePool converted =
      io::ParseScenario(io::ConvertClusterDump(List(Json::array({full})).dump())).node_pools.at(0);
  EXPECT_EQ(direct.weight, converted.weight);
  EXPECT_EQ(direct.template_labels.entries(), converted.template_labels.entries());
  auto same_taints = [](const std::vector<Taint>& a, const std::vector<Taint>& b) {
    return a.size() == 1 && b.size() == 1 && a[0].key == b[0].key && a[0].value == b[0].value &&
           a[0].effect == b[0].effect;
  };
  EXPECT_TRUE(same_taints(direct.taints, converted.taints));
  EXPECT_TRUE(same_taints(direct.startup_taints, converted.startup_taints));
  ASSERT_TRUE(direct.limits && converted.limits);
  EXPECT_EQ(direct.limits->milli_cpu, 10000);
  EXPECT_EQ(direct.limits->milli_cpu, converted.limits->milli_cpu);
  EXPECT_EQ(direct.limit_keys, converted.limit_keys);
  ASSERT_EQ(direct.requirements.size(), 2u);
  ASSERT_EQ(converted.requirements.size(), 2u);
  EXPECT_EQ(direct.requirements[1].key_text, converted.requirements[1].key_text);
  EXPECT_EQ(direct.requirements[1].min_values, converted.requirements[1].min_values);
}

std::string ReadFile(const std::string& rel) {
  std::ifstream in(std::string(KPLACE_SOURCE_DIR) + "/" + rel);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// YAML: `kubectl get -o yaml` runs as its JSON twin; multi-document manifests as `kubectl apply -f` takes them, with
// errors naming the document as the user counts them.
TEST(ClusterDump, YamlDumpsAndManifests) {
  const std::string yaml = ReadFile("tests/data/io/kubectl-get-pods.yaml");
  const std::string json = ReadFile("tests/data/io/kubectl-get-pods.json");
  ASSERT_FALSE(yaml.empty());
  Json a = io::ResultToJson(sim::Run(io::ParseScenario(yaml)));
  Json b = io::ResultToJson(sim::Run(io::ParseScenario(json)));
  EXPECT_EQ(a, b);
  EXPECT_EQ(io::ConvertClusterDump(yaml), io::ConvertClusterDump(json));
  const std::string manifests =
      "# nodes and a Deployment, as a user writes them\n"
      "apiVersion: v1\nkind: Node\nmetadata:\n  name: small\nstatus:\n  allocatable: {cpu: 1, memory: 2Gi, pods: 110}\n"
      "---\n"
      "---\n"  // an empty document: skipped and not counted (kubectl's YAMLReader returns no chunk for it)
      "apiVersion: v1\nkind: Node\nmetadata:\n  name: large\nstatus:\n  allocatable: {cpu: \"8\", memory: 32Gi, pods: "
      "\"110\"}\n"
      "---\n"
      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\nspec:\n  replicas: 2\n  selector:\n"
      "    matchLabels: {app: app}\n  template:\n    metadata:\n      labels: {app: app}\n    spec:\n"
      "      containers:\n      - name: c\n        image: x\n        resources:\n          requests: {cpu: 1.5}\n";
  sim::SimResult r = sim::Run(io::ParseScenario(manifests));
  EXPECT_EQ(Find(r, "default/app-0")->node, "large");
  EXPECT_EQ(Find(r, "default/app-1")->node, "large");
  EXPECT_EQ(r.import.shape, "3 documents");
  std::string bad = manifests;
  bad.replace(bad.find("cpu: 1.5"), 8, "cpu: lots");
  try {
    io::ParseScenario(bad);
    FAIL() << "no error";
  } catch (const io::InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "document 3 (Deployment default/app): spec.template.spec.containers[0].resources.requests.cpu: "
              "\"lots\" is not a quantity");
  }
  try {
    io::ParseScenario("apiVersion: v1\nkind: Node\nmetadata:\n\tname: tab\n");
    FAIL() << "no error";
  } catch (const io::InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("invalid YAML at line 4, column 1: ", 0), 0u) << e.what();
  }
}

// An error found when the run resolves the scheduler's plugins still names the item, as parse errors do.
TEST(ClusterDump, SchedulerConfigurationErrorsNameTheItem) {
  Json cfg = {
      {"apiVersion", "kubescheduler.config.k8s.io/v1"},
      {"kind", "KubeSchedulerConfiguration"},
      {"profiles", Json::array({{{"plugins", {{"filter", {{"enabled", Json::array({{{"name", "Nope"}}})}}}}}}})}};
  try {
    sim::Run(io::ParseScenarioJson(List(Json::array({NodeObj("node-a"), cfg}))));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "items[1] (KubeSchedulerConfiguration): profiles[0]: plugins.filter.enabled: FilterPlugin \"Nope\" does "
              "not exist");
  }
}

}  // namespace
}  // namespace kplace
