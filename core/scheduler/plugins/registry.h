// The in-tree plugin registry (upstream plugins/registry.go): name -> factory.
#pragma once

#include <memory>
#include <string>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {

// True for every upstream in-tree plugin name kplace accepts in a configuration.
bool IsKnownPlugin(const std::string& name);
// The plugin, or nullptr for known plugins that have nothing to do in kplace's model (volume plugins, the
// binder) or that the scheduler runs itself (PrioritySort, SchedulingGates, DefaultPreemption,
// DynamicResources' PostFilter).
std::unique_ptr<framework::Plugin> NewPlugin(const std::string& name, const PluginArgs& args, const Features& features);

}  // namespace kplace::plugins
