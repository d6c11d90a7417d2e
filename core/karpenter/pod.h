// What Karpenter's scheduler knows about one pending pod (sched/scheduler.go PodData, pkg/scheduling
// NewPodRequirements), the relaxable copy of its preferences, and the provisioner's Validate.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/karpenter/requirements.h"
#include "core/karpenter/volumes.h"
#include "core/model/objects.h"

namespace kplace::karpenter {

// Beta label keys Karpenter normalises (pkg/apis/v1/labels.go NormalizedLabels).
Symbol NormalizeKey(Symbol key);

// Karpenter's well-known label keys: its core set plus every label / requirement key of the catalogue.
KeySet WellKnownKeys(const std::vector<InstanceType>& types);

struct PodData {
  const Pod* pod = nullptr;
  std::size_t index = 0;  // in Scenario::pods
  Resource requests;      // resources.RequestsForPods: PodRequests + pods 1
  std::vector<ContainerPort> host_ports;
  // The relaxable spec parts (a copy; Relax edits them).
  std::vector<NodeSelectorTerm> required_terms;
  std::vector<PreferredSchedulingTerm> preferred_terms;  // stable-sorted by weight, heaviest first
  std::vector<WeightedPodAffinityTerm> preferred_affinity, preferred_anti_affinity;
  std::vector<TopologySpreadConstraint> spread;
  std::vector<Toleration> tolerations;
  Requirements requirements;  // nodeSelector + heaviest preferred term + first required term
  Requirements strict;        // without the preferred term
  // Its volumes' topology alternatives (VolumeTopology.GetRequirements; empty: none). Added to the requirements of
  // the node or NodeClaim only, never to the pod's own (topology spread counts the pod as it asked), and never
  // relaxed.
  std::vector<Requirements> volume_requirements;
  Volumes volumes;  // the claims it mounts, by CSI driver (GetVolumes), for existing nodes' attach limits

  void Recompute();
};

PodData MakePodData(const Pod& pod, std::size_t index);

// Preferences.Relax (sched/preferences.go): applies the first applicable step and returns its log reason, or
// nullopt when nothing is left to relax. pns: some NodePool carries a PreferNoSchedule taint.
std::optional<std::string> Relax(PodData& pod, bool pns);

// provisioner.go KarpenterManagedLabelDoesNotExistError as its Error() prints it (operatorpkg serrors appends the
// values: "<message> (key=value, ...)").
inline constexpr const char* kManagedLabelDoesNotExist =
    "configured to not run on a Karpenter provisioned node (requirement=karpenter.sh/nodepool DoesNotExist)";

// Provisioner.Validate: "" when Karpenter simulates the pod, else the error it ignores the pod with (the errors of
// its checks joined by "; " as multierr prints them). storage: the claims' validation (null: not checked).
std::string ValidatePod(const Pod& pod, const KeySet& well_known, const framework::VolumeCache* storage = nullptr);

// Resource requests of a pod as Karpenter counts them (PodRequests, no defaults, + pods 1).
Resource KarpenterRequests(const Pod& pod);

}  // namespace kplace::karpenter
