#include "core/scheduler/plugins/noderesources/fit.h"

#include <algorithm>
#include <string_view>

#include "core/scheduler/framework/node_score_memo.h"
#include "core/scheduler/plugins/names.h"
#include "core/scheduler/plugins/noderesources/resource_allocation.h"

namespace kplace::plugins {
namespace {

using framework::Code;
using framework::Status;

constexpr const char* kErrNoPreFilterState = "error reading \"PreFilterNodeResourcesFit\" from cycleState: not found";

// The pod's request (PodRequests, from PodInfo) in the form Filter checks it.
struct PreFilterState : framework::StateData {
  std::int64_t milli_cpu = 0, memory = 0, ephemeral_storage = 0;
  // Nothing requested at all (no scalar key either, even at 0): only the pod count is checked.
  bool empty = false;
  struct Scalar {
    Symbol name;
    std::int64_t value;
    std::string reason;
  };
  std::vector<Scalar> scalars;  // requested (> 0), not ignored; sorted by name
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreFilterState>(*this); }
};

struct PreScoreState : framework::StateData {
  std::vector<std::int64_t> pod_requests;  // per configured resource
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreScoreState>(*this); }
};

class Fit final : public framework::PreFilterPlugin,
                  public framework::FilterPlugin,
                  public framework::PreScorePlugin,
                  public framework::ScorePlugin {
 public:
  Fit(const NodeResourcesFitArgs& args, const Features& f)
      : features_(f),
        ignored_resources_(args.ignored_resources),
        ignored_groups_(args.ignored_resource_groups),
        scorer_(args) {}
  const char* Name() const override { return names::kNodeResourcesFit; }
  // a deleted pod frees resources; Node/Add (fit.go)
  framework::ClusterEvents EventsToRegister() const override {
    return framework::cluster_event::kAssignedPodDelete | framework::cluster_event::kNodeAdd;
  }

  Status PreFilter(framework::CycleState& state, const framework::PodInfo& pod, const framework::Snapshot&,
                   framework::PreFilterResult&) override {
    // SidecarContainers is locked on in every supported release, so restartable init containers are fine.
    auto s = std::make_unique<PreFilterState>();
    const Resource& r = pod.requests;
    s->milli_cpu = r.milli_cpu;
    s->memory = r.memory;
    s->ephemeral_storage = r.ephemeral_storage;
    s->empty = r.milli_cpu == 0 && r.memory == 0 && r.ephemeral_storage == 0 && r.scalar.empty();
    for (const auto& [name, value] : r.scalar) {
      if (value <= 0) continue;  // a zero request is never checked
      const std::string& text = Text(name);
      if (Ignored(text)) continue;
      s->scalars.push_back({name, value, kErrReasonInsufficientPrefix + text});
    }
    // Upstream walks a Go map (no stable order); kplace reports by name.
    std::sort(s->scalars.begin(), s->scalars.end(),
              [](const auto& a, const auto& b) { return Text(a.name) < Text(b.name); });
    state.Write(prefilter_slot, std::move(s));
    return {};
  }

  Status Filter(const framework::CycleState& state, const framework::PodInfo&,
                const framework::NodeInfo& node) const override {
    const auto* s = state.Read<PreFilterState>(prefilter_slot);
    if (!s) return Status(Code::Error, kErrNoPreFilterState);
    return Fits(*s, node) ? Status() : Rejection(*s, node);
  }

  // The state read once for the batch.
  std::size_t FilterNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                          const framework::NodeInfo* const* nodes, std::uint32_t* alive, std::size_t n,
                          Status* statuses) const override {
    const auto* s = state.Read<PreFilterState>(prefilter_slot);
    if (!s) return FilterPlugin::FilterNodes(state, pod, nodes, alive, n, statuses);
    std::size_t kept = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint32_t i = alive[k];
      if (Fits(*s, *nodes[i]))
        alive[kept++] = i;
      else
        statuses[i] = Rejection(*s, *nodes[i]).WithPlugin(Name());
    }
    return kept;
  }

  Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                  const std::vector<const framework::NodeInfo*>&, const framework::Snapshot&) override {
    auto s = std::make_unique<PreScoreState>();
    s->pod_requests = RequestList(pod);
    state.Write(prescore_slot, std::move(s));
    return {};
  }

  void ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                  std::vector<framework::NodeScore>& scores, framework::Status& status) const override {
    const auto* s = state.Read<PreScoreState>(prescore_slot);
    if (scorer_.resources().empty() || !s) return framework::ScoreEach(*this, state, pod, scores, status);
    // A node's score depends on its NodeInfo and the pod's request list only: remembered per generation.
    memo_.Begin(s->pod_requests);
    for (auto& n : scores) n.score = memo_.Score(*n.node, [&] { return scorer_.Score(*n.node, s->pod_requests); });
  }

  std::int64_t Score(const framework::CycleState& state, const framework::PodInfo& pod, const framework::NodeInfo& node,
                     Status& status) const override {
    if (scorer_.resources().empty()) {
      status = Status(Code::Error, "resources not found");
      return 0;
    }
    if (const auto* s = state.Read<PreScoreState>(prescore_slot)) return scorer_.Score(node, s->pod_requests);
    return scorer_.Score(node, RequestList(pod));  // PreScore was not run: compute here, as upstream does
  }

 private:
  // fitsRequest (fit.go): strict '>' against what is left; what is left may be negative.
  static bool Fits(const PreFilterState& s, const framework::NodeInfo& node) {
    const Resource& alloc = node.Allocatable();
    const Resource& used = node.requested;
    if (static_cast<std::int64_t>(node.pods.size()) + 1 > alloc.allowed_pod_number) return false;
    if (s.empty) return true;
    if (s.milli_cpu > 0 && s.milli_cpu > alloc.milli_cpu - used.milli_cpu) return false;
    if (s.memory > 0 && s.memory > alloc.memory - used.memory) return false;
    if (s.ephemeral_storage > 0 && s.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage) return false;
    for (const auto& x : s.scalars)
      if (x.value > alloc.Scalar(x.name) - used.Scalar(x.name)) return false;
    return true;
  }

  // The Status of a node Fits rejects.
  Status Rejection(const PreFilterState& s, const framework::NodeInfo& node) const {
    const Resource& alloc = node.Allocatable();
    const Resource& used = node.requested;
    const bool too_many = static_cast<std::int64_t>(node.pods.size()) + 1 > alloc.allowed_pod_number;
    if (s.empty) return Status(Code::Unschedulable, kErrReasonTooManyPods);
    const bool cpu = s.milli_cpu > 0 && s.milli_cpu > alloc.milli_cpu - used.milli_cpu;
    const bool memory = s.memory > 0 && s.memory > alloc.memory - used.memory;
    const bool ephemeral =
        s.ephemeral_storage > 0 && s.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage;
    bool scalar = false;
    for (const auto& x : s.scalars) scalar = scalar || x.value > alloc.Scalar(x.name) - used.Scalar(x.name);
    // A request above the node's whole allocatable cannot be fixed by preemption: the status is
    // UnschedulableAndUnresolvable when any failing resource is such (from 1.34, see core/model/features.h).
    bool unresolvable = (cpu && s.milli_cpu > alloc.milli_cpu) || (memory && s.memory > alloc.memory) ||
                        (ephemeral && s.ephemeral_storage > alloc.ephemeral_storage);
    for (const auto& x : s.scalars) {
      const std::int64_t total = alloc.Scalar(x.name);
      unresolvable = unresolvable || (x.value > total - used.Scalar(x.name) && x.value > total);
    }
    const Code code = features_.Enabled(Feature::NodeResourcesFitUnresolvableOverAllocatable) && unresolvable
                          ? Code::UnschedulableAndUnresolvable
                          : Code::Unschedulable;
    // The common case, one native reason, keeps the constant and allocates nothing.
    if (!scalar && too_many + cpu + memory + ephemeral == 1) {
      if (too_many) return Status(code, kErrReasonTooManyPods);
      if (cpu) return Status(code, kErrReasonInsufficientCpu);
      if (memory) return Status(code, kErrReasonInsufficientMemory);
      return Status(code, kErrReasonInsufficientEphemeralStorage);
    }
    std::vector<std::string> reasons;
    if (too_many) reasons.emplace_back(kErrReasonTooManyPods);
    if (cpu) reasons.emplace_back(kErrReasonInsufficientCpu);
    if (memory) reasons.emplace_back(kErrReasonInsufficientMemory);
    if (ephemeral) reasons.emplace_back(kErrReasonInsufficientEphemeralStorage);
    for (const auto& x : s.scalars)
      if (x.value > alloc.Scalar(x.name) - used.Scalar(x.name)) reasons.push_back(x.reason);
    return Status(code, std::move(reasons));
  }

  std::vector<std::int64_t> RequestList(const framework::PodInfo& pod) const {
    return noderesources::PodRequestList(pod, scorer_.resources(), /*use_requested=*/false,
                                         features_.Enabled(Feature::PodLevelResources));
  }

  // ignoredResources / ignoredResourceGroups apply to extended resources only.
  bool Ignored(const std::string& name) const {
    if (ignored_resources_.empty() && ignored_groups_.empty()) return false;
    if (!IsExtendedResourceName(name)) return false;
    if (std::find(ignored_resources_.begin(), ignored_resources_.end(), name) != ignored_resources_.end()) return true;
    std::string_view group = std::string_view(name).substr(0, name.find('/'));
    return std::find(ignored_groups_.begin(), ignored_groups_.end(), group) != ignored_groups_.end();
  }

  Features features_;
  std::vector<std::string> ignored_resources_;
  std::vector<std::string> ignored_groups_;
  noderesources::ResourceAllocationScorer scorer_;
  mutable framework::NodeScoreMemo memo_;
};

}  // namespace

std::unique_ptr<framework::Plugin> NewNodeResourcesFit(const PluginArgs& args, const Features& features) {
  return std::make_unique<Fit>(args.fit, features);
}

}  // namespace kplace::plugins
