// PodTopologySpread: spreads pods over topology domains (upstream plugins/podtopologyspread). Filter enforces the
// DoNotSchedule constraints' maxSkew; Score prefers domains with fewer matching pods for ScheduleAnyway ones (and
// the system default constraints).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
inline constexpr const char* kErrReasonTopologySpreadConstraintsNotMatch =
    "node(s) didn't match pod topology spread constraints";
inline constexpr const char* kErrReasonTopologySpreadNodeLabelNotMatch =
    "node(s) didn't match pod topology spread constraints (missing required label)";
std::unique_ptr<framework::Plugin> NewPodTopologySpread(const PluginArgs& args, const Features& features);
}  // namespace kplace::plugins
