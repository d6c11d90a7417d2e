// Karpenter's NodePool (karpenter.sh/v1) and kplace's InstanceType items.

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <set>
#include <string_view>

#include "core/io/object_parsers.h"

namespace kplace::io {

namespace {

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

// spec.template.spec.requirements of a NodePool (spec.requirements of a Provisioner), at rr.
std::vector<NodeSelectorRequirementWithMinValues> ParseNodePoolRequirements(const Json& reqs, const Reader& rr) {
  std::vector<NodeSelectorRequirementWithMinValues> out;
  for (std::size_t i = 0; i < reqs.size(); ++i) {
    Reader ri = rr.Index(i);
    const Json& e = reqs[i];
    NodeSelectorRequirementWithMinValues req;
    req.requirement = AsKarpenterRequirement(e, ri);
    req.key_text = e.at("key").get<std::string>();
    for (Symbol sym : req.requirement.values) req.values_text.push_back(Text(sym));
    if (auto mv = ri.Int(e, "minValues", 1, 50)) {
      req.min_values = static_cast<std::int32_t>(*mv);
      if (req.requirement.op == SelectorOp::In && static_cast<std::size_t>(*mv) > req.values_text.size())
        ri.Field("minValues").Fail("must be less than or equal to the number of values");
    }
    out.push_back(std::move(req));
  }
  return out;
}

void ParseLimits(const Json& lim, const Reader& rl, NodePool& np) {
  std::vector<std::string> names;
  np.limits = rl.AsResourceList(lim, &names);
  for (const auto& n : names) np.limit_keys.push_back(Intern(n));
}

// The API server's message for a string that fails its CRD pattern (kube-openapi patternFail).
[[noreturn]] void FailPattern(const Reader& at, const std::string& value, const char* pattern) {
  at.Fail("Invalid value: " + GoQuote(value) + ": " + at.path() + " in body should match '" + pattern + "'");
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// A duration of one or more <digits><unit> parts (units from `units`), as time.ParseDuration reads the strings
// Karpenter's patterns admit: the sum in seconds, nullopt when it does not have that shape or overflows int64
// nanoseconds as Go's Duration does.
std::optional<std::int64_t> ParseUnitDuration(std::string_view s, std::string_view units) {
  if (s.empty()) return std::nullopt;
  constexpr std::int64_t kMaxSeconds = INT64_MAX / 1000000000;
  std::int64_t total = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start || i == s.size() || units.find(s[i]) == std::string_view::npos) return std::nullopt;
    const std::int64_t scale = s[i] == 'h' ? 3600 : s[i] == 'm' ? 60 : 1;
    std::int64_t n = 0;
    for (std::size_t k = start; k < i; ++k) {
      if (n > (kMaxSeconds - (s[k] - '0')) / 10) return std::nullopt;
      n = n * 10 + (s[k] - '0');
    }
    if (n > (kMaxSeconds - total) / scale) return std::nullopt;
    total += n * scale;
    ++i;
  }
  return total;
}

// Whether s is one or more <digits><unit> parts.
bool UnitShaped(std::string_view s, std::string_view units) {
  if (s.empty()) return false;
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start || i == s.size() || units.find(s[i]) == std::string_view::npos) return false;
    ++i;
  }
  return true;
}

// consolidateAfter / expireAfter (NillableDuration): `^(([0-9]+(s|m|h))+|Never)$`; Never is nullopt.
std::optional<std::int64_t> ParseNillableDuration(const Reader& at, const std::string& v) {
  if (v == "Never") return std::nullopt;
  if (!UnitShaped(v, "smh")) FailPattern(at, v, "^(([0-9]+(s|m|h))+|Never)$");
  auto d = ParseUnitDuration(v, "smh");
  if (!d) at.Fail("Invalid value: " + GoQuote(v) + ": time: invalid duration " + GoQuote(v));
  return d;
}

// A budget's duration: `^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$` (what Duration.String() prints, and shorter).
std::int64_t ParseBudgetDuration(const Reader& at, const std::string& v) {
  static constexpr const char* kPattern = "^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$";
  std::string_view body = v;
  if (body.size() > 2 && body.substr(body.size() - 2) == "0s") body.remove_suffix(2);
  // One or two parts, h then m, without a trailing seconds part.
  std::size_t h = body.find('h');
  bool shaped = false;
  if (h == std::string_view::npos)
    shaped = body.size() > 1 && body.back() == 'm' && AllDigits(body.substr(0, body.size() - 1));
  else if (h + 1 == body.size())
    shaped = AllDigits(body.substr(0, h));
  else
    shaped = AllDigits(body.substr(0, h)) && body.back() == 'm' && AllDigits(body.substr(h + 1, body.size() - h - 2));
  if (!shaped) FailPattern(at, v, kPattern);
  auto d = ParseUnitDuration(v, "hms");
  if (!d) at.Fail("Invalid value: " + GoQuote(v) + ": time: invalid duration " + GoQuote(v));
  return *d;
}

// The schedule pattern `^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\s(.+)\s(.+)\s(.+)\s(.+))$`:
// its anchors bind to the alternatives, so it accepts any text starting with a descriptor, or ending in five
// non-empty pieces separated by single whitespace characters (pieces may themselves hold whitespace).
bool ScheduleMatchesPattern(const std::string& v) {
  for (const char* d : {"@annually", "@yearly", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"})
    if (v.rfind(d, 0) == 0) return true;
  // The text must end in five pieces of `.` (any character but a newline) joined by four `\s` (RE2: [\t\n\f\r ]).
  // From the end, each separator is the rightmost whitespace that leaves its piece non-empty and newline-free and
  // the piece before it ending in a character other than a newline (taking it as far right as possible never hurts).
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; };
  std::size_t end = v.size();  // the current piece ends before `end`
  for (int separators = 0; separators < 4; ++separators) {
    if (end == 0 || v[end - 1] == '\n') return false;
    std::size_t j = end - 1;
    bool found = false;
    while (j > 0) {
      --j;
      if (is_space(v[j]) && j >= 1 && v[j - 1] != '\n') {
        found = true;
        break;
      }
      if (v[j] == '\n') return false;
    }
    if (!found) return false;
    end = j;
  }
  return true;
}

const std::vector<std::string> kDisruptionReasons = {"Underutilized", "Empty", "Drifted"};

DisruptionBudget ParseBudget(const Json& e, const Reader& rb) {
  rb.ExpectObject(e);
  DisruptionBudget b;
  if (auto nodes = rb.String(e, "nodes")) {
    b.nodes = *nodes;
    // ^((100|[0-9]{1,2})%|[0-9]+)$
    std::string_view n = b.nodes;
    bool ok = AllDigits(n);
    if (!ok && n.size() >= 2 && n.back() == '%') {
      std::string_view p = n.substr(0, n.size() - 1);
      ok = p == "100" || (AllDigits(p) && p.size() <= 2);
    }
    if (!ok) FailPattern(rb.Field("nodes"), b.nodes, "^((100|[0-9]{1,2})%|[0-9]+)$");
  }
  if (const Json* reasons = rb.Array(e, "reasons")) {
    Reader rr = rb.Field("reasons");
    if (reasons->size() > 50) rr.Fail("Too many: " + std::to_string(reasons->size()) + ": must have at most 50 items");
    b.reasons.emplace();
    for (std::size_t i = 0; i < reasons->size(); ++i) {
      std::string r = rr.Index(i).AsString((*reasons)[i]);
      if (std::find(kDisruptionReasons.begin(), kDisruptionReasons.end(), r) == kDisruptionReasons.end())
        rr.Index(i).Fail("Unsupported value: " + GoQuote(r) +
                         ": supported values: \"Underutilized\", \"Empty\", \"Drifted\"");
      if (std::find(b.reasons->begin(), b.reasons->end(), r) != b.reasons->end())
        rr.Index(i).Fail("Duplicate value: " + GoQuote(r));
      b.reasons->push_back(std::move(r));
    }
  }
  if (auto schedule = rb.String(e, "schedule")) {
    if (!ScheduleMatchesPattern(*schedule))
      FailPattern(rb.Field("schedule"), *schedule,
                  "^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\\s(.+)\\s(.+)\\s(.+)\\s(.+))$");
    b.schedule = *schedule;
  }
  if (auto duration = rb.String(e, "duration")) {
    b.duration = ParseBudgetDuration(rb.Field("duration"), *duration);
    b.duration_text = *duration;
  }
  return b;
}

// spec.disruption (defaults as the CRD's: the stanza {consolidateAfter: 0s} when absent; consolidationPolicy
// WhenEmptyOrUnderutilized; budgets [{nodes: 10%}] when absent, an explicit [] stays empty).
NodePoolDisruption ParseDisruption(const Json* d, const Reader& rd) {
  NodePoolDisruption out;
  if (!d) return out;
  auto after = rd.String(*d, "consolidateAfter");
  if (!after) rd.Field("consolidateAfter").Fail("Required value");
  out.consolidate_after = ParseNillableDuration(rd.Field("consolidateAfter"), *after);
  out.consolidate_after_text = *after;
  if (auto policy = rd.String(*d, "consolidationPolicy")) {
    if (*policy == "WhenEmpty")
      out.consolidation_policy = ConsolidationPolicy::WhenEmpty;
    else if (*policy == "WhenEmptyOrUnderutilized")
      out.consolidation_policy = ConsolidationPolicy::WhenEmptyOrUnderutilized;
    else if (*policy == "Balanced")
      out.consolidation_policy = ConsolidationPolicy::Balanced;
    else
      rd.Field("consolidationPolicy")
          .Fail("Unsupported value: " + GoQuote(*policy) +
                ": supported values: \"WhenEmpty\", \"WhenEmptyOrUnderutilized\", \"Balanced\"");
  }
  if (const Json* budgets = rd.Array(*d, "budgets")) {
    Reader rb = rd.Field("budgets");
    if (budgets->size() > 50) rb.Fail("Too many: " + std::to_string(budgets->size()) + ": must have at most 50 items");
    out.budgets.clear();
    for (std::size_t i = 0; i < budgets->size(); ++i) out.budgets.push_back(ParseBudget((*budgets)[i], rb.Index(i)));
    for (const auto& b : out.budgets)
      if (b.schedule.has_value() != b.duration.has_value())
        rb.Fail("Invalid value: 'schedule' must be set with 'duration'");
  }
  return out;
}

}  // namespace

NodePool ParseNodePool(const Json& v, const Reader& r) {
  NodePool np;
  np.meta = ParseMeta(v, r, false, true);
  const Json* spec = r.Object(v, "spec");
  if (!spec) r.Field("spec").Fail("required");
  Reader s = r.Field("spec");
  np.weight = static_cast<std::int32_t>(s.Int(*spec, "weight", 1, 100).value_or(0));
  if (const Json* lim = s.Object(*spec, "limits")) ParseLimits(*lim, s.Field("limits"), np);
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
  if (const Json* reqs = ts.Array(*tspec, "requirements"))
    np.requirements = ParseNodePoolRequirements(*reqs, ts.Field("requirements"));
  if (auto grace = ts.String(*tspec, "terminationGracePeriod"))
    if (!UnitShaped(*grace, "smh")) FailPattern(ts.Field("terminationGracePeriod"), *grace, "^([0-9]+(s|m|h))+$");
  if (auto expire = ts.String(*tspec, "expireAfter")) {
    np.expire_after = ParseNillableDuration(ts.Field("expireAfter"), *expire);
    np.expire_after_text = *expire;
  }
  np.disruption = ParseDisruption(s.Object(*spec, "disruption"), s.Field("disruption"));
  return np;
}

// The same fields where a v1alpha5 Provisioner has them (spec.requirements, spec.labels, spec.taints,
// spec.startupTaints, spec.limits.resources, spec.weight), so errors name the user's paths. No spec is an empty
// Provisioner. Equal to ParseNodePool(ProvisionerAsNodePool(v)) (tests/io/scenario_parser_test.cpp checks).
NodePool ParseProvisioner(const Json& v, const Reader& r) {
  NodePool np;
  np.meta = ParseMeta(v, r, false, true);
  const Json* spec = r.Object(v, "spec");
  if (!spec) return np;
  Reader s = r.Field("spec");
  np.weight = static_cast<std::int32_t>(s.Int(*spec, "weight", 1, 100).value_or(0));
  if (const Json* lim = s.Object(*spec, "limits"))
    if (const Json* res = s.Field("limits").Object(*lim, "resources"))
      ParseLimits(*res, s.Field("limits").Field("resources"), np);
  if (const Json* labels = s.Object(*spec, "labels")) np.template_labels = s.Field("labels").AsLabels(*labels);
  np.taints = ParseTaints(s.Array(*spec, "taints"), s.Field("taints"));
  np.startup_taints = ParseTaints(s.Array(*spec, "startupTaints"), s.Field("startupTaints"));
  if (const Json* reqs = s.Array(*spec, "requirements"))
    np.requirements = ParseNodePoolRequirements(*reqs, s.Field("requirements"));
  return np;
}

NodeClaim ParseNodeClaim(const Json& v, const Reader& r) {
  NodeClaim nc;
  nc.meta = ParseMeta(v, r, false, true);
  if (const Json* spec = r.Object(v, "spec")) {
    Reader s = r.Field("spec");
    nc.taints = ParseTaints(s.Array(*spec, "taints"), s.Field("taints"));
    if (auto expire = s.String(*spec, "expireAfter"))
      nc.expire_after = ParseNillableDuration(s.Field("expireAfter"), *expire);
    if (auto grace = s.String(*spec, "terminationGracePeriod")) {
      if (!UnitShaped(*grace, "smh")) FailPattern(s.Field("terminationGracePeriod"), *grace, "^([0-9]+(s|m|h))+$");
      nc.termination_grace_period = true;
    }
  }
  if (const Json* status = r.Object(v, "status")) {
    Reader st = r.Field("status");
    if (const Json* a = st.Object(*status, "allocatable")) nc.allocatable = st.Field("allocatable").AsResourceList(*a);
    if (const Json* c = st.Object(*status, "capacity")) nc.capacity = st.Field("capacity").AsResourceList(*c);
    nc.node_name = st.String(*status, "nodeName").value_or("");
    nc.provider_id = st.String(*status, "providerID").value_or("");
    nc.launched = !nc.provider_id.empty();
    if (auto t = st.String(*status, "lastPodEventTime")) {
      nc.last_pod_event = ParseRfc3339(*t);
      if (!nc.last_pod_event) st.Field("lastPodEventTime").Fail("\"" + *t + "\" is not an RFC 3339 time");
    }
    if (const Json* conds = st.Array(*status, "conditions"))
      for (std::size_t i = 0; i < conds->size(); ++i) {
        Reader cr = st.Field("conditions").Index(i);
        const Json& c = (*conds)[i];
        cr.ExpectObject(c);
        NodeClaim::Condition cond;
        cond.type = cr.String(c, "type").value_or("");
        cond.status = cr.String(c, "status").value_or("");
        cond.reason = cr.String(c, "reason").value_or("");
        if (auto t = cr.String(c, "lastTransitionTime")) {
          cond.last_transition = ParseRfc3339(*t);
          if (!cond.last_transition) cr.Field("lastTransitionTime").Fail("\"" + *t + "\" is not an RFC 3339 time");
        }
        if (cond.type == "Launched" && cond.status == "True") nc.launched = true;
        nc.conditions.push_back(std::move(cond));
      }
  }
  return nc;
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

}  // namespace kplace::io
