#include "core/io/scenario_parser.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>

namespace kplace::io {
namespace {

// ---- time -------------------------------------------------------------------------------------------------

// RFC 3339 (metav1.Time): 2024-01-02T03:04:05Z, optional fraction, Z or +hh:mm. Returns unix seconds.
std::optional<std::int64_t> ParseRfc3339(const std::string& s) {
  // Fixed-width digits (sscanf alone would take signs and blanks).
  if (s.size() < 20) return std::nullopt;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18})
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
  int y, mo, d, h, mi, sec;
  char t;
  int n = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d%n", &y, &mo, &d, &t, &h, &mi, &sec, &n) != 7)
    return std::nullopt;
  if (t != 'T' && t != 't' && t != ' ') return std::nullopt;
  if (n != 19 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59) return std::nullopt;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > kDays[mo - 1] + (mo == 2 && leap ? 1 : 0)) return std::nullopt;
  std::size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    ++i;
    std::size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == start) return std::nullopt;
  }
  std::int64_t offset = 0;
  if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
    ++i;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    if (i + 6 > s.size() || s[i + 3] != ':') return std::nullopt;
    for (std::size_t k : {1, 2, 4, 5})
      if (!std::isdigit(static_cast<unsigned char>(s[i + k]))) return std::nullopt;
    int oh = (s[i + 1] - '0') * 10 + (s[i + 2] - '0'), om = (s[i + 4] - '0') * 10 + (s[i + 5] - '0');
    if (oh > 23 || om > 59) return std::nullopt;
    offset = (oh * 60 + om) * 60 * (s[i] == '+' ? 1 : -1);
    i += 6;
  } else {
    return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  // Days from civil (proleptic Gregorian).
  y -= mo <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const std::int64_t days = era * 146097 + doe - 719468;
  return days * 86400 + h * 3600 + mi * 60 + sec - offset;
}

std::string Describe(const std::string& kind, const std::string& ns, const std::string& name) {
  std::string out = kind.empty() ? "object" : kind;
  if (!name.empty()) out += " " + (ns.empty() ? name : ns + "/" + name);
  return out;
}

// ---- shared pieces ----------------------------------------------------------------------------------------

ObjectMeta ParseMeta(const Json& obj, const Reader& r, bool namespaced, bool name_required) {
  ObjectMeta m;
  const Json* meta = r.Object(obj, "metadata");
  Reader at = r.Field("metadata");
  if (!meta) {
    if (name_required) at.Fail("required");
    if (namespaced) m.namespace_ = "default";
    return m;
  }
  m.name = at.String(*meta, "name").value_or("");
  if (name_required && m.name.empty()) at.Field("name").Fail("required");
  if (namespaced) {
    m.namespace_ = at.String(*meta, "namespace").value_or("");
    if (m.namespace_.empty()) m.namespace_ = "default";
  }
  if (auto it = meta->find("labels"); it != meta->end() && !it->is_null())
    m.labels = at.Field("labels").AsLabels(*it, &m.label_text);
  if (auto ts = at.String(*meta, "creationTimestamp")) {
    auto t = ParseRfc3339(*ts);
    if (!t) at.Field("creationTimestamp").Fail("\"" + *ts + "\" is not an RFC 3339 time");
    m.creation_timestamp = *ts;
    m.creation_unix = *t;
  }
  if (auto ts = at.String(*meta, "deletionTimestamp")) {
    if (!ParseRfc3339(*ts)) at.Field("deletionTimestamp").Fail("\"" + *ts + "\" is not an RFC 3339 time");
    m.deleting = true;
  }
  m.uid = at.String(*meta, "uid").value_or("");
  if (const Json* refs = at.Array(*meta, "ownerReferences")) {
    for (std::size_t i = 0; i < refs->size(); ++i) {
      Reader ra = at.Field("ownerReferences").Index(i);
      const Json& o = (*refs)[i];
      ra.ExpectObject(o);
      OwnerReference ref;
      ref.api_version = ra.String(o, "apiVersion").value_or("");
      ref.kind = ra.String(o, "kind").value_or("");
      ref.name = ra.String(o, "name").value_or("");
      ref.controller = ra.Bool(o, "controller").value_or(false);
      m.owner_references.push_back(std::move(ref));
    }
  }
  return m;
}

TaintEffect ParseEffect(const Reader& r, const std::string& e, bool allow_empty) {
  if (e.empty() && allow_empty) return TaintEffect::None;
  if (e == "NoSchedule") return TaintEffect::NoSchedule;
  if (e == "PreferNoSchedule") return TaintEffect::PreferNoSchedule;
  if (e == "NoExecute") return TaintEffect::NoExecute;
  r.Fail("unsupported taint effect \"" + e + "\" (NoSchedule, PreferNoSchedule or NoExecute)");
}

std::vector<Taint> ParseTaints(const Json* arr, const Reader& r) {
  std::vector<Taint> out;
  if (!arr) return out;
  for (std::size_t i = 0; i < arr->size(); ++i) {
    Reader at = r.Index(i);
    const Json& t = (*arr)[i];
    at.ExpectObject(t);
    Taint taint;
    auto key = at.String(t, "key");
    if (!key || key->empty()) at.Field("key").Fail("required");
    taint.key = Intern(*key);
    taint.value = Intern(at.String(t, "value").value_or(""));
    auto effect = at.String(t, "effect");
    if (!effect) at.Field("effect").Fail("required");
    taint.effect = ParseEffect(at.Field("effect"), *effect, false);
    out.push_back(taint);
  }
  return out;
}

std::vector<Toleration> ParseTolerations(const Json* arr, const Reader& r) {
  std::vector<Toleration> out;
  if (!arr) return out;
  for (std::size_t i = 0; i < arr->size(); ++i) {
    Reader at = r.Index(i);
    const Json& t = (*arr)[i];
    at.ExpectObject(t);
    Toleration tol;
    tol.key = Intern(at.String(t, "key").value_or(""));
    auto op = at.String(t, "operator").value_or("");
    if (op.empty() || op == "Equal")
      tol.op = TolerationOp::Equal;
    else if (op == "Exists")
      tol.op = TolerationOp::Exists;
    else if (op == "Gt")
      tol.op = TolerationOp::Gt;
    else if (op == "Lt")
      tol.op = TolerationOp::Lt;
    else
      at.Field("operator").Fail("unsupported operator \"" + op + "\" (Equal, Exists, Gt or Lt)");
    tol.value = Intern(at.String(t, "value").value_or(""));
    tol.effect = ParseEffect(at.Field("effect"), at.String(t, "effect").value_or(""), true);
    tol.toleration_seconds = at.Int(t, "tolerationSeconds", INT64_MIN, INT64_MAX);
    out.push_back(tol);
  }
  return out;
}

// v1.NodeSelector. No terms is accepted and matches no node (nodeaffinity.NewLazyErrorNodeSelector). lazy: a
// pod's own affinity, whose invalid terms never match instead of failing (the scheduler ignores those errors).
NodeSelector ParseNodeSelector(const Json& v, const Reader& r, bool lazy) {
  r.ExpectObject(v);
  NodeSelector sel;
  if (const Json* terms = r.Array(v, "nodeSelectorTerms"))
    for (std::size_t i = 0; i < terms->size(); ++i)
      sel.terms.push_back(r.Field("nodeSelectorTerms").Index(i).AsNodeSelectorTerm((*terms)[i], lazy));
  return sel;
}

NodeAffinity ParseNodeAffinity(const Json& v, const Reader& r, bool lazy) {
  r.ExpectObject(v);
  NodeAffinity na;
  if (const Json* req = r.Object(v, "requiredDuringSchedulingIgnoredDuringExecution"))
    na.required = ParseNodeSelector(*req, r.Field("requiredDuringSchedulingIgnoredDuringExecution"), lazy);
  if (const Json* pref = r.Array(v, "preferredDuringSchedulingIgnoredDuringExecution")) {
    for (std::size_t i = 0; i < pref->size(); ++i) {
      Reader at = r.Field("preferredDuringSchedulingIgnoredDuringExecution").Index(i);
      const Json& p = (*pref)[i];
      at.ExpectObject(p);
      PreferredSchedulingTerm term;
      auto w = at.Int(p, "weight", 1, 100);
      if (!w) at.Field("weight").Fail("required");
      term.weight = static_cast<std::int32_t>(*w);
      const Json* preference = at.Object(p, "preference");
      if (!preference) at.Field("preference").Fail("required");
      term.preference = at.Field("preference").AsNodeSelectorTerm(*preference, lazy);
      na.preferred.push_back(std::move(term));
    }
  }
  return na;
}

std::vector<Symbol> SymbolList(const Json& parent, const char* name, const Reader& r) {
  std::vector<Symbol> out;
  if (const Json* a = r.Array(parent, name))
    for (std::size_t i = 0; i < a->size(); ++i) out.push_back(Intern(r.Field(name).Index(i).AsString((*a)[i])));
  return out;
}

PodAffinityTerm ParsePodAffinityTerm(const Json& v, const Reader& r) {
  r.ExpectObject(v);
  PodAffinityTerm t;
  if (auto it = v.find("labelSelector"); it != v.end())
    t.label_selector = r.Field("labelSelector").AsLabelSelector(*it);
  t.namespaces = SymbolList(v, "namespaces", r);
  if (auto it = v.find("namespaceSelector"); it != v.end() && !it->is_null())
    t.namespace_selector = r.Field("namespaceSelector").AsLabelSelector(*it);
  // The API server requires a topologyKey; upstream's plugin tests still feed empty ones (no node has the
  // key "", so such a term is never satisfied), so an empty key is accepted here.
  t.topology_key = Intern(r.String(v, "topologyKey").value_or(""));
  t.match_label_keys = SymbolList(v, "matchLabelKeys", r);
  t.mismatch_label_keys = SymbolList(v, "mismatchLabelKeys", r);
  return t;
}

PodAffinity ParsePodAffinity(const Json& v, const Reader& r) {
  r.ExpectObject(v);
  PodAffinity pa;
  if (const Json* req = r.Array(v, "requiredDuringSchedulingIgnoredDuringExecution"))
    for (std::size_t i = 0; i < req->size(); ++i)
      pa.required.push_back(
          ParsePodAffinityTerm((*req)[i], r.Field("requiredDuringSchedulingIgnoredDuringExecution").Index(i)));
  if (const Json* pref = r.Array(v, "preferredDuringSchedulingIgnoredDuringExecution")) {
    for (std::size_t i = 0; i < pref->size(); ++i) {
      Reader at = r.Field("preferredDuringSchedulingIgnoredDuringExecution").Index(i);
      const Json& p = (*pref)[i];
      at.ExpectObject(p);
      WeightedPodAffinityTerm w;
      auto weight = at.Int(p, "weight", 1, 100);
      if (!weight) at.Field("weight").Fail("required");
      w.weight = static_cast<std::int32_t>(*weight);
      const Json* term = at.Object(p, "podAffinityTerm");
      if (!term) at.Field("podAffinityTerm").Fail("required");
      w.term = ParsePodAffinityTerm(*term, at.Field("podAffinityTerm"));
      pa.preferred.push_back(std::move(w));
    }
  }
  return pa;
}

InclusionPolicy ParsePolicy(const Reader& r, const std::optional<std::string>& v, InclusionPolicy def) {
  if (!v) return def;
  if (*v == "Honor") return InclusionPolicy::Honor;
  if (*v == "Ignore") return InclusionPolicy::Ignore;
  r.Fail("unsupported value \"" + *v + "\" (Honor or Ignore)");
}

TopologySpreadConstraint ParseSpreadConstraint(const Json& v, const Reader& r) {
  r.ExpectObject(v);
  TopologySpreadConstraint c;
  auto skew = r.Int(v, "maxSkew", 1, INT32_MAX);
  if (!skew) r.Field("maxSkew").Fail("required");
  c.max_skew = static_cast<std::int32_t>(*skew);
  auto key = r.String(v, "topologyKey");
  if (!key || key->empty()) r.Field("topologyKey").Fail("can not be empty");
  c.topology_key = Intern(*key);
  auto when = r.String(v, "whenUnsatisfiable");
  if (!when) r.Field("whenUnsatisfiable").Fail("required");
  if (*when == "DoNotSchedule")
    c.when_unsatisfiable = UnsatisfiableAction::DoNotSchedule;
  else if (*when == "ScheduleAnyway")
    c.when_unsatisfiable = UnsatisfiableAction::ScheduleAnyway;
  else
    r.Field("whenUnsatisfiable").Fail("unsupported value \"" + *when + "\" (DoNotSchedule or ScheduleAnyway)");
  if (auto it = v.find("labelSelector"); it != v.end())
    c.label_selector = r.Field("labelSelector").AsLabelSelector(*it);
  if (auto md = r.Int(v, "minDomains", 1, INT32_MAX)) {
    // Only meaningful with DoNotSchedule; the scheduler ignores it otherwise.
    c.min_domains = static_cast<std::int32_t>(*md);
  }
  c.node_affinity_policy =
      ParsePolicy(r.Field("nodeAffinityPolicy"), r.String(v, "nodeAffinityPolicy"), InclusionPolicy::Honor);
  c.node_taints_policy =
      ParsePolicy(r.Field("nodeTaintsPolicy"), r.String(v, "nodeTaintsPolicy"), InclusionPolicy::Ignore);
  c.match_label_keys = SymbolList(v, "matchLabelKeys", r);
  return c;
}

Container ParseContainer(const Json& v, const Reader& r, bool init) {
  r.ExpectObject(v);
  Container c;
  c.name = r.String(v, "name").value_or("");
  c.image = r.String(v, "image").value_or("");
  if (const Json* res = r.Object(v, "resources")) {
    Reader rr = r.Field("resources");
    std::vector<std::string> req_names, lim_names;
    Resource limits;
    if (const Json* req = rr.Object(*res, "requests"))
      c.requests = rr.Field("requests").AsResourceList(*req, &req_names);
    if (const Json* lim = rr.Object(*res, "limits")) limits = rr.Field("limits").AsResourceList(*lim, &lim_names);
    // Admission defaulting: a resource with a limit and no request gets request = limit.
    for (const auto& name : lim_names) {
      if (std::find(req_names.begin(), req_names.end(), name) != req_names.end()) continue;
      auto q = Quantity::Parse(res->at("limits").at(name).is_string() ? res->at("limits").at(name).get<std::string>()
                                                                      : res->at("limits").at(name).dump());
      AddResource(c.requests, name, *q);
      req_names.push_back(name);
    }
    c.has_cpu_request = std::find(req_names.begin(), req_names.end(), "cpu") != req_names.end();
    c.has_memory_request = std::find(req_names.begin(), req_names.end(), "memory") != req_names.end();
  }
  if (const Json* ports = r.Array(v, "ports")) {
    for (std::size_t i = 0; i < ports->size(); ++i) {
      Reader pr = r.Field("ports").Index(i);
      const Json& p = (*ports)[i];
      pr.ExpectObject(p);
      ContainerPort port;
      port.container_port = static_cast<std::int32_t>(pr.Int(p, "containerPort", 0, 65535).value_or(0));
      port.host_port = static_cast<std::int32_t>(pr.Int(p, "hostPort", 0, 65535).value_or(0));
      auto proto = pr.String(p, "protocol").value_or("TCP");
      if (proto.empty()) proto = "TCP";
      if (proto != "TCP" && proto != "UDP" && proto != "SCTP")
        pr.Field("protocol").Fail("unsupported value \"" + proto + "\" (TCP, UDP or SCTP)");
      port.protocol = Intern(proto);
      auto ip = pr.String(p, "hostIP").value_or("");
      port.host_ip = Intern(ip.empty() ? "0.0.0.0" : ip);
      c.ports.push_back(port);
    }
  }
  if (init) {
    auto rp = r.String(v, "restartPolicy");
    if (rp && *rp != "Always") r.Field("restartPolicy").Fail("only \"Always\" is allowed for init containers");
    c.restart_always = rp.has_value();
  }
  return c;
}

// spec.resources (PodLevelResources): keeps cpu, memory and hugepages-* (the resources pod-level requests support,
// component-helpers IsSupportedPodLevelResource); nullopt when none of them is set.
std::optional<PodLevelResources> ParsePodLevelResources(const Json& v, const Reader& r) {
  r.ExpectObject(v);
  PodLevelResources out;
  bool any = false;
  auto keep = [&](const char* field, Resource& dst, bool& has_cpu, bool& has_memory) {
    const Json* list = r.Object(v, field);
    if (!list) return;
    std::vector<std::string> names;
    Resource all = r.Field(field).AsResourceList(*list, &names);
    for (const auto& name : names) {
      if (name == "cpu") {
        dst.milli_cpu = all.milli_cpu;
        has_cpu = any = true;
      } else if (name == "memory") {
        dst.memory = all.memory;
        has_memory = any = true;
      } else if (name.rfind("hugepages-", 0) == 0) {
        Symbol s = Intern(name);
        dst.SetScalar(s, all.Scalar(s));
        any = true;
      }
    }
  };
  keep("requests", out.requests, out.request_cpu, out.request_memory);
  keep("limits", out.limits, out.limit_cpu, out.limit_memory);
  if (!any) return std::nullopt;
  return out;
}

}  // namespace

// ---- objects ----------------------------------------------------------------------------------------------

Pod ParsePod(const Json& v, const Reader& r) {
  r.ExpectObject(v);
  Pod pod;
  pod.meta = ParseMeta(v, r, true, false);
  const Json* spec = r.Object(v, "spec");
  if (spec) {
    Reader s = r.Field("spec");
    if (const Json* cs = s.Array(*spec, "containers"))
      for (std::size_t i = 0; i < cs->size(); ++i)
        pod.containers.push_back(ParseContainer((*cs)[i], s.Field("containers").Index(i), false));
    if (const Json* cs = s.Array(*spec, "initContainers"))
      for (std::size_t i = 0; i < cs->size(); ++i)
        pod.init_containers.push_back(ParseContainer((*cs)[i], s.Field("initContainers").Index(i), true));
    if (const Json* oh = s.Object(*spec, "overhead")) pod.overhead = s.Field("overhead").AsResourceList(*oh);
    if (const Json* res = s.Object(*spec, "resources"))
      pod.resources = ParsePodLevelResources(*res, s.Field("resources"));
    pod.node_name = s.String(*spec, "nodeName").value_or("");
    if (const Json* ns = s.Object(*spec, "nodeSelector")) {
      Labels l = s.Field("nodeSelector").AsLabels(*ns);
      pod.node_selector = l.entries();
    }
    if (const Json* aff = s.Object(*spec, "affinity")) {
      Reader a = s.Field("affinity");
      if (const Json* na = a.Object(*aff, "nodeAffinity"))
        pod.affinity.node_affinity = ParseNodeAffinity(*na, a.Field("nodeAffinity"), true);
      if (const Json* pa = a.Object(*aff, "podAffinity"))
        pod.affinity.pod_affinity = ParsePodAffinity(*pa, a.Field("podAffinity"));
      if (const Json* paa = a.Object(*aff, "podAntiAffinity"))
        pod.affinity.pod_anti_affinity = ParsePodAffinity(*paa, a.Field("podAntiAffinity"));
    }
    pod.tolerations = ParseTolerations(s.Array(*spec, "tolerations"), s.Field("tolerations"));
    if (const Json* tsc = s.Array(*spec, "topologySpreadConstraints"))
      for (std::size_t i = 0; i < tsc->size(); ++i)
        pod.topology_spread_constraints.push_back(
            ParseSpreadConstraint((*tsc)[i], s.Field("topologySpreadConstraints").Index(i)));
    pod.priority_class_name = s.String(*spec, "priorityClassName").value_or("");
    if (auto p = s.Int(*spec, "priority", INT32_MIN, INT32_MAX)) pod.priority = static_cast<std::int32_t>(*p);
    if (auto pp = s.String(*spec, "preemptionPolicy")) {
      if (*pp == "Never")
        pod.preemption_policy = PreemptionPolicy::Never;
      else if (*pp == "PreemptLowerPriority")
        pod.preemption_policy = PreemptionPolicy::PreemptLowerPriority;
      else
        s.Field("preemptionPolicy").Fail("unsupported value \"" + *pp + "\" (PreemptLowerPriority or Never)");
    }
    if (const Json* gates = s.Array(*spec, "schedulingGates")) {
      for (std::size_t i = 0; i < gates->size(); ++i) {
        Reader g = s.Field("schedulingGates").Index(i);
        g.ExpectObject((*gates)[i]);
        auto name = g.String((*gates)[i], "name");
        if (!name || name->empty()) g.Field("name").Fail("required");
        pod.scheduling_gates.push_back(*name);
      }
    }
  }
  if (const Json* status = r.Object(v, "status")) {
    Reader st = r.Field("status");
    pod.nominated_node_name = st.String(*status, "nominatedNodeName").value_or("");
    pod.start_time = st.String(*status, "startTime").value_or("");
    if (!pod.start_time.empty()) {
      pod.start_unix = ParseRfc3339(pod.start_time);
      if (!pod.start_unix) st.Field("startTime").Fail("\"" + pod.start_time + "\" is not an RFC 3339 time");
    }
    if (const Json* conds = st.Array(*status, "conditions")) {
      bool seen_disruption_target = false;
      for (std::size_t i = 0; i < conds->size(); ++i) {
        Reader c = st.Field("conditions").Index(i);
        const Json& cond = (*conds)[i];
        c.ExpectObject(cond);
        const std::string type = c.String(cond, "type").value_or("");
        const std::string cstatus = c.String(cond, "status").value_or("");
        if (type == "Ready" && !pod.ready) pod.ready = cstatus == "True";
        if (type == "PodScheduled" && cstatus == "False" && c.String(cond, "reason").value_or("") == "Unschedulable")
          pod.marked_unschedulable = true;
        // The first DisruptionTarget condition decides (default_preemption.go podTerminatingByPreemption).
        if (type == "DisruptionTarget" && !seen_disruption_target) {
          seen_disruption_target = true;
          pod.terminating_by_preemption = pod.meta.deleting && cstatus == "True" &&
                                          c.String(cond, "reason").value_or("") == "PreemptionByScheduler";
        }
      }
    }
    pod.phase = st.String(*status, "phase").value_or("");
  }
  return pod;
}

Node ParseNode(const Json& v, const Reader& r) {
  r.ExpectObject(v);
  Node node;
  node.meta = ParseMeta(v, r, false, true);
  node.name_symbol = Intern(node.meta.name);
  if (const Json* spec = r.Object(v, "spec")) {
    Reader s = r.Field("spec");
    node.taints = ParseTaints(s.Array(*spec, "taints"), s.Field("taints"));
    node.unschedulable = s.Bool(*spec, "unschedulable").value_or(false);
  }
  if (const Json* status = r.Object(v, "status")) {
    Reader st = r.Field("status");
    if (const Json* a = st.Object(*status, "allocatable"))
      node.allocatable = st.Field("allocatable").AsResourceList(*a);
    else if (const Json* c = st.Object(*status, "capacity"))
      node.allocatable = st.Field("capacity").AsResourceList(*c);
    if (const Json* c = st.Object(*status, "capacity")) node.capacity = st.Field("capacity").AsResourceList(*c);
    if (const Json* imgs = st.Array(*status, "images")) {
      for (std::size_t i = 0; i < imgs->size(); ++i) {
        Reader ir = st.Field("images").Index(i);
        const Json& img = (*imgs)[i];
        ir.ExpectObject(img);
        ContainerImage ci;
        if (const Json* names = ir.Array(img, "names"))
          for (std::size_t j = 0; j < names->size(); ++j)
            ci.names.push_back(ir.Field("names").Index(j).AsString((*names)[j]));
        ci.size_bytes = ir.Int(img, "sizeBytes", 0, INT64_MAX).value_or(0);
        node.images.push_back(std::move(ci));
      }
    }
  }
  return node;
}

Namespace ParseNamespace(const Json& v, const Reader& r) {
  r.ExpectObject(v);
  ObjectMeta m = ParseMeta(v, r, false, true);
  Namespace ns;
  ns.name = m.name;
  ns.labels = m.labels;
  // The namespace controller labels every namespace with its own name.
  ns.labels.Set(Intern("kubernetes.io/metadata.name"), Intern(m.name));
  return ns;
}

int ParseKubernetesVersion(const std::string& v, const Reader& r) {
  if (std::optional<int> minor = kplace::ParseKubernetesVersion(v)) return *minor;
  r.Fail("unsupported kubernetesVersion \"" + v + "\" (" + SupportedVersionsText() + ")");
}

namespace {

// []ResourceSpec of NodeResourcesFit / NodeResourcesBalancedAllocation args. v1 defaulting (config/v1/defaults.go):
// an empty list means the default set, weight 0 or absent means 1.
std::vector<ResourceSpec> ParseResourceSpecs(const Json& v, const Reader& r, std::vector<ResourceSpec> defaults) {
  r.ExpectArray(v);
  if (v.empty()) return defaults;
  std::vector<ResourceSpec> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    Reader at = r.Index(i);
    at.ExpectObject(v[i]);
    ResourceSpec spec;
    auto name = at.String(v[i], "name");
    if (!name || name->empty()) at.Field("name").Fail("required");
    spec.name = *name;
    spec.weight = at.Int(v[i], "weight", 0, 100).value_or(0);
    if (spec.weight == 0) spec.weight = 1;
    out.push_back(spec);
  }
  return out;
}

}  // namespace

void ParsePluginArgs(const std::string& plugin, const Json& args, const Reader& r, PluginArgs& out) {
  if (args.is_null()) return;
  r.ExpectObject(args);
  if (plugin == "NodeResourcesFit") {
    auto& a = out.fit;
    if (const Json* ir = r.Array(args, "ignoredResources"))
      for (std::size_t i = 0; i < ir->size(); ++i)
        a.ignored_resources.push_back(r.Field("ignoredResources").Index(i).AsString((*ir)[i]));
    if (const Json* ig = r.Array(args, "ignoredResourceGroups"))
      for (std::size_t i = 0; i < ig->size(); ++i) {
        Reader gr = r.Field("ignoredResourceGroups").Index(i);
        a.ignored_resource_groups.push_back(gr.AsString((*ig)[i]));
        if (a.ignored_resource_groups.back().find('/') != std::string::npos)
          gr.Fail("resource group name can't contain '/'");
      }
    if (const Json* ss = r.Object(args, "scoringStrategy")) {
      Reader sr = r.Field("scoringStrategy");
      // No default for type once scoringStrategy is given (validation_pluginargs.go: "" is not supported).
      auto type = sr.String(*ss, "type").value_or("");
      if (type == "LeastAllocated")
        a.strategy = ScoringStrategyType::LeastAllocated;
      else if (type == "MostAllocated")
        a.strategy = ScoringStrategyType::MostAllocated;
      else if (type == "RequestedToCapacityRatio")
        a.strategy = ScoringStrategyType::RequestedToCapacityRatio;
      else
        sr.Field("type").Fail("unsupported scoring strategy \"" + type +
                              "\" (LeastAllocated, MostAllocated or RequestedToCapacityRatio)");
      if (auto it = ss->find("resources"); it != ss->end() && !it->is_null())
        a.resources = ParseResourceSpecs(*it, sr.Field("resources"), a.resources);
      if (const Json* rtcr = sr.Object(*ss, "requestedToCapacityRatio")) {
        Reader rr = sr.Field("requestedToCapacityRatio");
        if (const Json* shape = rr.Array(*rtcr, "shape")) {
          a.shape.clear();
          for (std::size_t i = 0; i < shape->size(); ++i) {
            Reader pr = rr.Field("shape").Index(i);
            pr.ExpectObject((*shape)[i]);
            UtilizationShapePoint p;
            p.utilization = static_cast<std::int32_t>(pr.Int((*shape)[i], "utilization", 0, 100).value_or(0));
            p.score = static_cast<std::int32_t>(pr.Int((*shape)[i], "score", 0, 10).value_or(0));
            if (!a.shape.empty() && p.utilization <= a.shape.back().utilization)
              pr.Field("utilization").Fail("utilization values must be sorted in increasing order");
            a.shape.push_back(p);
          }
          if (a.shape.empty()) rr.Field("shape").Fail("at least one point must be specified");
        }
      }
      bool has_ratio = ss->contains("requestedToCapacityRatio") && !ss->at("requestedToCapacityRatio").is_null();
      if (a.strategy == ScoringStrategyType::RequestedToCapacityRatio && !has_ratio)
        sr.Field("requestedToCapacityRatio").Fail("required for RequestedToCapacityRatio");
      if (a.strategy != ScoringStrategyType::RequestedToCapacityRatio && has_ratio)
        sr.Field("requestedToCapacityRatio").Fail("must be nil when type is not RequestedToCapacityRatio");
    }
  } else if (plugin == "NodeResourcesBalancedAllocation") {
    if (auto it = args.find("resources"); it != args.end() && !it->is_null()) {
      auto& resources = out.balanced_allocation.resources;
      resources = ParseResourceSpecs(*it, r.Field("resources"), resources);
      // ValidateNodeResourcesBalancedAllocationArgs: unique names, weight exactly 1.
      for (std::size_t i = 0; i < resources.size(); ++i) {
        Reader rr = r.Field("resources").Index(i);
        for (std::size_t j = 0; j < i; ++j)
          if (resources[j].name == resources[i].name)
            rr.Field("name").Fail("duplicate \"" + resources[i].name + "\" (also resources[" + std::to_string(j) +
                                  "])");
        if (resources[i].weight != 1) rr.Field("weight").Fail("must be 1, got " + std::to_string(resources[i].weight));
      }
    }
  } else if (plugin == "PodTopologySpread") {
    auto& a = out.topology_spread;
    auto type = r.String(args, "defaultingType").value_or("");
    if (type == "System" || type.empty())
      a.system_defaulting = true;
    else if (type == "List")
      a.system_defaulting = false;
    else
      r.Field("defaultingType").Fail("unsupported value \"" + type + "\" (System or List)");
    if (const Json* dc = r.Array(args, "defaultConstraints")) {
      if (a.system_defaulting && !dc->empty())
        r.Field("defaultConstraints").Fail("when .defaultingType is \"System\", .defaultConstraints must be empty");
      for (std::size_t i = 0; i < dc->size(); ++i) {
        Reader cr = r.Field("defaultConstraints").Index(i);
        if ((*dc)[i].is_object() && (*dc)[i].contains("labelSelector") && !(*dc)[i].at("labelSelector").is_null())
          cr.Field("labelSelector").Fail("constraint must not define a selector, as they deduced for each pod");
        a.default_constraints.push_back(ParseSpreadConstraint((*dc)[i], cr));
        const auto& c = a.default_constraints.back();
        for (std::size_t j = 0; j + 1 < a.default_constraints.size(); ++j) {
          const auto& other = a.default_constraints[j];
          if (other.topology_key == c.topology_key && other.when_unsatisfiable == c.when_unsatisfiable)
            cr.Fail("duplicate {" + Text(c.topology_key) + ", " +
                    (c.when_unsatisfiable == UnsatisfiableAction::DoNotSchedule ? "DoNotSchedule" : "ScheduleAnyway") +
                    "} (also defaultConstraints[" + std::to_string(j) + "])");
        }
      }
    }
  } else if (plugin == "InterPodAffinity") {
    auto& a = out.inter_pod_affinity;
    if (auto w = r.Int(args, "hardPodAffinityWeight", 0, 100))
      a.hard_pod_affinity_weight = static_cast<std::int32_t>(*w);
    if (auto b = r.Bool(args, "ignorePreferredTermsOfExistingPods")) a.ignore_preferred_terms_of_existing_pods = *b;
  } else if (plugin == "NodeAffinity") {
    if (const Json* aa = r.Object(args, "addedAffinity"))
      out.node_affinity.added_affinity = ParseNodeAffinity(*aa, r.Field("addedAffinity"), false);
  } else if (plugin == "DefaultPreemption") {
    // validation_pluginargs.go ValidateDefaultPreemptionArgs.
    auto& a = out.default_preemption;
    if (auto p = r.Int(args, "minCandidateNodesPercentage", 0, 100))
      a.min_candidate_nodes_percentage = static_cast<std::int32_t>(*p);
    if (auto n = r.Int(args, "minCandidateNodesAbsolute", 0, INT32_MAX))
      a.min_candidate_nodes_absolute = static_cast<std::int32_t>(*n);
    if (a.min_candidate_nodes_percentage == 0 && a.min_candidate_nodes_absolute == 0)
      r.Fail("minCandidateNodesPercentage and minCandidateNodesAbsolute: cannot be both zero");
  }
}

namespace {

SchedulerConfig ParseSchedulerConfig(const Json& v, const Reader& r, std::vector<std::string>& warnings) {
  SchedulerConfig cfg;
  if (auto p = r.Int(v, "percentageOfNodesToScore", 0, 100))
    cfg.percentage_of_nodes_to_score = static_cast<std::int32_t>(*p);
  const Json* profiles = r.Array(v, "profiles");
  if (!profiles || profiles->empty()) return cfg;
  if (profiles->size() > 1) warnings.push_back("KubeSchedulerConfiguration: only profiles[0] is simulated");
  Reader pr = r.Field("profiles").Index(0);
  const Json& prof = (*profiles)[0];
  pr.ExpectObject(prof);
  auto& profile = cfg.profile;
  profile.scheduler_name = pr.String(prof, "schedulerName").value_or("default-scheduler");
  if (auto p = pr.Int(prof, "percentageOfNodesToScore", 0, 100))
    profile.percentage_of_nodes_to_score = static_cast<std::int32_t>(*p);
  if (const Json* plugins = pr.Object(prof, "plugins")) {
    Reader pl = pr.Field("plugins");
    for (const char* point : kExtensionPoints) {
      const Json* set = pl.Object(*plugins, point);
      if (!set) continue;
      Reader sr = pl.Field(point);
      PluginSet ps;
      for (const char* which : {"enabled", "disabled"}) {
        const Json* list = sr.Array(*set, which);
        if (!list) continue;
        for (std::size_t i = 0; i < list->size(); ++i) {
          Reader er = sr.Field(which).Index(i);
          er.ExpectObject((*list)[i]);
          auto name = er.String((*list)[i], "name");
          if (!name || name->empty()) er.Field("name").Fail("required");
          if (std::string(which) == "enabled") {
            auto w = er.Int((*list)[i], "weight", 0, 100).value_or(0);
            ps.enabled.push_back({*name, static_cast<std::int32_t>(w)});
          } else {
            ps.disabled.push_back(*name);
          }
        }
      }
      profile.plugins[point] = std::move(ps);
    }
  }
  if (const Json* pc = pr.Array(prof, "pluginConfig")) {
    std::map<std::string, std::size_t> seen;  // upstream rejects a repeated pluginConfig name
    for (std::size_t i = 0; i < pc->size(); ++i) {
      Reader cr = pr.Field("pluginConfig").Index(i);
      const Json& entry = (*pc)[i];
      cr.ExpectObject(entry);
      auto name = cr.String(entry, "name");
      if (!name || name->empty()) cr.Field("name").Fail("required");
      if (auto [it, inserted] = seen.emplace(*name, i); !inserted)
        cr.Field("name").Fail("duplicate \"" + *name + "\" (also pluginConfig[" + std::to_string(it->second) + "])");
      if (auto it = entry.find("args"); it != entry.end()) ParsePluginArgs(*name, *it, cr.Field("args"), profile.args);
    }
  }
  return cfg;
}

PriorityClass ParsePriorityClass(const Json& v, const Reader& r) {
  PriorityClass pc;
  pc.name = ParseMeta(v, r, false, true).name;
  auto value = r.Int(v, "value", INT32_MIN, 1000000000);
  if (!value) {
    // system classes carry values above 1e9; they are built in, so a user class must stay below
    r.Field("value").Fail("required");
  }
  pc.value = static_cast<std::int32_t>(*value);
  pc.global_default = r.Bool(v, "globalDefault").value_or(false);
  if (auto pp = r.String(v, "preemptionPolicy")) {
    if (*pp == "Never")
      pc.preemption_policy = PreemptionPolicy::Never;
    else if (*pp != "PreemptLowerPriority")
      r.Field("preemptionPolicy").Fail("unsupported value \"" + *pp + "\" (PreemptLowerPriority or Never)");
  }
  return pc;
}

std::optional<IntOrPercent> ParseIntOrPercent(const Json& parent, const char* name, const Reader& r) {
  auto it = parent.find(name);
  if (it == parent.end() || it->is_null()) return std::nullopt;
  Reader at = r.Field(name);
  IntOrPercent v;
  if (it->is_number_integer() || it->is_number_unsigned()) {
    auto n = r.Int(parent, name, 0, INT32_MAX);
    v.value = static_cast<std::int32_t>(*n);
    return v;
  }
  if (it->is_string()) {
    std::string s = it->get<std::string>();
    // IsValidPercent: ^[0-9]+%$, then at most 100%.
    bool digits = s.size() >= 2 && s.back() == '%' && s.size() <= 12 &&
                  std::all_of(s.begin(), s.end() - 1, [](char c) { return c >= '0' && c <= '9'; });
    if (digits) {
      try {
        std::size_t pos = 0;
        int p = std::stoi(s.substr(0, s.size() - 1), &pos);
        if (pos == s.size() - 1 && p >= 0 && p <= 100) {
          v.is_percent = true;
          v.value = p;
          return v;
        }
      } catch (...) {
      }
    }
    at.Fail("\"" + s + "\" is not an integer or a percentage");
  }
  at.Fail("expected integer or percentage string, got " + JsonTypeName(*it));
}

PodDisruptionBudget ParsePdb(const Json& v, const Reader& r) {
  PodDisruptionBudget pdb;
  pdb.meta = ParseMeta(v, r, true, true);
  if (const Json* spec = r.Object(v, "spec")) {
    Reader s = r.Field("spec");
    if (auto it = spec->find("selector"); it != spec->end()) pdb.selector = s.Field("selector").AsLabelSelector(*it);
    pdb.min_available = ParseIntOrPercent(*spec, "minAvailable", s);
    pdb.max_unavailable = ParseIntOrPercent(*spec, "maxUnavailable", s);
    if (pdb.min_available && pdb.max_unavailable) s.Fail("minAvailable and maxUnavailable cannot be both set");
  }
  if (const Json* status = r.Object(v, "status")) {
    Reader st = r.Field("status");
    if (auto d = st.Int(*status, "disruptionsAllowed", 0, INT32_MAX))
      pdb.disruptions_allowed = static_cast<std::int32_t>(*d);
    if (const Json* dp = st.Object(*status, "disruptedPods"))
      for (auto it = dp->begin(); it != dp->end(); ++it) pdb.disrupted_pods.push_back(it.key());
  }
  return pdb;
}

Workload ParseWorkload(const std::string& kind, const Json& v, const Reader& r) {
  Workload w;
  w.kind = kind;
  w.meta = ParseMeta(v, r, true, true);
  const Json* spec = r.Object(v, "spec");
  Reader s = r.Field("spec");
  if (kind == "Service") {
    if (spec) {
      if (const Json* sel = s.Object(*spec, "selector")) {
        Labels l = s.Field("selector").AsLabels(*sel);
        w.selector.nil = false;
        for (auto [k, val] : l.entries()) w.selector.requirements.push_back({k, SelectorOp::In, {val}, 0});
      }
    }
    return w;
  }
  if (!spec) s.Fail("required");
  if (kind != "DaemonSet") {
    auto rep = s.Int(*spec, "replicas", 0, kMaxPods);
    w.replicas = static_cast<std::int32_t>(rep.value_or(1));
  }
  auto sel = spec->find("selector");
  if (sel == spec->end() || sel->is_null()) s.Field("selector").Fail("required");
  w.selector = s.Field("selector").AsLabelSelector(*sel);
  const Json* tmpl = s.Object(*spec, "template");
  if (!tmpl) s.Field("template").Fail("required");
  Reader tr = s.Field("template");
  Pod pod = ParsePod(*tmpl, tr);
  pod.meta.namespace_ = w.meta.namespace_;
  if (!w.selector.Matches(pod.meta.labels))
    tr.Field("metadata").Field("labels").Fail("`selector` does not match template `labels`");
  w.pod_template = std::move(pod);
  return w;
}

// Karpenter's requirements also accept Gte N / Lte N (inclusive bounds), kept as the equivalent Gt N-1 / Lt N+1.
LabelRequirement AsKarpenterRequirement(const Json& e, const Reader& rr) {
  rr.ExpectObject(e);
  const std::string op = rr.String(e, "operator").value_or("");
  if (op != "Gte" && op != "Lte") return rr.AsNodeSelectorRequirement(e, false);
  Json copy = e;
  const Json* vals = rr.Array(e, "values");
  std::optional<std::int64_t> n;
  if (vals && vals->size() == 1 && (*vals)[0].is_string()) n = ParseDecimalInt64((*vals)[0].get<std::string>());
  if (!n || *n < 0) rr.Field("values").Fail("operator " + op + " needs a single non-negative integer value");
  copy["operator"] = op == "Gte" ? "Gt" : "Lt";
  copy["values"] = Json::array({std::to_string(op == "Gte" ? *n - 1 : *n + 1)});
  return rr.AsNodeSelectorRequirement(copy, false);
}

NodePool ParseNodePool(const Json& v, const Reader& r) {
  NodePool np;
  np.meta = ParseMeta(v, r, false, true);
  const Json* spec = r.Object(v, "spec");
  if (!spec) r.Field("spec").Fail("required");
  Reader s = r.Field("spec");
  np.weight = static_cast<std::int32_t>(s.Int(*spec, "weight", 1, 100).value_or(0));
  if (const Json* lim = s.Object(*spec, "limits")) {
    std::vector<std::string> names;
    np.limits = s.Field("limits").AsResourceList(*lim, &names);
    for (const auto& n : names) np.limit_keys.push_back(Intern(n));
  }
  const Json* tmpl = s.Object(*spec, "template");
  if (!tmpl) s.Field("template").Fail("required");
  Reader t = s.Field("template");
  if (const Json* meta = t.Object(*tmpl, "metadata"))
    if (const Json* labels = t.Field("metadata").Object(*meta, "labels"))
      np.template_labels = t.Field("metadata").Field("labels").AsLabels(*labels);
  const Json* tspec = t.Object(*tmpl, "spec");
  if (!tspec) t.Field("spec").Fail("required");
  Reader ts = t.Field("spec");
  np.taints = ParseTaints(ts.Array(*tspec, "taints"), ts.Field("taints"));
  np.startup_taints = ParseTaints(ts.Array(*tspec, "startupTaints"), ts.Field("startupTaints"));
  if (const Json* reqs = ts.Array(*tspec, "requirements")) {
    for (std::size_t i = 0; i < reqs->size(); ++i) {
      Reader rr = ts.Field("requirements").Index(i);
      const Json& e = (*reqs)[i];
      NodeSelectorRequirementWithMinValues req;
      req.requirement = AsKarpenterRequirement(e, rr);
      req.key_text = e.at("key").get<std::string>();
      for (Symbol sym : req.requirement.values) req.values_text.push_back(Text(sym));
      if (auto mv = rr.Int(e, "minValues", 1, 50)) {
        req.min_values = static_cast<std::int32_t>(*mv);
        if (req.requirement.op == SelectorOp::In && static_cast<std::size_t>(*mv) > req.values_text.size())
          rr.Field("minValues").Fail("must be less than or equal to the number of values");
      }
      np.requirements.push_back(std::move(req));
    }
  }
  return np;
}

InstanceType ParseInstanceType(const Json& v, const Reader& r) {
  InstanceType it;
  it.meta = ParseMeta(v, r, false, true);
  const Json* spec = r.Object(v, "spec");
  if (!spec) r.Field("spec").Fail("required");
  Reader s = r.Field("spec");
  const Json* cap = s.Object(*spec, "capacity");
  if (!cap) s.Field("capacity").Fail("required");
  it.capacity = s.Field("capacity").AsResourceList(*cap);
  if (const Json* oh = s.Object(*spec, "overhead")) it.overhead = s.Field("overhead").AsResourceList(*oh);
  if (const Json* reqs = s.Array(*spec, "requirements"))
    for (std::size_t i = 0; i < reqs->size(); ++i)
      it.requirements.push_back(AsKarpenterRequirement((*reqs)[i], s.Field("requirements").Index(i)));
  const Json* offerings = s.Array(*spec, "offerings");
  if (!offerings || offerings->empty()) s.Field("offerings").Fail("must have at least one offering");
  for (std::size_t i = 0; i < offerings->size(); ++i) {
    Reader o = s.Field("offerings").Index(i);
    const Json& e = (*offerings)[i];
    o.ExpectObject(e);
    Offering off;
    off.zone = o.String(e, "zone").value_or("");
    if (off.zone.empty()) o.Field("zone").Fail("required");
    off.capacity_type = o.String(e, "capacityType").value_or("on-demand");
    if (off.capacity_type != "on-demand" && off.capacity_type != "spot" && off.capacity_type != "reserved")
      o.Field("capacityType").Fail("unsupported value \"" + off.capacity_type + "\" (on-demand, spot or reserved)");
    auto price = o.Number(e, "price");
    if (!price) o.Field("price").Fail("required");
    if (*price < 0) o.Field("price").Fail("must be non-negative");
    off.price = *price;
    off.available = o.Bool(e, "available").value_or(true);
    it.offerings.push_back(std::move(off));
  }
  return it;
}

Simulation ParseSimulation(const Json& v, const Reader& r) {
  Simulation sim;
  const Json* spec = r.Object(v, "spec");
  if (!spec) return sim;
  Reader s = r.Field("spec");
  if (auto mode = s.String(*spec, "mode")) {
    if (*mode == "scheduler")
      sim.mode = Mode::Scheduler;
    else if (*mode == "karpenter")
      sim.mode = Mode::Karpenter;
    else if (*mode == "cluster")
      sim.mode = Mode::Cluster;
    else
      s.Field("mode").Fail("unsupported mode \"" + *mode + "\" (scheduler, karpenter or cluster)");
  }
  if (auto it = spec->find("seed"); it != spec->end() && !it->is_null()) {
    if (it->is_number_unsigned())
      sim.seed = it->get<std::uint64_t>();
    else if (it->is_number_integer() && it->get<std::int64_t>() >= 0)
      sim.seed = static_cast<std::uint64_t>(it->get<std::int64_t>());
    else if (it->is_number_integer())
      s.Field("seed").Fail("must be between 0 and 18446744073709551615, got " + it->dump());
    else
      s.Field("seed").Fail("expected integer, got " + JsonTypeName(*it));
  }
  if (auto v2 = s.String(*spec, "kubernetesVersion"))
    sim.kubernetes_minor = ParseKubernetesVersion(*v2, s.Field("kubernetesVersion"));
  return sim;
}

// Lines and columns for an error at byte offset pos.
std::pair<std::size_t, std::size_t> LineColumn(std::string_view text, std::size_t pos) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

// nlohmann's "last read" excerpt may hold the invalid UTF-8 it complains about: keep valid sequences, write
// every other byte >= 0x80 as <0xNN> so the message itself is valid UTF-8.
std::string ValidUtf8(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    bool ok = len > 0 && i + len <= s.size() && !(len == 2 && b < 0xC2) && !(len == 4 && b > 0xF4);
    for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (ok && len > 2) {  // overlong forms, surrogates, above U+10FFFF
      auto c = static_cast<unsigned char>(s[i + 1]);
      ok = !(b == 0xE0 && c < 0xA0) && !(b == 0xED && c >= 0xA0) && !(b == 0xF0 && c < 0x90) &&
           !(b == 0xF4 && c >= 0x90);
    }
    if (ok) {
      out.append(s, i, len);
      i += len;
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "<0x";
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
      out += '>';
      ++i;
    }
  }
  return out;
}

// Byte offset of the first number token equal to token outside JSON strings.
std::optional<std::size_t> FindNumberToken(std::string_view text, std::string_view token) {
  auto number_char = [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  };
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (number_char(c)) {
      std::size_t j = i;
      while (j < text.size() && number_char(text[j])) ++j;
      if (text.substr(i, j - i) == token) return i;
      i = j - 1;
    }
  }
  return std::nullopt;
}

// Conservative: false only when the depth callback in ParseJsonText could never fire (it sees a depth above limit
// when a container opens inside `limit` + 1 open ones, or a key or value appears inside that many). Strings are
// skipped as the lexer skips them; anything else outside them counts as a token.
bool MayNestDeeperThan(std::string_view text, int limit) {
  int open = 0;
  bool in_string = false, escape = false;
  for (char c : text) {
    if (in_string) {
      if (escape)
        escape = false;
      else if (c == '\\')
        escape = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '}' || c == ']') {
      if (open > 0) --open;
      continue;
    }
    if (open > limit) return true;
    if (c == '{' || c == '[')
      ++open;
    else if (c == '"')
      in_string = true;
  }
  return false;
}

}  // namespace

Json ParseJsonText(std::string_view text) {
  if (text.size() > kMaxInputBytes)
    throw InputError("input is " + std::to_string(text.size()) + " bytes; the limit is " +
                     std::to_string(kMaxInputBytes));
  struct DepthError {
    std::size_t depth;
  };
  try {
    // nlohmann's callback parser scans a container's elements after each object ends (json 3.11), quadratic in a
    // List's items: a 150,000-pod kubectl dump took minutes. Only texts that may nest too deep take that path.
    if (!MayNestDeeperThan(text, kMaxJsonDepth)) return Json::parse(text.begin(), text.end());
    return Json::parse(text.begin(), text.end(), [](int depth, Json::parse_event_t, Json&) {
      if (depth > kMaxJsonDepth) throw DepthError{static_cast<std::size_t>(depth)};
      return true;
    });
  } catch (const DepthError&) {
    throw InputError("invalid JSON: nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  } catch (const Json::parse_error& e) {
    // e.byte is 1-based and points just past the offending character.
    std::size_t pos = e.byte == 0 ? 0 : e.byte - 1;
    auto [line, col] = LineColumn(text, pos);
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: " prefix.
    auto colon = what.find(": ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    throw InputError("invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(col) + ": " +
                     ValidUtf8(what));
  } catch (const Json::exception& e) {
    // out_of_range.406 "number overflow parsing '1e400'" carries no position: the offending number is the first
    // number token outside strings that spells it (everything before it parsed).
    std::string what = e.what();
    auto close = what.find("] ");
    if (close != std::string::npos) what = what.substr(close + 2);
    std::string where;
    auto open_quote = what.find('\'');
    if (open_quote != std::string::npos && what.back() == '\'') {
      std::string token = what.substr(open_quote + 1, what.size() - open_quote - 2);
      if (auto pos = FindNumberToken(text, token)) {
        auto [line, col] = LineColumn(text, *pos);
        where = " at line " + std::to_string(line) + ", column " + std::to_string(col);
      }
    }
    throw InputError("invalid JSON" + where + ": " + what);
  }
}

Scenario ParseScenario(std::string_view text) { return ParseScenarioJson(ParseJsonText(text)); }

const Json& ScenarioBuilder::Items(const Json& doc) {
  Reader root("", "");
  if (!doc.is_object()) root.Fail("the scenario must be a JSON object (a Kubernetes List), got " + JsonTypeName(doc));
  auto kind = root.String(doc, "kind").value_or("");
  if (kind.size() < 4 || kind.compare(kind.size() - 4, 4, "List") != 0)
    root.Field("kind").Fail("expected \"List\", got \"" + kind + "\"");
  const Json* items = root.Array(doc, "items");
  if (!items) root.Field("items").Fail("required");
  return *items;
}

Scenario ParseScenarioJson(const Json& doc) {
  const Json& items = ScenarioBuilder::Items(doc);
  ScenarioBuilder builder;
  for (std::size_t i = 0; i < items.size(); ++i) builder.Add(items[i], i);
  return builder.Finish();
}

void ScenarioBuilder::Add(const Json& item, std::size_t i) {
  Scenario& sc = sc_;
  auto& seen = seen_;
  std::string label = "items[" + std::to_string(i) + "]";
  if (!item.is_object()) Reader(label, "").Fail("expected object, got " + JsonTypeName(item));
  std::string item_kind, name, ns;
  auto kind_it = item.find("kind");
  if (kind_it != item.end() && kind_it->is_string()) item_kind = kind_it->get<std::string>();
  if (auto m = item.find("metadata"); m != item.end() && m->is_object()) {
    if (auto n = m->find("name"); n != m->end() && n->is_string()) name = n->get<std::string>();
    if (auto n = m->find("namespace"); n != m->end() && n->is_string()) ns = n->get<std::string>();
  }
  static const std::set<std::string> kNamespaced = {"Pod",        "PodDisruptionBudget", "DaemonSet", "Deployment",
                                                    "ReplicaSet", "StatefulSet",         "Service"};
  bool namespaced = kNamespaced.count(item_kind) > 0;
  if (namespaced && ns.empty()) ns = "default";
  Reader r(label + " (" + Describe(item_kind, ns, name) + ")", "");
  if (kind_it != item.end() && !kind_it->is_null() && !kind_it->is_string())
    r.Field("kind").Fail("expected string, got " + JsonTypeName(*kind_it));
  if (item_kind.empty()) r.Field("kind").Fail("required");

  auto check_duplicate = [&]() {
    std::string key = item_kind + " " + (namespaced ? ns + "/" : "") + name;
    if (auto [it, inserted] = seen.emplace(key, label); !inserted)
      r.Fail("duplicate " + Describe(item_kind, namespaced ? ns : "", name) + " (also " + it->second + ")");
  };

  if (item_kind == "Node") {
    Node n = ParseNode(item, r);
    n.item_index = static_cast<int>(i);
    check_duplicate();
    sc.nodes.push_back(std::move(n));
    if (static_cast<std::int64_t>(sc.nodes.size()) > kMaxNodes)
      r.Fail("more than " + std::to_string(kMaxNodes) + " nodes");
  } else if (item_kind == "Pod") {
    Pod p = ParsePod(item, r);
    if (p.meta.name.empty()) r.Field("metadata.name").Fail("required");
    p.item_index = static_cast<int>(i);
    check_duplicate();
    sc.pods.push_back(std::move(p));
  } else if (item_kind == "PriorityClass") {
    PriorityClass pc = ParsePriorityClass(item, r);
    pc.item_index = static_cast<int>(i);
    check_duplicate();
    if (pc.global_default) {
      for (const auto& other : sc.priority_classes)
        if (other.global_default)
          r.Field("globalDefault").Fail("PriorityClass \"" + other.name + "\" is already marked as default");
    }
    if (pc.name == "system-cluster-critical" || pc.name == "system-node-critical")
      r.Field("metadata.name").Fail("\"" + pc.name + "\" is a built-in system PriorityClass");
    sc.priority_classes.push_back(std::move(pc));
  } else if (item_kind == "PodDisruptionBudget") {
    PodDisruptionBudget pdb = ParsePdb(item, r);
    pdb.item_index = static_cast<int>(i);
    check_duplicate();
    sc.pdbs.push_back(std::move(pdb));
  } else if (item_kind == "Deployment" || item_kind == "ReplicaSet" || item_kind == "StatefulSet" ||
             item_kind == "DaemonSet" || item_kind == "Service") {
    Workload w = ParseWorkload(item_kind, item, r);
    w.item_index = static_cast<int>(i);
    check_duplicate();
    sc.workloads.push_back(std::move(w));
  } else if (item_kind == "Namespace") {
    check_duplicate();
    sc.namespaces.push_back(ParseNamespace(item, r));
  } else if (item_kind == "NodePool") {
    NodePool np = ParseNodePool(item, r);
    np.item_index = static_cast<int>(i);
    check_duplicate();
    sc.node_pools.push_back(std::move(np));
  } else if (item_kind == "InstanceType") {
    InstanceType it = ParseInstanceType(item, r);
    it.item_index = static_cast<int>(i);
    check_duplicate();
    sc.instance_types.push_back(std::move(it));
  } else if (item_kind == "KubeSchedulerConfiguration") {
    if (have_config_) r.Fail("only one KubeSchedulerConfiguration is allowed");
    have_config_ = true;
    sc.scheduler_config = ParseSchedulerConfig(item, r, sc.warnings);
  } else if (item_kind == "Simulation") {
    if (have_sim_) r.Fail("only one Simulation is allowed");
    have_sim_ = true;
    sc.simulation = ParseSimulation(item, r);
  } else {
    sc.warnings.push_back(label + ": kind \"" + item_kind + "\" is not simulated; ignored");
  }
}

Scenario ScenarioBuilder::Finish() {
  Scenario& sc = sc_;
  auto& seen = seen_;
  // Expand Deployments, ReplicaSets and StatefulSets into pending pods <name>-<i>.
  std::int64_t total = static_cast<std::int64_t>(sc.pods.size());
  for (const auto& w : sc.workloads) {
    if (w.kind != "Deployment" && w.kind != "ReplicaSet" && w.kind != "StatefulSet") continue;
    total += w.replicas;
    Reader r("items[" + std::to_string(w.item_index) + "] (" + Describe(w.kind, w.meta.namespace_, w.meta.name) + ")",
             "");
    if (total > kMaxPods)
      r.Field("spec.replicas").Fail("the scenario would have more than " + std::to_string(kMaxPods) + " pods");
    for (std::int32_t i = 0; i < w.replicas; ++i) {
      Pod p = *w.pod_template;
      p.meta.name = w.meta.name + "-" + std::to_string(i);
      p.meta.namespace_ = w.meta.namespace_;
      p.meta.creation_timestamp = w.meta.creation_timestamp;
      p.meta.creation_unix = w.meta.creation_unix;
      // A Deployment's pods are owned by its ReplicaSet; kplace names that ReplicaSet after the Deployment.
      std::string owner_kind = w.kind == "StatefulSet" ? "StatefulSet" : "ReplicaSet";
      p.meta.owner_references = {{"apps/v1", owner_kind, w.meta.name, true}};
      p.node_name.clear();
      p.item_index = w.item_index;
      p.generated_from = w.kind + "/" + w.meta.name;
      std::string key = "Pod " + p.meta.namespace_ + "/" + p.meta.name;
      if (auto [it, inserted] = seen.emplace(key, "items[" + std::to_string(w.item_index) + "]"); !inserted)
        r.Fail("expands into Pod " + p.meta.namespace_ + "/" + p.meta.name + ", which " + it->second +
               " already defines");
      sc.pods.push_back(std::move(p));
    }
  }
  if (total > kMaxPods) Reader("", "items").Fail("more than " + std::to_string(kMaxPods) + " pods");
  return std::move(sc_);
}

}  // namespace kplace::io
