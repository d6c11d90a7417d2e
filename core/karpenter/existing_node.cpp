#include "core/karpenter/existing_node.h"

#include <algorithm>
#include <map>

#include "core/karpenter/resources.h"

namespace kplace::karpenter {
namespace {

bool OwnedByDaemonSet(const Pod& p) {
  return std::any_of(p.meta.owner_references.begin(), p.meta.owner_references.end(),
                     [](const OwnerReference& o) { return o.kind == "DaemonSet"; });
}

// Taints Karpenter ignores on a managed node that has not initialized (pkg/scheduling/taints.go KnownEphemeralTaints
// and the NodeClaim's startupTaints; kplace takes the NodePool's).
bool Ephemeral(const Taint& t, const NodePool* pool) {
  const std::string& k = Text(t.key);
  if (k == "node.kubernetes.io/not-ready" &&
      (t.effect == TaintEffect::NoSchedule || t.effect == TaintEffect::NoExecute))
    return true;
  if (k == "node.kubernetes.io/unreachable" && t.effect == TaintEffect::NoSchedule) return true;
  if (k == "node.cloudprovider.kubernetes.io/uninitialized" && Text(t.value) == "true" &&
      t.effect == TaintEffect::NoSchedule)
    return true;
  if (k == "karpenter.sh/unregistered" && t.effect == TaintEffect::NoExecute) return true;
  if (k.rfind("readiness.k8s.io/", 0) == 0) return true;
  if (pool)
    for (const auto& s : pool->startup_taints)
      if (s.key == t.key && s.value == t.value && s.effect == t.effect) return true;
  return false;
}

}  // namespace

bool PortsConflict(const std::vector<ContainerPort>& used, const std::vector<ContainerPort>& incoming) {
  static const Symbol kAny = Intern("0.0.0.0");
  for (const auto& a : incoming)
    for (const auto& b : used)
      if (a.host_port == b.host_port && a.protocol == b.protocol &&
          (a.host_ip == b.host_ip || a.host_ip == kAny || b.host_ip == kAny))
        return true;
  return false;
}

std::vector<ExistingNode> BuildExistingNodes(const Scenario& sc, const std::vector<DaemonPod>& daemons) {
  static const Symbol kNodePool = Intern("karpenter.sh/nodepool");
  static const Symbol kInitialized = Intern("karpenter.sh/initialized");
  static const Symbol kTrue = Intern("true");
  std::vector<ExistingNode> out;
  std::map<std::string, std::vector<const Pod*>> bound;
  for (const auto& p : sc.pods)
    if (!p.node_name.empty() && !p.Terminal()) bound[p.node_name].push_back(&p);
  for (const auto& n : sc.nodes) {
    if (n.meta.deleting) continue;
    ExistingNode e;
    e.node = &n;
    auto pool_name = n.meta.labels.Get(kNodePool);
    const NodePool* pool = nullptr;
    if (pool_name)
      for (const auto& p : sc.node_pools)
        if (p.meta.name == Text(*pool_name)) pool = &p;
    e.initialized = !pool_name || n.meta.labels.Get(kInitialized) == kTrue;
    // A cordoned Node is kept, with the node.kubernetes.io/unschedulable taint (NodeTaints).
    for (const auto& t : NodeTaints(n))
      if (e.initialized || !Ephemeral(t, pool)) e.taints.push_back(t);
    Resource available = n.allocatable;
    Resource ds_requests;
    for (const Pod* pp : bound[n.meta.name]) {
      const Pod& p = *pp;
      Resource r = KarpenterRequests(p);
      available.Add(r, -1);
      if (OwnedByDaemonSet(p)) ds_requests.Add(r);
      for (const auto& c : p.containers)
        for (const auto& port : c.ports)
          if (port.host_port > 0) e.ports.push_back(port);
    }
    Resource daemon;
    for (const auto& d : daemons) {
      if (!Untolerated(e.taints, d.data.tolerations).empty()) continue;
      if (!IsCompatible(FromLabels(n.meta.labels), d.data.strict, nullptr)) continue;
      daemon.Add(d.data.requests);
    }
    daemon.Add(ds_requests, -1);
    available.Add(ClampZero(daemon), -1);
    e.remaining = available;
    e.requirements = FromLabels(n.meta.labels);
    static const Symbol kHostname = HostnameKey();
    Symbol host = n.meta.labels.Get(kHostname).value_or(Intern(n.meta.name));
    e.requirements.Add(Requirement::Make(kHostname, ReqOp::In, {host}));
    out.push_back(std::move(e));
  }
  std::stable_sort(out.begin(), out.end(), [](const ExistingNode& a, const ExistingNode& b) {
    if (a.initialized != b.initialized) return a.initialized;
    return a.node->meta.name < b.node->meta.name;
  });
  return out;
}

bool CanAddToNode(const ExistingNode& n, const PodData& pod, const Topology& topo, std::string* err,
                  Requirements* updated) {
  auto fail = [&](std::string msg) {
    if (err) *err = std::move(msg);
    return false;
  };
  if (auto bad = Untolerated(n.taints, pod.tolerations); !bad.empty()) {
    if (!err) return false;
    std::string msg;
    for (std::size_t i = 0; i < bad.size(); ++i)
      msg += (i ? "; " : "") + std::string("did not tolerate taint (taint=") + TaintString(*bad[i]) + ")";
    return fail(msg);
  }
  if (PortsConflict(n.ports, pod.host_ports))
    return fail("checking host port usage, pod hostport conflicts with existing hostport configuration");
  if (!Fits(pod.requests, n.remaining)) return fail("exceeds node resources");
  if (err) {
    std::string e = Compatible(n.requirements, pod.requirements, nullptr);
    if (!e.empty()) return fail(e);
  } else if (!IsCompatible(n.requirements, pod.requirements, nullptr)) {
    return false;
  }
  Requirements base = n.requirements;
  base.Add(pod.requirements);
  if (!topo.empty()) {
    Requirements domains;
    if (!topo.AddRequirements(pod, n.taints, base, nullptr, &domains, err)) return false;
    if (!domains.empty()) {
      Requirements merged = base;
      merged.Add(domains);
      if (err) {
        std::string e = Compatible(base, merged, nullptr);
        if (!e.empty()) return fail(e);
      } else if (!IsCompatible(base, merged, nullptr)) {
        return false;
      }
      base = std::move(merged);
    }
  }
  if (updated) *updated = std::move(base);
  return true;
}

void AddToNode(ExistingNode& n, const PodData& pod, Requirements updated, Topology& topo) {
  topo.Record(pod, n.taints, updated, nullptr);
  n.pods.push_back(pod.index);
  n.remaining.Add(pod.requests, -1);
  n.requirements = std::move(updated);
  n.ports.insert(n.ports.end(), pod.host_ports.begin(), pod.host_ports.end());
}

}  // namespace kplace::karpenter
