#include "core/karpenter/requirements.h"

#include <algorithm>
#include <iterator>

namespace kplace::karpenter {
namespace {

bool WithinBounds(Symbol v, const std::optional<std::int64_t>& gte, const std::optional<std::int64_t>& lte) {
  if (!gte && !lte) return true;
  auto n = ParseDecimalInt64(Text(v));
  if (!n) return false;
  if (gte && *n < *gte) return false;
  if (lte && *n > *lte) return false;
  return true;
}

bool Contains(const std::vector<Symbol>& sorted, Symbol v) {
  return std::binary_search(sorted.begin(), sorted.end(), v);
}

std::optional<std::int64_t> MaxOpt(const std::optional<std::int64_t>& a, const std::optional<std::int64_t>& b) {
  if (!a) return b;
  if (!b) return a;
  return std::max(*a, *b);
}
std::optional<std::int64_t> MinOpt(const std::optional<std::int64_t>& a, const std::optional<std::int64_t>& b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

const char* OpName(ReqOp op) {
  switch (op) {
    case ReqOp::In:
      return "In";
    case ReqOp::NotIn:
      return "NotIn";
    case ReqOp::Exists:
      return "Exists";
    case ReqOp::DoesNotExist:
      return "DoesNotExist";
  }
  return "";
}

}  // namespace

Symbol HostnameKey() {
  static const Symbol k = Intern("kubernetes.io/hostname");
  return k;
}

ReqOp Requirement::Operator() const {
  if (complement) return values.empty() ? ReqOp::Exists : ReqOp::NotIn;
  return values.empty() ? ReqOp::DoesNotExist : ReqOp::In;
}

bool Requirement::Has(Symbol value) const {
  bool in = Contains(values, value);
  return (complement ? !in : in) && WithinBounds(value, gte, lte);
}

std::vector<std::string> Requirement::SortedValues() const {
  std::vector<std::string> out;
  out.reserve(values.size());
  for (Symbol v : values) out.push_back(Text(v));
  std::sort(out.begin(), out.end());
  return out;
}

std::string Requirement::String() const {
  ReqOp op = Operator();
  std::string s = Text(key) + " " + OpName(op);
  if (op == ReqOp::In || op == ReqOp::NotIn) {
    // Only the first five in text order are printed: sort just those (instance-type lists run to hundreds).
    std::vector<const std::string*> vs;
    vs.reserve(values.size());
    for (Symbol v : values) vs.push_back(&Text(v));
    const std::size_t n = vs.size(), shown = std::min<std::size_t>(n, 5);
    std::partial_sort(vs.begin(), vs.begin() + static_cast<std::ptrdiff_t>(shown), vs.end(),
                      [](const std::string* a, const std::string* b) { return *a < *b; });
    s += " [";
    for (std::size_t i = 0; i < shown; ++i) {
      if (i) s += " ";
      s += *vs[i];
    }
    if (n > 5) s += " and " + std::to_string(n - 5) + " others";
    s += "]";
  }
  if (gte) s += " >=" + std::to_string(*gte);
  if (lte) s += " <=" + std::to_string(*lte);
  if (min_values) s += " minValues " + std::to_string(*min_values);
  return s;
}

Requirement Requirement::Make(Symbol key, ReqOp op, std::vector<Symbol> values) {
  Requirement r;
  r.key = key;
  r.complement = op == ReqOp::NotIn || op == ReqOp::Exists;
  if (op == ReqOp::In || op == ReqOp::NotIn) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    r.values = std::move(values);
  }
  return r;
}

Requirement Requirement::FromSelector(const LabelRequirement& lr, std::optional<std::int32_t> min_values) {
  // NewRequirementWithFlexibility: beta keys are normalised by the caller (pod.cpp).
  Requirement r;
  switch (lr.op) {
    case SelectorOp::In:
    case SelectorOp::Equals:
      r = Make(lr.key, ReqOp::In, lr.values);
      break;
    case SelectorOp::NotIn:
      r = Make(lr.key, ReqOp::NotIn, lr.values);
      break;
    case SelectorOp::Exists:
      r = Make(lr.key, ReqOp::Exists);
      break;
    case SelectorOp::DoesNotExist:
      r = Make(lr.key, ReqOp::DoesNotExist);
      break;
    case SelectorOp::Gt:
      r = Make(lr.key, ReqOp::Exists);
      if (lr.number == INT64_MAX) {
        r = Make(lr.key, ReqOp::DoesNotExist);
      } else {
        r.gte = lr.number + 1;
      }
      break;
    case SelectorOp::Lt:
      r = Make(lr.key, ReqOp::Exists);
      r.lte = lr.number - 1;
      break;
  }
  r.min_values = min_values;
  return r;
}

Requirement Intersection(const Requirement& a, const Requirement& b) {
  Requirement r;
  r.key = a.key;
  r.complement = a.complement && b.complement;
  auto gte = MaxOpt(a.gte, b.gte);
  auto lte = MinOpt(a.lte, b.lte);
  r.min_values = a.min_values;
  if (b.min_values && (!r.min_values || *b.min_values > *r.min_values)) r.min_values = b.min_values;
  if (gte && lte && *gte > *lte) {
    r.complement = false;
    return r;
  }
  std::vector<Symbol>& out = r.values;
  if (a.complement && b.complement)
    std::set_union(a.values.begin(), a.values.end(), b.values.begin(), b.values.end(), std::back_inserter(out));
  else if (a.complement)
    std::set_difference(b.values.begin(), b.values.end(), a.values.begin(), a.values.end(), std::back_inserter(out));
  else if (b.complement)
    std::set_difference(a.values.begin(), a.values.end(), b.values.begin(), b.values.end(), std::back_inserter(out));
  else
    std::set_intersection(a.values.begin(), a.values.end(), b.values.begin(), b.values.end(), std::back_inserter(out));
  if (gte || lte)
    out.erase(std::remove_if(out.begin(), out.end(), [&](Symbol v) { return !WithinBounds(v, gte, lte); }), out.end());
  if (r.complement) {
    r.gte = gte;
    r.lte = lte;
  }
  return r;
}

bool HasIntersection(const Requirement& a, const Requirement& b) {
  auto gte = MaxOpt(a.gte, b.gte);
  auto lte = MinOpt(a.lte, b.lte);
  if (gte && lte && *gte > *lte) return false;
  if (a.complement && b.complement) return true;
  if (a.complement != b.complement) {
    const Requirement& c = a.complement ? a : b;
    const Requirement& s = a.complement ? b : a;
    for (Symbol v : s.values)
      if (!Contains(c.values, v) && WithinBounds(v, gte, lte)) return true;
    return false;
  }
  for (Symbol v : a.values)
    if (Contains(b.values, v) && WithinBounds(v, gte, lte)) return true;
  return false;
}

void Requirements::Add(const Requirement& r) {
  auto it =
      std::lower_bound(items_.begin(), items_.end(), r.key, [](const Requirement& x, Symbol k) { return x.key < k; });
  if (it != items_.end() && it->key == r.key) {
    *it = Intersection(r, *it);
    return;
  }
  items_.insert(it, r);
}

void Requirements::Add(const Requirements& other) {
  for (const auto& r : other.items_) Add(r);
}

const Requirement* Requirements::Find(Symbol key) const {
  auto it =
      std::lower_bound(items_.begin(), items_.end(), key, [](const Requirement& x, Symbol k) { return x.key < k; });
  return it != items_.end() && it->key == key ? &*it : nullptr;
}

bool Implied(const Requirement& existing, const Requirement& extra) {
  // Two plain In sets (the common case: topology domains): existing's values all in extra's.
  if (!existing.complement && !extra.complement && !existing.gte && !existing.lte && !extra.gte && !extra.lte &&
      !extra.min_values)
    return std::includes(extra.values.begin(), extra.values.end(), existing.values.begin(), existing.values.end());
  return Intersection(extra, existing) == existing;
}

bool Requirements::Implies(const Requirements& other) const {
  for (const auto& r : other.items_) {
    const Requirement* e = Find(r.key);
    if (!e || !Implied(*e, r)) return false;
  }
  return true;
}

void Requirements::Remove(Symbol key) {
  items_.erase(std::remove_if(items_.begin(), items_.end(), [&](const Requirement& r) { return r.key == key; }),
               items_.end());
}

std::string Requirements::String() const {
  std::vector<std::string> parts;
  for (const auto& r : items_)
    if (r.key != HostnameKey()) parts.push_back(r.String());
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += ", ";
    out += parts[i];
  }
  return out;
}

bool KeySetHas(const KeySet& s, Symbol k) { return std::binary_search(s.begin(), s.end(), k); }

namespace {

bool Negative(ReqOp op) { return op == ReqOp::NotIn || op == ReqOp::DoesNotExist; }

std::string Suffix(const std::string& key) {
  auto pos = key.find('/');
  return pos == std::string::npos ? key : key.substr(pos + 1);
}

bool HintMatches(const std::string& candidate, const std::string& key) {
  const std::string suffix = Suffix(key);
  return candidate.find(key) != std::string::npos ||
         (candidate.size() >= suffix.size() &&
          candidate.compare(candidate.size() - suffix.size(), suffix.size(), suffix) == 0);
}

// labelHint: upstream iterates Go sets (unordered); kplace takes the first match in key text order.
std::string LabelHint(const Requirements& existing, Symbol key, const KeySet* allowance) {
  const std::string& k = Text(key);
  auto first = [&](std::vector<std::string> candidates) -> std::string {
    std::sort(candidates.begin(), candidates.end());
    for (const auto& c : candidates)
      if (HintMatches(c, k)) return " (typo of " + GoQuote(c) + "?)";
    return "";
  };
  if (allowance) {
    std::vector<std::string> c;
    for (Symbol s : *allowance) c.push_back(Text(s));
    if (auto h = first(std::move(c)); !h.empty()) return h;
  }
  std::vector<std::string> c;
  for (const auto& r : existing.items()) c.push_back(Text(r.key));
  return first(std::move(c));
}

}  // namespace

std::string Compatible(const Requirements& existing, const Requirements& incoming, const KeySet* allowance) {
  // Upstream reports the first undefined key in map order; kplace takes the first in key text order.
  const Requirement* undefined = nullptr;
  for (const auto& r : incoming.items()) {
    if (allowance && KeySetHas(*allowance, r.key)) continue;
    if (existing.Has(r.key) || Negative(r.Operator())) continue;
    if (!undefined || Text(r.key) < Text(undefined->key)) undefined = &r;
  }
  if (undefined)
    return "label " + GoQuote(Text(undefined->key)) + " does not have known values" +
           LabelHint(existing, undefined->key, allowance);
  return Intersects(existing, incoming);
}

bool IsCompatible(const Requirements& existing, const Requirements& incoming, const KeySet* allowance) {
  for (const auto& r : incoming.items()) {
    if (allowance && KeySetHas(*allowance, r.key)) continue;
    if (existing.Has(r.key) || Negative(r.Operator())) continue;
    return false;
  }
  return IntersectsOk(existing, incoming);
}

bool Conflicts(const Requirement& existing, const Requirement& incoming) {
  return !HasIntersection(existing, incoming) && !(Negative(incoming.Operator()) && Negative(existing.Operator()));
}

namespace {
template <typename F>
void ForEachConflict(const Requirements& existing, const Requirements& incoming, F&& f) {
  const auto& a = existing.items();
  const auto& b = incoming.items();
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].key < b[j].key) {
      ++i;
    } else if (b[j].key < a[i].key) {
      ++j;
    } else {
      if (Conflicts(a[i], b[j])) {
        if (!f(a[i], b[j])) return;
      }
      ++i;
      ++j;
    }
  }
}
}  // namespace

std::string Intersects(const Requirements& existing, const Requirements& incoming) {
  std::vector<std::pair<std::string, std::string>> errs;  // (key text, message)
  ForEachConflict(existing, incoming, [&](const Requirement& e, const Requirement& in) {
    errs.emplace_back(Text(e.key), "key " + Text(e.key) + ", " + in.String() + " not in " + e.String());
    return true;
  });
  std::sort(errs.begin(), errs.end());
  std::string out;
  for (std::size_t i = 0; i < errs.size(); ++i) {
    if (i) out += "; ";
    out += errs[i].second;
  }
  return out;
}

bool IntersectsOk(const Requirements& existing, const Requirements& incoming) {
  bool ok = true;
  ForEachConflict(existing, incoming, [&](const Requirement&, const Requirement&) {
    ok = false;
    return false;
  });
  return ok;
}

Requirements FromLabels(const Labels& labels) {
  Requirements r;
  for (auto [k, v] : labels.entries()) r.Add(Requirement::Make(k, ReqOp::In, {v}));
  return r;
}

}  // namespace kplace::karpenter
