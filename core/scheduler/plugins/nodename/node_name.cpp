#include "core/scheduler/plugins/nodename/node_name.h"

#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

class NodeName final : public framework::FilterPlugin {
 public:
  const char* Name() const override { return names::kNodeName; }
  // Node/Add and updates (node_name.go)
  framework::ClusterEvents EventsToRegister() const override { return framework::cluster_event::kNodeAdd; }
  framework::Status Filter(const framework::CycleState&, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override {
    const auto& want = pod.pod->node_name;
    if (want.empty() || want == node.Name()) return {};
    return framework::Status(framework::Code::UnschedulableAndUnresolvable, kErrReasonNodeNameMismatch);
  }
  bool PassesEveryNode(const framework::PodInfo& pod) const override { return pod.pod->node_name.empty(); }
};

}  // namespace

std::unique_ptr<framework::Plugin> NewNodeName(const PluginArgs&, const Features&) {
  return std::make_unique<NodeName>();
}

}  // namespace kplace::plugins
