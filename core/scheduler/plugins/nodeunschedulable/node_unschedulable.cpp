#include "core/scheduler/plugins/nodeunschedulable/node_unschedulable.h"

#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

const Taint& UnschedulableTaint() {
  static const Taint kTaint{Intern("node.kubernetes.io/unschedulable"), kEmptySymbol, TaintEffect::NoSchedule};
  return kTaint;
}

// Upstream has no PreFilter; this one only picks the cached verdict row (always Success, so nothing visible
// changes). The verdict depends on the Node and on whether the pod tolerates the unschedulable taint.
class NodeUnschedulable final : public framework::PreFilterPlugin, public framework::FilterPlugin {
 public:
  const char* Name() const override { return names::kNodeUnschedulable; }
  // Node/Add and taint updates (node_unschedulable.go)
  framework::ClusterEvents EventsToRegister() const override { return framework::cluster_event::kNodeAdd; }

  framework::Status PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                              const framework::Snapshot& snapshot, framework::PreFilterResult&) override {
    key_.assign(1, TolerationsTolerate(pod.pod->tolerations, UnschedulableTaint()) ? 1 : 0);
    auto st = std::make_unique<framework::VerdictState>();
    st->row = cache_.Get(snapshot, key_);
    state.Write(prefilter_slot, std::move(st));
    return {};
  }

  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override {
    return framework::FilterWithVerdicts(state, prefilter_slot, node, [&]() -> framework::Status {
      if (!node.node->unschedulable) return {};
      if (TolerationsTolerate(pod.pod->tolerations, UnschedulableTaint())) return {};
      return framework::Status(framework::Code::UnschedulableAndUnresolvable, kErrReasonNodeUnschedulable);
    });
  }

 private:
  framework::NodeVerdictCache cache_;
  std::vector<std::uint64_t> key_;  // scratch
};

}  // namespace

std::unique_ptr<framework::Plugin> NewNodeUnschedulable(const PluginArgs&, const Features&) {
  return std::make_unique<NodeUnschedulable>();
}

}  // namespace kplace::plugins
