// A disruption command and the price rules that shape it (karpenter v1.14.1 pkg/controllers/disruption/types.go
// Command, pkg/cloudprovider/types.go OrderByPrice / WorstLaunchPrice / Compatible / SatisfiesMinValues,
// provisioning/scheduling/nodeclaim.go RemoveInstanceTypeOptionsByPriceAndMinValues).
#pragma once

#include <string>
#include <vector>

#include "core/karpenter/catalogue.h"
#include "core/karpenter/disruption/candidate.h"
#include "core/karpenter/disruption/simulate.h"

namespace kplace::karpenter::disruption {

// A NodeClaim the simulation would create: its NodePool, scheduling requirements, instance-type options (catalogue
// indices, cheapest first) and pods.
struct NewClaim {
  std::string node_pool;
  Requirements requirements;
  std::vector<int> options;
  std::vector<std::string> pods;  // keys
};

// What a method decided, before the controller stamps it with the method (so its strings are the short form).
struct Decision {
  std::vector<const Candidate*> candidates;
  std::vector<NewClaim> new_claims;  // the simulation's (Results.NewNodeClaims), as the method left them
  bool replace = false;              // the new claims are the command's replacements
  SimulationResults results;

  // "delete", "replace" or "no-op".
  std::string Kind() const;
  double SourceCost() const;  // Σ candidate prices
  // EstimatedSavings: the source cost, less, with replacements, the cheapest available offering of each new
  // claim's first option compatible with its requirements.
  double EstimatedSavings() const;
  // "delete: [a, b]", "replace: [a] -> [1 replacement]", "no-op: []".
  std::string String() const;
  // String() for a one-candidate command, else "<kind>: [<node>] (part of <n>-node consolidation)".
  std::string StringForNode(const Candidate& c) const;
};

// The simulation's new NodeClaims (Results.NewNodeClaims) as a decision starts from them.
std::vector<NewClaim> NewClaimsOf(const SimulationResults& r);

// The lowest price among the type's available offerings compatible with reqs (+inf without one).
double CheapestCompatiblePrice(const KType& t, const Requirements& reqs);
// WorstLaunchPrice: among the available offerings compatible with reqs, those of the first capacity type of
// reserved, spot, on-demand that has any; the most expensive of them (DBL_MAX without one).
double WorstLaunchPrice(const KType& t, const Requirements& reqs);
// OrderByPrice: by CheapestCompatiblePrice; upstream's sort is not stable, kplace keeps the given order for ties.
void OrderByPrice(std::vector<int>& options, const std::vector<KType>& catalogue, const Requirements& reqs);
// RemoveInstanceTypeOptionsByPriceAndMinValues: the options whose worst launch price is below max_price, in order;
// false with *err ("minValues requirement is not met for label(s) (label(s)=[k])") when they no longer meet the
// requirements' minValues.
bool RemoveByPriceAndMinValues(std::vector<int>& options, const std::vector<KType>& catalogue, const Requirements& reqs,
                               double max_price, std::string* err);
// InstanceTypes.Compatible: the options that have an available offering compatible with reqs.
void KeepCompatible(std::vector<int>& options, const std::vector<KType>& catalogue, const Requirements& reqs);
// SatisfiesMinValues: how many of the first options it takes to meet every minValues (all of them when never).
std::size_t MinValuesPrefix(const std::vector<int>& options, const std::vector<KType>& catalogue,
                            const Requirements& reqs);
// Requirements.HasMinValues.
bool HasMinValues(const Requirements& reqs);
// Go's "%.<prec>f", with +Inf and NaN spelled as Go spells them.
std::string GoFixed(double v, int prec);
// Go's "%.2f".
std::string Money(double v);

}  // namespace kplace::karpenter::disruption
