// The Kubernetes objects of a scenario, holding exactly the fields kplace reads. Field names follow the API.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/labels.h"
#include "core/model/meta.h"
#include "core/model/quantity.h"
#include "core/model/resource.h"
#include "core/model/storage.h"
#include "core/model/taint.h"

namespace kplace {

struct PreferredSchedulingTerm {
  std::int32_t weight = 0;
  NodeSelectorTerm preference;
};

struct NodeAffinity {
  std::optional<NodeSelector> required;  // requiredDuringSchedulingIgnoredDuringExecution
  std::vector<PreferredSchedulingTerm> preferred;
};

struct PodAffinityTerm {
  LabelSelector label_selector;
  std::vector<Symbol> namespaces;
  std::optional<LabelSelector> namespace_selector;  // absent vs {} (= all namespaces) matters
  Symbol topology_key = kEmptySymbol;
  std::vector<Symbol> match_label_keys;
  std::vector<Symbol> mismatch_label_keys;
};

struct WeightedPodAffinityTerm {
  std::int32_t weight = 0;
  PodAffinityTerm term;
};

struct PodAffinity {
  std::vector<PodAffinityTerm> required;
  std::vector<WeightedPodAffinityTerm> preferred;
  bool empty() const { return required.empty() && preferred.empty(); }
};

struct Affinity {
  std::optional<NodeAffinity> node_affinity;
  PodAffinity pod_affinity;
  PodAffinity pod_anti_affinity;
};

enum class UnsatisfiableAction : std::uint8_t { DoNotSchedule, ScheduleAnyway };
enum class InclusionPolicy : std::uint8_t { Honor, Ignore };

struct TopologySpreadConstraint {
  std::int32_t max_skew = 1;
  Symbol topology_key = kEmptySymbol;
  UnsatisfiableAction when_unsatisfiable = UnsatisfiableAction::DoNotSchedule;
  LabelSelector label_selector;
  std::optional<std::int32_t> min_domains;
  InclusionPolicy node_affinity_policy = InclusionPolicy::Honor;
  InclusionPolicy node_taints_policy = InclusionPolicy::Ignore;
  std::vector<Symbol> match_label_keys;
};

struct ContainerPort {
  std::int32_t host_port = 0;
  std::int32_t container_port = 0;
  Symbol protocol = kEmptySymbol;  // defaulted to TCP by the parser
  Symbol host_ip = kEmptySymbol;   // defaulted to 0.0.0.0 by the parser
};

struct Container {
  std::string name;
  std::string image;
  Resource requests;
  // Which of cpu / memory were given explicitly (for non-zero defaulting in scoring).
  bool has_cpu_request = false;
  bool has_memory_request = false;
  std::vector<ContainerPort> ports;
  bool restart_always = false;  // init containers only: a sidecar
  // A restartPolicyRules entry with action RestartAllContainers (the node feature
  // RestartAllContainersOnContainerExits).
  bool restart_all_containers = false;
};

enum class PreemptionPolicy : std::uint8_t { PreemptLowerPriority, Never };

// Pod-level spec.resources (PodLevelResources: beta and on from v1.34, off in v1.33), restricted to the resources
// it supports (cpu, memory, hugepages-*); other names are dropped. Hugepage keys are scalars (kept even when 0).
struct PodLevelResources {
  Resource requests;
  Resource limits;
  bool request_cpu = false, request_memory = false;  // the key is present (an explicit 0 counts)
  bool limit_cpu = false, limit_memory = false;
};

struct Pod {
  ObjectMeta meta;
  std::vector<Container> containers;
  std::vector<Container> init_containers;
  std::optional<Resource> overhead;
  std::optional<PodLevelResources> resources;  // absent unless spec.resources sets a supported resource
  std::string node_name;
  bool host_network = false;               // spec.hostNetwork
  std::optional<bool> host_users;          // spec.hostUsers when given
  std::vector<std::string> image_volumes;  // spec.volumes[].image.reference, in order
  // spec.volumes that name a claim (persistentVolumeClaim, ephemeral) or a source the volume plugins compare.
  std::vector<PodVolume> volumes;
  std::vector<std::pair<Symbol, Symbol>> node_selector;
  Affinity affinity;
  std::vector<Toleration> tolerations;
  std::vector<TopologySpreadConstraint> topology_spread_constraints;
  std::string priority_class_name;
  std::optional<std::int32_t> priority;
  std::optional<PreemptionPolicy> preemption_policy;
  std::vector<std::string> scheduling_gates;
  std::string nominated_node_name;
  std::string start_time;
  std::optional<std::int64_t> start_unix;  // status.startTime in unix seconds
  // Terminating because kube-scheduler preempted it: deletionTimestamp set and a DisruptionTarget condition
  // (status True, reason PreemptionByScheduler).
  bool terminating_by_preemption = false;
  std::optional<bool> ready;  // the Ready condition's status is "True" (absent: no Ready condition)
  bool ready_false = false;   // the Ready condition's status is exactly "False"
  std::string phase;
  // spec.schedulerName (defaulted to default-scheduler): kube-scheduler only schedules pods naming one of its
  // profiles.
  std::string scheduler_name = "default-scheduler";
  // A PodScheduled condition with status False and reason Unschedulable (kube-scheduler gave up on it); Karpenter
  // provisions only such pods.
  bool marked_unschedulable = false;
  // Index in the scenario's items (for messages and stable ordering).
  int item_index = -1;
  // Set for pods that kplace generated from a workload (Deployment, DaemonSet, ...).
  std::string generated_from;

  std::string Key() const { return meta.namespace_ + "/" + meta.name; }
  bool Terminal() const { return phase == "Succeeded" || phase == "Failed"; }
};

struct ContainerImage {
  std::vector<std::string> names;
  std::int64_t size_bytes = 0;
};

struct Node {
  ObjectMeta meta;
  Symbol name_symbol = kEmptySymbol;
  std::vector<Taint> taints;
  bool unschedulable = false;
  Resource allocatable;
  std::optional<Resource> capacity;  // status.capacity when given (Karpenter's NodePool limits count it)
  std::vector<ContainerImage> images;
  // status.declaredFeatures (NodeDeclaredFeatures), sorted and without duplicates.
  std::vector<std::string> declared_features;
  std::optional<bool> ready;  // status.conditions Ready is "True" (absent: the node lists no Ready condition)
  int item_index = -1;
};

struct PriorityClass {
  std::string name;
  std::int32_t value = 0;
  bool global_default = false;
  PreemptionPolicy preemption_policy = PreemptionPolicy::PreemptLowerPriority;
  int item_index = -1;
};

// intstr.IntOrString: minAvailable / maxUnavailable.
struct IntOrPercent {
  bool is_percent = false;
  std::int32_t value = 0;
};

struct PodDisruptionBudget {
  ObjectMeta meta;
  LabelSelector selector;
  std::optional<IntOrPercent> min_available;
  std::optional<IntOrPercent> max_unavailable;
  std::optional<std::int32_t> disruptions_allowed;
  std::vector<std::string> disrupted_pods;  // status.disruptedPods keys (pod names)
  bool always_allow_unhealthy = false;      // spec.unhealthyPodEvictionPolicy: AlwaysAllow
  int item_index = -1;
};

// A workload that expands into pods: Deployment, ReplicaSet, StatefulSet, DaemonSet, Job; also Service
// (selector only) for PodTopologySpread's system default constraints.
struct Workload {
  std::string kind;
  ObjectMeta meta;
  std::int32_t replicas = 1;  // Job: spec.parallelism
  // Job only: spec.completions (absent: a work queue), spec.suspend, status.succeeded.
  std::optional<std::int32_t> completions;
  bool suspend = false;
  std::int32_t succeeded = 0;
  LabelSelector selector;
  std::optional<Pod> pod_template;  // absent for Service
  // StatefulSet only: spec.volumeClaimTemplates. Each replica's pod mounts the claim <template>-<set>-<ordinal>
  // where its template has a volume of the template's name (stateful_set_utils.go getPersistentVolumeClaimName).
  std::vector<PersistentVolumeClaim> volume_claim_templates;
  int item_index = -1;
};

struct Namespace {
  std::string name;
  Labels labels;
};

struct NodeSelectorRequirementWithMinValues {
  LabelRequirement requirement;
  std::string key_text;
  std::vector<std::string> values_text;
  std::optional<std::int32_t> min_values;
};

// spec.disruption of a NodePool (karpenter.sh/v1 Disruption, Budget), as the API server stores it after defaulting.
enum class ConsolidationPolicy { WhenEmpty, WhenEmptyOrUnderutilized, Balanced };

struct DisruptionBudget {
  std::string nodes = "10%";  // an integer or a percentage of the NodePool's nodes
  // The reasons it applies to: absent = every reason; an empty list (given as []) applies to none.
  std::optional<std::vector<std::string>> reasons;
  std::optional<std::string> schedule;   // cron, evaluated in UTC
  std::optional<std::int64_t> duration;  // seconds; set exactly when schedule is
  std::string duration_text;             // as given
};

struct NodePoolDisruption {
  ConsolidationPolicy consolidation_policy = ConsolidationPolicy::WhenEmptyOrUnderutilized;
  std::optional<std::int64_t> consolidate_after = 0;  // seconds; nullopt = Never (consolidation off)
  std::string consolidate_after_text = "0s";
  std::vector<DisruptionBudget> budgets = {DisruptionBudget{}};  // default [{nodes: 10%}]
};

struct NodePool {
  ObjectMeta meta;
  NodePoolDisruption disruption;
  std::optional<std::int64_t> expire_after = 720 * 3600;  // spec.template.spec.expireAfter, seconds; nullopt = Never
  std::string expire_after_text = "720h";
  Labels template_labels;
  std::vector<NodeSelectorRequirementWithMinValues> requirements;
  std::vector<Taint> taints;
  std::vector<Taint> startup_taints;
  std::optional<Resource> limits;
  std::vector<Symbol> limit_keys;  // the resource names spec.limits lists
  std::int32_t weight = 0;
  int item_index = -1;
};

// karpenter.sh/v1 NodeClaim from a cluster dump. One that is launched but has not registered a Node (no
// status.nodeName) is capacity in flight: Karpenter's cluster state treats it as a node that has not initialized
// (state.StateNode without a Node: its labels, the NodeClaim's taints, status.allocatable).
struct NodeClaim {
  ObjectMeta meta;
  std::vector<Taint> taints;  // spec.taints (spec.startupTaints are ignored until initialization, as upstream does)
  Resource allocatable;       // status.allocatable
  std::optional<Resource> capacity;
  std::string node_name;  // status.nodeName: registered
  bool launched = false;  // condition Launched=True (or a providerID)
  std::string provider_id;
  struct Condition {
    std::string type, status, reason;
    std::optional<std::int64_t> last_transition;  // unix seconds
  };
  std::vector<Condition> conditions;                      // status.conditions, as given
  std::optional<std::int64_t> last_pod_event;             // status.lastPodEventTime
  std::optional<std::int64_t> expire_after = 720 * 3600;  // spec.expireAfter (seconds; nullopt = Never)
  bool termination_grace_period = false;                  // spec.terminationGracePeriod is set
  const Condition* FindCondition(std::string_view type) const {
    for (const auto& c : conditions)
      if (c.type == type) return &c;
    return nullptr;
  }
  bool ConditionTrue(std::string_view type) const {
    const Condition* c = FindCondition(type);
    return c && c->status == "True";
  }
  int item_index = -1;
};

struct Offering {
  std::string zone;
  std::string capacity_type;
  double price = 0;
  bool available = true;
};

struct InstanceType {
  ObjectMeta meta;
  Resource capacity;
  Resource overhead;
  // spec.requirements: ANDed with metadata.labels (multi-valued keys, DoesNotExist, numeric bounds).
  std::vector<LabelRequirement> requirements;
  std::vector<Offering> offerings;
  int item_index = -1;
};

}  // namespace kplace
