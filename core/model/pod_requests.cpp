#include "core/model/pod_requests.h"

#include <algorithm>

namespace kplace {
namespace {

// Per resource max that, like maxResourceList on a ResourceList, also records a scalar key listed with 0.
void MaxInto(Resource& dst, const Resource& o) {
  dst.milli_cpu = std::max(dst.milli_cpu, o.milli_cpu);
  dst.memory = std::max(dst.memory, o.memory);
  dst.ephemeral_storage = std::max(dst.ephemeral_storage, o.ephemeral_storage);
  dst.allowed_pod_number = std::max(dst.allowed_pod_number, o.allowed_pod_number);
  for (const auto& [k, v] : o.scalar) {
    auto it = std::find_if(dst.scalar.begin(), dst.scalar.end(), [k = k](const auto& e) { return e.first == k; });
    if (it == dst.scalar.end() || v > it->second) dst.SetScalar(k, v);
  }
}

bool HasScalarKey(const Resource& r, Symbol k) {
  return std::any_of(r.scalar.begin(), r.scalar.end(), [k](const auto& e) { return e.first == k; });
}

// AggregateContainerRequests: regular containers and sidecars run together; each plain init container runs with
// the sidecars declared before it.
Resource AggregateContainerRequests(const Pod& pod, bool default_cpu, bool default_memory) {
  auto requests = [&](const Container& c) {
    Resource r = c.requests;
    if (default_cpu && !c.has_cpu_request) r.milli_cpu = kDefaultMilliCpuRequest;
    if (default_memory && !c.has_memory_request) r.memory = kDefaultMemoryRequest;
    return r;
  };
  Resource reqs;
  for (const auto& c : pod.containers) reqs.Add(requests(c));
  Resource sidecars, init_max;
  for (const auto& c : pod.init_containers) {
    Resource r = requests(c);
    if (c.restart_always) {
      reqs.Add(r);
      sidecars.Add(r);
      r = sidecars;
    } else {
      r.Add(sidecars);
    }
    MaxInto(init_max, r);
  }
  MaxInto(reqs, init_max);
  return reqs;
}

}  // namespace

bool AnyContainer(const Pod& pod, bool Container::*flag) {
  for (const auto& c : pod.containers)
    if (c.*flag) return true;
  for (const auto& c : pod.init_containers)
    if (c.*flag) return true;
  return false;
}

PodLevelRequests AdmittedPodLevelRequests(const Pod& pod) {
  PodLevelRequests out;
  if (!pod.resources) return out;
  const PodLevelResources& pl = *pod.resources;
  out.values = pl.requests;
  out.has_cpu = pl.request_cpu;
  out.has_memory = pl.request_memory;
  bool limits_set = pl.limit_cpu || pl.limit_memory || !pl.limits.scalar.empty();
  if (limits_set) {
    if (!out.has_cpu || !out.has_memory) {
      bool cpu_from_containers = !out.has_cpu && AnyContainer(pod, &Container::has_cpu_request);
      bool memory_from_containers = !out.has_memory && AnyContainer(pod, &Container::has_memory_request);
      Resource agg;
      if (cpu_from_containers || memory_from_containers) agg = AggregateContainerRequests(pod, false, false);
      if (cpu_from_containers) {
        out.values.milli_cpu = agg.milli_cpu;
        out.has_cpu = true;
      } else if (!out.has_cpu && pl.limit_cpu) {
        out.values.milli_cpu = pl.limits.milli_cpu;
        out.has_cpu = true;
      }
      if (memory_from_containers) {
        out.values.memory = agg.memory;
        out.has_memory = true;
      } else if (!out.has_memory && pl.limit_memory) {
        out.values.memory = pl.limits.memory;
        out.has_memory = true;
      }
    }
    for (const auto& [k, v] : pl.limits.scalar)
      if (!HasScalarKey(out.values, k)) out.values.SetScalar(k, v);
  }
  out.set = out.has_cpu || out.has_memory || !out.values.scalar.empty();
  return out;
}

Resource PodRequestsWith(const Pod& pod, const PodRequestsOptions& opts, const PodLevelRequests* pl) {
  Resource reqs = AggregateContainerRequests(pod, opts.default_cpu, opts.default_memory);
  if (pl && pl->set) {
    if (pl->has_cpu) reqs.milli_cpu = pl->values.milli_cpu;
    if (pl->has_memory) reqs.memory = pl->values.memory;
    for (const auto& [k, v] : pl->values.scalar) reqs.SetScalar(k, v);
  }
  if (pod.overhead) reqs.Add(*pod.overhead);
  return reqs;
}

Resource PodRequests(const Pod& pod, const PodRequestsOptions& opts) {
  if (!opts.pod_level_resources || !pod.resources) return PodRequestsWith(pod, opts, nullptr);
  PodLevelRequests pl = AdmittedPodLevelRequests(pod);
  return PodRequestsWith(pod, opts, &pl);
}

bool PodLevelRequestsSet(const Pod& pod) { return AdmittedPodLevelRequests(pod).set; }

}  // namespace kplace
