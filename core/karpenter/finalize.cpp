#include "core/karpenter/finalize.h"

#include <algorithm>
#include <limits>

#include "core/karpenter/scheduler.h"

namespace kplace::karpenter {
namespace {

double CheapestPrice(const KType& t, const Requirement* zone, const Requirement* capacity_type) {
  const Offer* o = CheapestOffering(t, zone, capacity_type);
  return o ? o->price : std::numeric_limits<double>::infinity();
}

// The smallest value in text order (SortedValues().front() without sorting them all).
const std::string& FirstValue(const Requirement& r) {
  const std::string* best = &Text(r.values.front());
  for (Symbol v : r.values)
    if (Text(v) < *best) best = &Text(v);
  return *best;
}

bool Restricted(Symbol key) {
  static const Symbol kRegistered = Intern("karpenter.sh/registered");
  static const Symbol kInitialized = Intern("karpenter.sh/initialized");
  return key == kRegistered || key == kInitialized || key == HostnameKey();
}

// A value for a custom key constrained only by NotIn / Exists / bounds (upstream picks a random integer).
std::string AnyValue(const Requirement& r) {
  std::int64_t v = r.gte.value_or(0);
  while (!r.Has(Intern(std::to_string(v))) && (!r.lte || v <= *r.lte)) ++v;
  return std::to_string(v);
}

}  // namespace

std::vector<std::string> NodeClaimRequirements(const Requirements& reqs, const std::vector<const KType*>& options) {
  static const Symbol kInstanceType = Intern("node.kubernetes.io/instance-type");
  static const Symbol kRegistered = Intern("karpenter.sh/registered");
  static const Symbol kInitialized = Intern("karpenter.sh/initialized");
  const Requirement* zone_req = reqs.Find(ZoneKey());
  const Requirement* ct_req = reqs.Find(CapacityTypeKey());
  std::vector<Symbol> type_names, cts;
  for (const KType* k : options) {
    type_names.push_back(k->name);
    for (const auto& o : k->offerings) {
      if (!o.available || std::find(cts.begin(), cts.end(), o.capacity_type) != cts.end()) continue;
      if (zone_req && !zone_req->Has(o.zone)) continue;
      if (ct_req && !ct_req->Has(o.capacity_type)) continue;
      cts.push_back(o.capacity_type);
    }
  }
  Requirements final_reqs = reqs;
  final_reqs.Remove(kRegistered);
  final_reqs.Remove(kInitialized);
  final_reqs.Add(Requirement::Make(kInstanceType, ReqOp::In, type_names));
  final_reqs.Add(Requirement::Make(CapacityTypeKey(), ReqOp::In, cts));
  std::vector<std::string> out;
  for (const auto& r : final_reqs.items()) out.push_back(r.String());
  std::sort(out.begin(), out.end());
  return out;
}

void FinalizeClaims(const Scenario& sc, const std::vector<KType>& catalogue, const std::vector<Template>& templates,
                    std::vector<Claim>& claims, const std::vector<std::string>& names, Result& result,
                    std::vector<SimulatedClaim>* simulated) {
  static const Symbol kZone = Intern("topology.kubernetes.io/zone");
  static const Symbol kCapacityType = Intern("karpenter.sh/capacity-type");
  const KeySet well_known = WellKnownKeys(sc.instance_types);
  std::vector<int> result_index(claims.size(), -1);
  for (std::size_t ci = 0; ci < claims.size(); ++ci) {
    Claim& c = claims[ci];
    const Template& t = templates[static_cast<std::size_t>(c.tmpl)];
    c.requirements.Remove(HostnameKey());
    Resource requests = c.requests;
    requests.Add(MinDaemonOverhead(c, t));
    // OrderByPrice: cheapest available compatible offering; ties by catalogue order.
    const Requirement* zone_req = c.requirements.Find(kZone);
    const Requirement* ct_req = c.requirements.Find(kCapacityType);
    std::vector<std::pair<double, int>> priced;
    priced.reserve(c.options.size());
    for (int idx : c.options)
      priced.emplace_back(CheapestPrice(catalogue[static_cast<std::size_t>(idx)], zone_req, ct_req), idx);
    std::sort(priced.begin(), priced.end());
    if (priced.size() > kMaxInstanceTypes) priced.resize(kMaxInstanceTypes);
    std::vector<const KType*> kept;
    for (const auto& [price, idx] : priced) kept.push_back(&catalogue[static_cast<std::size_t>(idx)]);
    std::string unmet = UnmetMinValues(kept, c.requirements);
    if (!unmet.empty()) {
      const std::string msg =
          "pod didn\u2019t schedule because NodePool couldn\u2019t meet minValues requirements, validating minValues, "
          "minValues requirement is not met for label(s) (label(s)=" +
          unmet + ") (NodePool=" + t.name + ")";
      for (std::size_t p : c.pods) {
        result.pods[p].kind = PodOutcomeKind::Unschedulable;
        result.pods[p].reason = msg;
        result.pods[p].claim = -1;
      }
      continue;
    }
    ClaimOutcome out;
    out.name = names[ci];
    out.node_pool = t.name;
    out.requests = requests;
    out.taints = t.pool->taints;
    for (std::size_t p : c.pods) out.pods.push_back(sc.pods[p].Key());
    for (const auto& [price, idx] : priced)
      out.options.push_back({Text(catalogue[static_cast<std::size_t>(idx)].name), price});
    // The launch: the cheapest option and its cheapest offering (first among equal prices).
    const KType& launch = *kept.front();
    const Offer* offer = CheapestOffering(launch, zone_req, ct_req);
    out.instance_type = Text(launch.name);
    if (offer) {
      out.zone = Text(offer->zone);
      out.capacity_type = Text(offer->capacity_type);
      out.price = offer->price;
    }
    result.hourly_price += out.price;
    out.requirements = NodeClaimRequirements(c.requirements, kept);
    // Labels of the launched node.
    Requirements node = c.requirements;
    node.Add(launch.requirements);
    if (offer) {
      node.Add(Requirement::Make(kZone, ReqOp::In, {offer->zone}));
      node.Add(Requirement::Make(kCapacityType, ReqOp::In, {offer->capacity_type}));
    }
    for (const auto& r : node.items()) {
      if (Restricted(r.key)) continue;
      const bool known = KeySetHas(well_known, r.key);
      switch (r.Operator()) {
        case ReqOp::In:
          if (!known || r.values.size() == 1) out.labels[Text(r.key)] = FirstValue(r);
          break;
        case ReqOp::NotIn:
        case ReqOp::Exists:
          if (!known) out.labels[Text(r.key)] = AnyValue(r);
          break;
        case ReqOp::DoesNotExist:
          break;
      }
    }
    for (auto [k, v] : t.pool->template_labels.entries()) out.labels[Text(k)] = Text(v);
    for (auto [k, v] : launch.src->meta.labels.entries()) out.labels[Text(k)] = Text(v);
    if (simulated) {
      SimulatedClaim sim;
      sim.requirements = c.requirements;
      for (const auto& [price, idx] : priced) sim.options.push_back(idx);
      simulated->push_back(std::move(sim));
    }
    result_index[ci] = static_cast<int>(result.claims.size());
    result.claims.push_back(std::move(out));
  }
  for (auto& p : result.pods)
    if (p.kind == PodOutcomeKind::Claim) p.claim = result_index[static_cast<std::size_t>(p.claim)];
}

}  // namespace kplace::karpenter
