// The scenario parser: bad input (tests/data/io/bad_input.json, one GoogleTest test per case, named
// BadInput/<case name>) must fail with exactly the expected io::InputError message; good input is checked field by
// field below.
#include "core/io/scenario_parser.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "tests/testing/table.h"

namespace kplace {
namespace {

using io::Json;

// ---- bad input table --------------------------------------------------------------------------------------

std::string ScenarioText(const Json& c) {
  const Json& s = c.at("scenario");
  return s.is_string() ? s.get<std::string>() : s.dump();
}

void RunBadInputCase(const Json& c) {
  std::string want = c.at("error");
  try {
    Scenario sc = io::ParseScenario(ScenarioText(c));
    ADD_FAILURE() << "parsed without error; want: " << want;
  } catch (const io::InputError& e) {
    EXPECT_EQ(std::string(e.what()), want);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
  }
}

class BadInputTable : public ::testing::TestWithParam<testing::TableCase> {};
TEST_P(BadInputTable, Case) { testing::RunTableCase(GetParam(), RunBadInputCase); }
// Named after the case: BadInput/BadInputTable.Case/<case name with non-alphanumerics as _>.
INSTANTIATE_TEST_SUITE_P(
    BadInput, BadInputTable, ::testing::ValuesIn(testing::ListTableCases("io/bad_input.json")),
    [](const ::testing::TestParamInfo<testing::TableCase>& i) {
      return testing::TestName(
          testing::LoadTable(i.param.file).at("cases").at(i.param.index).at("name").get<std::string>());
    });

// API-server validation of scenario pods (tests/data/io/api_validation.json), run the same way.
class ApiValidationTable : public ::testing::TestWithParam<testing::TableCase> {};
TEST_P(ApiValidationTable, Case) { testing::RunTableCase(GetParam(), RunBadInputCase); }
INSTANTIATE_TEST_SUITE_P(
    ApiValidation, ApiValidationTable, ::testing::ValuesIn(testing::ListTableCases("io/api_validation.json")),
    [](const ::testing::TestParamInfo<testing::TableCase>& i) {
      return testing::TestName(
          testing::LoadTable(i.param.file).at("cases").at(i.param.index).at("name").get<std::string>());
    });

std::string ErrorOf(std::string_view text) {
  try {
    io::ParseScenario(text);
  } catch (const io::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(BadInputTable, NamesAreUnique) {
  Json table = testing::LoadJson(testing::DataPath("io/bad_input.json"));
  std::vector<std::string> names;
  for (const Json& c : table.at("cases")) names.push_back(testing::TestName(c.at("name").get<std::string>()));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
}

TEST(ApiValidationTable, NamesAreUnique) {
  Json table = testing::LoadJson(testing::DataPath("io/api_validation.json"));
  std::vector<std::string> names;
  for (const Json& c : table.at("cases")) names.push_back(testing::TestName(c.at("name").get<std::string>()));
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
}

// ---- hostile input that is generated rather than stored ---------------------------------------------------

TEST(ScenarioParser, DeepNestingFailsCleanly) {
  for (std::size_t depth : {129u, 1000u, 100000u}) {
    std::string text = R"({"kind":"List","items":)" + std::string(depth, '[') + std::string(depth, ']') + "}";
    EXPECT_EQ(ErrorOf(text), "invalid JSON: nested deeper than 128 levels") << depth;
    std::string objects;
    for (std::size_t i = 0; i < depth; ++i) objects += R"({"a":)";
    objects += "1" + std::string(depth, '}');
    EXPECT_EQ(ErrorOf(objects), "invalid JSON: nested deeper than 128 levels") << depth;
  }
  // Unterminated deep nesting hits the limit before the end of input.
  EXPECT_EQ(ErrorOf(std::string(100000, '[')), "invalid JSON: nested deeper than 128 levels");
}

TEST(ScenarioParser, NestingWithinTheLimitIsFine) {
  // Unknown fields are ignored, however deep (up to the limit).
  std::string deep = std::string(100, '[') + std::string(100, ']');
  std::string text = R"({"kind":"List","items":[{"kind":"Node","metadata":{"name":"n"},"x":)" + deep + "}]}";
  Scenario sc = io::ParseScenario(text);
  EXPECT_EQ(sc.nodes.size(), 1u);
}

TEST(ScenarioParser, InvalidUtf8) {
  std::string text = "{\"kind\":\"List\",\n\"items\":[\"\xff\"]}";
  EXPECT_EQ(ErrorOf(text),
            "invalid JSON at line 2, column 11: syntax error while parsing value - invalid string: ill-formed UTF-8 "
            "byte; last read: '\"<0xFF>'");
}

TEST(ScenarioParser, ManyItemsManyErrorsReportsTheFirst) {
  Json list = {{"kind", "List"}, {"items", Json::array()}};
  for (int i = 0; i < 1000; ++i)
    list["items"].push_back({{"kind", "Node"}, {"metadata", {{"name", "n" + std::to_string(i)}}}});
  list["items"][500]["metadata"]["name"] = "n3";
  list["items"][700]["status"] = {{"allocatable", {{"cpu", "x"}}}};
  EXPECT_EQ(ErrorOf(list.dump()), "items[500] (Node n3): duplicate Node n3 (also items[3])");
}

// ---- good input -------------------------------------------------------------------------------------------

Scenario Parse(const char* items_json) {
  return io::ParseScenario(std::string(R"({"apiVersion":"v1","kind":"List","items":)") + items_json + "}");
}

TEST(ScenarioParser, EmptyList) {
  Scenario sc = io::ParseScenario(R"({"apiVersion":"v1","kind":"List","items":[]})");
  EXPECT_TRUE(sc.nodes.empty());
  EXPECT_TRUE(sc.pods.empty());
  EXPECT_TRUE(sc.warnings.empty());
  EXPECT_EQ(sc.simulation.kubernetes_minor, 37);  // the newest release kplace reproduces
  EXPECT_EQ(sc.simulation.mode, Mode::Cluster);
  // kubectl's typed lists are Lists too.
  EXPECT_NO_THROW(io::ParseScenario(R"({"kind":"NodeList","items":[]})"));
}

TEST(ScenarioParser, UnknownKindIsAWarning) {
  Scenario sc = Parse(R"([{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"x":1}},
                          {"kind":"Node","metadata":{"name":"n1"}}])");
  ASSERT_EQ(sc.warnings.size(), 1u);
  EXPECT_EQ(sc.warnings[0], "items[0]: kind \"ConfigMap\" is not simulated; ignored");
  EXPECT_EQ(sc.nodes.size(), 1u);
}

TEST(ScenarioParser, NodeFields) {
  Scenario sc = Parse(R"([{"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a"}},
    "spec":{"unschedulable":true,"taints":[{"key":"k","value":"v","effect":"NoSchedule"}]},
    "status":{"capacity":{"cpu":"8"},"allocatable":{"cpu":"3500m","memory":"1Gi","pods":"110","example.com/gpu":2},
              "images":[{"names":["nginx:1"],"sizeBytes":1000}]}},
    {"kind":"Node","metadata":{"name":"n2"},"status":{"capacity":{"cpu":"2"}}}])");
  ASSERT_EQ(sc.nodes.size(), 2u);
  const Node& n = sc.nodes[0];
  EXPECT_EQ(n.meta.name, "n1");
  EXPECT_EQ(n.meta.namespace_, "");
  EXPECT_TRUE(n.unschedulable);
  ASSERT_EQ(n.taints.size(), 1u);
  EXPECT_EQ(Text(n.taints[0].key), "k");
  EXPECT_EQ(n.taints[0].effect, TaintEffect::NoSchedule);
  EXPECT_EQ(n.allocatable.milli_cpu, 3500);
  EXPECT_EQ(n.allocatable.memory, 1073741824);
  EXPECT_EQ(n.allocatable.allowed_pod_number, 110);
  EXPECT_EQ(n.allocatable.Scalar(Intern("example.com/gpu")), 2);
  ASSERT_EQ(n.images.size(), 1u);
  EXPECT_EQ(n.images[0].size_bytes, 1000);
  EXPECT_EQ(n.item_index, 0);
  // allocatable falls back to capacity
  EXPECT_EQ(sc.nodes[1].allocatable.milli_cpu, 2000);
}

TEST(ScenarioParser, PodFields) {
  Scenario sc = Parse(R"([{"kind":"Pod","metadata":{"name":"web","namespace":"prod","labels":{"app":"web"},
      "creationTimestamp":"2024-01-02T03:04:05Z"},
    "spec":{"nodeName":"n1","priorityClassName":"high","priority":5,"preemptionPolicy":"Never",
      "containers":[{"name":"c","image":"nginx","resources":{"requests":{"cpu":"100m"},"limits":{"cpu":"1","memory":"1Gi"}},
                     "ports":[{"containerPort":80,"hostPort":8080}]}],
      "initContainers":[{"name":"i","restartPolicy":"Always","resources":{"requests":{"memory":"2Gi"}}}],
      "overhead":{"cpu":"10m"},
      "tolerations":[{"key":"k","operator":"Exists","effect":"NoExecute","tolerationSeconds":30}],
      "schedulingGates":[{"name":"g"}]},
    "status":{"phase":"Running","nominatedNodeName":"n2"}},
   {"kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"name":"c"}]}}])");
  ASSERT_EQ(sc.pods.size(), 2u);
  const Pod& p = sc.pods[0];
  EXPECT_EQ(p.Key(), "prod/web");
  EXPECT_EQ(sc.pods[1].Key(), "default/web");  // same name, other namespace: not a duplicate
  EXPECT_EQ(p.meta.creation_unix, 1704164645);
  EXPECT_EQ(p.node_name, "n1");
  EXPECT_EQ(p.priority_class_name, "high");
  EXPECT_EQ(p.priority, 5);
  EXPECT_EQ(p.preemption_policy, PreemptionPolicy::Never);
  ASSERT_EQ(p.containers.size(), 1u);
  const Container& c = p.containers[0];
  EXPECT_EQ(c.requests.milli_cpu, 100);
  EXPECT_EQ(c.requests.memory, 1073741824);  // request defaulted from the limit
  EXPECT_TRUE(c.has_cpu_request);
  EXPECT_TRUE(c.has_memory_request);
  ASSERT_EQ(c.ports.size(), 1u);
  EXPECT_EQ(c.ports[0].host_port, 8080);
  EXPECT_EQ(Text(c.ports[0].protocol), "TCP");
  EXPECT_EQ(Text(c.ports[0].host_ip), "0.0.0.0");
  ASSERT_EQ(p.init_containers.size(), 1u);
  EXPECT_TRUE(p.init_containers[0].restart_always);
  ASSERT_TRUE(p.overhead.has_value());
  EXPECT_EQ(p.overhead->milli_cpu, 10);
  ASSERT_EQ(p.tolerations.size(), 1u);
  EXPECT_EQ(p.tolerations[0].toleration_seconds, 30);
  EXPECT_EQ(p.scheduling_gates, std::vector<std::string>{"g"});
  EXPECT_EQ(p.phase, "Running");
  EXPECT_EQ(p.nominated_node_name, "n2");
}

// What the API server lets through is read as before (tests/data/io/api_validation.json has what it rejects): a
// Gt value that is no integer (a label value is enough; the term then never matches, the scheduler's
// LazyErrorNodeSelector), any value in a preferred term, an extended resource given as a limit only (the request
// defaults to it), a toleration of everything, one key spread both ways, a matchLabelKeys key the selector does not
// name, and a container without an image.
TEST(ScenarioParser, ApiValidationAccepts) {
  Scenario sc = Parse(R"([{"kind":"Pod","metadata":{"name":"web","labels":{"app":"web"}},"spec":{
      "containers":[{"name":"c","resources":{"limits":{"example.com/gpu":"2","cpu":"1"},"requests":{"cpu":"500m"}}}],
      "affinity":{
       "podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
         {"labelSelector":{"matchLabels":{"tier":"x"}},"matchLabelKeys":["app"],"topologyKey":"zone"}]},
       "nodeAffinity":{
        "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
          {"matchExpressions":[{"key":"cores","operator":"Gt","values":["many"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":100,"preference":{
          "matchExpressions":[{"key":"zone","operator":"In","values":["-not a label-"]}]}}]}},
      "tolerations":[{"operator":"Exists"},{"key":"k","operator":"Exists","effect":"NoExecute","tolerationSeconds":0}],
      "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"},
                                   {"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway"}]}}])");
  ASSERT_EQ(sc.pods.size(), 1u);
  const Pod& p = sc.pods[0];
  ASSERT_TRUE(p.affinity.node_affinity.has_value());
  ASSERT_TRUE(p.affinity.node_affinity->required.has_value());
  ASSERT_EQ(p.affinity.node_affinity->required->terms.size(), 1u);
  EXPECT_FALSE(p.affinity.node_affinity->required->terms[0].errors.empty());  // kept lazily: never matches
  ASSERT_EQ(p.affinity.node_affinity->preferred.size(), 1u);
  EXPECT_EQ(p.containers[0].requests.Scalar(Intern("example.com/gpu")), 2);
  EXPECT_EQ(p.containers[0].requests.milli_cpu, 500);
  EXPECT_EQ(p.tolerations.size(), 2u);
  EXPECT_EQ(p.topology_spread_constraints.size(), 2u);
}

TEST(ScenarioParser, DeploymentExpandsIntoPods) {
  Scenario sc = Parse(R"([{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"prod",
      "creationTimestamp":"2024-01-02T03:04:05Z"},
    "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
      "template":{"metadata":{"labels":{"app":"web","tier":"fe"}},
                  "spec":{"nodeName":"ignored","containers":[{"name":"c","resources":{"requests":{"cpu":"250m"}}}]}}}}])");
  ASSERT_EQ(sc.workloads.size(), 1u);
  EXPECT_EQ(sc.workloads[0].replicas, 3);
  ASSERT_EQ(sc.pods.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const Pod& p = sc.pods[i];
    EXPECT_EQ(p.meta.name, "web-" + std::to_string(i));
    EXPECT_EQ(p.meta.namespace_, "prod");
    EXPECT_EQ(p.meta.LabelText(), (std::map<std::string, std::string>{{"app", "web"}, {"tier", "fe"}}));
    EXPECT_EQ(p.meta.labels.Get(Intern("tier")), Intern("fe"));
    EXPECT_EQ(p.meta.creation_unix, 1704164645);
    ASSERT_EQ(p.meta.owner_references.size(), 1u);
    EXPECT_EQ(p.meta.owner_references[0].kind, "ReplicaSet");
    EXPECT_EQ(p.meta.owner_references[0].name, "web");
    EXPECT_EQ(p.meta.owner_references[0].api_version, "apps/v1");
    EXPECT_TRUE(p.meta.owner_references[0].controller);
    EXPECT_EQ(p.node_name, "");  // a new pod is pending
    EXPECT_EQ(p.generated_from, "Deployment/web");
    EXPECT_EQ(p.item_index, 0);
    ASSERT_EQ(p.containers.size(), 1u);
    EXPECT_EQ(p.containers[0].requests.milli_cpu, 250);
  }
}

TEST(ScenarioParser, WorkloadDefaultsAndOwners) {
  Scenario sc = Parse(R"([
    {"kind":"StatefulSet","metadata":{"name":"db"},
     "spec":{"selector":{"matchLabels":{"app":"db"}},"template":{"metadata":{"labels":{"app":"db"}},
       "spec":{"containers":[{"name":"c"}]}}}},
    {"kind":"ReplicaSet","metadata":{"name":"rs"},
     "spec":{"replicas":0,"selector":{"matchLabels":{"app":"rs"}},"template":{"metadata":{"labels":{"app":"rs"}},
       "spec":{"containers":[{"name":"c"}]}}}},
    {"kind":"Pod","metadata":{"name":"db-1"},"spec":{"containers":[{"name":"c"}]}}])");
  // replicas defaults to 1; replicas 0 makes no pod; explicit pods come first.
  ASSERT_EQ(sc.pods.size(), 2u);
  EXPECT_EQ(sc.pods[0].meta.name, "db-1");
  EXPECT_EQ(sc.pods[1].meta.name, "db-0");
  EXPECT_EQ(sc.pods[1].meta.namespace_, "default");
  EXPECT_EQ(sc.pods[1].meta.owner_references[0].kind, "StatefulSet");
  EXPECT_EQ(sc.pods[1].item_index, 0);
}

TEST(ScenarioParser, DaemonSetIsParsedNotExpanded) {
  // DaemonSet pods depend on the nodes; sim::ExpandDaemonSets makes them.
  Scenario sc = Parse(R"([{"kind":"DaemonSet","metadata":{"name":"agent","namespace":"kube-system"},
    "spec":{"replicas":5,"selector":{"matchLabels":{"app":"agent"}},
      "template":{"metadata":{"labels":{"app":"agent"}},
                  "spec":{"tolerations":[{"operator":"Exists"}],"containers":[{"name":"a"}]}}}}])");
  EXPECT_TRUE(sc.pods.empty());
  ASSERT_EQ(sc.workloads.size(), 1u);
  const Workload& w = sc.workloads[0];
  EXPECT_EQ(w.kind, "DaemonSet");
  EXPECT_EQ(w.meta.namespace_, "kube-system");
  ASSERT_TRUE(w.pod_template.has_value());
  EXPECT_EQ(w.pod_template->meta.namespace_, "kube-system");
  EXPECT_EQ(w.pod_template->tolerations.size(), 1u);
  EXPECT_FALSE(w.selector.nil);
}

TEST(ScenarioParser, ServiceSelector) {
  Scenario sc = Parse(R"([{"kind":"Service","metadata":{"name":"svc"},"spec":{"selector":{"app":"web"}}},
                          {"kind":"Service","metadata":{"name":"headless"}}])");
  ASSERT_EQ(sc.workloads.size(), 2u);
  EXPECT_FALSE(sc.workloads[0].selector.nil);
  EXPECT_EQ(sc.workloads[0].selector.requirements.size(), 1u);
  EXPECT_FALSE(sc.workloads[0].pod_template.has_value());
  EXPECT_TRUE(sc.workloads[1].selector.nil);
}

TEST(ScenarioParser, PriorityClassPdbNamespace) {
  Scenario sc = Parse(R"([
    {"kind":"PriorityClass","metadata":{"name":"high"},"value":1000,"globalDefault":true,"preemptionPolicy":"Never"},
    {"kind":"PodDisruptionBudget","metadata":{"name":"pdb"},
     "spec":{"minAvailable":"50%","selector":{"matchLabels":{"app":"web"}}},"status":{"disruptionsAllowed":1}},
    {"kind":"PodDisruptionBudget","metadata":{"name":"pdb2"},"spec":{"maxUnavailable":2}},
    {"kind":"Namespace","metadata":{"name":"prod","labels":{"team":"a"}}}])");
  ASSERT_EQ(sc.priority_classes.size(), 1u);
  EXPECT_EQ(sc.priority_classes[0].value, 1000);
  EXPECT_TRUE(sc.priority_classes[0].global_default);
  EXPECT_EQ(sc.priority_classes[0].preemption_policy, PreemptionPolicy::Never);
  ASSERT_EQ(sc.pdbs.size(), 2u);
  ASSERT_TRUE(sc.pdbs[0].min_available.has_value());
  EXPECT_TRUE(sc.pdbs[0].min_available->is_percent);
  EXPECT_EQ(sc.pdbs[0].min_available->value, 50);
  EXPECT_EQ(sc.pdbs[0].disruptions_allowed, 1);
  EXPECT_EQ(sc.pdbs[0].meta.namespace_, "default");
  ASSERT_TRUE(sc.pdbs[1].max_unavailable.has_value());
  EXPECT_FALSE(sc.pdbs[1].max_unavailable->is_percent);
  EXPECT_EQ(sc.pdbs[1].max_unavailable->value, 2);
  ASSERT_EQ(sc.namespaces.size(), 1u);
  EXPECT_EQ(sc.namespaces[0].labels.Get(Intern("team")), Intern("a"));
  EXPECT_EQ(sc.namespaces[0].labels.Get(Intern("kubernetes.io/metadata.name")), Intern("prod"));
}

TEST(ScenarioParser, NodePoolAndInstanceType) {
  Scenario sc = Parse(R"([
    {"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},
     "spec":{"weight":10,"limits":{"cpu":"1000"},
       "template":{"metadata":{"labels":{"team":"a"}},
         "spec":{"requirements":[{"key":"karpenter.sh/capacity-type","operator":"In","values":["spot","on-demand"],
                                  "minValues":2}],
                 "taints":[{"key":"t","effect":"NoSchedule"}],"startupTaints":[{"key":"s","effect":"NoExecute"}]}}}},
    {"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"m5.large"},
     "spec":{"capacity":{"cpu":"2","memory":"8Gi","pods":"29"},"overhead":{"memory":"500Mi"},
       "offerings":[{"zone":"us-east-1a","capacityType":"spot","price":0.05},
                    {"zone":"us-east-1b","price":0.096,"available":false}]}}])");
  ASSERT_EQ(sc.node_pools.size(), 1u);
  const NodePool& np = sc.node_pools[0];
  EXPECT_EQ(np.weight, 10);
  ASSERT_TRUE(np.limits.has_value());
  EXPECT_EQ(np.limits->milli_cpu, 1000000);
  EXPECT_EQ(np.template_labels.Get(Intern("team")), Intern("a"));
  ASSERT_EQ(np.requirements.size(), 1u);
  EXPECT_EQ(np.requirements[0].key_text, "karpenter.sh/capacity-type");
  EXPECT_EQ(np.requirements[0].values_text, (std::vector<std::string>{"spot", "on-demand"}));
  EXPECT_EQ(np.requirements[0].min_values, 2);
  EXPECT_EQ(np.taints.size(), 1u);
  EXPECT_EQ(np.startup_taints.size(), 1u);
  ASSERT_EQ(sc.instance_types.size(), 1u);
  const InstanceType& it = sc.instance_types[0];
  EXPECT_EQ(it.capacity.milli_cpu, 2000);
  EXPECT_EQ(it.overhead.memory, 500 * 1024 * 1024);
  ASSERT_EQ(it.offerings.size(), 2u);
  EXPECT_EQ(it.offerings[0].capacity_type, "spot");
  EXPECT_DOUBLE_EQ(it.offerings[0].price, 0.05);
  EXPECT_EQ(it.offerings[1].capacity_type, "on-demand");
  EXPECT_FALSE(it.offerings[1].available);
}

TEST(ScenarioParser, Simulation) {
  Scenario sc = Parse(R"([{"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},
    "spec":{"mode":"scheduler","seed":18446744073709551615,"kubernetesVersion":"v1.33.4"}}])");
  EXPECT_EQ(sc.simulation.mode, Mode::Scheduler);
  EXPECT_EQ(sc.simulation.seed, 18446744073709551615u);
  EXPECT_EQ(sc.simulation.kubernetes_minor, 33);
}

TEST(ScenarioParser, SchedulerConfigPlugins) {
  Scenario sc = Parse(R"([{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration",
    "percentageOfNodesToScore":50,
    "profiles":[{"schedulerName":"my-scheduler","percentageOfNodesToScore":20,
      "plugins":{"multiPoint":{"enabled":[{"name":"NodeResourcesFit","weight":3}]},
                 "score":{"disabled":[{"name":"*"}],"enabled":[{"name":"ImageLocality"}]},
                 "filter":{"disabled":[{"name":"NodePorts"}]}}},
      {"schedulerName":"second","percentageOfNodesToScore":70,
       "plugins":{"filter":{"disabled":[{"name":"TaintToleration"}]}},
       "pluginConfig":[{"name":"NodeResourcesFit","args":{"scoringStrategy":{"type":"MostAllocated"}}}]}]}])");
  const SchedulerConfig& cfg = sc.scheduler_config;
  EXPECT_EQ(cfg.percentage_of_nodes_to_score, 50);
  EXPECT_EQ(cfg.profiles[0].scheduler_name, "my-scheduler");
  EXPECT_EQ(cfg.profiles[0].percentage_of_nodes_to_score, 20);
  ASSERT_EQ(cfg.profiles[0].plugins.count("multiPoint"), 1u);
  const PluginSet& mp = cfg.profiles[0].plugins.at("multiPoint");
  ASSERT_EQ(mp.enabled.size(), 1u);
  EXPECT_EQ(mp.enabled[0].name, "NodeResourcesFit");
  EXPECT_EQ(mp.enabled[0].weight, 3);
  const PluginSet& score = cfg.profiles[0].plugins.at("score");
  EXPECT_EQ(score.disabled, std::vector<std::string>{"*"});
  ASSERT_EQ(score.enabled.size(), 1u);
  EXPECT_EQ(score.enabled[0].weight, 0);
  EXPECT_EQ(cfg.profiles[0].plugins.at("filter").disabled, std::vector<std::string>{"NodePorts"});
  EXPECT_EQ(cfg.profiles[0].plugins.count("preFilter"), 0u);
  // Every profile is read in full, each with its own plugins and args; no warning (all are simulated).
  ASSERT_EQ(cfg.profiles.size(), 2u);
  const SchedulerProfile& second = cfg.profiles[1];
  EXPECT_EQ(second.scheduler_name, "second");
  EXPECT_EQ(second.percentage_of_nodes_to_score, 70);
  EXPECT_EQ(second.plugins.at("filter").disabled, std::vector<std::string>{"TaintToleration"});
  EXPECT_EQ(second.args.fit.strategy, ScoringStrategyType::MostAllocated);
  EXPECT_EQ(cfg.profiles[0].args.fit.strategy, ScoringStrategyType::LeastAllocated);
  EXPECT_EQ(cfg.ProfileIndex("second"), 1);
  EXPECT_EQ(cfg.ProfileIndex("my-scheduler"), 0);
  EXPECT_EQ(cfg.ProfileIndex("default-scheduler"), -1);
  EXPECT_TRUE(sc.warnings.empty());
}

TEST(ScenarioParser, SchedulerConfigPluginArgs) {
  Scenario sc = Parse(R"([{"kind":"KubeSchedulerConfiguration","profiles":[{"pluginConfig":[
    {"name":"NodeResourcesFit","args":{"ignoredResources":["example.com/foo"],"ignoredResourceGroups":["example.org"],
      "scoringStrategy":{"type":"RequestedToCapacityRatio","resources":[{"name":"cpu","weight":2},{"name":"memory"}],
        "requestedToCapacityRatio":{"shape":[{"utilization":0,"score":0},{"utilization":100,"score":10}]}}}},
    {"name":"NodeResourcesBalancedAllocation","args":{"resources":[{"name":"cpu","weight":1},{"name":"example.com/gpu","weight":0}]}},
    {"name":"PodTopologySpread","args":{"defaultingType":"List","defaultConstraints":[
      {"maxSkew":2,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"ScheduleAnyway"}]}},
    {"name":"InterPodAffinity","args":{"hardPodAffinityWeight":0,"ignorePreferredTermsOfExistingPods":true}},
    {"name":"NodeAffinity","args":{"addedAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{
      "nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"In","values":["a"]}]}]},
      "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":5,"preference":{"matchExpressions":[
        {"key":"disk","operator":"Exists"}]}}]}}},
    {"name":"SomeOutOfTreePlugin","args":{"anything":[1,2,3]}}]}]}])");
  const PluginArgs& a = sc.scheduler_config.profiles[0].args;
  EXPECT_EQ(a.fit.ignored_resources, std::vector<std::string>{"example.com/foo"});
  EXPECT_EQ(a.fit.ignored_resource_groups, std::vector<std::string>{"example.org"});
  EXPECT_EQ(a.fit.strategy, ScoringStrategyType::RequestedToCapacityRatio);
  ASSERT_EQ(a.fit.resources.size(), 2u);
  EXPECT_EQ(a.fit.resources[0].name, "cpu");
  EXPECT_EQ(a.fit.resources[0].weight, 2);
  EXPECT_EQ(a.fit.resources[1].weight, 1);  // defaulted
  ASSERT_EQ(a.fit.shape.size(), 2u);
  EXPECT_EQ(a.fit.shape[1].utilization, 100);
  EXPECT_EQ(a.fit.shape[1].score, 10);
  ASSERT_EQ(a.balanced_allocation.resources.size(), 2u);
  EXPECT_EQ(a.balanced_allocation.resources[1].name, "example.com/gpu");
  EXPECT_EQ(a.balanced_allocation.resources[1].weight, 1);  // 0 means the default weight
  EXPECT_FALSE(a.topology_spread.system_defaulting);
  ASSERT_EQ(a.topology_spread.default_constraints.size(), 1u);
  EXPECT_EQ(a.topology_spread.default_constraints[0].max_skew, 2);
  EXPECT_EQ(Text(a.topology_spread.default_constraints[0].topology_key), "topology.kubernetes.io/zone");
  EXPECT_EQ(a.topology_spread.default_constraints[0].when_unsatisfiable, UnsatisfiableAction::ScheduleAnyway);
  EXPECT_EQ(a.inter_pod_affinity.hard_pod_affinity_weight, 0);
  EXPECT_TRUE(a.inter_pod_affinity.ignore_preferred_terms_of_existing_pods);
  ASSERT_TRUE(a.node_affinity.added_affinity.has_value());
  ASSERT_TRUE(a.node_affinity.added_affinity->required.has_value());
  EXPECT_EQ(a.node_affinity.added_affinity->required->terms.size(), 1u);
  ASSERT_EQ(a.node_affinity.added_affinity->preferred.size(), 1u);
  EXPECT_EQ(a.node_affinity.added_affinity->preferred[0].weight, 5);
}

TEST(ScenarioParser, SchedulerConfigDefaults) {
  Scenario sc = Parse(R"([{"kind":"KubeSchedulerConfiguration","profiles":[{"pluginConfig":[
    {"name":"NodeResourcesFit","args":{"scoringStrategy":{"type":"MostAllocated","resources":[]}}},
    {"name":"NodeResourcesBalancedAllocation","args":{"resources":[]}},
    {"name":"PodTopologySpread","args":{"defaultingType":""}}]}]}])");
  const PluginArgs& a = sc.scheduler_config.profiles[0].args;
  EXPECT_EQ(a.fit.strategy, ScoringStrategyType::MostAllocated);
  ASSERT_EQ(a.fit.resources.size(), 2u);  // cpu and memory, weight 1
  EXPECT_EQ(a.fit.resources[0].name, "cpu");
  EXPECT_EQ(a.fit.resources[1].name, "memory");
  EXPECT_EQ(a.fit.resources[1].weight, 1);
  ASSERT_EQ(a.balanced_allocation.resources.size(), 2u);
  EXPECT_TRUE(a.topology_spread.system_defaulting);
  EXPECT_TRUE(a.topology_spread.default_constraints.empty());
  EXPECT_EQ(a.inter_pod_affinity.hard_pod_affinity_weight, 1);
  EXPECT_FALSE(sc.scheduler_config.percentage_of_nodes_to_score.has_value());
  EXPECT_EQ(sc.scheduler_config.profiles[0].scheduler_name, "default-scheduler");
}

TEST(ScenarioParser, SpreadDefaultConstraintWithNullSelector) {
  Scenario sc = Parse(R"([{"kind":"KubeSchedulerConfiguration","profiles":[{"pluginConfig":[
    {"name":"PodTopologySpread","args":{"defaultingType":"List","defaultConstraints":[
      {"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway","labelSelector":null},
      {"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]}}]}]}])");
  EXPECT_EQ(sc.scheduler_config.profiles[0].args.topology_spread.default_constraints.size(), 2u);
}

TEST(ScenarioParser, Timestamps) {
  Scenario sc = Parse(R"([
    {"kind":"Pod","metadata":{"name":"a","creationTimestamp":"2024-02-29T23:59:59.123456Z"},"spec":{"containers":[{"name":"c"}]}},
    {"kind":"Pod","metadata":{"name":"b","creationTimestamp":"2024-03-01T05:30:00+05:30"},"spec":{"containers":[{"name":"c"}]}},
    {"kind":"Pod","metadata":{"name":"c","creationTimestamp":"1970-01-01T00:00:00-01:00"},"spec":{"containers":[{"name":"c"}]}}])");
  EXPECT_EQ(sc.pods[0].meta.creation_unix, 1709251199);
  EXPECT_EQ(sc.pods[1].meta.creation_unix, 1709251200);
  EXPECT_EQ(sc.pods[2].meta.creation_unix, 3600);
}

TEST(ScenarioParser, QuantitiesAsNumbers) {
  Scenario sc = Parse(R"([{"kind":"Node","metadata":{"name":"n"},
    "status":{"allocatable":{"cpu":1.5,"memory":1e9,"pods":110,"ephemeral-storage":"1e3"}}}])");
  EXPECT_EQ(sc.nodes[0].allocatable.milli_cpu, 1500);
  EXPECT_EQ(sc.nodes[0].allocatable.memory, 1000000000);
  EXPECT_EQ(sc.nodes[0].allocatable.allowed_pod_number, 110);
  EXPECT_EQ(sc.nodes[0].allocatable.ephemeral_storage, 1000);
}

}  // namespace
}  // namespace kplace
