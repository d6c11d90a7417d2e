#include "core/model/labels.h"

#include <algorithm>
#include <set>
#include <string_view>

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

std::optional<std::int64_t> ParseDecimalInt64(const std::string& s) {
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  if (i == s.size()) return std::nullopt;
  // Accumulate as a negative number so INT64_MIN parses.
  std::int64_t v = 0;
  constexpr std::int64_t kMin = INT64_MIN;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c < '0' || c > '9') return std::nullopt;
    int d = c - '0';
    if (v < (kMin + d) / 10) return std::nullopt;
    v = v * 10 - d;
  }
  if (!negative) {
    if (v == kMin) return std::nullopt;
    v = -v;
  }
  return v;
}

bool LabelRequirement::Matches(const Labels& labels) const {
  auto v = labels.Get(key);
  switch (op) {
    case SelectorOp::In:
    case SelectorOp::Equals:
      return v && std::find(values.begin(), values.end(), *v) != values.end();
    case SelectorOp::NotIn:
      return !v || std::find(values.begin(), values.end(), *v) == values.end();
    case SelectorOp::Exists:
      return v.has_value();
    case SelectorOp::DoesNotExist:
      return !v;
    case SelectorOp::Gt:
    case SelectorOp::Lt: {
      // The label value must parse as a base-10 int64, else no match (labels.Requirement.Matches).
      if (!v) return false;
      auto n = ParseDecimalInt64(Text(*v));
      if (!n) return false;
      return op == SelectorOp::Gt ? *n > number : *n < number;
    }
  }
  return false;
}

bool NodeSelectorTerm::Matches(const Labels& labels, Symbol node_name) const {
  if (!errors.empty()) return false;
  if (match_expressions.empty() && match_fields.empty()) return false;
  for (const auto& r : match_expressions)
    if (!r.Matches(labels)) return false;
  if (node_name != kEmptySymbol) {
    static const Symbol kNameField = Intern("metadata.name");
    for (const auto& r : match_fields) {
      // fields.OneTermEqualSelector / OneTermNotEqualSelector: an absent field reads as "".
      Symbol field = r.key == kNameField ? node_name : kEmptySymbol;
      bool equal = !r.values.empty() && r.values[0] == field;
      if ((r.op == SelectorOp::NotIn) == equal) return false;
    }
  }
  return true;
}

std::vector<FieldError> NodeSelector::Errors() const {
  std::vector<FieldError> out;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    auto errs = PrefixErrors(terms[i].errors, "nodeSelectorTerms[" + std::to_string(i) + "]");
    out.insert(out.end(), errs.begin(), errs.end());
  }
  return out;
}

// ---- errors -------------------------------------------------------------------------------------------------

std::string GoQuote(const std::string& s) {
  static const char* kHex = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string FieldError::Error() const {
  std::string out = field + ": " + type;
  if (!value.empty()) out += ": " + value;
  if (!detail.empty()) out += ": " + detail;
  return out;
}

std::string AggregateError(const std::vector<FieldError>& errs) {
  if (errs.empty()) return "";
  if (errs.size() == 1) return errs[0].Error();
  std::set<std::string> seen;
  std::string out;
  for (const auto& e : errs) {
    std::string msg = e.Error();
    if (!seen.insert(msg).second) continue;
    if (seen.size() > 1) out += ", ";
    out += msg;
  }
  if (seen.size() == 1) return out;
  return "[" + out + "]";
}

std::vector<FieldError> PrefixErrors(const std::vector<FieldError>& errs, const std::string& path) {
  std::vector<FieldError> out = errs;
  for (auto& e : out) {
    if (path.empty()) continue;
    e.field = e.field.empty() ? path : (e.field[0] == '[' ? path + e.field : path + "." + e.field);
  }
  return out;
}

// ---- validation (k8s.io/apimachinery/pkg/util/validation/validation.go) -------------------------------------

namespace {

constexpr const char* kLabelKeyRegexMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
constexpr const char* kLabelValueRegexMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
    "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
constexpr const char* kSubdomainRegexMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

bool IsAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool IsQualifiedNamePart(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s)
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*
bool IsDNS1123Subdomain(std::string_view s) {
  auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  std::size_t start = 0;
  while (true) {
    std::size_t end = s.find('.', start);
    std::string_view label = s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (label.empty() || !lower_alnum(label.front()) || !lower_alnum(label.back())) return false;
    for (char c : label)
      if (!lower_alnum(c) && c != '-') return false;
    if (end == std::string_view::npos) return true;
    start = end + 1;
  }
}

std::string MaxLen(int n) { return "must be no more than " + std::to_string(n) + " characters"; }

std::string Join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? sep : "") + parts[i];
  return out;
}

std::string GoStringSlice(const std::vector<std::string>& values, bool nil) {
  if (nil && values.empty()) return "[]string(nil)";
  std::string out = "[]string{";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + GoQuote(values[i]);
  return out + "}";
}

std::string Child(const std::string& path, const char* name) { return path.empty() ? name : path + "." + name; }

}  // namespace

std::vector<std::string> LabelKeyErrors(const std::string& key) {
  std::vector<std::string> errs;
  std::string_view name = key;
  auto slash = key.find('/');
  if (slash != std::string::npos) {
    if (key.find('/', slash + 1) != std::string::npos) {
      errs.push_back(std::string("a qualified name ") + kLabelKeyRegexMsg +
                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    std::string_view prefix = std::string_view(key).substr(0, slash);
    name = std::string_view(key).substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      if (prefix.size() > 253) errs.push_back("prefix part " + MaxLen(253));
      if (!IsDNS1123Subdomain(prefix)) errs.push_back(std::string("prefix part ") + kSubdomainRegexMsg);
    }
  }
  if (name.empty())
    errs.push_back("name part must be non-empty");
  else if (name.size() > 63)
    errs.push_back("name part " + MaxLen(63));
  if (!IsQualifiedNamePart(name)) errs.push_back(std::string("name part ") + kLabelKeyRegexMsg);
  return errs;
}

std::vector<std::string> DNS1123SubdomainErrors(const std::string& value) {
  std::vector<std::string> errs;
  if (value.size() > 253) errs.push_back(MaxLen(253));
  if (!IsDNS1123Subdomain(value)) errs.push_back(kSubdomainRegexMsg);
  return errs;
}

std::vector<std::string> DNS1123LabelErrors(const std::string& value) {
  std::vector<std::string> errs;
  if (value.size() > 63) errs.push_back(MaxLen(63));
  bool label = !value.empty() && value.find('.') == std::string::npos && IsDNS1123Subdomain(value);
  if (!label) {
    // A valid subdomain that is not a label can only have failed on its dots.
    if (IsDNS1123Subdomain(value))
      errs.push_back("must not contain dots");
    else
      errs.push_back(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
          "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
          "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  }
  return errs;
}

std::vector<std::string> LabelValueErrors(const std::string& value) {
  std::vector<std::string> errs;
  if (value.size() > 63) errs.push_back(MaxLen(63));
  if (!value.empty() && !IsQualifiedNamePart(value)) errs.push_back(kLabelValueRegexMsg);
  return errs;
}

LabelRequirement NewRequirement(const std::string& key, SelectorOp op, const std::vector<std::string>& values,
                                const std::string& path, std::vector<FieldError>& errors, bool values_nil) {
  // labels.NewRequirement (apimachinery/pkg/labels/selector.go): every check runs, all failures are reported.
  LabelRequirement req;
  req.key = Intern(key);
  req.op = op;
  for (const auto& v : values) req.values.push_back(Intern(v));
  if (auto msgs = LabelKeyErrors(key); !msgs.empty())
    errors.push_back({"Invalid value", Child(path, "key"), GoQuote(key), Join(msgs, "; ")});
  // Built only for a message: a requirement is parsed per selector of every pod.
  auto values_path = [&path] { return Child(path, "values"); };
  auto bad_list = [&](const char* detail) {
    errors.push_back({"Invalid value", values_path(), GoStringSlice(values, values_nil), detail});
  };
  switch (op) {
    case SelectorOp::In:
    case SelectorOp::NotIn:
      if (values.empty()) bad_list("for 'in', 'notin' operators, values set can't be empty");
      break;
    case SelectorOp::Equals:
      if (values.size() != 1) bad_list("exact-match compatibility requires one single value");
      break;
    case SelectorOp::Exists:
    case SelectorOp::DoesNotExist:
      if (!values.empty()) bad_list("values set must be empty for exists and does not exist");
      break;
    case SelectorOp::Gt:
    case SelectorOp::Lt:
      if (values.size() != 1) bad_list("for 'Gt', 'Lt' operators, exactly one value is required");
      for (std::size_t i = 0; i < values.size(); ++i) {
        auto n = ParseDecimalInt64(values[i]);
        if (!n) {
          errors.push_back({"Invalid value", values_path() + "[" + std::to_string(i) + "]", GoQuote(values[i]),
                            "for 'Gt', 'Lt' operators, the value must be an integer"});
        } else if (i == 0) {
          req.number = *n;
        }
      }
      break;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (auto msgs = LabelValueErrors(values[i]); !msgs.empty())
      errors.push_back({"Invalid value", values_path() + "[" + std::to_string(i) + "][" + key + "]", GoQuote(values[i]),
                        Join(msgs, "; ")});
  }
  return req;
}

std::string SelectorString(const std::vector<LabelRequirement>& requirements) {
  std::vector<const LabelRequirement*> sorted;
  for (const auto& r : requirements) sorted.push_back(&r);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto* a, const auto* b) { return Text(a->key) < Text(b->key); });
  std::string out;
  for (const auto* r : sorted) {
    if (!out.empty()) out += ",";
    std::vector<std::string> vals;
    for (Symbol v : r->values) vals.push_back(Text(v));
    std::sort(vals.begin(), vals.end());
    const std::string& k = Text(r->key);
    std::string first = vals.empty() ? "" : vals[0];
    switch (r->op) {
      case SelectorOp::Equals:
        out += k + "=" + first;
        break;
      case SelectorOp::In:
        out += k + " in (" + Join(vals, ",") + ")";
        break;
      case SelectorOp::NotIn:
        out += k + " notin (" + Join(vals, ",") + ")";
        break;
      case SelectorOp::Exists:
        out += k;
        break;
      case SelectorOp::DoesNotExist:
        out += "!" + k;
        break;
      case SelectorOp::Gt:
        out += k + ">" + first;
        break;
      case SelectorOp::Lt:
        out += k + "<" + first;
        break;
    }
  }
  return out;
}

}  // namespace kplace
