// NodeAffinity: Filter enforces the pod's spec.nodeSelector, its required node affinity and the scheduler's
// addedAffinity; PreFilter narrows the nodes to metadata.name matchFields; Score sums the weights of matching
// preferred terms (upstream plugins/nodeaffinity/node_affinity.go and
// component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/model/features.h"
#include "core/model/objects.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {

inline constexpr const char* kErrReasonNodeAffinityPod = "node(s) didn't match Pod's node affinity/selector";
inline constexpr const char* kErrReasonNodeAffinityEnforced = "node(s) didn't match scheduler-enforced node affinity";
inline constexpr const char* kErrReasonNodeAffinityConflict = "pod affinity terms conflict";

std::unique_ptr<framework::Plugin> NewNodeAffinity(const PluginArgs& args, const Features& features);

// nodeaffinity.NewPreferredSchedulingTerms: the parse errors of the terms that count (weight != 0 and a non-empty
// preference), field paths "[i].matchExpressions[j]...". Empty when the terms are usable.
std::vector<FieldError> PreferredSchedulingTermsErrors(const std::vector<PreferredSchedulingTerm>& terms);
// PreferredSchedulingTerms.Score: the sum of the weights of the counting, valid terms that match the node.
std::int64_t PreferredSchedulingTermsScore(const std::vector<PreferredSchedulingTerm>& terms, const Node& node);

}  // namespace kplace::plugins
