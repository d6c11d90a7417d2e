#include "core/io/scenario_parser.h"

#include <algorithm>
#include <map>
#include <set>

#include "core/io/validate_pod.h"

namespace kplace::io {

Simulation ParseSimulation(const Json& v, const Reader& r) {
  Simulation sim;
  const Json* spec = r.Object(v, "spec");
  if (!spec) return sim;
  Reader s = r.Field("spec");
  if (auto mode = s.String(*spec, "mode")) {
    if (*mode == "scheduler")
      sim.mode = Mode::Scheduler;
    else if (*mode == "karpenter")
      sim.mode = Mode::Karpenter;
    else if (*mode == "cluster")
      sim.mode = Mode::Cluster;
    else
      s.Field("mode").Fail("unsupported mode \"" + *mode + "\" (scheduler, karpenter or cluster)");
  }
  if (auto it = spec->find("seed"); it != spec->end() && !it->is_null()) {
    if (it->is_number_unsigned())
      sim.seed = it->get<std::uint64_t>();
    else if (it->is_number_integer() && it->get<std::int64_t>() >= 0)
      sim.seed = static_cast<std::uint64_t>(it->get<std::int64_t>());
    else if (it->is_number_integer())
      s.Field("seed").Fail("must be between 0 and 18446744073709551615, got " + it->dump());
    else
      s.Field("seed").Fail("expected integer, got " + JsonTypeName(*it));
  }
  if (auto v2 = s.String(*spec, "kubernetesVersion"))
    sim.kubernetes_minor = ParseKubernetesVersion(*v2, s.Field("kubernetesVersion"));
  return sim;
}

Scenario ParseScenario(std::string_view text) { return ParseScenarioJson(ParseJsonText(text)); }

const Json& ScenarioBuilder::Items(const Json& doc) {
  Reader root("", "");
  if (!doc.is_object()) root.Fail("the scenario must be a JSON object (a Kubernetes List), got " + JsonTypeName(doc));
  auto kind = root.String(doc, "kind").value_or("");
  if (kind.size() < 4 || kind.compare(kind.size() - 4, 4, "List") != 0)
    root.Field("kind").Fail("expected \"List\", got \"" + kind + "\"");
  const Json* items = root.Array(doc, "items");
  if (!items) root.Field("items").Fail("required");
  return *items;
}

Scenario ParseScenarioJson(const Json& doc, ParseOptions options) {
  const Json& items = ScenarioBuilder::Items(doc);
  ScenarioBuilder builder(options);
  for (std::size_t i = 0; i < items.size(); ++i) builder.Add(items[i], i);
  return builder.Finish();
}

void ScenarioBuilder::Add(const Json& item, std::size_t i) {
  Scenario& sc = sc_;
  auto& seen = seen_;
  std::string label = "items[" + std::to_string(i) + "]";
  if (!item.is_object()) Reader(label, "").Fail("expected object, got " + JsonTypeName(item));
  std::string item_kind, name, ns;
  auto kind_it = item.find("kind");
  if (kind_it != item.end() && kind_it->is_string()) item_kind = kind_it->get<std::string>();
  if (auto m = item.find("metadata"); m != item.end() && m->is_object()) {
    if (auto n = m->find("name"); n != m->end() && n->is_string()) name = n->get<std::string>();
    if (auto n = m->find("namespace"); n != m->end() && n->is_string()) ns = n->get<std::string>();
  }
  static const std::set<std::string> kNamespaced = {"Pod",        "PodDisruptionBudget", "DaemonSet", "Deployment",
                                                    "ReplicaSet", "StatefulSet",         "Service"};
  bool namespaced = kNamespaced.count(item_kind) > 0;
  if (namespaced && ns.empty()) ns = "default";
  Reader r(label + " (" + Describe(item_kind, ns, name) + ")", "");
  if (kind_it != item.end() && !kind_it->is_null() && !kind_it->is_string())
    r.Field("kind").Fail("expected string, got " + JsonTypeName(*kind_it));
  if (item_kind.empty()) r.Field("kind").Fail("required");

  auto check_duplicate = [&]() {
    std::string key = item_kind + " " + (namespaced ? ns + "/" : "") + name;
    if (auto [it, inserted] = seen.emplace(key, label); !inserted)
      r.Fail("duplicate " + Describe(item_kind, namespaced ? ns : "", name) + " (also " + it->second + ")");
  };

  if (item_kind == "Node") {
    Node n = ParseNode(item, r);
    n.item_index = static_cast<int>(i);
    check_duplicate();
    sc.nodes.push_back(std::move(n));
    if (static_cast<std::int64_t>(sc.nodes.size()) > kMaxNodes)
      r.Fail("more than " + std::to_string(kMaxNodes) + " nodes");
  } else if (item_kind == "Pod") {
    if (options_.api_validation) ValidatePodObject(item, r);
    Pod p = ParsePod(item, r);
    if (p.meta.name.empty()) r.Field("metadata.name").Fail("required");
    p.item_index = static_cast<int>(i);
    check_duplicate();
    sc.pods.push_back(std::move(p));
  } else if (item_kind == "PriorityClass") {
    PriorityClass pc = ParsePriorityClass(item, r);
    pc.item_index = static_cast<int>(i);
    check_duplicate();
    if (pc.global_default) {
      for (const auto& other : sc.priority_classes)
        if (other.global_default)
          r.Field("globalDefault").Fail("PriorityClass \"" + other.name + "\" is already marked as default");
    }
    if (pc.name == "system-cluster-critical" || pc.name == "system-node-critical")
      r.Field("metadata.name").Fail("\"" + pc.name + "\" is a built-in system PriorityClass");
    sc.priority_classes.push_back(std::move(pc));
  } else if (item_kind == "PodDisruptionBudget") {
    PodDisruptionBudget pdb = ParsePdb(item, r);
    pdb.item_index = static_cast<int>(i);
    check_duplicate();
    sc.pdbs.push_back(std::move(pdb));
  } else if (item_kind == "Deployment" || item_kind == "ReplicaSet" || item_kind == "StatefulSet" ||
             item_kind == "DaemonSet" || item_kind == "Service") {
    Workload w = ParseWorkload(item_kind, item, r, options_.api_validation);
    w.item_index = static_cast<int>(i);
    check_duplicate();
    sc.workloads.push_back(std::move(w));
  } else if (item_kind == "Namespace") {
    check_duplicate();
    sc.namespaces.push_back(ParseNamespace(item, r));
  } else if (item_kind == "NodePool") {
    NodePool np = ParseNodePool(item, r);
    np.item_index = static_cast<int>(i);
    check_duplicate();
    sc.node_pools.push_back(std::move(np));
  } else if (item_kind == "InstanceType") {
    InstanceType it = ParseInstanceType(item, r);
    it.item_index = static_cast<int>(i);
    check_duplicate();
    sc.instance_types.push_back(std::move(it));
  } else if (item_kind == "KubeSchedulerConfiguration") {
    if (have_config_) r.Fail("only one KubeSchedulerConfiguration is allowed");
    have_config_ = true;
    sc.scheduler_config = ParseSchedulerConfig(item, r, sc.warnings);
  } else if (item_kind == "Simulation") {
    if (have_sim_) r.Fail("only one Simulation is allowed");
    have_sim_ = true;
    sc.simulation = ParseSimulation(item, r);
  } else {
    sc.warnings.push_back(label + ": kind \"" + item_kind + "\" is not simulated; ignored");
  }
}

Scenario ScenarioBuilder::Finish() {
  Scenario& sc = sc_;
  auto& seen = seen_;
  // Expand Deployments, ReplicaSets and StatefulSets into pending pods <name>-<i>.
  std::int64_t total = static_cast<std::int64_t>(sc.pods.size());
  for (const auto& w : sc.workloads) {
    if (w.kind != "Deployment" && w.kind != "ReplicaSet" && w.kind != "StatefulSet") continue;
    total += w.replicas;
    Reader r("items[" + std::to_string(w.item_index) + "] (" + Describe(w.kind, w.meta.namespace_, w.meta.name) + ")",
             "");
    if (total > kMaxPods)
      r.Field("spec.replicas").Fail("the scenario would have more than " + std::to_string(kMaxPods) + " pods");
    for (std::int32_t i = 0; i < w.replicas; ++i) {
      Pod p = *w.pod_template;
      p.meta.name = w.meta.name + "-" + std::to_string(i);
      p.meta.namespace_ = w.meta.namespace_;
      p.meta.creation_timestamp = w.meta.creation_timestamp;
      p.meta.creation_unix = w.meta.creation_unix;
      // A Deployment's pods are owned by its ReplicaSet; kplace names that ReplicaSet after the Deployment.
      std::string owner_kind = w.kind == "StatefulSet" ? "StatefulSet" : "ReplicaSet";
      p.meta.owner_references = {{"apps/v1", owner_kind, w.meta.name, true}};
      p.node_name.clear();
      p.item_index = w.item_index;
      p.generated_from = w.kind + "/" + w.meta.name;
      std::string key = "Pod " + p.meta.namespace_ + "/" + p.meta.name;
      if (auto [it, inserted] = seen.emplace(key, "items[" + std::to_string(w.item_index) + "]"); !inserted)
        r.Fail("expands into Pod " + p.meta.namespace_ + "/" + p.meta.name + ", which " + it->second +
               " already defines");
      sc.pods.push_back(std::move(p));
    }
  }
  if (total > kMaxPods) Reader("", "items").Fail("more than " + std::to_string(kMaxPods) + " pods");
  return std::move(sc_);
}

}  // namespace kplace::io
