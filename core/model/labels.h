// Labels and selectors: metav1.LabelSelector and v1.NodeSelector semantics.
// Upstream: k8s.io/apimachinery/pkg/labels/selector.go, apis/meta/v1/helpers.go (LabelSelectorAsSelector),
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/model/symbol.h"

namespace kplace {

// A set of labels, sorted by key symbol for lookup. Keys are unique.
class Labels {
 public:
  Labels() = default;
  void Set(Symbol key, Symbol value);
  // The value of key, or nullopt when the key is absent.
  std::optional<Symbol> Get(Symbol key) const;
  bool Has(Symbol key) const { return Get(key).has_value(); }
  bool empty() const { return kv_.empty(); }
  std::size_t size() const { return kv_.size(); }
  const std::vector<std::pair<Symbol, Symbol>>& entries() const { return kv_; }

 private:
  std::vector<std::pair<Symbol, Symbol>> kv_;
};

enum class SelectorOp : std::uint8_t { In, NotIn, Exists, DoesNotExist, Gt, Lt };

struct LabelRequirement {
  Symbol key = kEmptySymbol;
  SelectorOp op = SelectorOp::In;
  std::vector<Symbol> values;     // In / NotIn
  std::int64_t number = 0;        // Gt / Lt
  bool Matches(const Labels& labels) const;
};

// A metav1.LabelSelector after conversion. A nil selector (absent field) selects nothing; an empty one
// ({}) selects everything.
struct LabelSelector {
  bool nil = true;
  std::vector<LabelRequirement> requirements;  // matchLabels become In requirements
  bool Matches(const Labels& labels) const {
    if (nil) return false;
    for (const auto& r : requirements)
      if (!r.Matches(labels)) return false;
    return true;
  }
  static LabelSelector Everything() { return LabelSelector{false, {}}; }
};

// v1.NodeSelectorTerm: expressions over labels and fields, all ANDed. A term with neither matches nothing.
struct NodeSelectorTerm {
  std::vector<LabelRequirement> match_expressions;
  // matchFields: only metadata.name with In / NotIn is meaningful.
  std::vector<LabelRequirement> match_fields;
  // True when a requirement could not be parsed (e.g. Gt with a non-integer): the term matches nothing.
  bool invalid = false;
  bool Matches(const Labels& labels, Symbol node_name) const;
};

// v1.NodeSelector: terms are ORed.
struct NodeSelector {
  std::vector<NodeSelectorTerm> terms;
  bool Matches(const Labels& labels, Symbol node_name) const {
    for (const auto& t : terms)
      if (t.Matches(labels, node_name)) return true;
    return false;
  }
};

}  // namespace kplace
