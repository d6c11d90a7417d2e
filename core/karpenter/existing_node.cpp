#include "core/karpenter/existing_node.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <vector>

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

namespace {

// netip.ParseAddr's IPv4 form: four decimal octets, no leading zeros.
bool ParseIPv4(const std::string& s, unsigned char out[4]) {
  std::size_t i = 0;
  for (int field = 0; field < 4; ++field) {
    if (field > 0) {
      if (i >= s.size() || s[i] != '.') return false;
      ++i;
    }
    const std::size_t start = i;
    int v = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (i - start == 3) return false;
      v = v * 10 + (s[i] - '0');
      ++i;
    }
    if (i == start || v > 255 || (i - start > 1 && s[start] == '0')) return false;
    out[field] = static_cast<unsigned char>(v);
  }
  return i == s.size();
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// netip.ParseAddr's IPv6 form (parseIPv6), without a zone (net.ParseIP rejects zones).
bool ParseIPv6(std::string s, unsigned char ip[16]) {
  std::fill(ip, ip + 16, 0);
  int ellipsis = -1;
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    s = s.substr(2);
    if (s.empty()) return true;
  }
  int i = 0;
  while (i < 16) {
    std::size_t off = 0;
    int acc = 0;
    for (; off < s.size(); ++off) {
      const int h = HexValue(s[off]);
      if (h < 0) break;
      if (off > 3) return false;
      acc = (acc << 4) + h;
    }
    if (off == 0) return false;
    if (off < s.size() && s[off] == '.') {  // an embedded IPv4 address, the last 4 bytes
      if ((ellipsis < 0 && i != 12) || i + 4 > 16) return false;
      unsigned char v4[4];
      if (!ParseIPv4(s, v4)) return false;
      std::copy(v4, v4 + 4, ip + i);
      s.clear();
      i += 4;
      break;
    }
    ip[i] = static_cast<unsigned char>(acc >> 8);
    ip[i + 1] = static_cast<unsigned char>(acc & 0xff);
    i += 2;
    s = s.substr(off);
    if (s.empty()) break;
    if (s[0] != ':' || s.size() == 1) return false;
    s = s.substr(1);
    if (s[0] == ':') {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      s = s.substr(1);
      if (s.empty()) break;
    }
  }
  if (!s.empty()) return false;
  if (i < 16) {
    if (ellipsis < 0) return false;
    const int n = 16 - i;
    for (int j = i - 1; j >= ellipsis; --j) ip[j + n] = ip[j];
    std::fill(ip + ellipsis, ip + ellipsis + n, 0);
  } else if (ellipsis >= 0) {
    return false;
  }
  return true;
}

bool Unspecified(const std::string& canonical) { return canonical == "0.0.0.0" || canonical == "::"; }

// HostPort.Matches.
bool PortsMatch(const ContainerPort& a, const ContainerPort& b) {
  if (a.host_port != b.host_port || a.protocol != b.protocol) return false;
  if (a.host_ip == b.host_ip) return true;
  const std::string x = GoIPString(Text(a.host_ip)), y = GoIPString(Text(b.host_ip));
  return x == y || Unspecified(x) || Unspecified(y);
}

}  // namespace

std::string GoIPString(const std::string& s) {
  unsigned char ip[16] = {};
  if (s.find(':') != std::string::npos) {
    if (!ParseIPv6(s, ip)) return "<nil>";
  } else {
    if (!ParseIPv4(s, ip + 12)) return "<nil>";
    ip[10] = ip[11] = 0xff;
  }
  const bool v4 = std::all_of(ip, ip + 10, [](unsigned char b) { return b == 0; }) && ip[10] == 0xff && ip[11] == 0xff;
  if (v4)
    return std::to_string(ip[12]) + "." + std::to_string(ip[13]) + "." + std::to_string(ip[14]) + "." +
           std::to_string(ip[15]);
  int group[8];
  for (int g = 0; g < 8; ++g) group[g] = ip[2 * g] << 8 | ip[2 * g + 1];
  // The longest run of two or more zero groups (the first of equal runs) becomes "::".
  int zero_start = -1, zero_end = -1;
  for (int g = 0; g < 8; ++g) {
    int j = g;
    while (j < 8 && group[j] == 0) ++j;
    if (j - g >= 2 && j - g > zero_end - zero_start) {
      zero_start = g;
      zero_end = j;
    }
  }
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (int g = 0; g < 8; ++g) {
    if (g == zero_start) {
      out += "::";
      g = zero_end;
      if (g >= 8) break;
    } else if (g > 0) {
      out += ':';
    }
    std::string h;
    for (int v = group[g]; v > 0 || h.empty(); v >>= 4) h.insert(h.begin(), kHex[v & 0xf]);
    out += h;
  }
  return out;
}

bool PortsConflict(const std::vector<ContainerPort>& used, const std::vector<ContainerPort>& incoming) {
  for (const auto& a : incoming)
    for (const auto& b : used)
      if (PortsMatch(a, b)) return true;
  return false;
}

std::string HostPortConflict(const std::vector<ContainerPort>& used, const std::vector<ContainerPort>& incoming) {
  for (const auto& a : incoming)
    for (const auto& b : used)
      if (PortsMatch(a, b))
        return "pod hostport conflicts with existing hostport configuration (existing-hostport-ip=" +
               GoIPString(Text(b.host_ip)) + ", existing-hostport-port=" + std::to_string(b.host_port) +
               ", existing-hostport-protocol=" + Text(b.protocol) + ", pod-hostport-ip=" + GoIPString(Text(a.host_ip)) +
               ", pod-hostport-port=" + std::to_string(a.host_port) + ", pod-hostport-protocol=" + Text(a.protocol) +
               ")";
  return "";
}

std::vector<ExistingNode> BuildExistingNodes(const Scenario& sc, const std::vector<DaemonPod>& daemons,
                                             const framework::VolumeCache& storage,
                                             const std::set<std::string>* excluded) {
  static const Symbol kNodePool = Intern("karpenter.sh/nodepool");
  static const Symbol kInitialized = Intern("karpenter.sh/initialized");
  static const Symbol kTrue = Intern("true");
  std::vector<ExistingNode> out;
  // Pods by the node they are bound to, in the scenario's order (hashed: built per scheduling simulation, and the
  // disruption dry run simulates once per candidate).
  std::unordered_map<std::string_view, std::vector<const Pod*>> bound;
  for (const auto& p : sc.pods)
    if (!p.node_name.empty() && !p.Terminal()) bound[p.node_name].push_back(&p);
  static const std::vector<const Pod*> kNone;
  std::vector<std::pair<const Node*, bool>> all;  // (node, an in-flight NodeClaim)
  for (const auto& n : sc.nodes) all.emplace_back(&n, false);
  for (const auto& n : sc.in_flight_node_claims) all.emplace_back(&n, true);
  for (const auto& [np, in_flight] : all) {
    const Node& n = *np;
    if (n.meta.deleting || (excluded && excluded->count(n.meta.name))) continue;
    ExistingNode e;
    e.node = &n;
    auto pool_name = n.meta.labels.Get(kNodePool);
    const NodePool* pool = nullptr;
    if (pool_name)
      for (const auto& p : sc.node_pools)
        if (p.meta.name == Text(*pool_name)) pool = &p;
    // A NodeClaim without a Node has not initialized (StateNode.Initialized needs the Node).
    e.initialized = !in_flight && (!pool_name || n.meta.labels.Get(kInitialized) == kTrue);
    // A cordoned Node is kept, with the node.kubernetes.io/unschedulable taint (NodeTaints).
    for (const auto& t : NodeTaints(n))
      if (e.initialized || !Ephemeral(t, pool)) e.taints.push_back(t);
    Resource available = n.allocatable;
    Resource ds_requests;
    // A NodeClaim without a Node has no CSINode yet (populateVolumeLimits reads the Node's).
    if (!in_flight) e.volume_usage = NodeVolumeLimits(n.meta.name, storage);
    const auto on_node = bound.find(n.meta.name);
    for (const Pod* pp : on_node == bound.end() ? kNone : on_node->second) {
      const Pod& p = *pp;
      if (!p.volumes.empty()) e.volume_usage.Add(PodVolumes(p, storage));
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

namespace {
bool TryNodeAlternative(const ExistingNode& n, const PodData& pod, const Topology& topo, const Requirements& base,
                        std::string* err, Requirements* updated);
}  // namespace

bool CanAddToNode(const ExistingNode& n, const PodData& pod, const Topology& topo, std::string* err,
                  Requirements* updated) {
  auto fail = [&](std::string msg) {
    if (err) *err = std::move(msg);
    return false;
  };
  // Without a message to give, the cheapest check that rejects first: a full node (what a simulation meets most).
  if (!err && !Fits(pod.requests, n.remaining)) return false;
  if (auto bad = Untolerated(n.taints, pod.tolerations); !bad.empty()) {
    if (!err) return false;
    std::string msg;
    for (std::size_t i = 0; i < bad.size(); ++i)
      msg += (i ? "; " : "") + std::string("did not tolerate taint (taint=") + TaintString(*bad[i]) + ")";
    return fail(msg);
  }
  if (!pod.volumes.empty())
    if (std::string e = n.volume_usage.ExceedsLimits(pod.volumes); !e.empty())
      return fail("checking volume usage, " + e);
  // existingnode.go wraps HostPortUsage.Conflicts' serrors error, whose Error() ends in the ports it compared.
  if (PortsConflict(n.ports, pod.host_ports))
    return err && fail("checking host port usage, " + HostPortConflict(n.ports, pod.host_ports));
  if (err && !Fits(pod.requests, n.remaining)) return fail("exceeds node resources");
  if (err) {
    std::string e = Compatible(n.requirements, pod.requirements, nullptr);
    if (!e.empty()) return fail(e);
  } else if (!IsCompatible(n.requirements, pod.requirements, nullptr)) {
    return false;
  }
  // The node's requirements narrowed by the pod's: copied only when the pod narrows them.
  Requirements narrowed;
  const Requirements* base = &n.requirements;
  if (!pod.requirements.empty() && !n.requirements.Implies(pod.requirements)) {
    narrowed = n.requirements;
    narrowed.Add(pod.requirements);
    base = &narrowed;
  }
  if (pod.volume_requirements.empty()) return TryNodeAlternative(n, pod, topo, *base, err, updated);
  // Each volume topology alternative in turn (existingnode.go tryVolumeAlternative): added to the node's
  // requirements only; the first that fits wins, else the last one's error is the node's.
  for (const auto& alternative : pod.volume_requirements) {
    Requirements reqs = *base;
    if (err) {
      std::string e = Compatible(reqs, alternative, nullptr);
      if (!e.empty()) {
        *err = "incompatible volume requirements, " + e;
        continue;
      }
    } else if (!IsCompatible(reqs, alternative, nullptr)) {
      continue;
    }
    reqs.Add(alternative);
    if (TryNodeAlternative(n, pod, topo, reqs, err, updated)) return true;
  }
  return false;
}

namespace {

// The topology step of ExistingNode.CanAdd under one set of node requirements; *updated receives them with the
// topology's domains added (copied only on success).
bool TryNodeAlternative(const ExistingNode& n, const PodData& pod, const Topology& topo, const Requirements& base,
                        std::string* err, Requirements* updated) {
  auto fail = [&](std::string msg) {
    if (err) *err = std::move(msg);
    return false;
  };
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
      if (updated) *updated = std::move(merged);
      return true;
    }
  }
  if (updated) *updated = base;
  return true;
}

}  // namespace

void AddToNode(ExistingNode& n, const PodData& pod, Requirements updated, Topology& topo) {
  topo.Record(pod, n.taints, updated, nullptr);
  n.pods.push_back(pod.index);
  n.remaining.Add(pod.requests, -1);
  n.requirements = std::move(updated);
  n.ports.insert(n.ports.end(), pod.host_ports.begin(), pod.host_ports.end());
  if (!pod.volumes.empty()) n.volume_usage.Add(pod.volumes);
}

}  // namespace kplace::karpenter
