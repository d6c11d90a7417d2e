#include "core/scheduler/plugins/tainttoleration/taint_toleration.h"

#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

using framework::Code;
using framework::Status;

struct PreScoreState : framework::StateData {
  std::vector<Toleration> prefer_no_schedule;  // tolerations with effect "" or PreferNoSchedule
  // Per snapshot node: untolerated PreferNoSchedule count + 1 (0 = not yet computed), shared by pods with the same
  // prefer_no_schedule tolerations; depends only on the Node's taints.
  std::shared_ptr<framework::NodeVerdictCache::Row> counts;
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreScoreState>(*this); }
};

// Upstream has no PreFilter; this one only picks the cached Filter verdict row (always Success). Filter verdicts
// depend on the Node's taints and the pod's tolerations (key, operator, value, effect).
class TaintToleration final : public framework::PreFilterPlugin,
                              public framework::FilterPlugin,
                              public framework::PreScorePlugin,
                              public framework::ScorePlugin {
 public:
  explicit TaintToleration(const Features& f) : features_(f) {}
  const char* Name() const override { return names::kTaintToleration; }
  // Node/Add and taint updates (taint_toleration.go)
  framework::ClusterEvents EventsToRegister() const override { return framework::cluster_event::kNodeAdd; }

  Status PreFilter(framework::CycleState& state, const framework::PodInfo& pod, const framework::Snapshot& snapshot,
                   framework::PreFilterResult&) override {
    EncodeTolerations(pod.pod->tolerations);
    auto st = std::make_unique<framework::VerdictState>();
    st->row = cache_.Get(snapshot, key_);
    state.Write(prefilter_slot, std::move(st));
    return {};
  }

  Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                const framework::NodeInfo& node) const override {
    return framework::FilterWithVerdicts(state, prefilter_slot, node, [&] { return FilterNode(pod, node); });
  }

  Status FilterNode(const framework::PodInfo& pod, const framework::NodeInfo& node) const {
    const Taint* t = FindUntoleratedTaint(node.node->taints, pod.pod->tolerations, [](const Taint& x) {
      return x.effect == TaintEffect::NoSchedule || x.effect == TaintEffect::NoExecute;
    });
    if (!t) return {};
    if (features_.Enabled(Feature::TaintTolerationGenericReason))
      return Status(Code::UnschedulableAndUnresolvable, kErrReasonUntoleratedTaints);
    return Status(Code::UnschedulableAndUnresolvable,
                  "node(s) had untolerated taint {" + Text(t->key) + ": " + Text(t->value) + "}");
  }

  Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                  const std::vector<const framework::NodeInfo*>&, const framework::Snapshot& snapshot) override {
    auto s = std::make_unique<PreScoreState>();
    for (const auto& t : pod.pod->tolerations)
      if (t.effect == TaintEffect::None || t.effect == TaintEffect::PreferNoSchedule)
        s->prefer_no_schedule.push_back(t);
    EncodeTolerations(s->prefer_no_schedule);
    s->counts = score_cache_.Get(snapshot, key_);
    state.Write(prescore_slot, std::move(s));
    return {};
  }

  // The state read once for every node; each node's count from the shared row when it holds one.
  void ScoreNodes(const framework::CycleState& state, const framework::PodInfo&,
                  std::vector<framework::NodeScore>& scores, framework::Status& status) const override {
    const auto* s = state.Read<PreScoreState>(prescore_slot);
    if (!s) {
      status = Status(Code::Error, kErrNoPreScoreState);
      return;
    }
    for (auto& n : scores) n.score = Count(*s, *n.node);
  }

  std::int64_t Score(const framework::CycleState& state, const framework::PodInfo&, const framework::NodeInfo& node,
                     Status& status) const override {
    const auto* s = state.Read<PreScoreState>(prescore_slot);
    if (!s) {
      status = Status(Code::Error, kErrNoPreScoreState);
      return 0;
    }
    return Count(*s, node);
  }

  bool HasNormalize() const override { return true; }
  Status NormalizeScore(const framework::CycleState&, const framework::PodInfo&,
                        std::vector<framework::NodeScore>& scores) const override {
    framework::DefaultNormalizeScore(framework::kMaxNodeScore, true, scores);
    return {};
  }

 private:
  static constexpr const char* kErrNoPreScoreState = "reading \"PreScoreTaintToleration\" from cycleState: not found";

  // The node's untolerated PreferNoSchedule taints (the score before NormalizeScore).
  static std::int64_t Count(const PreScoreState& s, const framework::NodeInfo& node) {
    const auto i = static_cast<std::size_t>(node.index);
    const auto& row = s.counts;
    const bool cached = row && i < row->verdict.size() && (*row->nodes)[i] == node.node;
    if (cached && row->verdict[i] != 0) return row->verdict[i] - 1;
    std::int64_t count = 0;
    for (const auto& t : node.node->taints)
      if (t.effect == TaintEffect::PreferNoSchedule && !TolerationsTolerate(s.prefer_no_schedule, t)) ++count;
    if (cached && count < 255) row->verdict[i] = static_cast<std::uint8_t>(count + 1);
    return count;
  }

  // key_ = the tolerations' key, value, operator and effect (all a Filter or Score verdict reads).
  void EncodeTolerations(const std::vector<Toleration>& tolerations) {
    key_.clear();
    for (const auto& t : tolerations) {
      key_.push_back(t.key);
      key_.push_back(t.value);
      key_.push_back(static_cast<std::uint64_t>(t.op) << 8 | static_cast<std::uint64_t>(t.effect));
    }
  }

  Features features_;
  framework::NodeVerdictCache score_cache_;
  framework::NodeVerdictCache cache_;
  std::vector<std::uint64_t> key_;  // scratch
};

}  // namespace

std::unique_ptr<framework::Plugin> NewTaintToleration(const PluginArgs&, const Features& features) {
  return std::make_unique<TaintToleration>(features);
}

}  // namespace kplace::plugins
