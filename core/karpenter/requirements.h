// Karpenter's scheduling.Requirements: a key -> value-set algebra with complements, integer bounds and minValues.
// Upstream: kubernetes-sigs/karpenter pkg/scheduling/requirement.go, requirements.go.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/labels.h"
#include "core/model/symbol.h"

namespace kplace::karpenter {

enum class ReqOp : std::uint8_t { In, NotIn, Exists, DoesNotExist };

// One key's constraint: values (In) or their complement (NotIn; empty complement = Exists); Gt/Lt become
// inclusive bounds. Values are kept sorted by symbol number.
struct Requirement {
  Symbol key = kEmptySymbol;
  bool complement = false;
  std::vector<Symbol> values;
  std::optional<std::int64_t> gte, lte;
  std::optional<std::int32_t> min_values;

  ReqOp Operator() const;
  bool Has(Symbol value) const;
  // "key In [a b]", "key Exists >=3", "... minValues 2" (values sorted as text; more than 5: "and N others").
  std::string String() const;
  // Sorted value texts (In / NotIn).
  std::vector<std::string> SortedValues() const;

  static Requirement Make(Symbol key, ReqOp op, std::vector<Symbol> values = {});
  // From a node-selector requirement (In, NotIn, Exists, DoesNotExist, Gt, Lt; Gte/Lte arrive as Gt/Lt).
  static Requirement FromSelector(const LabelRequirement& r, std::optional<std::int32_t> min_values = std::nullopt);

  bool operator==(const Requirement&) const = default;
};

Requirement Intersection(const Requirement& a, const Requirement& b);
bool HasIntersection(const Requirement& a, const Requirement& b);
// Intersecting extra into existing leaves existing unchanged.
bool Implied(const Requirement& existing, const Requirement& extra);
// One key of Requirements.Intersects: the two do not overlap and are not both NotIn / DoesNotExist.
bool Conflicts(const Requirement& existing, const Requirement& incoming);

// A set of key constraints, one per key (sorted by key symbol).
class Requirements {
 public:
  // Adds r, intersecting with an existing constraint on the same key.
  void Add(const Requirement& r);
  void Add(const Requirements& other);
  const Requirement* Find(Symbol key) const;
  bool Has(Symbol key) const { return Find(key) != nullptr; }
  void Remove(Symbol key);
  const std::vector<Requirement>& items() const { return items_; }
  bool empty() const { return items_.empty(); }
  // Members' strings sorted, joined ", ", kubernetes.io/hostname omitted.
  std::string String() const;
  // Adding every member of other would leave this set unchanged (each key present, each intersection a no-op).
  bool Implies(const Requirements& other) const;
  bool operator==(const Requirements&) const = default;

 private:
  std::vector<Requirement> items_;
};

// A sorted set of label keys (the well-known allowance).
using KeySet = std::vector<Symbol>;
bool KeySetHas(const KeySet& s, Symbol k);

// existing.Compatible(incoming, allowance): "" when compatible, else upstream's error text. allowance may be null.
std::string Compatible(const Requirements& existing, const Requirements& incoming, const KeySet* allowance);
bool IsCompatible(const Requirements& existing, const Requirements& incoming, const KeySet* allowance);
// existing.Intersects(incoming): "" when every shared key overlaps.
std::string Intersects(const Requirements& existing, const Requirements& incoming);
bool IntersectsOk(const Requirements& existing, const Requirements& incoming);

// Each label as key In [value].
Requirements FromLabels(const Labels& labels);

Symbol HostnameKey();

}  // namespace kplace::karpenter
