#include "core/scheduler/plugins/nodedeclaredfeatures/node_declared_features.h"

#include <algorithm>

#include "core/model/pod_requests.h"
#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

struct PreFilterState : framework::StateData {
  std::vector<std::string> required;
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreFilterState>(*this); }
};

class NodeDeclaredFeatures final : public framework::PreFilterPlugin, public framework::FilterPlugin {
 public:
  explicit NodeDeclaredFeatures(const Features& f) : features_(f) {}
  const char* Name() const override { return names::kNodeDeclaredFeatures; }
  // Node/Add and a node's declaredFeatures changing (nodedeclaredfeatures.go EventsToRegister)
  framework::ClusterEvents EventsToRegister() const override { return framework::cluster_event::kNodeAdd; }

  // A pod that needs no feature is skipped: its Filter never runs.
  framework::Status PreFilter(framework::CycleState& state, const framework::PodInfo& pod, const framework::Snapshot&,
                              framework::PreFilterResult&) override {
    std::vector<std::string> required = RequiredNodeFeatures(*pod.pod, features_);
    if (required.empty()) return framework::Status::Skip();
    auto s = std::make_unique<PreFilterState>();
    s->required = std::move(required);
    state.Write(prefilter_slot, std::move(s));
    return {};
  }

  // Every needed feature must be declared; else UnschedulableAndUnresolvable (no eviction adds a feature). The
  // reason does not name the features (1.36 on: the plugin checks the subset without computing the difference).
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo&,
                           const framework::NodeInfo& node) const override {
    const auto* s = state.Read<PreFilterState>(prefilter_slot);
    if (!s)
      return framework::Status(framework::Code::Error,
                               "error reading \"PreFilterNodeDeclaredFeatures\" from cycle-state: not found");
    const auto& declared = node.node->declared_features;
    if (std::includes(declared.begin(), declared.end(), s->required.begin(), s->required.end())) return {};
    return framework::Status(framework::Code::UnschedulableAndUnresolvable, kErrReasonNodeDeclaredFeatures);
  }

 private:
  Features features_;
};

}  // namespace

std::vector<std::string> RequiredNodeFeatures(const Pod& pod, const Features& features) {
  std::vector<std::string> out;
  if (!features.Enabled(Feature::NodeDeclaredFeatures)) return out;
  // The features the registry infers at scheduling time (its other features only matter when a running pod is
  // updated), in name order. 1.37's registry adds VolumeBindMountOptions (volume mounts with bindMountOptions), but
  // the API server drops that field while its gate is alpha and off, so no pod it accepts needs the feature. It
  // also rejects hostNetwork with hostUsers false (UserNamespacesHostNetworkSupport is alpha and off), so with the
  // default gates only RestartAllContainersOnContainerExits can be needed; the other rule applies to pods handed to
  // the scheduler without that validation (kplace's plugin tables).
  if (AnyContainer(pod, &Container::restart_all_containers)) out.push_back("RestartAllContainersOnContainerExits");
  if (pod.host_network && pod.host_users == false) out.push_back("UserNamespacesHostNetworkSupport");
  return out;
}

std::vector<std::string> KubeletDeclaredFeatures(const Features& features) {
  if (!features.Enabled(Feature::NodeDeclaredFeatures)) return {};
  return {"RestartAllContainersOnContainerExits"};
}

std::unique_ptr<framework::Plugin> NewNodeDeclaredFeatures(const PluginArgs&, const Features& features) {
  return std::make_unique<NodeDeclaredFeatures>(features);
}

}  // namespace kplace::plugins
