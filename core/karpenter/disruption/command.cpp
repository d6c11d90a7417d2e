#include "core/karpenter/disruption/command.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>

namespace kplace::karpenter::disruption {

std::string Decision::Kind() const {
  if (candidates.empty()) return "no-op";
  return replace && !new_claims.empty() ? "replace" : "delete";
}

double Decision::SourceCost() const {
  double sum = 0;
  for (const Candidate* c : candidates) sum += c->price;
  return sum;
}

double Decision::EstimatedSavings() const {
  if (!replace || new_claims.empty()) return SourceCost();
  double cost = 0;
  const auto& catalogue = results.simulation.catalogue;
  for (const NewClaim& c : new_claims) {
    if (c.options.empty()) continue;
    const double p = CheapestCompatiblePrice(catalogue[static_cast<std::size_t>(c.options.front())], c.requirements);
    if (std::isfinite(p)) cost += p;
  }
  return SourceCost() - cost;
}

std::string Decision::String() const {
  std::string sources;
  for (const Candidate* c : candidates) sources += (sources.empty() ? "" : ", ") + c->state->name;
  std::string out = Kind() + ": [" + (Kind() == "no-op" ? "" : sources) + "]";
  if (Kind() == "replace") {
    const std::size_t n = new_claims.size();
    out += " -> [" + std::to_string(n) + (n == 1 ? " replacement]" : " replacements]");
  }
  return out;
}

std::string Decision::StringForNode(const Candidate& c) const {
  if (candidates.size() == 1) return String();
  return Kind() + ": [" + c.state->name + "] (part of " + std::to_string(candidates.size()) + "-node consolidation)";
}

std::vector<NewClaim> NewClaimsOf(const SimulationResults& r) {
  std::vector<NewClaim> out;
  for (std::size_t i = 0; i < r.simulation.result.claims.size(); ++i) {
    NewClaim c;
    c.node_pool = r.simulation.result.claims[i].node_pool;
    c.requirements = r.simulation.claims[i].requirements;
    c.options = r.simulation.claims[i].options;
    c.pods = r.simulation.result.claims[i].pods;
    out.push_back(std::move(c));
  }
  return out;
}

double CheapestCompatiblePrice(const KType& t, const Requirements& reqs) {
  const Offer* o = CheapestOffering(t, reqs);
  return o ? o->price : std::numeric_limits<double>::infinity();
}

double WorstLaunchPrice(const KType& t, const Requirements& reqs) {
  const Requirement* zone = reqs.Find(ZoneKey());
  const Requirement* ct = reqs.Find(CapacityTypeKey());
  static const Symbol kPrecedence[] = {Intern("reserved"), Intern("spot"), Intern("on-demand")};
  for (const Symbol want : kPrecedence) {
    double worst = -1;
    bool any = false;
    for (const auto& o : t.offerings) {
      if (!o.available || o.capacity_type != want) continue;
      if ((zone && !zone->Has(o.zone)) || (ct && !ct->Has(o.capacity_type))) continue;
      any = true;
      worst = std::max(worst, o.price);
    }
    if (any) return worst;
  }
  return DBL_MAX;
}

void OrderByPrice(std::vector<int>& options, const std::vector<KType>& catalogue, const Requirements& reqs) {
  std::stable_sort(options.begin(), options.end(), [&](int a, int b) {
    return CheapestCompatiblePrice(catalogue[static_cast<std::size_t>(a)], reqs) <
           CheapestCompatiblePrice(catalogue[static_cast<std::size_t>(b)], reqs);
  });
}

bool RemoveByPriceAndMinValues(std::vector<int>& options, const std::vector<KType>& catalogue, const Requirements& reqs,
                               double max_price, std::string* err) {
  std::vector<int> kept;
  for (int idx : options)
    if (WorstLaunchPrice(catalogue[static_cast<std::size_t>(idx)], reqs) < max_price) kept.push_back(idx);
  std::vector<const KType*> types;
  for (int idx : kept) types.push_back(&catalogue[static_cast<std::size_t>(idx)]);
  if (HasMinValues(reqs) && !types.empty()) {  // SatisfiesMinValues over no type: satisfied
    const std::string unmet = UnmetMinValues(types, reqs);
    if (!unmet.empty()) {
      if (err) *err = "minValues requirement is not met for label(s) (label(s)=" + unmet + ")";
      return false;
    }
  }
  options = std::move(kept);
  return true;
}

void KeepCompatible(std::vector<int>& options, const std::vector<KType>& catalogue, const Requirements& reqs) {
  std::erase_if(options, [&](int idx) {
    return FirstCompatibleOffering(catalogue[static_cast<std::size_t>(idx)], reqs) == nullptr;
  });
}

std::size_t MinValuesPrefix(const std::vector<int>& options, const std::vector<KType>& catalogue,
                            const Requirements& reqs) {
  if (!HasMinValues(reqs)) return 0;
  std::vector<const KType*> types;
  for (int idx : options) {
    types.push_back(&catalogue[static_cast<std::size_t>(idx)]);
    if (UnmetMinValues(types, reqs).empty()) return types.size();
  }
  return types.size();
}

bool HasMinValues(const Requirements& reqs) {
  return std::any_of(reqs.items().begin(), reqs.items().end(), [](const Requirement& r) { return r.min_values; });
}

std::string GoFixed(double v, int prec) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[512];  // %f of the largest double takes 309 digits
  std::snprintf(buf, sizeof buf, "%.*f", prec, v);
  return buf;
}

std::string Money(double v) { return GoFixed(v, 2); }

}  // namespace kplace::karpenter::disruption
