// The scoring part shared by NodeResourcesFit and NodeResourcesBalancedAllocation (upstream
// plugins/noderesources/resource_allocation.go): which resources are scored, the incoming pod's request for each
// (computed once in PreScore) and a node's (allocatable, requested) pair for each (read in Score).
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/types.h"
#include "core/scheduler/plugins/noderesources/requested_to_capacity_ratio.h"

namespace kplace::plugins::noderesources {

enum class ResourceKind : std::uint8_t {
  Cpu,
  Memory,
  EphemeralStorage,
  Scalar,   // extended, hugepages-*, kubernetes.io/-prefixed, attachable-volumes-*
  Ignored,  // any other name: never scored
};

// One configured resource ({name, weight}), classified once at construction.
struct ScoredResource {
  ResourceKind kind = ResourceKind::Ignored;
  Symbol name = kEmptySymbol;
  std::int64_t weight = 1;
};

std::vector<ScoredResource> ClassifyResources(const std::vector<ResourceSpec>& specs);

// calculatePodResourceRequestList: the pod's request per resource. use_requested = false applies the scheduler's
// non-zero cpu / memory defaults to every container (Fit); true uses plain requests (BalancedAllocation).
// pod_level_resources: the PodLevelResources gate.
std::vector<std::int64_t> PodRequestList(const framework::PodInfo& pod, const std::vector<ScoredResource>& resources,
                                         bool use_requested, bool pod_level_resources);

// The extended-resource case of AllocatableRequest.
bool ScalarAllocatableRequest(const ScoredResource& r, const framework::NodeInfo& node, std::int64_t pod_request,
                              std::int64_t& alloc, std::int64_t& req);

// calculateResourceAllocatableRequest: the node's allocatable and its requested amount including the pod. cpu and
// memory use the node's non-zero sums unless use_requested. Returns false when the resource does not take part
// for this node: alloc is 0, the pod does not request a scalar resource, or the node does not list it. Inline: the
// score plugins call it per resource per node.
inline bool AllocatableRequest(const ScoredResource& r, const framework::NodeInfo& node, std::int64_t pod_request,
                               bool use_requested, std::int64_t& alloc, std::int64_t& req) {
  const Resource& a = node.Allocatable();
  switch (r.kind) {
    case ResourceKind::Cpu:
      alloc = a.milli_cpu;
      req = (use_requested ? node.requested.milli_cpu : node.non_zero_milli_cpu) + pod_request;
      break;
    case ResourceKind::Memory:
      alloc = a.memory;
      req = (use_requested ? node.requested.memory : node.non_zero_memory) + pod_request;
      break;
    case ResourceKind::EphemeralStorage:
      alloc = a.ephemeral_storage;
      req = node.requested.ephemeral_storage + pod_request;
      break;
    case ResourceKind::Scalar:
      return ScalarAllocatableRequest(r, node, pod_request, alloc, req);
    case ResourceKind::Ignored:
      return false;
  }
  return alloc != 0;
}

// NodeResourcesFit's scorer: the configured strategy's weighted mean over the resources.
class ResourceAllocationScorer {
 public:
  explicit ResourceAllocationScorer(const NodeResourcesFitArgs& args);
  const std::vector<ScoredResource>& resources() const { return resources_; }
  std::int64_t Score(const framework::NodeInfo& node, const std::vector<std::int64_t>& pod_requests) const;

 private:
  ScoringStrategyType type_;
  std::vector<ScoredResource> resources_;
  BrokenLinearFunction shape_;
};

}  // namespace kplace::plugins::noderesources
