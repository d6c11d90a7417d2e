// The Kubernetes releases kplace reproduces, and every behaviour that differs between them, in one table.
// Upstream keeps each feature gate with its per-release default in one map (pkg/features/
// versioned_kube_features.go) and code asks `feature.DefaultFeatureGate.Enabled(features.X)`; kplace does the same:
// code asks Features::Enabled(Feature::X), never the minor number. The scenario parser, its error message, the
// CLI help, the app and the docs read the supported releases from here.
//
// To support a new release: add its minor to kReleases (and make it kDefaultMinor if it is the newest), add a row
// to kFeatureTable for each behaviour that changes in it, and ask Enabled() where the behaviour lives.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kplace {

// Kubernetes 1.<minor> releases kplace reproduces, oldest first.
inline constexpr std::array<int, 5> kReleases = {33, 34, 35, 36, 37};
// The release a scenario gets when its Simulation names none.
inline constexpr int kDefaultMinor = 37;

// Behaviours that change between supported releases. Each is named after the upstream feature gate, or, when the
// change had no gate, after what changed.
enum class Feature : std::uint8_t {
  // Gate PodLevelResources (beta, on by default from 1.34): a pod's spec.resources requests count in PodRequests.
  PodLevelResources,
  // Gate DynamicResourceAllocation (GA in 1.34): the DynamicResources plugin is in the default profile.
  DynamicResourceAllocation,
  // kubernetes/kubernetes#131345 (1.34): NodeResourcesFit rejects with UnschedulableAndUnresolvable when a request
  // exceeds the node's whole allocatable (preemption cannot help).
  NodeResourcesFitUnresolvableOverAllocatable,
  // Gate ContainerRestartRules (alpha, off in 1.34): the API server drops a container restartPolicy it does not allow
  // (any on a regular container, other than Always on an init container) and restartPolicyRules, where 1.33 rejects
  // a regular container's restartPolicy.
  ContainerRestartRulesDropped,
  // kubernetes/kubernetes (1.34): ``hostNetwork: Forbidden: when `hostUsers` is false`` (1.33 names
  // `pod.Spec.HostUsers`).
  HostUsersMessageNamesField,
  // Gate ContainerRestartRules (beta and on from 1.35): a regular container may set restartPolicy and
  // restartPolicyRules, which are validated.
  ContainerRestartRules,
  // kubernetes/kubernetes#134740 (1.35): TaintToleration's reason no longer names the taint
  // ("node(s) had untolerated taint(s)").
  TaintTolerationGenericReason,
  // kubernetes/kubernetes#135573 (1.36, no gate): NodeResourcesBalancedAllocation scores the change in balance the
  // pod makes (with against without it), not only the balance with it.
  BalancedAllocationScoresBalanceChange,
  // Gate RestartAllContainersOnContainerExits (beta and on from 1.36): the restart rule action RestartAllContainers
  // is allowed (on a sidecar too).
  RestartAllContainersOnContainerExits,
  // kubernetes/kubernetes#137136 and #137369 (1.36): restart rules over their limits read `Too many: <n>: must have
  // at most <N> items` (`Too long: may not be more than <N> bytes` before); an unsupported action lists the allowed
  // actions (1.35 lists "Restart" only).
  RestartRulesValidationMessages,
  // Gate NodeDeclaredFeatures (beta and on from 1.36, GA in 1.37): the NodeDeclaredFeatures plugin is the last
  // plugin of the default profile; a pod that needs a node feature only fits nodes whose status.declaredFeatures
  // list it.
  NodeDeclaredFeatures,
  // kubernetes/kubernetes#130231 (1.36): ImageLocality adds the images of image volumes
  // (spec.volumes[].image.reference) to its sum (not yet to the threshold's image count).
  ImageLocalityImageVolumes,
  // kubernetes/kubernetes#138951 (1.37): ImageLocality's maximum threshold counts image volumes too.
  ImageLocalityThresholdCountsImageVolumes,
  // kubernetes/kubernetes#140222 (1.37): DynamicResources' PostFilter for a pod without claims says nothing (no
  // `no new claims to deallocate, ` before the preemption message).
  DynamicResourcesQuietPostFilter,
  // kubernetes/kubernetes#139057 (1.37): a gated pod with status.nominatedNodeName is in the nominator, so it holds
  // its room on that node against pods of lower or equal priority.
  NominatedGatedPods,
  // Gate StorageCapacityScoring (beta and on from 1.37): VolumeBinding scores nodes by the storage a pod's unbound
  // claims would use there (PV capacity of static bindings, else CSIStorageCapacity), preferring the most room.
  StorageCapacityScoring,
  // Gate VolumeLimitScaling (beta and on from 1.37): NodeVolumeLimits rejects a node whose CSINode does not list a
  // CSI driver the pod needs, when that driver's CSIDriver sets preventPodSchedulingIfMissing.
  VolumeLimitScaling,
  // volumerestrictions/volume_restrictions.go (1.34): the ReadWriteOncePod conflict reads `node(s) unavailable due to
  // PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod` (1.33: `node has pod using
  // PersistentVolumeClaim with the same name and ReadWriteOncePod access mode`).
  VolumeRestrictionsReadWriteOncePodMessage,
};

struct FeatureSpec {
  Feature feature;
  const char* name;
  int since_minor;   // on in this release and every later one
  const char* what;  // one line for the docs and `kplace releases`
};

inline constexpr FeatureSpec kFeatureTable[] = {
    {Feature::PodLevelResources, "PodLevelResources", 34, "a pod's spec.resources requests count"},
    {Feature::DynamicResourceAllocation, "DynamicResourceAllocation", 34,
     "DynamicResources is in the default profile (its part of the FailedScheduling message)"},
    {Feature::NodeResourcesFitUnresolvableOverAllocatable, "NodeResourcesFitUnresolvableOverAllocatable", 34,
     "a request above a node's whole allocatable is unresolvable: preemption skips the node"},
    {Feature::ContainerRestartRulesDropped, "ContainerRestartRulesDropped", 34,
     "the API server drops a container `restartPolicy` it does not allow instead of rejecting it"},
    {Feature::HostUsersMessageNamesField, "HostUsersMessageNamesField", 34,
     "hostNetwork with hostUsers false is `Forbidden: when `hostUsers` is false`"},
    {Feature::VolumeRestrictionsReadWriteOncePodMessage, "VolumeRestrictionsReadWriteOncePodMessage", 34,
     "VolumeRestrictions' ReadWriteOncePod reason names the claim in use by another pod"},
    {Feature::ContainerRestartRules, "ContainerRestartRules", 35,
     "a regular container may set `restartPolicy` and `restartPolicyRules` (validated)"},
    {Feature::TaintTolerationGenericReason, "TaintTolerationGenericReason", 35,
     "the taint reason is `node(s) had untolerated taint(s)`, not `... taint {key: value}`"},
    {Feature::BalancedAllocationScoresBalanceChange, "BalancedAllocationScoresBalanceChange", 36,
     "NodeResourcesBalancedAllocation scores the change in balance: `50 + (50 + with - without) / 2`"},
    {Feature::RestartAllContainersOnContainerExits, "RestartAllContainersOnContainerExits", 36,
     "the restart rule action `RestartAllContainers` is allowed"},
    {Feature::RestartRulesValidationMessages, "RestartRulesValidationMessages", 36,
     "restart rules over a limit are `Too many: ...`; an unsupported action lists the allowed ones"},
    {Feature::NodeDeclaredFeatures, "NodeDeclaredFeatures", 36,
     "NodeDeclaredFeatures is in the default profile: a pod needing a node feature fits only nodes declaring it"},
    {Feature::ImageLocalityImageVolumes, "ImageLocalityImageVolumes", 36,
     "ImageLocality adds image volumes' images to its score"},
    {Feature::ImageLocalityThresholdCountsImageVolumes, "ImageLocalityThresholdCountsImageVolumes", 37,
     "ImageLocality's maximum threshold counts image volumes too"},
    {Feature::DynamicResourcesQuietPostFilter, "DynamicResourcesQuietPostFilter", 37,
     "no `no new claims to deallocate, ` before the preemption part of the FailedScheduling message"},
    {Feature::NominatedGatedPods, "NominatedGatedPods", 37,
     "a gated pod's status.nominatedNodeName holds its room against pods of lower or equal priority"},
    {Feature::StorageCapacityScoring, "StorageCapacityScoring", 37,
     "VolumeBinding scores nodes (weight 1): most free storage for the pod's unbound claims first"},
    {Feature::VolumeLimitScaling, "VolumeLimitScaling", 37,
     "NodeVolumeLimits: a CSIDriver with preventPodSchedulingIfMissing needs the node's CSINode to list it"},
};

// What one release does: the features on in it.
class Features {
 public:
  // The default release.
  Features() : Features(kDefaultMinor) {}
  // minor must be one of kReleases (the scenario parser checks input).
  explicit Features(int minor);

  int minor() const { return minor_; }
  bool Enabled(Feature f) const { return (bits_ >> static_cast<unsigned>(f)) & 1u; }

 private:
  int minor_ = kDefaultMinor;
  std::uint32_t bits_ = 0;
};

bool IsSupportedMinor(int minor);
// "1.35" for 35.
std::string VersionText(int minor);
// The supported releases as the parser's message lists them: "\"1.33\", \"1.34\", ... or \"1.37\"".
std::string SupportedVersionsText();
// "1.33-1.37".
std::string VersionRangeText();
// The feature table as Markdown, one row per feature and a column per release (docs/scenario-format.md holds it;
// `kplace releases` prints it).
std::string FeatureTableMarkdown();
// The minor of a kubernetesVersion string: "1.35", "v1.35", "1.35.2" -> 35; nullopt when not a supported release.
std::optional<int> ParseKubernetesVersion(std::string_view version);

}  // namespace kplace
