// What a pod requests, as the scheduler and Karpenter count it (k8s.io/component-helpers/resource/helpers.go
// PodRequests, with API-server defaulting of pod-level requests).
#pragma once

#include <cstdint>

#include "core/model/objects.h"
#include "core/model/resource.h"

namespace kplace {

inline constexpr std::int64_t kDefaultMilliCpuRequest = 100;                // schedutil.DefaultMilliCPURequest
inline constexpr std::int64_t kDefaultMemoryRequest = 200LL * 1024 * 1024;  // schedutil.DefaultMemoryRequest

// The parts of resource.PodResourcesOptions kplace models.
struct PodRequestsOptions {
  bool pod_level_resources = true;  // !SkipPodLevelResources (the PodLevelResources gate)
  // NonMissingContainerRequests: a container (regular, init, sidecar) that does not list cpu / memory counts the
  // scheduler default for it; an explicit 0 stays 0.
  bool default_cpu = false;
  bool default_memory = false;
};

// resource.PodRequests: max(regular containers + sidecars, each init container + the sidecars before it), then
// the pod-level requests replace cpu / memory / hugepages-* they set, then + overhead. Scalar entries keep every
// name the pod lists, including names the scheduler ignores. The pod-level requests are the admitted ones (see
// PodLevelRequestsSet).
Resource PodRequests(const Pod& pod, const PodRequestsOptions& opts);
// resource.IsPodLevelRequestsSet on the admitted pod: explicit pod-level requests, or (API-server defaulting,
// SetDefaults_Pod) pod-level limits from which missing requests are defaulted.
bool PodLevelRequestsSet(const Pod& pod);

// The pod-level requests after API-server defaulting (SetDefaults_Pod with PodLevelResources, pkg/apis/core/v1/
// defaults.go): when pod-level limits are set, a missing cpu / memory request takes the containers' aggregated
// request if they request it, else the pod-level limit; a missing hugepages-* request takes its limit.
// (Defaulting pod-level hugepage limits from container limits is not modelled.)
struct PodLevelRequests {
  bool set = false;
  bool has_cpu = false, has_memory = false;
  Resource values;  // cpu, memory, hugepages-* scalars
};
PodLevelRequests AdmittedPodLevelRequests(const Pod& pod);
// PodRequests with the given pod-level requests (nullptr: none count).
Resource PodRequestsWith(const Pod& pod, const PodRequestsOptions& opts, const PodLevelRequests* pl);
// True when a container (regular or init) has the flag set (e.g. &Container::has_cpu_request).
bool AnyContainer(const Pod& pod, bool Container::*flag);

}  // namespace kplace
