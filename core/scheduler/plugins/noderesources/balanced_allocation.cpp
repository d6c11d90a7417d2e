#include "core/scheduler/plugins/noderesources/balanced_allocation.h"

#include <algorithm>
#include <cmath>

#include "core/scheduler/framework/node_score_memo.h"
#include "core/scheduler/plugins/names.h"
#include "core/scheduler/plugins/noderesources/resource_allocation.h"

namespace kplace::plugins {
namespace {

using framework::Code;
using framework::Status;

struct PreScoreState : framework::StateData {
  std::vector<std::int64_t> pod_requests;  // per configured resource, plain requests
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreScoreState>(*this); }
};

class BalancedAllocation final : public framework::PreScorePlugin, public framework::ScorePlugin {
 public:
  BalancedAllocation(const NodeResourcesBalancedAllocationArgs& args, const Features& f)
      : features_(f), resources_(noderesources::ClassifyResources(args.resources)) {}
  const char* Name() const override { return names::kNodeResourcesBalancedAllocation; }

  Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                  const std::vector<const framework::NodeInfo*>&, const framework::Snapshot&) override {
    auto s = std::make_unique<PreScoreState>();
    s->pod_requests = RequestList(pod);
    // A best-effort pod (nothing requested of the scored resources) is not scored (PR #130260), so that such
    // pods do not all pile onto the same node.
    bool best_effort = true;
    for (std::int64_t r : s->pod_requests) best_effort = best_effort && r == 0;
    if (best_effort) return Status::Skip();
    state.Write(prescore_slot, std::move(s));
    return {};
  }

  // Score for every node with the PreScore state read once.
  void ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                  std::vector<framework::NodeScore>& scores, Status& status) const override {
    const auto* s = state.Read<PreScoreState>(prescore_slot);
    if (resources_.empty() || !s) return framework::ScoreEach(*this, state, pod, scores, status);
    // A node's score depends on its NodeInfo and the pod's request list only: remembered per generation.
    memo_.Begin(s->pod_requests);
    for (auto& n : scores) n.score = memo_.Score(*n.node, [&] { return Balance(*n.node, s->pod_requests); });
  }

  std::int64_t Score(const framework::CycleState& state, const framework::PodInfo& pod, const framework::NodeInfo& node,
                     Status& status) const override {
    if (resources_.empty()) {
      status = Status(Code::Error, "resources not found");
      return 0;
    }
    if (const auto* s = state.Read<PreScoreState>(prescore_slot)) return Balance(node, s->pod_requests);
    return Balance(node, RequestList(pod));  // PreScore was not run: compute here, as upstream does
  }

 private:
  std::vector<std::int64_t> RequestList(const framework::PodInfo& pod) const {
    return noderesources::PodRequestList(pod, resources_, /*use_requested=*/true,
                                         features_.Enabled(Feature::PodLevelResources));
  }

  // balancedResourceScorer. Through 1.35: 100 * (1 - standard deviation of the requested/allocatable fractions
  // with the pod). From 1.36 (kubernetes/kubernetes#135573, no gate) the score is the change in balance: each side
  // is that same integer score, with and without the pod, combined as 50 + (50 + with - without) / 2 (50..100,
  // 75 when the pod does not change the balance). A resource that does not take part (allocatable 0, a scalar the
  // pod does not request) is left out of both sides.
  std::int64_t Balance(const framework::NodeInfo& node, const std::vector<std::int64_t>& pod_requests) const {
    // The fractions live on the stack for the usual few resources (no initialisation: n of them are written).
    constexpr std::size_t kSmall = 8;
    if (resources_.size() > kSmall) {
      std::vector<double> with(resources_.size()), without(resources_.size());
      return Balance(node, pod_requests, with.data(), without.data());
    }
    double with[kSmall], without[kSmall];
    return Balance(node, pod_requests, with, without);
  }

  std::int64_t Balance(const framework::NodeInfo& node, const std::vector<std::int64_t>& pod_requests, double* with,
                       double* without) const {
    const bool change = features_.Enabled(Feature::BalancedAllocationScoresBalanceChange);
    std::size_t n = 0;
    for (std::size_t i = 0; i < resources_.size(); ++i) {
      std::int64_t alloc = 0, req = 0;
      if (!noderesources::AllocatableRequest(resources_[i], node, pod_requests[i], /*use_requested=*/true, alloc, req))
        continue;
      with[n] = std::min(1.0, static_cast<double>(req) / static_cast<double>(alloc));
      if (change) without[n] = std::min(1.0, static_cast<double>(req - pod_requests[i]) / static_cast<double>(alloc));
      ++n;
    }
    const std::int64_t score_with = BalanceScore(with, n);
    if (!change) return score_with;
    const std::int64_t half = framework::kMaxNodeScore / 2;
    return half + (half + score_with - BalanceScore(without, n)) / 2;
  }

  // 100 * (1 - the population standard deviation of the fractions), truncated; 100 for fewer than two fractions.
  static std::int64_t BalanceScore(const double* fractions, std::size_t n) {
    double deviation = 0;
    if (n == 2) {
      deviation = std::fabs((fractions[0] - fractions[1]) / 2);
    } else if (n > 2) {
      double total = 0;
      for (std::size_t i = 0; i < n; ++i) total += fractions[i];
      double mean = total / static_cast<double>(n);
      double sum = 0;
      for (std::size_t i = 0; i < n; ++i) sum += (fractions[i] - mean) * (fractions[i] - mean);
      deviation = std::sqrt(sum / static_cast<double>(n));
    }
    return static_cast<std::int64_t>((1 - deviation) * static_cast<double>(framework::kMaxNodeScore));
  }

  Features features_;
  std::vector<noderesources::ScoredResource> resources_;
  mutable framework::NodeScoreMemo memo_;
};

}  // namespace

std::unique_ptr<framework::Plugin> NewNodeResourcesBalancedAllocation(const PluginArgs& args,
                                                                      const Features& features) {
  return std::make_unique<BalancedAllocation>(args.balanced_allocation, features);
}

}  // namespace kplace::plugins
