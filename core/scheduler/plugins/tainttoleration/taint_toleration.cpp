#include "core/scheduler/plugins/tainttoleration/taint_toleration.h"

#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

using framework::Code;
using framework::Status;

// v1.35 (and late 1.34 patches, PR #134740) print a generic reason; older releases name the taint.
constexpr const char* kReasonUntoleratedGeneric = "node(s) had untolerated taint(s)";

struct PreScoreState : framework::StateData {
  std::vector<Toleration> prefer_no_schedule;  // tolerations with effect "" or PreferNoSchedule
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreScoreState>(*this); }
};

class TaintToleration final : public framework::FilterPlugin,
                              public framework::PreScorePlugin,
                              public framework::ScorePlugin {
 public:
  explicit TaintToleration(const Features& f) : features_(f) {}
  const char* Name() const override { return names::kTaintToleration; }

  Status Filter(const framework::CycleState&, const framework::PodInfo& pod,
                const framework::NodeInfo& node) const override {
    const Taint* t = FindUntoleratedTaint(node.node->taints, pod.pod->tolerations, [](const Taint& x) {
      return x.effect == TaintEffect::NoSchedule || x.effect == TaintEffect::NoExecute;
    });
    if (!t) return {};
    if (features_.minor >= 35) return Status(Code::UnschedulableAndUnresolvable, kReasonUntoleratedGeneric);
    return Status(Code::UnschedulableAndUnresolvable,
                  "node(s) had untolerated taint {" + Text(t->key) + ": " + Text(t->value) + "}");
  }

  Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                  const std::vector<const framework::NodeInfo*>&, const framework::Snapshot&) override {
    auto s = std::make_unique<PreScoreState>();
    for (const auto& t : pod.pod->tolerations)
      if (t.effect == TaintEffect::None || t.effect == TaintEffect::PreferNoSchedule)
        s->prefer_no_schedule.push_back(t);
    state.Write(prescore_slot, std::move(s));
    return {};
  }

  std::int64_t Score(const framework::CycleState& state, const framework::PodInfo&, const framework::NodeInfo& node,
                     Status& status) const override {
    auto* s = state.Read<PreScoreState>(prescore_slot);
    if (!s) {
      status = Status(Code::Error, "reading \"PreScoreTaintToleration\" from cycleState: not found");
      return 0;
    }
    std::int64_t count = 0;
    for (const auto& t : node.node->taints)
      if (t.effect == TaintEffect::PreferNoSchedule && !TolerationsTolerate(s->prefer_no_schedule, t)) ++count;
    return count;
  }

  bool HasNormalize() const override { return true; }
  Status NormalizeScore(const framework::CycleState&, const framework::PodInfo&,
                        std::vector<framework::NodeScore>& scores) const override {
    framework::DefaultNormalizeScore(framework::kMaxNodeScore, true, scores);
    return {};
  }

 private:
  Features features_;
};

}  // namespace

std::unique_ptr<framework::Plugin> NewTaintToleration(const PluginArgs&, const Features& features) {
  return std::make_unique<TaintToleration>(features);
}

}  // namespace kplace::plugins
