#include "core/karpenter/finalize.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

#include "core/karpenter/scheduler.h"

namespace kplace::karpenter {
namespace {

// Each instance type's cheapest offering compatible with one claim's zone and capacity-type requirements, kept per
// distinct pair of them: the thousands of NodeClaims of a run share a handful of pairs, and each lists hundreds of
// options (computing them claim by claim was a fifth of a 20,000-pod run).
class CheapestOffers {
 public:
  explicit CheapestOffers(const std::vector<KType>& catalogue) : catalogue_(catalogue) {}

  // The cheapest offering of catalogue[idx] under zone / capacity_type (null: unconstrained), or null if none.
  struct Lookup {
    CheapestOffers* owner;
    std::size_t entry;  // kNone: not cached (too many pairs)
    const Requirement *zone, *capacity_type;
    const Offer* operator()(int idx) const { return owner->Get(entry, idx, zone, capacity_type); }
  };
  Lookup For(const Requirement* zone, const Requirement* capacity_type) {
    for (std::size_t e = 0; e < entries_.size(); ++e)
      if (Same(entries_[e].zone, zone) && Same(entries_[e].capacity_type, capacity_type))
        return {this, e, zone, capacity_type};
    if (entries_.size() >= kMaxEntries) return {this, kNone, zone, capacity_type};
    Entry& added = entries_.emplace_back();
    if (zone) added.zone = *zone;
    if (capacity_type) added.capacity_type = *capacity_type;
    added.best.assign(catalogue_.size(), kUnknown);
    return {this, entries_.size() - 1, zone, capacity_type};
  }

 private:
  static constexpr std::size_t kMaxEntries = 64, kNone = SIZE_MAX;
  static constexpr std::int32_t kUnknown = -2, kNoOffer = -1;
  static bool Same(const std::optional<Requirement>& kept, const Requirement* r) {
    return kept.has_value() == (r != nullptr) && (!r || *kept == *r);
  }
  const Offer* Get(std::size_t entry, int idx, const Requirement* zone, const Requirement* capacity_type) {
    const KType& t = catalogue_[static_cast<std::size_t>(idx)];
    if (entry == kNone) return CheapestOffering(t, zone, capacity_type);
    std::int32_t& best = entries_[entry].best[static_cast<std::size_t>(idx)];
    if (best == kUnknown) {
      const Offer* o = CheapestOffering(t, zone, capacity_type);
      best = o ? static_cast<std::int32_t>(o - t.offerings.data()) : kNoOffer;
    }
    return best == kNoOffer ? nullptr : &t.offerings[static_cast<std::size_t>(best)];
  }
  struct Entry {
    std::optional<Requirement> zone, capacity_type;
    std::vector<std::int32_t> best;  // by catalogue index: the offering's index, kNoOffer, or kUnknown until asked
  };
  const std::vector<KType>& catalogue_;
  std::vector<Entry> entries_;
};

// The capacity types of the catalogue's available offerings.
std::size_t CapacityTypeCount(const std::vector<KType>& catalogue) {
  std::vector<Symbol> seen;
  for (const auto& t : catalogue)
    for (const auto& o : t.offerings)
      if (o.available && std::find(seen.begin(), seen.end(), o.capacity_type) == seen.end())
        seen.push_back(o.capacity_type);
  return seen.size();
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

std::vector<std::string> NodeClaimRequirements(const Requirements& reqs, const std::vector<const KType*>& options,
                                               std::size_t capacity_types) {
  static const Symbol kInstanceType = Intern("node.kubernetes.io/instance-type");
  static const Symbol kRegistered = Intern("karpenter.sh/registered");
  static const Symbol kInitialized = Intern("karpenter.sh/initialized");
  const Requirement* zone_req = reqs.Find(ZoneKey());
  const Requirement* ct_req = reqs.Find(CapacityTypeKey());
  std::vector<Symbol> type_names, cts;
  type_names.reserve(options.size());
  for (const KType* k : options) type_names.push_back(k->name);
  // The capacity types are a set (Requirement::Make sorts them): once every one is found, the rest adds nothing.
  for (const KType* k : options) {
    if (cts.size() >= capacity_types) break;
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
  const std::size_t capacity_types = CapacityTypeCount(catalogue);
  CheapestOffers cheapest(catalogue);
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
    const CheapestOffers::Lookup offer_of = cheapest.For(zone_req, ct_req);
    std::vector<std::pair<double, int>> priced;
    priced.reserve(c.options.size());
    for (int idx : c.options) {
      const Offer* o = offer_of(idx);
      priced.emplace_back(o ? o->price : std::numeric_limits<double>::infinity(), idx);
    }
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
      out.options.push_back({catalogue[static_cast<std::size_t>(idx)].name, price});
    // The launch: the cheapest option and its cheapest offering (first among equal prices).
    const KType& launch = *kept.front();
    const Offer* offer = offer_of(priced.front().second);
    out.instance_type = Text(launch.name);
    if (offer) {
      out.zone = Text(offer->zone);
      out.capacity_type = Text(offer->capacity_type);
      out.price = offer->price;
    }
    result.hourly_price += out.price;
    out.requirements = NodeClaimRequirements(c.requirements, kept, capacity_types);
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
