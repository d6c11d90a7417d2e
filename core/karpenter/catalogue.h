// The instance-type catalogue as Karpenter's scheduler sees it (pkg/cloudprovider/types.go) and the per-NodePool
// templates with their pre-filtered types and DaemonSet overhead groups (sched/nodeclaimtemplate.go,
// sched/scheduler.go buildDaemonOverheadGroups).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/karpenter/pod.h"
#include "core/karpenter/requirements.h"
#include "core/model/scenario.h"

namespace kplace::karpenter {

struct Offer {
  Symbol zone = kEmptySymbol;
  Symbol capacity_type = kEmptySymbol;
  double price = 0;
  bool available = true;
};

struct KType {
  const InstanceType* src = nullptr;
  int order = 0;  // catalogue order (tie-breaks)
  Symbol name = kEmptySymbol;
  Requirements requirements;  // labels, spec.requirements, instance-type, zones and capacity types offered
  Resource capacity, allocatable;
  std::vector<Offer> offerings;
};

std::vector<KType> BuildCatalogue(const std::vector<InstanceType>& types);

// The first available offering compatible with reqs (zone / capacity type), or null.
const Offer* FirstCompatibleOffering(const KType& t, const Requirements& reqs);
// The same with reqs' zone and capacity-type requirements looked up once (null: reqs has none).
const Offer* FirstCompatibleOffering(const KType& t, const Requirement* zone, const Requirement* capacity_type);
Symbol ZoneKey();
Symbol CapacityTypeKey();
// The cheapest available compatible offering (ties: first), or null.
const Offer* CheapestOffering(const KType& t, const Requirements& reqs);
const Offer* CheapestOffering(const KType& t, const Requirement* zone, const Requirement* capacity_type);

// SatisfiesMinValues: "" when satisfied, else the unmet keys as "[k1 k2]" (sorted).
std::string UnmetMinValues(const std::vector<const KType*>& types, const Requirements& reqs);

// A DaemonSet's pod as Karpenter counts it for overhead.
struct DaemonPod {
  PodData data;
  std::string daemonset;  // namespace/name
};

struct DaemonGroup {
  std::vector<int> daemons;
  Resource overhead;                 // Σ requests (pods included)
  std::vector<ContainerPort> ports;  // daemons' host ports
};

struct Template {
  const NodePool* pool = nullptr;
  std::string name;
  Requirements requirements;
  std::vector<int> types;     // catalogue indices that passed the pre-filter, catalogue order
  std::vector<int> group_of;  // catalogue index -> daemon group (-1: type not in this template)
  std::vector<DaemonGroup> groups;
};

// The daemon pods of the scenario's DaemonSets (newest owned pod, else the template).
std::vector<DaemonPod> BuildDaemons(const Scenario& sc);

// Builds a pool's template; nullopt with *dropped_reason set when its types are all filtered out.
std::optional<Template> BuildTemplate(const NodePool& pool, const std::vector<KType>& catalogue,
                                      const std::vector<DaemonPod>& daemons, const KeySet& well_known,
                                      std::string* dropped_reason);

// Tolerations-of-all-taints check; returns the untolerated taints.
std::vector<const Taint*> Untolerated(const std::vector<Taint>& taints, const std::vector<Toleration>& tolerations);
// "k=v:Effect" (Go's Taint.ToString; "k:Effect" without a value).
std::string TaintString(const Taint& t);

// A Node's taints as Karpenter reads them (the Node object's spec.taints: state/statenode.go Taints, and the
// topology's node filter), with the taint kube-controller-manager keeps on a cordoned Node added. Karpenter has no
// spec.unschedulable check of its own: a cordoned Node stays an existing node (it counts against its NodePool's
// limits and for topology) and only this taint keeps pods off it (sched/existingnode.go CanAdd).
std::vector<Taint> NodeTaints(const Node& n);

}  // namespace kplace::karpenter
