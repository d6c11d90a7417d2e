// Karpenter's NodePool (karpenter.sh/v1) and kplace's InstanceType items.

#include <map>
#include <set>

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
  }
  if (const Json* status = r.Object(v, "status")) {
    Reader st = r.Field("status");
    if (const Json* a = st.Object(*status, "allocatable")) nc.allocatable = st.Field("allocatable").AsResourceList(*a);
    if (const Json* c = st.Object(*status, "capacity")) nc.capacity = st.Field("capacity").AsResourceList(*c);
    nc.node_name = st.String(*status, "nodeName").value_or("");
    nc.launched = !st.String(*status, "providerID").value_or("").empty();
    if (const Json* conds = st.Array(*status, "conditions"))
      for (std::size_t i = 0; i < conds->size(); ++i) {
        Reader cr = st.Field("conditions").Index(i);
        cr.ExpectObject((*conds)[i]);
        if (cr.String((*conds)[i], "type").value_or("") == "Launched" &&
            cr.String((*conds)[i], "status").value_or("") == "True")
          nc.launched = true;
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
