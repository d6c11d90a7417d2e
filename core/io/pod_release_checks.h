// API-server checks of a pod spec whose rules depend on the Kubernetes release (validate_pod.h runs the rest).
#pragma once

#include "core/io/json_reader.h"

namespace kplace::io {

// The checks whose rules depend on the Kubernetes release (feature gates with per-release defaults: a container's
// restartPolicy and restartPolicyRules, hostNetwork with hostUsers false). The Simulation item that names the
// release may come after the pods, so these run once the whole scenario is read (ScenarioBuilder::Finish), in item
// order; they are kept only for the rare spec that sets such a field.
struct ReleaseDependentPodCheck {
  Json spec;  // the pod's (or template's) spec
  Reader at;  // at spec
};

// The release-dependent checks of one spec under Kubernetes 1.<minor>; throws the first failure.
void ValidateReleaseDependentPodSpec(const ReleaseDependentPodCheck& check, int minor);

}  // namespace kplace::io
