#include "core/karpenter/pod.h"

#include <algorithm>

#include "core/model/pod_requests.h"

namespace kplace::karpenter {
namespace {

const char* kCoreWellKnown[] = {"karpenter.sh/nodepool",
                                "topology.kubernetes.io/zone",
                                "topology.kubernetes.io/region",
                                "node.kubernetes.io/instance-type",
                                "kubernetes.io/arch",
                                "kubernetes.io/os",
                                "karpenter.sh/capacity-type",
                                "node.kubernetes.io/windows-build"};

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

const char* SelectorOpName(SelectorOp op) {
  switch (op) {
    case SelectorOp::In:
    case SelectorOp::Equals:
      return "In";
    case SelectorOp::NotIn:
      return "NotIn";
    case SelectorOp::Exists:
      return "Exists";
    case SelectorOp::DoesNotExist:
      return "DoesNotExist";
    case SelectorOp::Gt:
      return "Gt";
    case SelectorOp::Lt:
      return "Lt";
  }
  return "";
}

std::string ExpressionsJson(const std::vector<LabelRequirement>& exprs) {
  std::string out = "[";
  for (std::size_t i = 0; i < exprs.size(); ++i) {
    const auto& e = exprs[i];
    if (i) out += ",";
    out += "{\"key\":" + JsonString(Text(e.key)) + ",\"operator\":" + JsonString(SelectorOpName(e.op));
    if (!e.values.empty()) {
      out += ",\"values\":[";
      for (std::size_t j = 0; j < e.values.size(); ++j) out += (j ? "," : "") + JsonString(Text(e.values[j]));
      out += "]";
    }
    out += "}";
  }
  return out + "]";
}

// encoding/json of a v1.NodeSelectorTerm (omitempty fields).
std::string TermJson(const NodeSelectorTerm& t) {
  std::string out = "{";
  if (!t.match_expressions.empty()) out += "\"matchExpressions\":" + ExpressionsJson(t.match_expressions);
  if (!t.match_fields.empty())
    out += std::string(out.size() > 1 ? "," : "") + "\"matchFields\":" + ExpressionsJson(t.match_fields);
  return out + "}";
}

std::string SelectorJson(const LabelSelector& s) {
  std::vector<std::pair<std::string, std::string>> labels;
  std::vector<LabelRequirement> exprs;
  for (const auto& r : s.requirements) {
    if (r.op == SelectorOp::Equals && r.values.size() == 1)
      labels.emplace_back(Text(r.key), Text(r.values[0]));
    else
      exprs.push_back(r);
  }
  std::sort(labels.begin(), labels.end());
  std::string out = "{";
  if (!labels.empty()) {
    out += "\"matchLabels\":{";
    for (std::size_t i = 0; i < labels.size(); ++i)
      out += (i ? "," : "") + JsonString(labels[i].first) + ":" + JsonString(labels[i].second);
    out += "}";
  }
  if (!exprs.empty()) out += std::string(out.size() > 1 ? "," : "") + "\"matchExpressions\":" + ExpressionsJson(exprs);
  return out + "}";
}

std::string SymbolsJson(const std::vector<Symbol>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + JsonString(Text(v[i]));
  return out + "]";
}

std::string WeightedAffinityJson(const WeightedPodAffinityTerm& w) {
  const PodAffinityTerm& t = w.term;
  std::string out = "{\"weight\":" + std::to_string(w.weight) + ",\"podAffinityTerm\":{";
  bool first = true;
  auto sep = [&] {
    if (!first) out += ",";
    first = false;
  };
  if (!t.label_selector.nil) {
    sep();
    out += "\"labelSelector\":" + SelectorJson(t.label_selector);
  }
  if (!t.namespaces.empty()) {
    sep();
    out += "\"namespaces\":" + SymbolsJson(t.namespaces);
  }
  sep();
  out += "\"topologyKey\":" + JsonString(Text(t.topology_key));
  if (t.namespace_selector) out += ",\"namespaceSelector\":" + SelectorJson(*t.namespace_selector);
  if (!t.match_label_keys.empty()) out += ",\"matchLabelKeys\":" + SymbolsJson(t.match_label_keys);
  if (!t.mismatch_label_keys.empty()) out += ",\"mismatchLabelKeys\":" + SymbolsJson(t.mismatch_label_keys);
  return out + "}}";
}

std::string SpreadJson(const TopologySpreadConstraint& c) {
  std::string out =
      "{\"maxSkew\":" + std::to_string(c.max_skew) + ",\"topologyKey\":" + JsonString(Text(c.topology_key)) +
      ",\"whenUnsatisfiable\":" +
      JsonString(c.when_unsatisfiable == UnsatisfiableAction::ScheduleAnyway ? "ScheduleAnyway" : "DoNotSchedule");
  if (!c.label_selector.nil) out += ",\"labelSelector\":" + SelectorJson(c.label_selector);
  if (c.min_domains) out += ",\"minDomains\":" + std::to_string(*c.min_domains);
  if (c.node_affinity_policy == InclusionPolicy::Ignore) out += ",\"nodeAffinityPolicy\":\"Ignore\"";
  if (c.node_taints_policy == InclusionPolicy::Honor) out += ",\"nodeTaintsPolicy\":\"Honor\"";
  if (!c.match_label_keys.empty()) out += ",\"matchLabelKeys\":" + SymbolsJson(c.match_label_keys);
  return out + "}";
}

void AddExpressions(Requirements& reqs, const std::vector<LabelRequirement>& exprs) {
  for (const auto& e : exprs) {
    LabelRequirement n = e;
    n.key = NormalizeKey(e.key);
    reqs.Add(Requirement::FromSelector(n));
  }
}

template <typename T>
void StableByWeight(std::vector<T>& v) {
  std::stable_sort(v.begin(), v.end(), [](const T& a, const T& b) { return a.weight > b.weight; });
}

}  // namespace

Symbol NormalizeKey(Symbol key) {
  static const std::pair<Symbol, Symbol> kMap[] = {
      {Intern("failure-domain.beta.kubernetes.io/zone"), Intern("topology.kubernetes.io/zone")},
      {Intern("failure-domain.beta.kubernetes.io/region"), Intern("topology.kubernetes.io/region")},
      {Intern("beta.kubernetes.io/arch"), Intern("kubernetes.io/arch")},
      {Intern("beta.kubernetes.io/os"), Intern("kubernetes.io/os")},
      {Intern("beta.kubernetes.io/instance-type"), Intern("node.kubernetes.io/instance-type")}};
  for (auto [from, to] : kMap)
    if (key == from) return to;
  return key;
}

KeySet WellKnownKeys(const std::vector<InstanceType>& types) {
  KeySet s;
  for (const char* k : kCoreWellKnown) s.push_back(Intern(k));
  for (const auto& t : types) {
    for (auto [k, v] : t.meta.labels.entries()) s.push_back(k);
    for (const auto& r : t.requirements) s.push_back(r.key);
  }
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

Resource KarpenterRequests(const Pod& pod) {
  Resource r = PodRequests(pod, PodRequestsOptions{});
  r.allowed_pod_number += 1;
  return r;
}

PodData MakePodData(const Pod& pod, std::size_t index) {
  PodData d;
  d.pod = &pod;
  d.index = index;
  d.requests = KarpenterRequests(pod);
  for (const auto& c : pod.containers)
    for (const auto& p : c.ports)
      if (p.host_port > 0) d.host_ports.push_back(p);
  for (const auto& c : pod.init_containers)
    for (const auto& p : c.ports)
      if (p.host_port > 0) d.host_ports.push_back(p);
  if (pod.affinity.node_affinity) {
    if (pod.affinity.node_affinity->required) d.required_terms = pod.affinity.node_affinity->required->terms;
    d.preferred_terms = pod.affinity.node_affinity->preferred;
  }
  d.preferred_affinity = pod.affinity.pod_affinity.preferred;
  d.preferred_anti_affinity = pod.affinity.pod_anti_affinity.preferred;
  d.spread = pod.topology_spread_constraints;
  d.tolerations = pod.tolerations;
  StableByWeight(d.preferred_terms);
  StableByWeight(d.preferred_affinity);
  StableByWeight(d.preferred_anti_affinity);
  d.Recompute();
  return d;
}

void PodData::Recompute() {
  Requirements base;
  for (auto [k, v] : pod->node_selector) base.Add(Requirement::Make(NormalizeKey(k), ReqOp::In, {v}));
  strict = base;
  requirements = base;
  if (!preferred_terms.empty()) AddExpressions(requirements, preferred_terms[0].preference.match_expressions);
  if (!required_terms.empty()) {
    AddExpressions(requirements, required_terms[0].match_expressions);
    AddExpressions(strict, required_terms[0].match_expressions);
  }
}

std::optional<std::string> Relax(PodData& d, bool pns) {
  std::optional<std::string> reason;
  if (d.required_terms.size() > 1) {
    reason = "removing: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]=" +
             TermJson(d.required_terms[0]);
    d.required_terms.erase(d.required_terms.begin());
  } else if (!d.preferred_affinity.empty()) {
    reason = "removing: spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]=" +
             WeightedAffinityJson(d.preferred_affinity[0]);
    d.preferred_affinity.erase(d.preferred_affinity.begin());
  } else if (!d.preferred_anti_affinity.empty()) {
    reason = "removing: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]=" +
             WeightedAffinityJson(d.preferred_anti_affinity[0]);
    d.preferred_anti_affinity.erase(d.preferred_anti_affinity.begin());
  } else if (!d.preferred_terms.empty()) {
    const auto& t = d.preferred_terms[0];
    reason = "removing: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]={\"weight\":" +
             std::to_string(t.weight) + ",\"preference\":" + TermJson(t.preference) + "}";
    d.preferred_terms.erase(d.preferred_terms.begin());
  } else {
    for (std::size_t i = 0; i < d.spread.size(); ++i) {
      if (d.spread[i].when_unsatisfiable != UnsatisfiableAction::ScheduleAnyway) continue;
      reason = "removing: spec.topologySpreadConstraints = " + SpreadJson(d.spread[i]);
      d.spread[i] = d.spread.back();  // upstream swaps with the last and truncates
      d.spread.pop_back();
      break;
    }
    if (!reason && pns) {
      bool has = std::any_of(d.tolerations.begin(), d.tolerations.end(), [](const Toleration& t) {
        return t.op == TolerationOp::Exists && t.effect == TaintEffect::PreferNoSchedule && t.key == kEmptySymbol &&
               t.value == kEmptySymbol;
      });
      if (!has) {
        Toleration t;
        t.op = TolerationOp::Exists;
        t.effect = TaintEffect::PreferNoSchedule;
        d.tolerations.push_back(t);
        reason = "adding: toleration for PreferNoSchedule taints";
      }
    }
  }
  if (reason) d.Recompute();
  return reason;
}

namespace {

bool IsRestrictedDomain(const std::string& key) {
  auto pos = key.find('/');
  if (pos == std::string::npos) return false;
  std::string domain = key.substr(0, pos);
  const std::string k = "karpenter.sh";
  return domain == k ||
         (domain.size() > k.size() + 1 && domain.compare(domain.size() - k.size() - 1, k.size() + 1, "." + k) == 0);
}

std::string RestrictedLabelError(Symbol key, const KeySet& well_known) {
  if (KeySetHas(well_known, key)) return "";
  const std::string& k = Text(key);
  if (!IsRestrictedDomain(k) && key != HostnameKey()) return "";
  std::vector<std::string> names;
  for (Symbol s : well_known) names.push_back(Text(s));
  std::sort(names.begin(), names.end());
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) list += (i ? " " : "") + names[i];
  return "using label " + k +
         " is not allowed as it might interfere with the internal provisioning logic; specify a well known label: [" +
         list + "], or a custom label that does not use a restricted domain: [karpenter.sh]";
}

// v1.ValidateRequirement (pkg/apis/v1/nodeclaim_validation.go), the parts reachable from parsed pods.
void ValidateRequirement(const LabelRequirement& r, const KeySet& well_known, std::vector<std::string>& errs) {
  Symbol key = NormalizeKey(r.key);
  if (auto e = RestrictedLabelError(key, well_known); !e.empty()) errs.push_back(e);
  static const Symbol kCapacityType = Intern("karpenter.sh/capacity-type");
  if (key == kCapacityType && (r.op == SelectorOp::In || r.op == SelectorOp::Equals)) {
    bool any = false;
    std::string got;
    for (std::size_t i = 0; i < r.values.size(); ++i) {
      const std::string& v = Text(r.values[i]);
      any = any || v == "on-demand" || v == "spot" || v == "reserved";
      got += (i ? " " : "") + v;
    }
    if (!any)
      errs.push_back("no valid values found in [" + got + "] for karpenter.sh/capacity-type, expected one of: " +
                     "map[on-demand:{} reserved:{} spot:{}], got: [" + got + "]");
  }
  if ((r.op == SelectorOp::In || r.op == SelectorOp::Equals) && r.values.empty())
    errs.push_back("key " + Text(key) + " with operator In must have a value defined");
}

}  // namespace

std::string ValidatePod(const Pod& pod, const KeySet& well_known, const framework::VolumeCache* storage) {
  std::vector<std::string> errs;
  // validateKarpenterManagedLabelCanExist: over the full pod requirements (a preferred term counts too).
  PodData d = MakePodData(pod, 0);
  static const Symbol kNodePool = Intern("karpenter.sh/nodepool");
  if (const Requirement* np = d.requirements.Find(kNodePool); np && np->Operator() == ReqOp::DoesNotExist)
    errs.push_back(kManagedLabelDoesNotExist);
  for (auto [k, v] : pod.node_selector) {
    LabelRequirement r;
    r.key = k;
    r.op = SelectorOp::In;
    r.values = {v};
    ValidateRequirement(r, well_known, errs);
  }
  if (pod.affinity.node_affinity && pod.affinity.node_affinity->required) {
    for (const auto& t : pod.affinity.node_affinity->required->terms) {
      for (const auto& e : t.match_expressions) ValidateRequirement(e, well_known, errs);
      if (!t.match_fields.empty()) errs.push_back("node selector term with matchFields is not supported");
    }
  }
  if (storage)
    if (std::string e = ValidateVolumeClaims(pod, *storage); !e.empty()) errs.push_back(std::move(e));
  std::string out;
  for (std::size_t i = 0; i < errs.size(); ++i) out += (i ? "; " : "") + errs[i];
  return out;
}

}  // namespace kplace::karpenter
