#include "core/scheduler/framework/types.h"

#include <algorithm>

namespace kplace::framework {

bool AffinityTerm::Matches(Symbol pod_namespace, const Labels& pod_labels, const Labels* namespace_labels) const {
  bool ns_ok = std::find(namespaces.begin(), namespaces.end(), pod_namespace) != namespaces.end();
  if (!ns_ok && namespace_selector) {
    static const Labels kNoLabels;
    ns_ok = namespace_selector->Matches(namespace_labels ? *namespace_labels : kNoLabels);
  }
  return ns_ok && selector.Matches(pod_labels);
}

namespace {

// PodRequests (k8s.io/component-helpers/resource/helpers.go): max(regular containers + sidecars,
// each init container plus the sidecars started before it) + overhead. non_zero applies the scheduler's
// defaults (100m cpu, 200Mi memory) to containers that omit the request.
Resource PodRequests(const Pod& pod, bool non_zero) {
  constexpr std::int64_t kDefaultMilliCpu = 100;
  constexpr std::int64_t kDefaultMemory = 200LL * 1024 * 1024;
  auto container_requests = [&](const Container& c) {
    Resource r = c.requests;
    if (non_zero) {
      if (!c.has_cpu_request) r.milli_cpu = kDefaultMilliCpu;
      if (!c.has_memory_request) r.memory = kDefaultMemory;
    }
    return r;
  };
  Resource reqs;
  for (const auto& c : pod.containers) reqs.Add(container_requests(c));
  Resource sidecars;
  Resource init_max;
  for (const auto& c : pod.init_containers) {
    Resource r = container_requests(c);
    if (c.restart_always) {
      reqs.Add(r);
      sidecars.Add(r);
      r = sidecars;
    } else {
      r.Add(sidecars);
    }
    init_max.SetMax(r);
  }
  reqs.SetMax(init_max);
  if (pod.overhead) reqs.Add(*pod.overhead);
  return reqs;
}

std::vector<AffinityTerm> Terms(const Pod& pod, Symbol ns, const std::vector<PodAffinityTerm>& in) {
  std::vector<AffinityTerm> out;
  for (const auto& t : in) {
    AffinityTerm a;
    a.namespaces = t.namespaces;
    a.namespace_selector = t.namespace_selector;
    if (a.namespaces.empty() && !a.namespace_selector) a.namespaces.push_back(ns);
    a.selector = t.label_selector;
    // matchLabelKeys / mismatchLabelKeys merge the pod's own label values into the selector
    // (only when the selector is set and the key is present on the pod).
    if (!a.selector.nil) {
      for (Symbol k : t.match_label_keys)
        if (auto v = pod.meta.labels.Get(k)) a.selector.requirements.push_back({k, SelectorOp::In, {*v}, 0});
      for (Symbol k : t.mismatch_label_keys)
        if (auto v = pod.meta.labels.Get(k)) a.selector.requirements.push_back({k, SelectorOp::NotIn, {*v}, 0});
    }
    a.topology_key = t.topology_key;
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<AffinityTerm> WeightedTerms(const Pod& pod, Symbol ns, const std::vector<WeightedPodAffinityTerm>& in) {
  std::vector<AffinityTerm> out;
  for (const auto& w : in) {
    auto one = Terms(pod, ns, {w.term});
    one[0].weight = w.weight;
    out.push_back(std::move(one[0]));
  }
  return out;
}

}  // namespace

std::unique_ptr<PodInfo> NewPodInfo(const Pod& pod, std::int32_t priority) {
  auto info = std::make_unique<PodInfo>();
  info->pod = &pod;
  info->namespace_ = Intern(pod.meta.namespace_);
  info->priority = priority;
  info->requests = PodRequests(pod, false);
  Resource nz = PodRequests(pod, true);
  info->non_zero_milli_cpu = nz.milli_cpu;
  info->non_zero_memory = nz.memory;
  for (const auto& c : pod.containers)
    for (const auto& p : c.ports)
      if (p.host_port > 0) info->host_ports.push_back(p);
  // Sidecars (restartPolicy Always init containers) hold their host ports too (v1.34+, PR #132040).
  for (const auto& c : pod.init_containers)
    if (c.restart_always)
      for (const auto& p : c.ports)
        if (p.host_port > 0) info->host_ports.push_back(p);
  const auto& a = pod.affinity;
  info->required_affinity = Terms(pod, info->namespace_, a.pod_affinity.required);
  info->required_anti_affinity = Terms(pod, info->namespace_, a.pod_anti_affinity.required);
  info->preferred_affinity = WeightedTerms(pod, info->namespace_, a.pod_affinity.preferred);
  info->preferred_anti_affinity = WeightedTerms(pod, info->namespace_, a.pod_anti_affinity.preferred);
  for (const auto& c : pod.init_containers) info->images.push_back(NormalizedImageName(c.image));
  for (const auto& c : pod.containers) info->images.push_back(NormalizedImageName(c.image));
  return info;
}

void NodeInfo::AddPod(const PodInfo* p) {
  pods.push_back(p);
  if (p->HasAffinity()) pods_with_affinity.push_back(p);
  if (!p->required_anti_affinity.empty()) pods_with_required_anti_affinity.push_back(p);
  requested.Add(p->requests);
  non_zero_milli_cpu += p->non_zero_milli_cpu;
  non_zero_memory += p->non_zero_memory;
  for (const auto& hp : p->host_ports) used_ports.push_back({hp.protocol, hp.host_ip, hp.host_port});
  ++generation;
}

bool NodeInfo::RemovePod(const PodInfo* p) {
  auto it = std::find(pods.begin(), pods.end(), p);
  if (it == pods.end()) return false;
  pods.erase(it);
  std::erase(pods_with_affinity, p);
  std::erase(pods_with_required_anti_affinity, p);
  requested.Add(p->requests, -1);
  non_zero_milli_cpu -= p->non_zero_milli_cpu;
  non_zero_memory -= p->non_zero_memory;
  for (const auto& hp : p->host_ports) {
    for (auto u = used_ports.begin(); u != used_ports.end(); ++u) {
      if (u->protocol == hp.protocol && u->ip == hp.host_ip && u->port == hp.host_port) {
        used_ports.erase(u);
        break;
      }
    }
  }
  ++generation;
  return true;
}

void Snapshot::RefreshAffinityLists() {
  have_pods_with_affinity.clear();
  have_pods_with_required_anti_affinity.clear();
  for (const auto& n : nodes) {
    if (!n.pods_with_affinity.empty()) have_pods_with_affinity.push_back(&n);
    if (!n.pods_with_required_anti_affinity.empty()) have_pods_with_required_anti_affinity.push_back(&n);
  }
}

void BuildNodeOrder(const std::vector<const Node*>& nodes, Snapshot& out) {
  static const Symbol kRegion = Intern("topology.kubernetes.io/region");
  static const Symbol kZone = Intern("topology.kubernetes.io/zone");
  static const Symbol kRegionBeta = Intern("failure-domain.beta.kubernetes.io/region");
  static const Symbol kZoneBeta = Intern("failure-domain.beta.kubernetes.io/zone");
  // Zone key as utilnode.GetZoneKey: region + ":\x00:" + zone, "" when both are unset.
  auto zone_key = [&](const Node& n) -> std::string {
    auto get = [&](Symbol a, Symbol b) -> std::string {
      if (auto v = n.meta.labels.Get(a)) return Text(*v);
      if (auto v = n.meta.labels.Get(b)) return Text(*v);
      return "";
    };
    std::string region = get(kRegion, kRegionBeta), zone = get(kZone, kZoneBeta);
    if (region.empty() && zone.empty()) return "";
    return region + std::string(":\0:", 3) + zone;
  };
  std::vector<std::string> zones;
  std::unordered_map<std::string, std::vector<const Node*>> tree;
  for (const Node* n : nodes) {
    auto key = zone_key(*n);
    auto [it, inserted] = tree.try_emplace(key);
    if (inserted) zones.push_back(key);
    it->second.push_back(n);
  }
  out.nodes.clear();
  out.nodes.reserve(nodes.size());
  for (std::size_t i = 0; out.nodes.size() < nodes.size(); ++i) {
    for (const auto& z : zones) {
      const auto& list = tree[z];
      if (i < list.size()) {
        NodeInfo ni;
        ni.node = list[i];
        ni.index = static_cast<int>(out.nodes.size());
        out.nodes.push_back(std::move(ni));
      }
    }
  }
  out.node_index.clear();
  out.node_images.assign(out.nodes.size(), {});
  out.image_states.clear();
  for (auto& ni : out.nodes) {
    out.node_index[ni.node->meta.name] = ni.index;
    for (const auto& img : ni.node->images) {
      for (const auto& name : img.names) {
        out.node_images[static_cast<std::size_t>(ni.index)][name] = img.size_bytes;
        auto& st = out.image_states[name];
        st.size = img.size_bytes;
        ++st.num_nodes;
      }
    }
  }
}

std::string NormalizedImageName(const std::string& name) {
  // image_locality.go normalizedImageName: no ':' after the last '/' means no tag.
  auto slash = name.rfind('/');
  auto colon = name.rfind(':');
  long s = slash == std::string::npos ? -1 : static_cast<long>(slash);
  long c = colon == std::string::npos ? -1 : static_cast<long>(colon);
  return c <= s ? name + ":latest" : name;
}

}  // namespace kplace::framework
