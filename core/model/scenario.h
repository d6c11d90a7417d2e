// A parsed scenario: every item of the input List, typed.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "core/model/features.h"
#include "core/model/objects.h"
#include "core/model/scheduler_config.h"

namespace kplace {

enum class Mode : std::uint8_t { Scheduler, Karpenter, Cluster };

struct Simulation {
  Mode mode = Mode::Cluster;
  std::uint64_t seed = 0;
  int kubernetes_minor = kDefaultMinor;  // one of kReleases
  // spec.now (RFC 3339), unix seconds: the time Karpenter's disruption controller evaluates the cluster at
  // (budget schedules; consolidateAfter, expireAfter).
  std::optional<std::int64_t> now;
  std::string now_text;
  // spec.karpenter.featureGates.SpotToSpotConsolidation (Karpenter's --feature-gates; default false): whether
  // consolidation may replace spot nodes with cheaper spot nodes.
  bool spot_to_spot_consolidation = false;
  // spec.karpenter.applyDisruption (cluster mode; default false): apply the disruption controller's commands to the
  // settled cluster one after another, kube-scheduler placing the evicted pods, until Karpenter would do nothing more.
  bool apply_disruption = false;
  // metadata.annotations["kplace.dev/compare"]: settings ("mode=karpenter", io::ParseOverrides) the scenario is best
  // seen compared under: `kplace diff FILE` without settings and the playground compare it as it is with it under
  // these ("" when none).
  std::string compare;
};

// Settings that replace the Simulation item's (and the scheduler configuration's scoring strategy) for one run:
// the two sides of a comparison (`kplace diff --a/--b`, `kplace run --compare`, the playground's Compare). Applied
// once every item is read, before the checks that depend on the release.
struct SimulationOverrides {
  std::optional<Mode> mode;
  std::optional<std::uint64_t> seed;
  std::optional<int> kubernetes_minor;
  // NodeResourcesFit's scoringStrategy.type in every profile (its resources and shape are kept).
  std::optional<ScoringStrategyType> scoring_strategy;
  bool Empty() const { return !mode && !seed && !kubernetes_minor && !scoring_strategy; }
};

// What the parser made of its input beyond the items themselves, for a summary of an imported cluster dump: what
// was inferred, dropped or left alone. Counts are of items after flattening Lists.
struct ImportSummary {
  // The input was not one plain List (typed lists, lists without kinds, single objects, arrays, several
  // documents): the shape kplace read.
  std::string shape;
  std::size_t documents = 1;
  std::size_t generated_names = 0;        // objects named from metadata.generateName
  std::size_t finished_pods = 0;          // Succeeded / Failed pods: they hold nothing
  std::size_t terminating_pods = 0;       // bound pods with deletionTimestamp: they still hold their node
  std::size_t controller_pods_kept = 0;   // pods of listed workloads that their controller will not create again
  std::size_t workloads_represented = 0;  // Deployments represented by their listed ReplicaSets
  // Pods and workloads whose pods use PersistentVolumeClaims (spec.volumes persistentVolumeClaim or ephemeral, a
  // StatefulSet's volumeClaimTemplates).
  std::size_t volume_claims = 0;
  // Pods (not finished) naming a claim that is neither in the input nor one a controller would create: a dump
  // without its PersistentVolumeClaims (kube-scheduler reports them not found).
  std::size_t missing_claims = 0;
  std::vector<std::pair<std::string, std::size_t>> ignored_kinds;  // kinds not simulated, with counts, by kind
  // Filled when the run starts (sim::NewResult): the cluster as read.
  std::size_t nodes = 0, pods_bound = 0, pods_pending = 0, other_scheduler = 0;
  // Anything to say: an imported dump rather than a hand-written List.
  bool Noteworthy() const {
    return !shape.empty() || generated_names || finished_pods || terminating_pods || controller_pods_kept ||
           workloads_represented || other_scheduler || volume_claims || missing_claims || !ignored_kinds.empty();
  }
};

struct Scenario {
  // deques: stable addresses, PodInfo and NodeInfo point into them.
  std::deque<Node> nodes;
  std::deque<Pod> pods;  // as given, plus pods expanded from workloads (generated_from set)
  std::vector<PriorityClass> priority_classes;
  std::vector<PodDisruptionBudget> pdbs;
  std::vector<Workload> workloads;  // Deployment, ReplicaSet, StatefulSet, DaemonSet, Service
  std::vector<Namespace> namespaces;
  std::vector<NodePool> node_pools;
  std::vector<InstanceType> instance_types;
  std::vector<NodeClaim> node_claims;  // from the input (karpenter.sh/v1 NodeClaim items)
  // Storage (core/model/storage.h): claims as given plus those the StatefulSet and ephemeral volume controllers
  // would create for the pods (generated: item_index of the pod's or workload's item).
  std::vector<PersistentVolumeClaim> persistent_volume_claims;
  std::vector<PersistentVolume> persistent_volumes;
  std::vector<StorageClass> storage_classes;
  std::vector<CSINode> csi_nodes;
  std::vector<CSIDriver> csi_drivers;
  std::vector<CSIStorageCapacity> csi_storage_capacities;
  // The input's NodeClaims that are launched but not registered, as the nodes Karpenter's scheduler sees in their
  // place (named after the NodeClaim, labelled karpenter.sh/nodepool and kubernetes.io/hostname, not initialized).
  // kube-scheduler does not see them: they have no Node yet.
  std::deque<Node> in_flight_node_claims;
  SchedulerConfig scheduler_config;
  Simulation simulation;
  std::vector<std::string> warnings;  // e.g. ignored item kinds
  ImportSummary import;
  // How errors name items[i] when the input was not one plain List (empty otherwise: "items[i]").
  std::vector<std::string> item_labels;
  std::string ItemLabel(int index) const {
    if (index < 0) return "";
    const auto i = static_cast<std::size_t>(index);
    return i < item_labels.size() ? item_labels[i] : "items[" + std::to_string(index) + "]";
  }
};

}  // namespace kplace
