// The in-tree plugins (upstream plugins/registry.go NewInTreeRegistry, and the default profile of
// apis/config/v1/default_plugins.go): one table, in the default profile's MultiPoint order, with each plugin's
// factory, default score weight and PostFilter role. Adding a plugin: its folder, its name in names.h, one row
// here (docs/architecture.md, "A new Filter plugin").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {

using Factory = std::unique_ptr<framework::Plugin> (*)(const PluginArgs&, const Features&);

struct InTreePlugin {
  const char* name;
  // nullptr for plugins with nothing to do in kplace's model (volume plugins, the binder) or that the scheduler
  // runs itself (PrioritySort, SchedulingGates, and the PostFilter plugins below).
  Factory factory;
  // In the default profile (when `needs` is on in the release), with this score weight (0: not a score plugin).
  bool in_default_profile;
  std::int32_t default_weight;
  std::optional<Feature> needs;
  // A PostFilter plugin; the scheduler runs it (core/scheduler/scheduler.cpp PostFilter).
  bool post_filter = false;
};

// Every in-tree plugin kplace accepts in a configuration, in default-profile order.
const std::vector<InTreePlugin>& InTreePlugins();
// The row of name, or nullptr for a plugin that does not exist.
const InTreePlugin* FindInTreePlugin(const std::string& name);
// The plugin, or nullptr for known plugins without a factory.
std::unique_ptr<framework::Plugin> NewPlugin(const std::string& name, const PluginArgs& args, const Features& features);

// The plugin names of the default profile in MultiPoint order, with their default score weights
// (0 = not a score plugin).
struct DefaultPlugin {
  const char* name;
  std::int32_t weight;
};
std::vector<DefaultPlugin> DefaultMultiPoint(const Features& features);

}  // namespace kplace::plugins
