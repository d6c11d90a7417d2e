#include "core/scheduler/plugins/noderesources/resource_allocation.h"

#include <algorithm>
#include <cmath>

#include "core/scheduler/plugins/noderesources/least_allocated.h"
#include "core/scheduler/plugins/noderesources/most_allocated.h"

namespace kplace::plugins::noderesources {

std::vector<ScoredResource> ClassifyResources(const std::vector<ResourceSpec>& specs) {
  std::vector<ScoredResource> out;
  out.reserve(specs.size());
  for (const auto& s : specs) {
    ScoredResource r;
    r.name = Intern(s.name);
    r.weight = s.weight;
    if (s.name == "cpu")
      r.kind = ResourceKind::Cpu;
    else if (s.name == "memory")
      r.kind = ResourceKind::Memory;
    else if (s.name == "ephemeral-storage")
      r.kind = ResourceKind::EphemeralStorage;
    else if (IsScalarResourceName(s.name))
      r.kind = ResourceKind::Scalar;
    out.push_back(r);
  }
  return out;
}

std::vector<std::int64_t> PodRequestList(const framework::PodInfo& pod, const std::vector<ScoredResource>& resources,
                                         bool use_requested, bool pod_level_resources) {
  // PodInfo already holds the answer for pods without pod-level resources: plain requests, and non-zero values
  // that equal "defaults for every container". With spec.resources (or a gate that differs from the one PodInfo
  // was built with) compute it as calculatePodResourceRequest does.
  Resource own;
  const Resource* requests = &pod.requests;
  std::int64_t cpu = use_requested ? pod.requests.milli_cpu : pod.non_zero_milli_cpu;
  std::int64_t memory = use_requested ? pod.requests.memory : pod.non_zero_memory;
  if (pod.pod->resources) {
    own = PodRequests(
        *pod.pod,
        {.pod_level_resources = pod_level_resources, .default_cpu = !use_requested, .default_memory = !use_requested});
    requests = &own;
    cpu = own.milli_cpu;
    memory = own.memory;
  }
  std::vector<std::int64_t> out(resources.size(), 0);
  for (std::size_t i = 0; i < resources.size(); ++i) {
    switch (resources[i].kind) {
      case ResourceKind::Cpu:
        out[i] = cpu;
        break;
      case ResourceKind::Memory:
        out[i] = memory;
        break;
      case ResourceKind::EphemeralStorage:
        out[i] = requests->ephemeral_storage;
        break;
      case ResourceKind::Scalar:
        out[i] = requests->Scalar(resources[i].name);
        break;
      case ResourceKind::Ignored:
        break;
    }
  }
  return out;
}

bool ScalarAllocatableRequest(const ScoredResource& r, const framework::NodeInfo& node, std::int64_t pod_request,
                              std::int64_t& alloc, std::int64_t& req) {
  const Resource& a = node.Allocatable();
  // An extended resource the pod does not request is not scored, nor one the node does not list.
  if (pod_request == 0) return false;
  auto it = std::find_if(a.scalar.begin(), a.scalar.end(), [&](const auto& e) { return e.first == r.name; });
  if (it == a.scalar.end()) return false;
  alloc = it->second;
  req = node.requested.Scalar(r.name) + pod_request;
  return alloc != 0;
}

ResourceAllocationScorer::ResourceAllocationScorer(const NodeResourcesFitArgs& args)
    : type_(args.strategy),
      resources_(ClassifyResources(args.resources)),
      shape_(BrokenLinearFunction::FromShape(args.shape)) {}

std::int64_t ResourceAllocationScorer::Score(const framework::NodeInfo& node,
                                             const std::vector<std::int64_t>& pod_requests) const {
  std::int64_t node_score = 0, weight_sum = 0;
  for (std::size_t i = 0; i < resources_.size(); ++i) {
    std::int64_t alloc = 0, req = 0;
    if (!AllocatableRequest(resources_[i], node, pod_requests[i], false, alloc, req)) continue;
    const std::int64_t w = resources_[i].weight;
    switch (type_) {
      case ScoringStrategyType::LeastAllocated:
        node_score += LeastRequestedScore(req, alloc) * w;
        weight_sum += w;
        break;
      case ScoringStrategyType::MostAllocated:
        node_score += MostRequestedScore(req, alloc) * w;
        weight_sum += w;
        break;
      case ScoringStrategyType::RequestedToCapacityRatio: {
        // Only resources with a positive score enter the mean (buildRequestedToCapacityRatioScorerFunction).
        std::int64_t s = RequestedToCapacityRatioScore(shape_, req, alloc);
        if (s > 0) {
          node_score += s * w;
          weight_sum += w;
        }
        break;
      }
    }
  }
  if (weight_sum == 0) return 0;
  if (type_ == ScoringStrategyType::RequestedToCapacityRatio)
    return std::llround(static_cast<double>(node_score) / static_cast<double>(weight_sum));  // math.Round
  return node_score / weight_sum;
}

}  // namespace kplace::plugins::noderesources
