#include "core/model/labels.h"

#include <algorithm>
#include <charconv>

namespace kplace {

void Labels::Set(Symbol key, Symbol value) {
  auto it = std::lower_bound(kv_.begin(), kv_.end(), key, [](const auto& e, Symbol k) { return e.first < k; });
  if (it != kv_.end() && it->first == key)
    it->second = value;
  else
    kv_.insert(it, {key, value});
}

std::optional<Symbol> Labels::Get(Symbol key) const {
  if (kv_.size() <= 8) {
    for (const auto& [k, v] : kv_)
      if (k == key) return v;
    return std::nullopt;
  }
  auto it = std::lower_bound(kv_.begin(), kv_.end(), key, [](const auto& e, Symbol k) { return e.first < k; });
  if (it != kv_.end() && it->first == key) return it->second;
  return std::nullopt;
}

namespace {
// Gt/Lt compare the label value parsed as a base-10 int64; an unparseable label value does not match
// (labels.Requirement.Matches).
std::optional<std::int64_t> ParseInt(const std::string& s) {
  std::int64_t v = 0;
  const char* b = s.data();
  const char* e = s.data() + s.size();
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || p != e || b == e) return std::nullopt;
  return v;
}
}  // namespace

bool LabelRequirement::Matches(const Labels& labels) const {
  auto v = labels.Get(key);
  switch (op) {
    case SelectorOp::In:
      return v && std::find(values.begin(), values.end(), *v) != values.end();
    case SelectorOp::NotIn:
      return !v || std::find(values.begin(), values.end(), *v) == values.end();
    case SelectorOp::Exists:
      return v.has_value();
    case SelectorOp::DoesNotExist:
      return !v;
    case SelectorOp::Gt:
    case SelectorOp::Lt: {
      if (!v) return false;
      auto n = ParseInt(Text(*v));
      if (!n) return false;
      return op == SelectorOp::Gt ? *n > number : *n < number;
    }
  }
  return false;
}

bool NodeSelectorTerm::Matches(const Labels& labels, Symbol node_name) const {
  if (invalid) return false;
  if (match_expressions.empty() && match_fields.empty()) return false;
  for (const auto& r : match_expressions)
    if (!r.Matches(labels)) return false;
  if (!match_fields.empty()) {
    static const Symbol kNameField = Intern("metadata.name");
    Labels fields;
    fields.Set(kNameField, node_name);
    for (const auto& r : match_fields)
      if (!r.Matches(fields)) return false;
  }
  return true;
}

}  // namespace kplace
