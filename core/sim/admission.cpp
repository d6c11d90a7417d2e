#include "core/sim/admission.h"

#include <map>
#include <set>

#include "core/model/input_error.h"
#include "core/scheduler/plugins/helper/node_affinity_match.h"

namespace kplace::sim {
namespace {

std::string ItemLabel(const Pod& p) {
  std::string label = p.item_index >= 0 ? "items[" + std::to_string(p.item_index) + "] " : "";
  if (!p.generated_from.empty()) return label + "(" + p.generated_from + ", Pod " + p.Key() + ")";
  return label + "(Pod " + p.Key() + ")";
}

Toleration MakeToleration(Symbol key, TaintEffect effect, std::optional<std::int64_t> seconds = std::nullopt) {
  Toleration t;
  t.key = key;
  t.op = TolerationOp::Exists;
  t.effect = effect;
  t.toleration_seconds = seconds;
  return t;
}

}  // namespace

std::vector<std::int32_t> ResolvePriorities(Scenario& sc) {
  std::map<std::string, const PriorityClass*> classes;
  const PriorityClass* global_default = nullptr;
  for (const auto& pc : sc.priority_classes) {
    classes[pc.name] = &pc;
    if (pc.global_default) global_default = &pc;
  }
  static const PriorityClass kNodeCritical{"system-node-critical", 2000001000, false,
                                           PreemptionPolicy::PreemptLowerPriority, -1};
  static const PriorityClass kClusterCritical{"system-cluster-critical", 2000000000, false,
                                              PreemptionPolicy::PreemptLowerPriority, -1};
  classes[kNodeCritical.name] = &kNodeCritical;
  classes[kClusterCritical.name] = &kClusterCritical;

  std::vector<std::int32_t> out;
  out.reserve(sc.pods.size());
  for (auto& pod : sc.pods) {
    const PriorityClass* pc = nullptr;
    if (!pod.priority_class_name.empty()) {
      auto it = classes.find(pod.priority_class_name);
      if (it == classes.end())
        FailInput(ItemLabel(pod), "spec.priorityClassName",
                  "no PriorityClass with name " + pod.priority_class_name + " was found");
      pc = it->second;
    } else if (!pod.priority && global_default) {
      pc = global_default;
    }
    if (pc) {
      if (pod.priority && *pod.priority != pc->value && !pod.priority_class_name.empty())
        FailInput(ItemLabel(pod), "spec.priority",
                  "the integer value of priority (" + std::to_string(*pod.priority) +
                      ") must not be provided in pod spec; priority admission controller computed " +
                      std::to_string(pc->value) + " from the given PriorityClass name");
      pod.priority = pc->value;
      if (!pod.preemption_policy) pod.preemption_policy = pc->preemption_policy;
    }
    out.push_back(pod.priority.value_or(0));
  }
  return out;
}

void AddDefaultTolerations(Pod& pod) {
  // Interned once (a lookup per pod and key otherwise), in the order the loop below first needs them.
  static const Symbol kNotReady = Intern("node.kubernetes.io/not-ready");
  static const Symbol kUnreachable = Intern("node.kubernetes.io/unreachable");
  for (const Symbol key : {kNotReady, kUnreachable}) {
    bool tolerated = false;
    for (const auto& t : pod.tolerations) {
      // The admission plugin checks key (or empty key) and effect (or empty effect), whatever the operator.
      if ((t.key == key || t.key == kEmptySymbol) &&
          (t.effect == TaintEffect::NoExecute || t.effect == TaintEffect::None))
        tolerated = true;
    }
    if (!tolerated) pod.tolerations.push_back(MakeToleration(key, TaintEffect::NoExecute, 300));
  }
}

bool DaemonPodShouldRun(const Pod& template_pod, const Node& node) {
  if (!plugins::helper::MatchesRequiredNodeAffinity(template_pod, node)) return false;
  for (const auto& t : node.taints) {
    if (t.effect != TaintEffect::NoSchedule && t.effect != TaintEffect::NoExecute) continue;
    if (!TolerationsTolerate(template_pod.tolerations, t)) return false;
  }
  return true;
}

namespace {

// The node a daemon pod is for: spec.nodeName, or the metadata.name its required node affinity pins it to before it
// is bound (GetTargetNodeName, pkg/controller/daemon/util/daemonset_util.go).
std::string DaemonPodNode(const Pod& p) {
  if (!p.node_name.empty()) return p.node_name;
  if (!p.affinity.node_affinity || !p.affinity.node_affinity->required) return "";
  for (const auto& term : p.affinity.node_affinity->required->terms)
    for (const auto& f : term.match_fields)
      if (Text(f.key) == "metadata.name" && f.op == SelectorOp::In && f.values.size() == 1) return Text(f.values[0]);
  return "";
}

}  // namespace

void ExpandDaemonSets(Scenario& sc, std::size_t first_node) {
  // The daemon pods that exist: the controller creates one only on a node that has none (podsShouldBeOnNode,
  // pkg/controller/daemon/daemon_controller.go). A pod being deleted still counts; a finished one is replaced.
  std::set<std::string> have;  // "namespace/daemonset/node"
  for (const auto& p : sc.pods) {
    const OwnerReference* o = p.meta.Controller();
    if (!o || o->kind != "DaemonSet" || p.Terminal() || !p.generated_from.empty()) continue;
    if (std::string node = DaemonPodNode(p); !node.empty()) have.insert(p.meta.namespace_ + "/" + o->name + "/" + node);
  }
  for (const auto& w : sc.workloads) {
    if (w.kind != "DaemonSet") continue;
    // The DaemonSet controller adds these tolerations to every daemon pod (util.AddOrUpdateDaemonPodTolerations).
    Pod tmpl = *w.pod_template;
    auto add = [&](const char* key, TaintEffect effect) {
      const Taint probe{Intern(key), kEmptySymbol, effect};
      if (!TolerationsTolerate(tmpl.tolerations, probe)) tmpl.tolerations.push_back(MakeToleration(probe.key, effect));
    };
    add("node.kubernetes.io/not-ready", TaintEffect::NoExecute);
    add("node.kubernetes.io/unreachable", TaintEffect::NoExecute);
    add("node.kubernetes.io/disk-pressure", TaintEffect::NoSchedule);
    add("node.kubernetes.io/memory-pressure", TaintEffect::NoSchedule);
    add("node.kubernetes.io/pid-pressure", TaintEffect::NoSchedule);
    add("node.kubernetes.io/unschedulable", TaintEffect::NoSchedule);
    for (std::size_t i = first_node; i < sc.nodes.size(); ++i) {
      const Node& node = sc.nodes[i];
      if (!DaemonPodShouldRun(tmpl, node)) continue;
      if (have.count(w.meta.namespace_ + "/" + w.meta.name + "/" + node.meta.name)) continue;
      Pod p = tmpl;
      p.meta.name = w.meta.name + "-" + node.meta.name;
      p.meta.namespace_ = w.meta.namespace_;
      p.meta.creation_timestamp = w.meta.creation_timestamp;
      p.meta.creation_unix = w.meta.creation_unix;
      p.meta.owner_references = {{"apps/v1", "DaemonSet", w.meta.name, true}};
      p.node_name.clear();
      p.item_index = w.item_index;
      p.generated_from = "DaemonSet/" + w.meta.name;
      // ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes one matchFields term.
      NodeSelectorTerm term;
      term.match_fields.push_back({Intern("metadata.name"), SelectorOp::In, {node.name_symbol}, 0});
      if (!p.affinity.node_affinity) p.affinity.node_affinity = NodeAffinity{};
      p.affinity.node_affinity->required = NodeSelector{{term}};
      sc.pods.push_back(std::move(p));
    }
  }
}

}  // namespace kplace::sim
