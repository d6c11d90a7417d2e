#include "core/scheduler/framework/types.h"

#include <algorithm>
#include <cctype>

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

std::unique_ptr<PodInfo> NewPodInfo(const Pod& pod, std::int32_t priority, const Features& features) {
  auto info = std::make_unique<PodInfo>();
  info->pod = &pod;
  info->namespace_ = Intern(pod.meta.namespace_);
  info->priority = priority;
  PodLevelRequests pl;
  if (features.Enabled(Feature::PodLevelResources)) pl = AdmittedPodLevelRequests(pod);
  info->pod_level_requests = pl.set;
  info->requests = PodRequestsWith(pod, {}, &pl);
  // PodInfo.calculateResource (framework/types.go): with pod-level requests the defaults only fill a resource
  // that neither the containers, the pod level nor the overhead list; otherwise every container gets them.
  // (An overhead key is taken as listed when its value is non-zero.)
  PodRequestsOptions nz_opts{.pod_level_resources = true, .default_cpu = true, .default_memory = true};
  if (pl.set) {
    nz_opts.default_cpu = !pl.has_cpu && !AnyContainer(pod, &Container::has_cpu_request) &&
                          !(pod.overhead && pod.overhead->milli_cpu != 0);
    nz_opts.default_memory = !pl.has_memory && !AnyContainer(pod, &Container::has_memory_request) &&
                             !(pod.overhead && pod.overhead->memory != 0);
  }
  if (nz_opts.default_cpu || nz_opts.default_memory) {
    Resource nz = PodRequestsWith(pod, nz_opts, &pl);
    info->non_zero_milli_cpu = nz.milli_cpu;
    info->non_zero_memory = nz.memory;
  } else {
    info->non_zero_milli_cpu = info->requests.milli_cpu;
    info->non_zero_memory = info->requests.memory;
  }
  // framework.Resource keeps only scalar resource names (Resource.Add): e.g. "storage" is ignored.
  std::erase_if(info->requests.scalar, [](const auto& e) { return !IsScalarResourceName(Text(e.first)); });
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
  for (const auto& ref : pod.image_volumes) info->image_volumes.push_back(NormalizedImageName(ref));
  return info;
}

// A process-wide counter (upstream nextGeneration): a NodeInfo's generation never repeats, so caches keyed by it
// cannot mistake one state of a node for another.
std::uint64_t NextGeneration() {
  static std::uint64_t counter = 0;
  return ++counter;
}

void NodeInfo::AddPod(const PodInfo* p) {
  pods.push_back(p);
  if (p->HasAffinity()) pods_with_affinity.push_back(p);
  if (!p->required_anti_affinity.empty()) pods_with_required_anti_affinity.push_back(p);
  requested.Add(p->requests);
  non_zero_milli_cpu += p->non_zero_milli_cpu;
  non_zero_memory += p->non_zero_memory;
  for (const auto& hp : p->host_ports) used_ports.push_back({hp.protocol, hp.host_ip, hp.host_port});
  generation = NextGeneration();
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
  generation = NextGeneration();
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
        ni.allocatable = list[i]->allocatable;
        ni.index = static_cast<int>(out.nodes.size());
        ni.generation = NextGeneration();  // a state of its own (see NodeScoreMemo)
        out.nodes.push_back(std::move(ni));
      }
    }
  }
  {
    std::vector<int> by_name(out.nodes.size());
    for (std::size_t i = 0; i < by_name.size(); ++i) by_name[i] = static_cast<int>(i);
    std::sort(by_name.begin(), by_name.end(), [&](int a, int b) {
      return out.nodes[static_cast<std::size_t>(a)].Name() < out.nodes[static_cast<std::size_t>(b)].Name();
    });
    for (std::size_t r = 0; r < by_name.size(); ++r)
      out.nodes[static_cast<std::size_t>(by_name[r])].name_rank = static_cast<int>(r);
  }
  out.layout_generation = NextGeneration();
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

std::shared_ptr<NodeVerdictCache::Row> NodeVerdictCache::Get(const Snapshot& snapshot,
                                                             const std::vector<std::uint64_t>& key) {
  if (snapshot.layout_generation == 0) return nullptr;
  ++tick_;
  if (&snapshot != snapshot_ || snapshot.layout_generation != layout_ || !nodes_ ||
      nodes_->size() != snapshot.nodes.size()) {
    snapshot_ = &snapshot;
    layout_ = snapshot.layout_generation;
    auto nodes = std::make_shared<std::vector<const Node*>>();
    nodes->reserve(snapshot.nodes.size());
    for (const auto& n : snapshot.nodes) nodes->push_back(n.node);
    nodes_ = std::move(nodes);
    rows_.clear();
  }
  for (auto& r : rows_) {
    if (r->key == key) {
      r->last_used = tick_;
      return r;
    }
  }
  if (rows_.size() >= kMaxRows) {
    rows_.erase(std::min_element(rows_.begin(), rows_.end(),
                                 [](const auto& a, const auto& b) { return a->last_used < b->last_used; }));
  }
  auto r = std::make_shared<Row>();
  r->nodes = nodes_;
  r->key = key;
  r->verdict.assign(nodes_->size(), kUnknown);
  r->last_used = tick_;
  rows_.push_back(r);
  return r;
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
