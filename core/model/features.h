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
inline constexpr std::array<int, 3> kReleases = {33, 34, 35};
// The release a scenario gets when its Simulation names none.
inline constexpr int kDefaultMinor = 35;

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
  // kubernetes/kubernetes#134740 (1.35): TaintToleration's reason no longer names the taint
  // ("node(s) had untolerated taint(s)").
  TaintTolerationGenericReason,
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
    {Feature::TaintTolerationGenericReason, "TaintTolerationGenericReason", 35,
     "the taint reason is `node(s) had untolerated taint(s)`, not `... taint {key: value}`"},
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
// The supported releases as the parser's message lists them: "\"1.33\", \"1.34\" or \"1.35\"".
std::string SupportedVersionsText();
// "1.33-1.35".
std::string VersionRangeText();
// The feature table as Markdown, one row per feature and a column per release (docs/scenario-format.md holds it;
// `kplace releases` prints it).
std::string FeatureTableMarkdown();
// The minor of a kubernetesVersion string: "1.35", "v1.35", "1.35.2" -> 35; nullopt when not a supported release.
std::optional<int> ParseKubernetesVersion(std::string_view version);

}  // namespace kplace
