#include "core/scheduler/plugins/names.h"
#include "core/scheduler/plugins/podtopologyspread/filtering.h"
#include "core/scheduler/plugins/podtopologyspread/pod_topology_spread.h"
#include "core/scheduler/plugins/podtopologyspread/scoring.h"

namespace kplace::plugins {
namespace {

using framework::Code;
using framework::Status;
using podtopologyspread::PreFilterState;
using podtopologyspread::PreScoreState;

// plugin.go systemDefaultConstraints.
podtopologyspread::DefaultConstraints MakeDefaults(const PodTopologySpreadArgs& args) {
  podtopologyspread::DefaultConstraints d;
  d.system_defaulted = args.system_defaulting;
  if (!args.system_defaulting) {
    d.constraints = args.default_constraints;
    return d;
  }
  TopologySpreadConstraint host;
  host.max_skew = 3;
  host.topology_key = Intern("kubernetes.io/hostname");
  host.when_unsatisfiable = UnsatisfiableAction::ScheduleAnyway;
  TopologySpreadConstraint zone = host;
  zone.max_skew = 5;
  zone.topology_key = Intern("topology.kubernetes.io/zone");
  d.constraints = {host, zone};
  return d;
}

class PodTopologySpread final : public framework::PreFilterPlugin,
                                public framework::FilterPlugin,
                                public framework::PreScorePlugin,
                                public framework::ScorePlugin {
 public:
  explicit PodTopologySpread(const PluginArgs& args) : defaults_(MakeDefaults(args.topology_spread)) {}
  const char* Name() const override { return names::kPodTopologySpread; }
  // assigned pods added or deleted change the counts; Node/Add (podtopologyspread/plugin.go)
  framework::ClusterEvents EventsToRegister() const override {
    return framework::cluster_event::kAssignedPodAdd | framework::cluster_event::kAssignedPodDelete |
           framework::cluster_event::kNodeAdd;
  }

  Status PreFilter(framework::CycleState& state, const framework::PodInfo& pod, const framework::Snapshot& snapshot,
                   framework::PreFilterResult&) override {
    auto constraints = podtopologyspread::BuildConstraints(*pod.pod, defaults_, UnsatisfiableAction::DoNotSchedule,
                                                           snapshot.workloads);
    if (constraints.empty()) return Status::Skip();
    state.Write(prefilter_slot, podtopologyspread::ComputePreFilterState(pod, std::move(constraints), snapshot,
                                                                         scratch_, prefilter_data_));
    return {};
  }

  bool HasExtensions() const override { return true; }
  Status AddPod(framework::CycleState& state, const framework::PodInfo& pod, const framework::PodInfo& added,
                const framework::NodeInfo& node, const framework::Snapshot&) override {
    return Update(state, pod, added, node, 1);
  }
  Status RemovePod(framework::CycleState& state, const framework::PodInfo& pod, const framework::PodInfo& removed,
                   const framework::NodeInfo& node, const framework::Snapshot&) override {
    return Update(state, pod, removed, node, -1);
  }

  Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                const framework::NodeInfo& node) const override {
    auto* s = state.Read<PreFilterState>(prefilter_slot);
    if (!s) return Status(Code::Error, kPreFilterNotFound);
    return podtopologyspread::FilterNode(*s, pod, node);
  }

  // The state read once for the batch.
  std::size_t FilterNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                          const framework::NodeInfo* const* nodes, std::uint32_t* alive, std::size_t n,
                          Status* statuses) const override {
    auto* s = state.Read<PreFilterState>(prefilter_slot);
    if (!s) return FilterPlugin::FilterNodes(state, pod, nodes, alive, n, statuses);
    return podtopologyspread::FilterNodes(*s, pod, nodes, alive, n, statuses, Name());
  }

  Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                  const std::vector<const framework::NodeInfo*>& nodes, const framework::Snapshot& snapshot) override {
    if (snapshot.nodes.empty()) return Status::Skip();
    auto constraints = podtopologyspread::BuildConstraints(*pod.pod, defaults_, UnsatisfiableAction::ScheduleAnyway,
                                                           snapshot.workloads);
    if (constraints.empty()) return Status::Skip();
    // Only system default constraints tolerate nodes without every topology key (e.g. no zone label).
    bool require_all = !pod.pod->topology_spread_constraints.empty() || !defaults_.system_defaulted;
    state.Write(prescore_slot, podtopologyspread::ComputePreScoreState(pod, std::move(constraints), require_all, nodes,
                                                                       snapshot, scratch_, prescore_data_));
    return {};
  }

  void ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                  std::vector<framework::NodeScore>& scores, framework::Status& status) const override {
    framework::ScoreEach(*this, state, pod, scores, status);
  }

  std::int64_t Score(const framework::CycleState& state, const framework::PodInfo& pod, const framework::NodeInfo& node,
                     Status& status) const override {
    auto* s = state.Read<PreScoreState>(prescore_slot);
    if (!s) {
      status = Status(Code::Error, kPreScoreNotFound);
      return 0;
    }
    return podtopologyspread::ScoreNode(*s, pod, node);
  }

  bool HasNormalize() const override { return true; }
  Status NormalizeScore(const framework::CycleState& state, const framework::PodInfo&,
                        std::vector<framework::NodeScore>& scores) const override {
    auto* s = state.Read<PreScoreState>(prescore_slot);
    if (!s) return Status(Code::Error, kPreScoreNotFound);
    podtopologyspread::NormalizeScores(*s, scores);
    return {};
  }

 private:
  static constexpr const char* kPreFilterNotFound = "reading \"PreFilterPodTopologySpread\" from cycleState: not found";
  static constexpr const char* kPreScoreNotFound =
      "error reading \"PreScorePodTopologySpread\" from cycleState: not found";

  Status Update(framework::CycleState& state, const framework::PodInfo& pod, const framework::PodInfo& other,
                const framework::NodeInfo& node, int delta) {
    auto* s = state.Read<PreFilterState>(prefilter_slot);
    if (!s) return Status(Code::Error, kPreFilterNotFound);
    podtopologyspread::UpdateWithPod(*s, other, pod, node, delta);
    return {};
  }

  podtopologyspread::DefaultConstraints defaults_;
  podtopologyspread::Scratch scratch_;
  std::shared_ptr<podtopologyspread::PreFilterData> prefilter_data_;  // recycled between cycles
  std::shared_ptr<podtopologyspread::PreScoreData> prescore_data_;
};

}  // namespace

std::unique_ptr<framework::Plugin> NewPodTopologySpread(const PluginArgs& args, const Features&) {
  return std::make_unique<PodTopologySpread>(args);
}

}  // namespace kplace::plugins
