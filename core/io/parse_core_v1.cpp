// core/v1 objects: metadata, taints, tolerations, affinity, spread constraints, containers, Pod, Node, Namespace.

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>

#include "core/io/object_parsers.h"

namespace kplace::io {

// ---- time -------------------------------------------------------------------------------------------------

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

namespace {

// ---- shared pieces ----------------------------------------------------------------------------------------

}  // namespace

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
  if (auto it = meta->find("labels"); it != meta->end() && !it->is_null()) m.labels = at.Field("labels").AsLabels(*it);
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
  if (const Json* ann = at.Object(*meta, "annotations"))
    for (auto it = ann->begin(); it != ann->end(); ++it)
      for (std::string_view kept : kKeptAnnotations)
        if (it.key() == kept) m.annotations.emplace_back(it.key(), at.Field("annotations").Key(it.key()).AsString(*it));
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

namespace {

TaintEffect ParseEffect(const Reader& r, const std::string& e, bool allow_empty) {
  if (e.empty() && allow_empty) return TaintEffect::None;
  if (e == "NoSchedule") return TaintEffect::NoSchedule;
  if (e == "PreferNoSchedule") return TaintEffect::PreferNoSchedule;
  if (e == "NoExecute") return TaintEffect::NoExecute;
  r.Fail("unsupported taint effect \"" + e + "\" (NoSchedule, PreferNoSchedule or NoExecute)");
}

}  // namespace

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

namespace {

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
// pod's own affinity, whose invalid terms never match instead of failing (the scheduler ignores those errors). A
// scenario pod has passed API validation first (validate_pod.h), so what reaches the lazy path from input is only
// what the API server lets through: a Gt/Lt value that is no integer, a preferred term's invalid label value.
NodeSelector ParseNodeSelector(const Json& v, const Reader& r, bool lazy) {
  r.ExpectObject(v);
  NodeSelector sel;
  if (const Json* terms = r.Array(v, "nodeSelectorTerms"))
    for (std::size_t i = 0; i < terms->size(); ++i)
      sel.terms.push_back(r.Field("nodeSelectorTerms").Index(i).AsNodeSelectorTerm((*terms)[i], lazy));
  return sel;
}

}  // namespace

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

namespace {

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

}  // namespace

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

namespace {

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
  if (const Json* rules = r.Array(v, "restartPolicyRules")) {
    for (std::size_t i = 0; i < rules->size(); ++i) {
      Reader rr = r.Field("restartPolicyRules").Index(i);
      rr.ExpectObject((*rules)[i]);
      c.restart_all_containers |= rr.String((*rules)[i], "action").value_or("") == "RestartAllContainers";
    }
  }
  // An init container with restartPolicy Always is a sidecar; Never / OnFailure (1.35+, with restart rules) leave it
  // an init container. Which values a release accepts is the API validation's (validate_pod.h).
  if (init) c.restart_always = r.String(v, "restartPolicy") == "Always";
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
    pod.host_network = s.Bool(*spec, "hostNetwork").value_or(false);
    pod.host_users = s.Bool(*spec, "hostUsers");
    if (const Json* vols = s.Array(*spec, "volumes")) {
      for (std::size_t i = 0; i < vols->size(); ++i) {
        Reader vr = s.Field("volumes").Index(i);
        vr.ExpectObject((*vols)[i]);
        if (const Json* img = vr.Object((*vols)[i], "image"))
          pod.image_volumes.push_back(vr.Field("image").String(*img, "reference").value_or(""));
      }
      pod.volumes = ParsePodVolumes(*vols, s.Field("volumes"));
    }
    if (auto sn = s.String(*spec, "schedulerName"); sn && !sn->empty()) pod.scheduler_name = *sn;
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
        if (type == "Ready" && !pod.ready) {
          pod.ready = cstatus == "True";
          pod.ready_false = cstatus == "False";
        }
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
    if (const Json* conds = st.Array(*status, "conditions"))
      for (std::size_t i = 0; i < conds->size(); ++i) {
        Reader c = st.Field("conditions").Index(i);
        c.ExpectObject((*conds)[i]);
        if (c.String((*conds)[i], "type").value_or("") == "Ready" && !node.ready)
          node.ready = c.String((*conds)[i], "status").value_or("") == "True";
      }
    // The API server keeps the list sorted and unique; kplace reads it as a set.
    if (const Json* feats = st.Array(*status, "declaredFeatures")) {
      for (std::size_t i = 0; i < feats->size(); ++i)
        node.declared_features.push_back(st.Field("declaredFeatures").Index(i).AsString((*feats)[i]));
      std::sort(node.declared_features.begin(), node.declared_features.end());
      node.declared_features.erase(std::unique(node.declared_features.begin(), node.declared_features.end()),
                                   node.declared_features.end());
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

}  // namespace kplace::io
