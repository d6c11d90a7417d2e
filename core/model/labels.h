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

// Operators of labels.Requirement. NodeSelector matchExpressions use In..Lt; a metav1.LabelSelector uses
// In/NotIn/Exists/DoesNotExist for matchExpressions and Equals for each matchLabels entry (Equals matches like
// In with one value and prints as "k=v").
enum class SelectorOp : std::uint8_t { In, NotIn, Exists, DoesNotExist, Gt, Lt, Equals };

struct LabelRequirement {
  Symbol key = kEmptySymbol;
  SelectorOp op = SelectorOp::In;
  std::vector<Symbol> values;  // every operator keeps its values as given (Gt/Lt: the one integer text)
  std::int64_t number = 0;     // Gt / Lt
  bool Matches(const Labels& labels) const;
  bool operator==(const LabelRequirement&) const = default;
};

// One validation failure, as k8s.io/apimachinery/pkg/util/validation/field.Error.
struct FieldError {
  std::string type;   // "Invalid value", "Unsupported value", "Required value"
  std::string field;  // path, e.g. "nodeSelectorTerms[0].matchExpressions[1].key"
  std::string value;  // the bad value as upstream prints it (Go %q or %#v); empty = not printed
  std::string detail;
  // "<field>: <type>: <value>: <detail>" (field.Error.Error()).
  std::string Error() const;
};
// errors.Flatten(errors.NewAggregate(errs)).Error(): one error prints itself, several "[e1, e2]" (duplicates
// dropped).
std::string AggregateError(const std::vector<FieldError>& errs);
// Prepends path to each error's field ("[2]" + "matchExpressions[0].key" -> "[2].matchExpressions[0].key").
std::vector<FieldError> PrefixErrors(const std::vector<FieldError>& errs, const std::string& path);

// validation.IsQualifiedName / IsValidLabelValue: the failure messages (empty when valid).
std::vector<std::string> LabelKeyErrors(const std::string& key);
std::vector<std::string> LabelValueErrors(const std::string& value);
// validation.IsDNS1123Subdomain / IsDNS1123Label: the failure messages (empty when valid).
std::vector<std::string> DNS1123SubdomainErrors(const std::string& value);
std::vector<std::string> DNS1123LabelErrors(const std::string& value);
// strconv.ParseInt(s, 10, 64): optional sign, decimal digits, no overflow.
std::optional<std::int64_t> ParseDecimalInt64(const std::string& s);
// Go %q of a string.
std::string GoQuote(const std::string& s);

// labels.NewRequirement: validates key, operator arity and values; failures are appended to errors with field
// paths under path ("<path>.key", "<path>.values[i][<key>]"). The requirement is returned either way.
// values_nil: the values list was absent (only changes how a bad list prints).
LabelRequirement NewRequirement(const std::string& key, SelectorOp op, const std::vector<std::string>& values,
                                const std::string& path, std::vector<FieldError>& errors, bool values_nil = false);

// labels.Selector.String() of an AND of requirements: sorted by key, "k=v", "k in (a,b)", "k notin (a,b)", "k>1",
// "k<1", "k", "!k", joined by ",".
std::string SelectorString(const std::vector<LabelRequirement>& requirements);

// A metav1.LabelSelector after conversion. A nil selector (absent field) selects nothing; an empty one
// ({}) selects everything.
struct LabelSelector {
  bool nil = true;
  std::vector<LabelRequirement> requirements;  // matchLabels become Equals requirements
  bool Matches(const Labels& labels) const {
    if (nil) return false;
    for (const auto& r : requirements)
      if (!r.Matches(labels)) return false;
    return true;
  }
  static LabelSelector Everything() { return LabelSelector{false, {}}; }
  bool operator==(const LabelSelector&) const = default;
  std::string String() const { return nil ? std::string() : SelectorString(requirements); }
};

// v1.NodeSelectorTerm: expressions over labels and fields, all ANDed. A term with neither matches nothing.
// (component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go)
struct NodeSelectorTerm {
  std::vector<LabelRequirement> match_expressions;
  // matchFields (In / NotIn, one value): the only node field is metadata.name; other keys read as "".
  // Kept with all their values even when invalid (NodeAffinity's PreFilter reads them raw).
  std::vector<LabelRequirement> match_fields;
  // Parse errors, field paths relative to the term ("matchExpressions[0].key"). A term with errors never matches
  // (LazyErrorNodeSelector); strict callers (NewNodeSelector) report them instead.
  std::vector<FieldError> errors;

  bool invalid() const { return !errors.empty(); }
  // isEmptyNodeSelectorTerm: no matchExpressions and no matchFields (such a term is dropped / skipped).
  bool empty() const { return match_expressions.empty() && match_fields.empty() && errors.empty(); }
  // node_name: the node's name symbol; an empty name has no metadata.name field, and then matchFields are ignored
  // (upstream extractNodeFields quirk).
  bool Matches(const Labels& labels, Symbol node_name) const;
};

// v1.NodeSelector: terms are ORed; no terms (or only empty ones) matches nothing.
struct NodeSelector {
  std::vector<NodeSelectorTerm> terms;
  bool Matches(const Labels& labels, Symbol node_name) const {
    for (const auto& t : terms)
      if (t.Matches(labels, node_name)) return true;
    return false;
  }
  // NewNodeSelector's errors: every term's errors under "nodeSelectorTerms[i]".
  std::vector<FieldError> Errors() const;
};

}  // namespace kplace
