// A NodeClaim being built during one scheduling run (sched/nodeclaim.go): its narrowing requirements, the
// instance types still possible, its pods, and the instance-type filter with Karpenter's failure messages.
#pragma once

#include <string>
#include <vector>

#include "core/karpenter/catalogue.h"
#include "core/karpenter/pod.h"
#include "core/karpenter/topology.h"

namespace kplace::karpenter {

struct Claim {
  int tmpl = 0;  // index into the scheduler's templates
  Symbol hostname = kEmptySymbol;
  Requirements requirements;
  std::vector<int> options;  // catalogue indices
  // Every option meets `requirements` and has an available offering compatible with them (true once a pod was
  // added: the options are then the instance-type filter's survivors under exactly these requirements).
  bool options_filtered = false;
  Resource requests;  // Σ pod requests (daemon overhead added at finalisation)
  std::vector<std::size_t> pods;
  std::vector<ContainerPort> ports;  // host ports of its pods
};

struct ClaimContext {
  const std::vector<KType>* catalogue = nullptr;
  const KeySet* well_known = nullptr;
  Topology* topology = nullptr;
};

// The outcome of NodeClaim.CanAdd: on success the narrowed requirements and surviving options.
struct CanAddResult {
  bool ok = false;
  Requirements requirements;
  std::vector<int> options;
};

// NodeClaim.CanAdd. err (optional) receives upstream's error text on failure.
CanAddResult CanAddToClaim(const Claim& c, const Template& t, const PodData& pod, const ClaimContext& ctx,
                           std::string* err);
void AddToClaim(Claim& c, const Template& t, const PodData& pod, CanAddResult r, const ClaimContext& ctx);

// Element-wise minimum daemon overhead over the groups that still hold an option (addDaemonRequests).
Resource MinDaemonOverhead(const Claim& c, const Template& t);

}  // namespace kplace::karpenter
