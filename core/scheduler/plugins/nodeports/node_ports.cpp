#include "core/scheduler/plugins/nodeports/node_ports.h"

#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

// HostPortInfo.CheckConflict (framework/types.go): 0.0.0.0 conflicts with every IP on the same protocol/port.
bool Conflicts(const framework::NodeInfo& node, const ContainerPort& want) {
  static const Symbol kAny = Intern("0.0.0.0");
  if (want.host_port <= 0) return false;
  for (const auto& used : node.used_ports) {
    if (used.port != want.host_port || used.protocol != want.protocol) continue;
    if (want.host_ip == kAny || used.ip == kAny || used.ip == want.host_ip) return true;
  }
  return false;
}

class NodePorts final : public framework::PreFilterPlugin, public framework::FilterPlugin {
 public:
  const char* Name() const override { return names::kNodePorts; }
  // a deleted pod frees its host ports; Node/Add (node_ports.go)
  framework::ClusterEvents EventsToRegister() const override {
    return framework::cluster_event::kAssignedPodDelete | framework::cluster_event::kNodeAdd;
  }
  framework::Status PreFilter(framework::CycleState&, const framework::PodInfo& pod, const framework::Snapshot&,
                              framework::PreFilterResult&) override {
    if (pod.host_ports.empty()) return framework::Status::Skip();
    return {};
  }
  framework::Status Filter(const framework::CycleState&, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override {
    for (const auto& p : pod.host_ports)
      if (Conflicts(node, p)) return framework::Status(framework::Code::Unschedulable, kErrReasonNodePorts);
    return {};
  }
};

}  // namespace

std::unique_ptr<framework::Plugin> NewNodePorts(const PluginArgs&, const Features&) {
  return std::make_unique<NodePorts>();
}

}  // namespace kplace::plugins
