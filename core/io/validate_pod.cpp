#include "core/io/validate_pod.h"

#include <cmath>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/features.h"
#include "core/model/labels.h"
#include "core/model/quantity.h"

namespace kplace::io {

namespace {

// ---- field.Error wording (apimachinery/pkg/util/validation/field/errors.go) ---------------------------------

[[noreturn]] void Required(const Reader& at, const std::string& detail) {
  at.Fail(detail.empty() ? "Required value" : "Required value: " + detail);
}
[[noreturn]] void Forbidden(const Reader& at, const std::string& detail) { at.Fail("Forbidden: " + detail); }
// value: as upstream prints it (a string Go-quoted, an int32 bare).
[[noreturn]] void Invalid(const Reader& at, const std::string& value, const std::string& detail) {
  at.Fail("Invalid value: " + value + ": " + detail);
}
[[noreturn]] void NotSupported(const Reader& at, const std::string& value, std::initializer_list<const char*> valid) {
  std::string list;
  for (const char* v : valid) list += (list.empty() ? "" : ", ") + GoQuote(v);
  at.Fail("Unsupported value: " + GoQuote(value) + ": supported values: " + list);
}
[[noreturn]] void Duplicate(const Reader& at, const std::string& value) { at.Fail("Duplicate value: " + value); }

// ---- lenient access: a value of the wrong type is skipped (the parsers report it) -------------------------

const Json* Get(const Json* parent, const char* name) {
  if (!parent) return nullptr;
  const Json* it = FindMember(*parent, name);  // nullptr for a parent that is no object
  return it && !it->is_null() ? it : nullptr;
}
const Json* Obj(const Json* parent, const char* name) {
  const Json* v = Get(parent, name);
  return v && v->is_object() ? v : nullptr;
}
const Json* Arr(const Json* parent, const char* name) {
  const Json* v = Get(parent, name);
  return v && v->is_array() ? v : nullptr;
}
std::string Str(const Json* parent, const char* name) {
  const Json* v = Get(parent, name);
  return v && v->is_string() ? v->get<std::string>() : "";
}
// An integral JSON number; nullopt when absent or not one (the parsers report those).
std::optional<std::int64_t> Int(const Json* parent, const char* name) {
  const Json* v = Get(parent, name);
  if (!v) return std::nullopt;
  if (v->is_number_unsigned()) {
    auto u = v->get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (v->is_number_integer()) return v->get<std::int64_t>();
  if (v->is_number_float()) {
    double d = v->get<double>();
    // Range first: converting an out-of-range double is undefined.
    if (!(d >= -0x1p62 && d <= 0x1p62) || d != std::floor(d)) return std::nullopt;
    return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}
// An integer field that upstream reads as 0 when absent; nullopt when present with another type (the parsers
// report it).
std::optional<std::int64_t> IntOrZero(const Json* parent, const char* name) {
  if (!Get(parent, name)) return 0;
  return Int(parent, name);
}
// The string elements of a list (a non-string element is the parsers' to report).
std::vector<std::string> Strings(const Json* list) {
  std::vector<std::string> out;
  if (list)
    for (const Json& e : *list)
      if (e.is_string()) out.push_back(e.get<std::string>());
  return out;
}

// ---- name and label rules -----------------------------------------------------------------------------------

// unversionedvalidation.ValidateLabelName: every IsQualifiedName message is an error; the first is raised.
void LabelName(const std::string& key, const Reader& at) {
  for (const auto& msg : LabelKeyErrors(key)) Invalid(at, GoQuote(key), msg);
}
// unversionedvalidation.ValidateLabels: errors name the map, not the key.
void Labels(const Json* labels, const Reader& at) {
  if (!labels || !labels->is_object()) return;
  for (auto it = labels->begin(); it != labels->end(); ++it) {
    LabelName(it.key(), at);
    if (!it->is_string()) continue;
    for (const auto& msg : LabelValueErrors(it->get<std::string>())) Invalid(at, GoQuote(it->get<std::string>()), msg);
  }
}
void Subdomain(const std::string& value, const Reader& at) {
  for (const auto& msg : DNS1123SubdomainErrors(value)) Invalid(at, GoQuote(value), msg);
}
void DnsLabel(const std::string& value, const Reader& at) {
  for (const auto& msg : DNS1123LabelErrors(value)) Invalid(at, GoQuote(value), msg);
}

// unversionedvalidation.ValidateLabelSelector (AllowInvalidLabelValueInSelector false, as on create).
void LabelSelector(const Json* sel, const Reader& at) {
  if (!sel || !sel->is_object()) return;
  Labels(Obj(sel, "matchLabels"), at.Field("matchLabels"));
  const Json* exprs = Arr(sel, "matchExpressions");
  if (!exprs) return;
  for (std::size_t i = 0; i < exprs->size(); ++i) {
    Reader e = at.Field("matchExpressions").Index(i);
    const Json* req = &(*exprs)[i];
    std::string op = Str(req, "operator");
    const Json* values = Arr(req, "values");
    std::size_t n = values ? values->size() : 0;
    if (op == "In" || op == "NotIn") {
      if (n == 0) Required(e.Field("values"), "must be specified when `operator` is 'In' or 'NotIn'");
    } else if (op == "Exists" || op == "DoesNotExist") {
      if (n > 0) Forbidden(e.Field("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
    } else {
      Invalid(e.Field("operator"), GoQuote(op), "not a valid selector operator");
    }
    LabelName(Str(req, "key"), e.Field("key"));
    for (std::size_t j = 0; values && j < values->size(); ++j)
      if ((*values)[j].is_string())
        for (const auto& msg : LabelValueErrors((*values)[j].get<std::string>()))
          Invalid(e.Field("values").Index(j), GoQuote((*values)[j].get<std::string>()), msg);
  }
}

// ---- node affinity ----------------------------------------------------------------------------------------

// ValidateNodeSelectorRequirement. The API server does not check that a Gt/Lt value is an integer: such a term
// passes validation and never matches (the scheduler's LazyErrorNodeSelector).
void NodeSelectorRequirement(const Json* req, bool allow_invalid_values, const Reader& at) {
  std::string op = Str(req, "operator");
  const Json* values = Arr(req, "values");
  std::size_t n = values ? values->size() : 0;
  if (op == "In" || op == "NotIn") {
    if (n == 0) Required(at.Field("values"), "must be specified when `operator` is 'In' or 'NotIn'");
  } else if (op == "Exists" || op == "DoesNotExist") {
    if (n > 0) Forbidden(at.Field("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
  } else if (op == "Gt" || op == "Lt") {
    if (n != 1) Required(at.Field("values"), "must be specified single value when `operator` is 'Lt' or 'Gt'");
  } else {
    Invalid(at.Field("operator"), GoQuote(op), "not a valid selector operator");
  }
  LabelName(Str(req, "key"), at.Field("key"));
  if (allow_invalid_values || !values) return;
  for (std::size_t j = 0; j < values->size(); ++j)
    if ((*values)[j].is_string())
      for (const auto& msg : LabelValueErrors((*values)[j].get<std::string>()))
        Invalid(at.Field("values").Index(j), GoQuote((*values)[j].get<std::string>()), msg);
}

// ValidateNodeFieldSelectorRequirement: only metadata.name, In or NotIn, one value that is a node name.
void NodeFieldSelectorRequirement(const Json* req, const Reader& at) {
  std::string op = Str(req, "operator");
  const Json* values = Arr(req, "values");
  if (op == "In" || op == "NotIn") {
    if (!values || values->size() != 1)
      Required(at.Field("values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
  } else {
    Invalid(at.Field("operator"), GoQuote(op), "not a valid selector operator");
  }
  std::string key = Str(req, "key");
  if (key != "metadata.name") Invalid(at.Field("key"), GoQuote(key), "not a valid field selector key");
  for (std::size_t j = 0; values && j < values->size(); ++j)
    if ((*values)[j].is_string()) Subdomain((*values)[j].get<std::string>(), at.Field("values").Index(j));
}

void NodeSelectorTerm(const Json* term, bool allow_invalid_values, const Reader& at) {
  if (const Json* exprs = Arr(term, "matchExpressions"))
    for (std::size_t j = 0; j < exprs->size(); ++j)
      NodeSelectorRequirement(&(*exprs)[j], allow_invalid_values, at.Field("matchExpressions").Index(j));
  if (const Json* fields = Arr(term, "matchFields"))
    for (std::size_t j = 0; j < fields->size(); ++j)
      NodeFieldSelectorRequirement(&(*fields)[j], at.Field("matchFields").Index(j));
}

}  // namespace

void ValidateNodeSelector(const Json& selector, bool allow_invalid_label_values, const Reader& at) {
  if (Get(&selector, "nodeSelectorTerms") && !Arr(&selector, "nodeSelectorTerms")) return;  // the parser's to report
  const Json* terms = Arr(&selector, "nodeSelectorTerms");
  if (!terms || terms->empty()) Required(at.Field("nodeSelectorTerms"), "must have at least one node selector term");
  for (std::size_t i = 0; i < terms->size(); ++i)
    NodeSelectorTerm(&(*terms)[i], allow_invalid_label_values, at.Field("nodeSelectorTerms").Index(i));
}

namespace {

void NodeAffinity(const Json* na, const Reader& at) {
  const Json* req = Obj(na, "requiredDuringSchedulingIgnoredDuringExecution");
  // A nodeSelectorTerms of the wrong type is the parser's to report.
  // On create invalid label values are not allowed in required terms.
  if (req) ValidateNodeSelector(*req, false, at.Field("requiredDuringSchedulingIgnoredDuringExecution"));
  // ValidatePreferredSchedulingTerms: invalid label values are always allowed in preferred terms.
  if (const Json* pref = Arr(na, "preferredDuringSchedulingIgnoredDuringExecution")) {
    for (std::size_t i = 0; i < pref->size(); ++i) {
      Reader r = at.Field("preferredDuringSchedulingIgnoredDuringExecution").Index(i);
      const Json* term = &(*pref)[i];
      if (!term->is_object()) continue;
      auto w = IntOrZero(term, "weight");
      if (w && (*w <= 0 || *w > 100)) Invalid(r.Field("weight"), std::to_string(*w), "must be in the range 1-100");
      NodeSelectorTerm(Obj(term, "preference"), true, r.Field("preference"));
    }
  }
}

// ---- pod (anti-)affinity ----------------------------------------------------------------------------------

// validateLabelKeys: matchLabelKeys / mismatchLabelKeys need a labelSelector and must be label names.
void LabelKeys(const Json* keys, const Json* selector, const Reader& at) {
  if (!keys || keys->empty()) return;
  if (!selector) Forbidden(at, "must not be specified when labelSelector is not set");
  for (std::size_t i = 0; i < keys->size(); ++i)
    if ((*keys)[i].is_string()) LabelName((*keys)[i].get<std::string>(), at.Index(i));
}

// validateMatchLabelKeysAndMismatchLabelKeys, on the term as the API server has it by then: on create it appends
// `key In (value)` for each matchLabelKeys key and `key NotIn (value)` for each mismatchLabelKeys key the pod's
// labels have (pkg/registry/core/pod/strategy.go mutatePodAffinity, MatchLabelKeysInPodAffinity, GA in 1.33).
void MatchAndMismatchLabelKeys(const Json* term, const Json* pod_labels, const Reader& at) {
  const Json* selector = Obj(term, "labelSelector");
  const Json* match = Arr(term, "matchLabelKeys");
  const Json* mismatch = Arr(term, "mismatchLabelKeys");
  LabelKeys(match, selector, at.Field("matchLabelKeys"));
  LabelKeys(mismatch, selector, at.Field("mismatchLabelKeys"));
  std::vector<std::string> match_keys = Strings(match);
  if (selector) {
    std::map<std::string, std::size_t> index;  // key -> its (last) index in matchLabelKeys
    for (std::size_t i = 0; i < match_keys.size(); ++i) index[match_keys[i]] = i;
    std::set<std::string> selector_keys;
    if (const Json* ml = Obj(selector, "matchLabels"))
      for (auto it = ml->begin(); it != ml->end(); ++it) selector_keys.insert(it.key());
    std::vector<std::string> expr_keys;
    if (const Json* exprs = Arr(selector, "matchExpressions"))
      for (const Json& e : *exprs) expr_keys.push_back(Str(&e, "key"));
    for (const Json* keys : {match, mismatch})
      for (const auto& key : Strings(keys))
        if (const Json* v = Get(pod_labels, key.c_str()); v && v->is_string()) expr_keys.push_back(key);
    for (const auto& key : expr_keys) {
      // Upstream names the term indexed by the key's (last) position in matchLabelKeys (validation.go).
      if (auto it = index.find(key); it != index.end() && selector_keys.count(key))
        Invalid(at.Index(it->second), GoQuote(key), "exists in both matchLabelKeys and labelSelector");
      selector_keys.insert(key);
    }
  }
  std::vector<std::string> mismatch_keys = Strings(mismatch);
  std::set<std::string> mismatch_set(mismatch_keys.begin(), mismatch_keys.end());
  for (std::size_t i = 0; i < match_keys.size(); ++i)
    if (mismatch_set.count(match_keys[i]))
      Invalid(at.Field("matchLabelKeys").Index(i), GoQuote(match_keys[i]),
              "exists in both matchLabelKeys and mismatchLabelKeys");
}

// validatePodAffinityTerm.
void PodAffinityTerm(const Json* term, const Json* pod_labels, const Reader& at) {
  if (!term || !term->is_object()) return;
  LabelSelector(Obj(term, "labelSelector"), at.Field("labelSelector"));
  LabelSelector(Obj(term, "namespaceSelector"), at.Field("namespaceSelector"));
  // Upstream names the list "namespace", without an index.
  for (const auto& ns : Strings(Arr(term, "namespaces"))) DnsLabel(ns, at.Field("namespace"));
  MatchAndMismatchLabelKeys(term, pod_labels, at);
  std::string key = Str(term, "topologyKey");
  if (key.empty()) Required(at.Field("topologyKey"), "can not be empty");
  LabelName(key, at.Field("topologyKey"));
}

void PodAffinity(const Json* pa, const Json* pod_labels, const Reader& at) {
  if (const Json* req = Arr(pa, "requiredDuringSchedulingIgnoredDuringExecution"))
    for (std::size_t i = 0; i < req->size(); ++i)
      PodAffinityTerm(&(*req)[i], pod_labels, at.Field("requiredDuringSchedulingIgnoredDuringExecution").Index(i));
  if (const Json* pref = Arr(pa, "preferredDuringSchedulingIgnoredDuringExecution")) {
    for (std::size_t i = 0; i < pref->size(); ++i) {
      Reader r = at.Field("preferredDuringSchedulingIgnoredDuringExecution").Index(i);
      const Json* w = &(*pref)[i];
      if (!w->is_object()) continue;
      auto weight = IntOrZero(w, "weight");
      if (weight && (*weight <= 0 || *weight > 100))
        Invalid(r.Field("weight"), std::to_string(*weight), "must be in the range 1-100");
      PodAffinityTerm(Obj(w, "podAffinityTerm"), pod_labels, r.Field("podAffinityTerm"));
    }
  }
}

// ---- tolerations, spread constraints ----------------------------------------------------------------------

// ValidateTolerations. Gt and Lt (the alpha TaintTolerationComparisonOperators gate, off by default) are rejected.
void Tolerations(const Json* list, const Reader& at) {
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i) {
    Reader r = at.Index(i);
    const Json* t = &(*list)[i];
    if (!t->is_object()) continue;
    std::string key = Str(t, "key"), op = Str(t, "operator"), value = Str(t, "value"), effect = Str(t, "effect");
    if (!key.empty()) LabelName(key, r.Field("key"));
    if (key.empty() && op != "Exists")
      Invalid(r.Field("operator"), GoQuote(op),
              "operator must be Exists when `key` is empty, which means \"match all values and all keys\"");
    if (Int(t, "tolerationSeconds") && effect != "NoExecute")
      Invalid(r.Field("effect"), GoQuote(effect), "effect must be 'NoExecute' when `tolerationSeconds` is set");
    if (op == "Equal" || op.empty()) {
      std::string msgs;
      for (const auto& msg : LabelValueErrors(value)) msgs += (msgs.empty() ? "" : ";") + msg;
      if (!msgs.empty()) Invalid(r.Field("operator"), GoQuote(value), msgs);
    } else if (op == "Exists") {
      if (!value.empty())
        Invalid(r.Field("operator"), GoQuote(value), "value must be empty when `operator` is 'Exists'");
    } else {
      NotSupported(r.Field("operator"), op, {"Equal", "Exists"});
    }
    if (!effect.empty() && effect != "NoSchedule" && effect != "PreferNoSchedule" && effect != "NoExecute")
      NotSupported(r.Field("effect"), effect, {"NoSchedule", "PreferNoSchedule", "NoExecute"});
  }
}

// validateTopologySpreadConstraints.
void SpreadConstraints(const Json* list, const Reader& at) {
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i) {
    Reader r = at.Index(i);
    const Json* c = &(*list)[i];
    if (!c->is_object()) continue;
    auto skew = IntOrZero(c, "maxSkew");
    if (skew && *skew <= 0) Invalid(r.Field("maxSkew"), std::to_string(*skew), "must be greater than zero");
    std::string key = Str(c, "topologyKey"), when = Str(c, "whenUnsatisfiable");
    if (key.empty()) Required(r.Field("topologyKey"), "can not be empty");
    if (when != "DoNotSchedule" && when != "ScheduleAnyway")
      NotSupported(r.Field("whenUnsatisfiable"), when, {"DoNotSchedule", "ScheduleAnyway"});
    // The pair {topologyKey, whenUnsatisfiable} may appear once; upstream reports the first of a repeated pair.
    for (std::size_t j = i + 1; j < list->size(); ++j)
      if (Str(&(*list)[j], "topologyKey") == key && Str(&(*list)[j], "whenUnsatisfiable") == when)
        Duplicate(r.Field("{topologyKey, whenUnsatisfiable}"), GoQuote("{" + key + ", " + when + "}"));
    if (auto md = Int(c, "minDomains")) {
      if (*md <= 0) Invalid(r.Field("minDomains"), std::to_string(*md), "must be greater than zero");
      if (when != "DoNotSchedule")
        Invalid(r.Field("minDomains"), std::to_string(*md),
                "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " + when);
    }
    for (const char* policy : {"nodeAffinityPolicy", "nodeTaintsPolicy"}) {
      const Json* p = Get(c, policy);
      if (p && p->is_string() && *p != "Honor" && *p != "Ignore")
        NotSupported(r.Field(policy), p->get<std::string>(), {"Honor", "Ignore"});
    }
    // validateMatchLabelKeysInTopologySpread.
    const Json* selector = Obj(c, "labelSelector");
    if (const Json* keys = Arr(c, "matchLabelKeys"); keys && !keys->empty()) {
      if (!selector) Forbidden(r.Field("matchLabelKeys"), "must not be specified when labelSelector is not set");
      std::set<std::string> selector_keys;
      if (const Json* ml = Obj(selector, "matchLabels"))
        for (auto it = ml->begin(); it != ml->end(); ++it) selector_keys.insert(it.key());
      if (const Json* exprs = Arr(selector, "matchExpressions"))
        for (const Json& e : *exprs) selector_keys.insert(Str(&e, "key"));
      for (std::size_t k = 0; k < keys->size(); ++k) {
        if (!(*keys)[k].is_string()) continue;
        std::string mk = (*keys)[k].get<std::string>();
        LabelName(mk, r.Field("matchLabelKeys").Index(k));
        if (selector_keys.count(mk))
          Invalid(r.Field("matchLabelKeys").Index(k), GoQuote(mk), "exists in both matchLabelKeys and labelSelector");
      }
    }
    LabelSelector(selector, r.Field("labelSelector"));
  }
}

// ---- containers -------------------------------------------------------------------------------------------

// core/helper: IsNativeResource, IsHugePageResourceName, IsOvercommitAllowed, IsIntegerResourceName.
bool IsNative(const std::string& name) {
  return name.find('/') == std::string::npos || name.find("kubernetes.io/") != std::string::npos;
}
bool IsHugePages(const std::string& name) { return name.rfind("hugepages-", 0) == 0; }
bool OvercommitAllowed(const std::string& name) { return IsNative(name) && !IsHugePages(name); }
bool IsInteger(const std::string& name) {
  // An extended resource (IsExtendedResourceName: not native, not requests.*, a valid qualified name).
  return !IsNative(name) && name.rfind("requests.", 0) != 0 && LabelKeyErrors("requests." + name).empty();
}

std::optional<Quantity> QuantityOf(const Json& v) {
  if (v.is_string()) return Quantity::Parse(v.get<std::string>());
  if (v.is_number()) return Quantity::Parse(v.dump());
  return std::nullopt;
}

// ValidateResourceQuantityValue: not negative; an integer for integer resources.
void QuantityValue(const std::string& name, const Json& v, const Reader& at) {
  auto q = QuantityOf(v);
  if (!q) return;
  if (q->IsNegative()) Invalid(at, GoQuote(CanonicalQuantity(v)), "must be greater than or equal to 0");
  // The value is a resource.Quantity, which prints bare (fmt.Stringer).
  if (IsInteger(name) && q->Nanos() % 1'000'000'000 != 0) Invalid(at, CanonicalQuantity(v), "must be an integer");
}

// validateResourceRequirements (container resource names themselves are not checked).
void ResourceRequirements(const Json* res, const Reader& at) {
  if (!res) return;
  const Json* limits = Obj(res, "limits");
  const Json* requests = Obj(res, "requests");
  bool cpu_or_memory = false, hugepages = false;
  if (limits) {
    for (auto it = limits->begin(); it != limits->end(); ++it) {
      QuantityValue(it.key(), *it, at.Field("limits").Key(it.key()));
      hugepages |= IsHugePages(it.key());
      cpu_or_memory |= it.key() == "cpu" || it.key() == "memory";
    }
  }
  if (requests) {
    for (auto it = requests->begin(); it != requests->end(); ++it) {
      const std::string& name = it.key();
      auto req = QuantityOf(*it);
      if (!req) continue;
      QuantityValue(name, *it, at.Field("requests").Key(name));
      const Json* lim = limits ? Get(limits, name.c_str()) : nullptr;
      if (lim) {
        if (auto limq = QuantityOf(*lim)) {
          if (!(*req == *limq) && !OvercommitAllowed(name))
            Invalid(at.Field("requests"), GoQuote(CanonicalQuantity(*it)),
                    "must be equal to " + name + " limit of " + CanonicalQuantity(*lim));
          if (req->Nanos() > limq->Nanos())
            Invalid(at.Field("requests"), GoQuote(CanonicalQuantity(*it)),
                    "must be less than or equal to " + name + " limit of " + CanonicalQuantity(*lim));
        }
      } else if (!OvercommitAllowed(name)) {
        Required(at.Field("limits"), "Limit must be set for non overcommitable resources");
      }
      hugepages |= IsHugePages(name);
      cpu_or_memory |= name == "cpu" || name == "memory";
    }
  }
  if (hugepages && !cpu_or_memory) Forbidden(at, "HugePages require cpu or memory");
}

// validateContainerPorts (port names are not checked).
void Ports(const Json* ports, const Reader& at) {
  if (!ports) return;
  for (std::size_t i = 0; i < ports->size(); ++i) {
    Reader r = at.Index(i);
    const Json* p = &(*ports)[i];
    if (!p->is_object()) continue;
    auto cp = Int(p, "containerPort");
    if (!Get(p, "containerPort") || (cp && *cp == 0)) Required(r.Field("containerPort"), "");
    if (cp && (*cp < 1 || *cp > 65535))
      Invalid(r.Field("containerPort"), std::to_string(*cp), "must be between 1 and 65535, inclusive");
    auto hp = Int(p, "hostPort");
    if (hp && *hp != 0 && (*hp < 1 || *hp > 65535))
      Invalid(r.Field("hostPort"), std::to_string(*hp), "must be between 1 and 65535, inclusive");
    std::string proto = Str(p, "protocol");  // "" is defaulted to TCP
    if (!proto.empty() && proto != "TCP" && proto != "UDP" && proto != "SCTP")
      NotSupported(r.Field("protocol"), proto, {"SCTP", "TCP", "UDP"});
  }
}

// validateContainerCommon, for the fields kplace reads (the image is not required).
void ContainerCommon(const Json* c, const Reader& at) {
  const Json* name = Get(c, "name");
  if (!name || (name->is_string() && name->get<std::string>().empty()))
    Required(at.Field("name"), "");
  else if (name->is_string())
    DnsLabel(name->get<std::string>(), at.Field("name"));
  Ports(Arr(c, "ports"), at.Field("ports"));
  ResourceRequirements(Obj(c, "resources"), at.Field("resources"));
}

// AccumulateUniqueHostPorts: "<protocol>/<hostIP>/<hostPort>" once across the given containers.
void HostPortConflicts(const Json& containers, std::size_t first, std::size_t last, const Reader& at) {
  std::set<std::string> seen;
  for (std::size_t ci = first; ci < last; ++ci) {
    const Json* ports = Arr(&containers[ci], "ports");
    if (!ports) continue;
    for (std::size_t pi = 0; pi < ports->size(); ++pi) {
      const Json* p = &(*ports)[pi];
      auto hp = Int(p, "hostPort");
      if (!hp || *hp == 0) continue;
      std::string proto = Str(p, "protocol");
      std::string key = (proto.empty() ? "TCP" : proto) + "/" + Str(p, "hostIP") + "/" + std::to_string(*hp);
      if (!seen.insert(key).second) Duplicate(at.Index(ci).Field("ports").Index(pi).Field("hostPort"), GoQuote(key));
    }
  }
}

// validateContainers and validateInitContainers.
void Containers(const Json* spec, const Reader& at) {
  if (Get(spec, "containers") && !Arr(spec, "containers")) return;
  const Json* containers = Arr(spec, "containers");
  Reader cr = at.Field("containers");
  if (!containers || containers->empty()) Required(cr, "");
  std::set<std::string> names;
  for (std::size_t i = 0; i < containers->size(); ++i) {
    const Json* c = &(*containers)[i];
    if (!c->is_object()) continue;
    ContainerCommon(c, cr.Index(i));
    std::string name = Str(c, "name");
    if (!names.insert(name).second) Duplicate(cr.Index(i).Field("name"), GoQuote(name));
    // restartPolicy / restartPolicyRules: ValidateReleaseDependentPodSpec.
  }
  HostPortConflicts(*containers, 0, containers->size(), cr);
  const Json* inits = Arr(spec, "initContainers");
  if (!inits) return;
  Reader ir = at.Field("initContainers");
  for (std::size_t i = 0; i < inits->size(); ++i) {
    const Json* c = &(*inits)[i];
    if (!c->is_object()) continue;
    ContainerCommon(c, ir.Index(i));
    std::string name = Str(c, "name");
    if (names.count(name))
      Duplicate(ir.Index(i).Field("name"), GoQuote(name));
    else if (!name.empty())
      names.insert(name);
    // Init containers run one by one: their host ports conflict only within one container.
    HostPortConflicts(*inits, i, i + 1, ir);
  }
}

// ---- the pod spec -----------------------------------------------------------------------------------------

// ValidatePodSpec, in upstream's order, for the fields kplace reads. pod_labels: the pod's (or template's) labels.
void PodSpec(const Json* spec, const Json* pod_labels, const Reader& at) {
  Containers(spec, at);
  Labels(Obj(spec, "nodeSelector"), at.Field("nodeSelector"));
  if (const Json* aff = Obj(spec, "affinity")) {
    Reader a = at.Field("affinity");
    if (const Json* na = Obj(aff, "nodeAffinity")) NodeAffinity(na, a.Field("nodeAffinity"));
    if (const Json* pa = Obj(aff, "podAffinity")) PodAffinity(pa, pod_labels, a.Field("podAffinity"));
    if (const Json* paa = Obj(aff, "podAntiAffinity")) PodAffinity(paa, pod_labels, a.Field("podAntiAffinity"));
  }
  // validateSchedulingGates: the error names the gate, not its name field.
  if (const Json* gates = Arr(spec, "schedulingGates")) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < gates->size(); ++i) {
      if (!(*gates)[i].is_object()) continue;
      std::string name = Str(&(*gates)[i], "name");
      LabelName(name, at.Field("schedulingGates").Index(i));
      if (!seen.insert(name).second) Duplicate(at.Field("schedulingGates").Index(i), GoQuote(name));
    }
  }
  SpreadConstraints(Arr(spec, "topologySpreadConstraints"), at.Field("topologySpreadConstraints"));
  if (std::string node = Str(spec, "nodeName"); !node.empty()) Subdomain(node, at.Field("nodeName"));
  Tolerations(Arr(spec, "tolerations"), at.Field("tolerations"));
  if (std::string pc = Str(spec, "priorityClassName"); !pc.empty()) Subdomain(pc, at.Field("priorityClassName"));
  if (const Json* pp = Get(spec, "preemptionPolicy"); pp && pp->is_string()) {
    std::string v = pp->get<std::string>();
    if (v.empty()) Required(at.Field("preemptionPolicy"), "");
    if (v != "PreemptLowerPriority" && v != "Never")
      NotSupported(at.Field("preemptionPolicy"), v, {"PreemptLowerPriority", "Never"});
  }
  // validateOverhead checks the overhead as the limits of a ResourceRequirements (hence "overhead.limits").
  if (const Json* oh = Obj(spec, "overhead")) {
    Reader o = at.Field("overhead");
    for (auto it = oh->begin(); it != oh->end(); ++it) QuantityValue(it.key(), *it, o.Field("limits").Key(it.key()));
  }
}

// ---- Go resource.Quantity.String() ------------------------------------------------------------------------

std::string Int128Text(Int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  std::string out;
  while (v != 0) {
    int d = static_cast<int>(v % 10);
    out.insert(out.begin(), static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  return neg ? "-" + out : out;
}

}  // namespace

std::string CanonicalQuantity(const Json& v) {
  std::string text = v.is_string() ? v.get<std::string>() : v.dump();
  auto q = Quantity::Parse(text);
  if (!q) return "";
  // The format comes from the suffix as written (quantity.go parseQuantityString): binary SI (Ki...), an exponent
  // (e3), or decimal SI.
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
  std::string suffix = text.substr(i);
  enum { kDecimalSI, kBinarySI, kDecimalExponent } format = kDecimalSI;
  if (!suffix.empty() && suffix.back() == 'i')
    format = kBinarySI;
  else if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E'))
    format = kDecimalExponent;
  const Int128 nanos = q->Nanos();
  constexpr Int128 kUnit = 1'000'000'000;
  if (nanos == 0) return "0";
  // CanonicalizeBytes: binary SI only for whole values of magnitude 1024 and more.
  if (format == kBinarySI) {
    if ((nanos > -1024 * kUnit && nanos < 1024 * kUnit) || nanos % kUnit != 0) {
      format = kDecimalSI;
    } else {
      Int128 amount = nanos / kUnit;
      int exp = 0;
      while (amount % 1024 == 0 && exp < 6) {
        amount /= 1024;
        ++exp;
      }
      static const char* kBinary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
      return Int128Text(amount) + kBinary[exp];
    }
  }
  // AsCanonicalBytes: drop trailing zeros, then lower the exponent to a multiple of 3.
  Int128 mantissa = nanos;
  int exp = -9;
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exp;
  }
  int rem = ((exp % 3) + 3) % 3;
  for (; rem > 0; --rem) {
    mantissa *= 10;
    --exp;
  }
  if (format == kDecimalExponent) return Int128Text(mantissa) + (exp == 0 ? "" : "e" + std::to_string(exp));
  switch (exp) {
    case -9:
      return Int128Text(mantissa) + "n";
    case -6:
      return Int128Text(mantissa) + "u";
    case -3:
      return Int128Text(mantissa) + "m";
    case 0:
      return Int128Text(mantissa);
    case 3:
      return Int128Text(mantissa) + "k";
    case 6:
      return Int128Text(mantissa) + "M";
    case 9:
      return Int128Text(mantissa) + "G";
    case 12:
      return Int128Text(mantissa) + "T";
    case 15:
      return Int128Text(mantissa) + "P";
    case 18:
      return Int128Text(mantissa) + "E";
    default:
      return Int128Text(mantissa) + "e" + std::to_string(exp);
  }
}

namespace {

bool SetsReleaseDependentFields(const Json* spec) {
  if (!spec) return false;
  if (Get(spec, "hostNetwork") && Get(spec, "hostUsers")) return true;
  for (const char* list : {"containers", "initContainers"})
    if (const Json* cs = Arr(spec, list))
      for (const Json& c : *cs)
        if (Get(&c, "restartPolicy") || Get(&c, "restartPolicyRules")) return true;
  return false;
}

void Defer(const Json* spec, const Reader& at, std::vector<ReleaseDependentPodCheck>* deferred) {
  if (deferred && SetsReleaseDependentFields(spec)) deferred->push_back({*spec, at});
}

// validateContainerRestartPolicy (ContainerRestartRules: beta and on from 1.35). The RestartAllContainers action
// needs RestartAllContainersOnContainerExits (beta and on from 1.36); 1.35's message lists only "Restart" either
// way, 1.36's lists the allowed ones (kubernetes/kubernetes#137369), and counts over the limit read "Too many" from
// 1.36 (#137136), "Too long" before.
void ContainerRestartPolicy(const Json* c, const Reader& at, const Features& f) {
  const Json* policy = Get(c, "restartPolicy");
  const Json* rules = Arr(c, "restartPolicyRules");
  if (!policy) {
    if (rules && !rules->empty())
      Required(at.Field("restartPolicy"), "must specify restartPolicy when restart rules are used");
    return;
  }
  if (!policy->is_string()) return;
  const std::string p = policy->get<std::string>();
  if (p != "Always" && p != "Never" && p != "OnFailure")
    NotSupported(at.Field("restartPolicy"), p, {"Always", "Never", "OnFailure"});
  if (!rules) return;
  auto too_many = [&](const Reader& where, std::size_t n, std::size_t limit) {
    if (n <= limit) return;
    if (f.Enabled(Feature::RestartRulesValidationMessages))
      where.Fail("Too many: " + std::to_string(n) + ": must have at most " + std::to_string(limit) + " items");
    where.Fail("Too long: may not be more than " + std::to_string(limit) + " bytes");
  };
  Reader rr = at.Field("restartPolicyRules");
  too_many(rr, rules->size(), 20);
  for (std::size_t i = 0; i < rules->size(); ++i) {
    const Json* rule = &(*rules)[i];
    if (!rule->is_object()) continue;
    Reader ri = rr.Index(i);
    const std::string action = Str(rule, "action");
    const bool restart_all = f.Enabled(Feature::RestartAllContainersOnContainerExits);
    if (action != "Restart" && !(restart_all && action == "RestartAllContainers")) {
      if (f.Enabled(Feature::RestartRulesValidationMessages) && restart_all)
        NotSupported(ri.Field("action"), action, {"Restart", "RestartAllContainers"});
      NotSupported(ri.Field("action"), action, {"Restart"});
    }
    const Json* codes = Obj(rule, "exitCodes");
    if (!codes) Required(ri.Field("exitCodes"), "must be specified");
    const std::string op = Str(codes, "operator");
    if (op != "In" && op != "NotIn") NotSupported(ri.Field("exitCodes").Field("operator"), op, {"In", "NotIn"});
    if (const Json* values = Arr(codes, "values")) too_many(ri.Field("exitCodes").Field("values"), values->size(), 255);
  }
}

}  // namespace

void ValidateReleaseDependentPodSpec(const ReleaseDependentPodCheck& check, int minor) {
  const Features f(minor);
  const Json* spec = &check.spec;
  const Reader& at = check.at;
  // Containers: 1.33 forbids a regular container's restartPolicy and allows only Always on an init container; 1.34
  // (ContainerRestartRules alpha, off) drops the fields it does not allow instead (dropContainerRestartRules, so the
  // pod is accepted); from 1.35 validateContainerRestartPolicy checks them.
  const bool dropped = f.Enabled(Feature::ContainerRestartRulesDropped) && !f.Enabled(Feature::ContainerRestartRules);
  if (const Json* cs = Arr(spec, "containers")) {
    for (std::size_t i = 0; i < cs->size(); ++i) {
      const Json* c = &(*cs)[i];
      if (!c->is_object() || dropped) continue;
      Reader ci = at.Field("containers").Index(i);
      if (f.Enabled(Feature::ContainerRestartRules))
        ContainerRestartPolicy(c, ci, f);
      else if (Get(c, "restartPolicy"))
        Forbidden(ci.Field("restartPolicy"), "may not be set for non-init containers");
    }
  }
  if (const Json* cs = Arr(spec, "initContainers")) {
    for (std::size_t i = 0; i < cs->size(); ++i) {
      const Json* c = &(*cs)[i];
      if (!c->is_object() || dropped) continue;
      Reader ci = at.Field("initContainers").Index(i);
      const Json* rp = Get(c, "restartPolicy");
      if (!f.Enabled(Feature::ContainerRestartRules)) {
        if (rp && rp->is_string() && *rp != "Always")
          NotSupported(ci.Field("restartPolicy"), rp->get<std::string>(), {"Always"});
        continue;
      }
      // validateInitContainerRestartPolicy: a sidecar (Always) takes rules only with RestartAllContainers allowed.
      const Json* rules = Arr(c, "restartPolicyRules");
      if (rp && rp->is_string() && *rp == "Always" && !f.Enabled(Feature::RestartAllContainersOnContainerExits)) {
        if (rules && !rules->empty())
          Forbidden(ci.Field("restartPolicyRules"),
                    "restartPolicyRules are not allowed for init containers with restart policy Always");
      } else {
        ContainerRestartPolicy(c, ci, f);
      }
    }
  }
  // hostNetwork with hostUsers false: UserNamespacesHostNetworkSupport is alpha and off through 1.37.
  const Json* hn = Get(spec, "hostNetwork");
  const Json* hu = Get(spec, "hostUsers");
  if (hn && hn->is_boolean() && hn->get<bool>() && hu && hu->is_boolean() && !hu->get<bool>())
    Forbidden(at.Field("hostNetwork"), f.Enabled(Feature::HostUsersMessageNamesField)
                                           ? "when `hostUsers` is false"
                                           : "when `pod.Spec.HostUsers` is false");
}

void ValidatePodObject(const Json& pod, const Reader& r, std::vector<ReleaseDependentPodCheck>* deferred) {
  // ValidateObjectMeta. A pod without a name is left to the scenario parser's own "required"; the namespace
  // defaults to "default".
  const Json* meta = Obj(&pod, "metadata");
  if (Str(meta, "name").empty()) return;
  {
    Reader m = r.Field("metadata");
    Subdomain(Str(meta, "name"), m.Field("name"));
    if (std::string ns = Str(meta, "namespace"); !ns.empty()) DnsLabel(ns, m.Field("namespace"));
    Labels(Obj(meta, "labels"), m.Field("labels"));
  }
  // A spec of the wrong type is the parser's to report.
  if (Get(&pod, "spec") && !Obj(&pod, "spec")) return;
  PodSpec(Obj(&pod, "spec"), Obj(meta, "labels"), r.Field("spec"));
  Defer(Obj(&pod, "spec"), r.Field("spec"), deferred);
}

void ValidatePodTemplate(const Json& tmpl, const Reader& r, std::vector<ReleaseDependentPodCheck>* deferred) {
  // ValidatePodTemplateSpec names the labels "<template>.labels"; kplace names the JSON path.
  const Json* labels = Obj(Obj(&tmpl, "metadata"), "labels");
  Labels(labels, r.Field("metadata").Field("labels"));
  if (Get(&tmpl, "spec") && !Obj(&tmpl, "spec")) return;
  PodSpec(Obj(&tmpl, "spec"), labels, r.Field("spec"));
  Defer(Obj(&tmpl, "spec"), r.Field("spec"), deferred);
}

}  // namespace kplace::io
