#include "core/scheduler/plugins/nodeunschedulable/node_unschedulable.h"

#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

class NodeUnschedulable final : public framework::FilterPlugin {
 public:
  const char* Name() const override { return names::kNodeUnschedulable; }
  framework::Status Filter(const framework::CycleState&, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override {
    if (!node.node->unschedulable) return {};
    static const Taint kUnschedulableTaint{Intern("node.kubernetes.io/unschedulable"), kEmptySymbol,
                                           TaintEffect::NoSchedule};
    if (TolerationsTolerate(pod.pod->tolerations, kUnschedulableTaint)) return {};
    return framework::Status(framework::Code::UnschedulableAndUnresolvable, kReasonNodeUnschedulable);
  }
};

}  // namespace

std::unique_ptr<framework::Plugin> NewNodeUnschedulable(const PluginArgs&, const Features&) {
  return std::make_unique<NodeUnschedulable>();
}

}  // namespace kplace::plugins
