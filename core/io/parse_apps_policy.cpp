// PriorityClass (scheduling.k8s.io), PodDisruptionBudget (policy), and the workloads kplace expands into pods
// (apps: Deployment, ReplicaSet, StatefulSet, DaemonSet; core: Service).

#include <algorithm>
#include <map>
#include <set>

#include "core/io/object_parsers.h"
#include "core/io/validate_pod.h"

namespace kplace::io {

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

namespace {

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

}  // namespace

PodDisruptionBudget ParsePdb(const Json& v, const Reader& r) {
  PodDisruptionBudget pdb;
  pdb.meta = ParseMeta(v, r, true, true);
  if (const Json* spec = r.Object(v, "spec")) {
    Reader s = r.Field("spec");
    if (auto it = spec->find("selector"); it != spec->end()) pdb.selector = s.Field("selector").AsLabelSelector(*it);
    pdb.min_available = ParseIntOrPercent(*spec, "minAvailable", s);
    pdb.max_unavailable = ParseIntOrPercent(*spec, "maxUnavailable", s);
    if (pdb.min_available && pdb.max_unavailable) s.Fail("minAvailable and maxUnavailable cannot be both set");
    if (auto policy = s.String(*spec, "unhealthyPodEvictionPolicy")) {
      if (*policy != "IfHealthyBudget" && *policy != "AlwaysAllow")
        s.Field("unhealthyPodEvictionPolicy")
            .Fail("Unsupported value: " + GoQuote(*policy) +
                  ": supported values: \"AlwaysAllow\", \"IfHealthyBudget\"");
      pdb.always_allow_unhealthy = *policy == "AlwaysAllow";
    }
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

Workload ParseWorkload(const std::string& kind, const Json& v, const Reader& r, bool api_validation,
                       std::vector<ReleaseDependentPodCheck>* deferred) {
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
  if (kind == "Job") {
    // batch/v1 Job: parallelism (default 1), completions (absent: a work queue), suspend; status.succeeded.
    w.replicas = static_cast<std::int32_t>(s.Int(*spec, "parallelism", 0, kMaxPods).value_or(1));
    if (auto c = s.Int(*spec, "completions", 0, INT32_MAX)) w.completions = static_cast<std::int32_t>(*c);
    w.suspend = s.Bool(*spec, "suspend").value_or(false);
    if (const Json* st = r.Object(v, "status"))
      w.succeeded = static_cast<std::int32_t>(r.Field("status").Int(*st, "succeeded", 0, INT32_MAX).value_or(0));
  } else if (kind != "DaemonSet") {
    auto rep = s.Int(*spec, "replicas", 0, kMaxPods);
    w.replicas = static_cast<std::int32_t>(rep.value_or(1));
  }
  const Json* tmpl = s.Object(*spec, "template");
  auto sel = spec->find("selector");
  const bool generated_selector = kind == "Job" && (sel == spec->end() || sel->is_null());
  if (!generated_selector) {
    if (sel == spec->end() || sel->is_null()) s.Field("selector").Fail("required");
    w.selector = s.Field("selector").AsLabelSelector(*sel);
  }
  if (!tmpl) s.Field("template").Fail("required");
  Reader tr = s.Field("template");
  if (api_validation) ValidatePodTemplate(*tmpl, tr, deferred);
  Pod pod = ParsePod(*tmpl, tr);
  pod.meta.namespace_ = w.meta.namespace_;
  if (generated_selector) {
    // The API server gives a Job without manualSelector a selector on its uid and labels its pod template with
    // the Job's name and uid (pkg/registry/batch/job/strategy.go generateSelector).
    std::vector<std::pair<std::string, std::string>> labels = {{"batch.kubernetes.io/job-name", w.meta.name},
                                                               {"job-name", w.meta.name}};
    if (!w.meta.uid.empty()) {
      labels.emplace_back("batch.kubernetes.io/controller-uid", w.meta.uid);
      labels.emplace_back("controller-uid", w.meta.uid);
    }
    for (const auto& [k, val] : labels) {
      pod.meta.labels.Set(Intern(k), Intern(val));
    }
    w.selector.nil = false;
    w.selector.requirements.push_back(
        {Intern(w.meta.uid.empty() ? "batch.kubernetes.io/job-name" : "batch.kubernetes.io/controller-uid"),
         SelectorOp::In,
         {Intern(w.meta.uid.empty() ? w.meta.name : w.meta.uid)},
         0});
  }
  if (!w.selector.Matches(pod.meta.labels))
    tr.Field("metadata").Field("labels").Fail("`selector` does not match template `labels`");
  if (kind == "StatefulSet") {
    if (const Json* vcts = s.Array(*spec, "volumeClaimTemplates")) {
      for (std::size_t i = 0; i < vcts->size(); ++i) {
        Reader vr = s.Field("volumeClaimTemplates").Index(i);
        PersistentVolumeClaim t = ParseClaimTemplate((*vcts)[i], vr);
        if (t.meta.name.empty()) vr.Field("metadata").Field("name").Fail("Required value");
        t.meta.namespace_ = w.meta.namespace_;
        w.volume_claim_templates.push_back(std::move(t));
      }
    }
    // The controller's pods mount each template's claim under the template's name (updateStorage, replacing a
    // template volume of that name); ExpandWorkloads names the claim per ordinal.
    for (const auto& t : w.volume_claim_templates) {
      auto it = std::find_if(pod.volumes.begin(), pod.volumes.end(),
                             [&](const PodVolume& v) { return v.name == t.meta.name; });
      if (it == pod.volumes.end()) it = pod.volumes.insert(pod.volumes.end(), PodVolume{});
      *it = PodVolume{};
      it->name = t.meta.name;
      it->kind = PodVolume::Kind::PersistentVolumeClaim;
    }
  }
  w.pod_template = std::move(pod);
  return w;
}

}  // namespace kplace::io
