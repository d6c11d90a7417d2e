#include "core/karpenter/disruption/candidate.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "core/karpenter/disruption/cron.h"

namespace kplace::karpenter::disruption {

bool IsOwnedBy(const Pod& p, const char* api_version, const char* kind) {
  for (const auto& o : p.meta.owner_references)
    if (o.api_version == api_version && o.kind == kind) return true;
  return false;
}

bool IsActive(const Pod& p) { return !p.Terminal() && !p.meta.deleting; }

// pod.IsReschedulable: active (or a terminating StatefulSet pod, which its controller recreates with the same name),
// not a DaemonSet's, not a mirror pod (owned by its Node).
bool IsReschedulable(const Pod& p) {
  const bool stateful_terminating = IsOwnedBy(p, "apps/v1", "StatefulSet") && p.meta.deleting;
  return (IsActive(p) || stateful_terminating) && !IsOwnedBy(p, "apps/v1", "DaemonSet") && !IsOwnedBy(p, "v1", "Node");
}

bool IsDoNotDisruptActive(const Pod& p, std::int64_t now, std::vector<Event>* events) {
  const std::string* value = p.meta.Annotation("karpenter.sh/do-not-disrupt");
  if (!value) return false;
  if (*value == "true") return true;
  const std::string object = "Pod/" + p.meta.namespace_ + "/" + p.meta.name;
  std::string err;
  std::optional<double> d = ParseGoDuration(*value, &err);
  std::string problem;
  if (!d)
    problem = "failed to parse " + GoQuote(*value) + " as a duration: " + err;
  else if (*d <= 0)
    problem = "duration " + GoQuote(*value) + " must be positive";
  if (!problem.empty()) {
    if (events)
      events->push_back({"Warning", "InvalidDoNotDisruptAnnotation", object,
                         "Invalid karpenter.sh/do-not-disrupt annotation: " + problem + ", ignoring annotation"});
    return false;
  }
  if (!p.start_unix) return true;  // no start time: fail safe
  const bool active = static_cast<double>(now - *p.start_unix) < *d;
  if (events) {
    if (active)
      events->push_back({"Normal", "DoNotDisruptUntil", object,
                         "The karpenter.sh/do-not-disrupt grace period will elapse at " +
                             FormatRfc3339(*p.start_unix + static_cast<std::int64_t>(*d))});
    else
      events->push_back({"Normal", "DoNotDisruptGracePeriodElapsed", object,
                         "The karpenter.sh/do-not-disrupt grace period has elapsed, pod is now disruptable"});
  }
  return active;
}

bool IsDisruptable(const Pod& p, std::int64_t now, std::vector<Event>* events) {
  return !IsActive(p) || !IsDoNotDisruptActive(p, now, events);
}

double EvictionCost(const Pod& p) {
  double cost = 1;
  if (const std::string* v = p.meta.Annotation("controller.kubernetes.io/pod-deletion-cost")) {
    // strconv.ParseFloat: a value it rejects is logged and ignored.
    char* end = nullptr;
    const double d = std::strtod(v->c_str(), &end);
    if (!v->empty() && end == v->c_str() + v->size() && !std::isspace(static_cast<unsigned char>((*v)[0])))
      cost += d / std::pow(2.0, 27.0);
  }
  if (p.priority) cost += static_cast<double>(*p.priority) / std::pow(2.0, 25.0);
  return std::clamp(cost, -10.0, 10.0);
}

bool IsEvictable(const Pod& p, std::int64_t now, std::vector<Event>* events) {
  static const Symbol kDisrupted = Intern("karpenter.sh/disrupted");  // interned once, not per pod
  const Taint disrupted{kDisrupted, kEmptySymbol, TaintEffect::NoSchedule};
  return IsActive(p) && !TolerationsTolerate(p.tolerations, disrupted) && !IsOwnedBy(p, "v1", "Node") &&
         !IsDoNotDisruptActive(p, now, events);
}

namespace {

std::string Keys(const std::vector<const PodDisruptionBudget*>& pdbs) {
  std::string out = "[";
  for (std::size_t i = 0; i < pdbs.size(); ++i)
    out += (i ? " " : "") + pdbs[i]->meta.namespace_ + "/" + pdbs[i]->meta.name;
  return out + "]";
}

std::string PdbBlocksImpl(const Scenario& sc, const std::vector<std::size_t>& pods, std::int64_t now,
                          std::vector<Event>* events) {
  // The API server lists PDBs by namespace and name.
  std::vector<const PodDisruptionBudget*> all;
  for (const auto& b : sc.pdbs) all.push_back(&b);
  std::sort(all.begin(), all.end(), [](const auto* a, const auto* b) {
    return std::tie(a->meta.namespace_, a->meta.name) < std::tie(b->meta.namespace_, b->meta.name);
  });
  for (std::size_t i : pods) {
    const Pod& p = sc.pods[i];
    if (!IsEvictable(p, now, events)) continue;
    std::vector<const PodDisruptionBudget*> matching;
    for (const auto* b : all)
      if (b->meta.namespace_ == p.meta.namespace_ && b->selector.Matches(p.meta.labels)) matching.push_back(b);
    if (matching.size() > 1)
      return "eviction does not support multiple PDBs (PodDisruptionBudget(s)=" + Keys(matching) + ")";
    if (matching.empty()) continue;
    const PodDisruptionBudget* b = matching[0];
    if (b->always_allow_unhealthy && p.ready_false) continue;
    if (b->disruptions_allowed.value_or(0) == 0)
      return "pdb prevents pod evictions (PodDisruptionBudget=" + Keys(matching) + ")";
  }
  return "";
}

}  // namespace

const NodePool* FindNodePool(const Scenario& sc, const std::string& name) {
  for (const auto& p : sc.node_pools)
    if (p.meta.name == name) return &p;
  return nullptr;
}

std::string PdbBlocks(const Scenario& sc, const std::vector<std::size_t>& pods, std::int64_t now) {
  return PdbBlocksImpl(sc, pods, now, nullptr);
}

std::string Sentence(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

void PublishOnNode(const StateNode& n, const std::string& reason, const std::string& message,
                   std::vector<Event>* events) {
  if (!events) return;
  if (n.node) events->push_back({"Normal", reason, "Node/" + n.node->meta.name, message});
  if (n.claim) events->push_back({"Normal", reason, "NodeClaim/" + n.claim->meta.name, message});
}

double OfferingPrice(const Scenario& sc, std::string_view type, std::string_view zone, std::string_view capacity_type) {
  for (const auto& t : sc.instance_types) {
    if (t.meta.name != type) continue;
    for (const auto& o : t.offerings)
      if (o.zone == zone && o.capacity_type == capacity_type) return o.price;
    return 0;
  }
  return 0;
}

double NodePrice(const StateNode& n, const Scenario& sc) {
  // resolveNodePrice: the first offering of the node's zone and capacity type; NaN counts 0.
  const double price = OfferingPrice(sc, n.Label("node.kubernetes.io/instance-type").value_or(""),
                                     n.Label("topology.kubernetes.io/zone").value_or(""),
                                     n.Label("karpenter.sh/capacity-type").value_or(""));
  return std::isnan(price) ? 0 : price;
}

std::optional<Candidate> NewCandidate(const StateNode& n, const Scenario& sc, DisruptionClass cls, std::int64_t now,
                                      std::string* error, std::vector<Event>* events,
                                      std::vector<CandidacyCheck>* checks) {
  const char* current = "";
  auto reject = [&](std::string err, bool publish) -> std::optional<Candidate> {
    if (publish) PublishOnNode(n, "DisruptionBlocked", Sentence(err), events);
    if (checks) checks->push_back({current, false, err});
    if (error) *error = std::move(err);
    return std::nullopt;
  };
  auto check = [&](const char* what) {
    if (checks && *current) checks->push_back({current, true, ""});
    current = what;
  };
  // ValidateNodeDisruptable (statenode.go); events only for managed nodes.
  check("managed by Karpenter (a NodeClaim)");
  if (!n.Managed()) return reject("node isn't managed by karpenter", false);
  check("has a Node");
  if (!n.node) return reject("nodeclaim does not have an associated node", true);
  check("initialized");
  if (!n.Initialized()) return reject("node isn't initialized", true);
  check("not being deleted");
  if (n.MarkedForDeletion()) return reject("node is deleting or marked for deletion", true);
  check("not nominated for a pending pod");
  if (n.nominated) return reject("node is nominated for a pending pod", true);
  check("no karpenter.sh/do-not-disrupt on the node");
  if (const std::string* dnd = n.Annotation("karpenter.sh/do-not-disrupt"); dnd && *dnd == "true")
    return reject("disruption is blocked through the \"karpenter.sh/do-not-disrupt\" annotation", true);
  check("labelled karpenter.sh/nodepool");
  const std::optional<std::string> pool_name = n.Label("karpenter.sh/nodepool");
  if (!pool_name) return reject("node doesn't have required label (label=karpenter.sh/nodepool)", true);
  // NewCandidate (types.go): a NodePool that is missing, or for which the cloud provider has no instance types.
  check("its NodePool exists, with instance types");
  const NodePool* pool = FindNodePool(sc, *pool_name);
  if (!pool || sc.instance_types.empty()) {
    PublishOnNode(n, "DisruptionBlocked", "NodePool not found (NodePool=" + *pool_name + ")", events);
    if (checks) checks->push_back({current, false, "nodepool not found (NodePool=" + *pool_name + ")"});
    if (error) *error = "nodepool not found (NodePool=" + *pool_name + ")";
    return std::nullopt;
  }
  Candidate c;
  c.state = &n;
  c.node_pool = pool;
  c.instance_type_name = n.Label("node.kubernetes.io/instance-type").value_or("");
  for (const auto& t : sc.instance_types)
    if (t.meta.name == c.instance_type_name) {
      c.instance_type = &t;
      break;
    }
  c.zone = n.Label("topology.kubernetes.io/zone").value_or("");
  c.capacity_type = n.Label("karpenter.sh/capacity-type").value_or("");
  // ValidatePodsDisruptable: do-not-disrupt first, then PDBs; ignored for an eventual disruption of a NodeClaim with
  // a terminationGracePeriod.
  std::string pod_error;
  for (std::size_t i : n.pods) {
    const Pod& p = sc.pods[i];
    if (!IsDisruptable(p, now, events)) {
      pod_error =
          "pod has \"karpenter.sh/do-not-disrupt\" annotation (Pod=" + p.meta.namespace_ + "/" + p.meta.name + ")";
      break;
    }
  }
  check("its pods may be evicted (do-not-disrupt, PodDisruptionBudgets)");
  if (pod_error.empty()) pod_error = PdbBlocksImpl(sc, n.pods, now, events);
  const bool eventual_grace = cls == DisruptionClass::Eventual && n.claim && n.claim->termination_grace_period;
  if (!pod_error.empty() && !eventual_grace) return reject(pod_error, true);
  if (checks)
    checks->push_back({current, true, pod_error.empty() ? "" : "ignored (terminationGracePeriod): " + pod_error});
  c.price = NodePrice(n, sc);
  for (std::size_t i : n.pods)
    if (IsReschedulable(sc.pods[i])) {
      c.reschedulable_pods.push_back(i);
      c.reschedule_cost += std::max(0.0, EvictionCost(sc.pods[i]));
    }
  return c;
}

}  // namespace kplace::karpenter::disruption
