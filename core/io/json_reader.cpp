#include "core/io/json_reader.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <set>

namespace kplace::io {

std::string JsonTypeName(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::object:
      return "object";
    case Json::value_t::array:
      return "array";
    case Json::value_t::string:
      return "string";
    case Json::value_t::boolean:
      return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "integer";
    case Json::value_t::number_float:
      return "number";
    default:
      return "value";
  }
}

namespace {
// Writes s quoted for a message: at most 80 characters, '"' and '\\' escaped, control characters as '?'.
template <typename Out>
void QuoteTo(std::string_view s, Out&& out) {
  out("\"");
  std::size_t n = 0;
  for (const char& c : s) {
    if (++n > 80) {
      out("...");
      break;
    }
    if (c == '"' || c == '\\') out("\\");
    out(static_cast<unsigned char>(c) < 0x20 ? std::string_view("?") : std::string_view(&c, 1));
  }
  out("\"");
}

std::string Quote(std::string_view s) {
  std::string out;
  QuoteTo(s, [&out](std::string_view part) { out += part; });
  return out;
}

bool PlainKey(std::string_view k) {
  if (k.empty()) return false;
  for (char c : k)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
  return true;
}
}  // namespace

// Out of line: a reader is made at hundreds of places (inlined, these were 14 KB of the page's gzip).
Reader::Path::Path(const Path& o) { Assign(o.view()); }

Reader::Path& Reader::Path::operator=(const Path& o) {
  if (this != &o) Assign(o.view());
  return *this;
}

void Reader::Path::Assign(std::string_view text) {
  heap_.clear();
  size_ = 0;
  Append(text);
}

void Reader::Path::Append(std::string_view text) {
  if (heap_.empty() && size_ + text.size() <= sizeof(inline_)) {
    text.copy(inline_ + size_, text.size());
    size_ += text.size();
    return;
  }
  if (heap_.empty()) heap_.assign(inline_, size_);
  heap_.append(text);
  size_ = heap_.size();
}

Reader Reader::Field(std::string_view name) const {
  Reader r(item_, path_);
  if (!path_.empty()) r.path_.Append(".");
  r.path_.Append(name);
  return r;
}

Reader Reader::Index(std::size_t i) const {
  Reader r(item_, path_);
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof(digits), i).ptr;
  r.path_.Append("[");
  r.path_.Append(std::string_view(digits, static_cast<std::size_t>(end - digits)));
  r.path_.Append("]");
  return r;
}

Reader Reader::Key(std::string_view key) const {
  if (PlainKey(key)) return Field(key);
  Reader r(item_, path_);
  r.path_.Append("[");
  QuoteTo(key, [&r](std::string_view part) { r.path_.Append(part); });
  r.path_.Append("]");
  return r;
}

void Reader::Fail(const std::string& what) const { FailInput(*item_, path(), what); }

const Json* FindMember(const Json& parent, const char* name) {
  return parent.is_object() ? parent.get_ref<const Json::object_t&>().FindName(name) : nullptr;
}

// The getters look names up with FindMember: neither a strlen per lookup nor per comparison (calls WebAssembly does
// not inline; an import once spent a tenth of its time measuring names).
const Json* Reader::Object(const Json& parent, const char* name) const {
  const Json* it = FindMember(parent, name);
  if (!it || it->is_null()) return nullptr;
  // The field's path (two strings built) only when it is needed, for the error: a getter runs per field read.
  if (!it->is_object()) Field(name).ExpectObject(*it);
  return it;
}

const Json* Reader::Array(const Json& parent, const char* name) const {
  const Json* it = FindMember(parent, name);
  if (!it || it->is_null()) return nullptr;
  if (!it->is_array()) Field(name).ExpectArray(*it);
  return it;
}

std::optional<std::string> Reader::String(const Json& parent, const char* name) const {
  const Json* it = FindMember(parent, name);
  if (!it || it->is_null()) return std::nullopt;
  if (!it->is_string()) (void)Field(name).AsString(*it);  // throws; the message is AsString's
  return it->get<std::string>();
}

std::optional<bool> Reader::Bool(const Json& parent, const char* name) const {
  const Json* it = FindMember(parent, name);
  if (!it || it->is_null()) return std::nullopt;
  if (!it->is_boolean()) Field(name).Fail("expected boolean, got " + JsonTypeName(*it));
  return it->get<bool>();
}

std::optional<std::int64_t> Reader::Int(const Json& parent, const char* name, std::int64_t min,
                                        std::int64_t max) const {
  const Json* it = FindMember(parent, name);
  if (!it || it->is_null()) return std::nullopt;
  auto out_of_range = [&] {
    Field(name).Fail("must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " + it->dump());
  };
  std::int64_t v = 0;
  // nlohmann's is_number_integer() is true for unsigned numbers too: test unsigned first.
  if (it->is_number_unsigned()) {
    auto u = it->get<std::uint64_t>();
    if (max < 0 || u > static_cast<std::uint64_t>(max)) out_of_range();
    v = static_cast<std::int64_t>(u);
  } else if (it->is_number_integer()) {
    v = it->get<std::int64_t>();
  } else if (it->is_number_float()) {
    double d = it->get<double>();
    if (d != std::floor(d)) Field(name).Fail("expected integer, got " + it->dump());
    // Compare as doubles before converting: the conversion of an out-of-range double is undefined.
    if (d < static_cast<double>(min) || d > static_cast<double>(max) || d >= 0x1p63) out_of_range();
    v = static_cast<std::int64_t>(d);
  } else {
    Field(name).Fail("expected integer, got " + JsonTypeName(*it));
  }
  if (v < min || v > max) out_of_range();
  return v;
}

std::optional<double> Reader::Number(const Json& parent, const char* name) const {
  const Json* it = FindMember(parent, name);
  if (!it || it->is_null()) return std::nullopt;
  if (!it->is_number()) Field(name).Fail("expected number, got " + JsonTypeName(*it));
  return it->get<double>();
}

void Reader::ExpectObject(const Json& v) const {
  if (!v.is_object()) Fail("expected object, got " + JsonTypeName(v));
}

void Reader::ExpectArray(const Json& v) const {
  if (!v.is_array()) Fail("expected array, got " + JsonTypeName(v));
}

std::string Reader::AsString(const Json& v) const {
  if (!v.is_string()) Fail("expected string, got " + JsonTypeName(v));
  return v.get<std::string>();
}

Quantity Reader::AsQuantity(const Json& v) const {
  std::string text;
  if (v.is_string()) {
    text = v.get<std::string>();
  } else if (v.is_number_integer() || v.is_number_unsigned()) {
    text = v.dump();
  } else if (v.is_number_float()) {
    text = v.dump();
  } else {
    Fail("expected quantity (string or number), got " + JsonTypeName(v));
  }
  auto q = Quantity::Parse(text);
  if (!q) Fail(Quote(text) + " is not a quantity");
  return *q;
}

void AddResource(Resource& r, const std::string& name, const Quantity& q) {
  if (name == "cpu")
    r.milli_cpu = q.MilliValue();
  else if (name == "memory")
    r.memory = q.Value();
  else if (name == "ephemeral-storage")
    r.ephemeral_storage = q.Value();
  else if (name == "pods")
    r.allowed_pod_number = q.Value();
  else
    r.SetScalar(Intern(name), q.Value());
}

Resource Reader::AsResourceList(const Json& v, std::vector<std::string>* names) const {
  ExpectObject(v);
  Resource r;
  for (auto it = v.begin(); it != v.end(); ++it) {
    Reader at = Key(it.key());
    if (it.key().empty()) at.Fail("empty resource name");
    Quantity q = at.AsQuantity(*it);
    if (q.IsNegative()) at.Fail("must be greater than or equal to 0");
    AddResource(r, it.key(), q);
    if (names) names->push_back(it.key());
  }
  return r;
}

Labels Reader::AsLabels(const Json& v) const {
  ExpectObject(v);
  Labels labels;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!it->is_string()) (void)Key(it.key()).AsString(*it);  // throws: names the label
    labels.Set(Intern(it.key()), Intern(it->get_ref<const std::string&>()));
  }
  return labels;
}

namespace {
std::vector<std::string> StringList(const Reader& r, const Json& parent, const char* name, bool* nil = nullptr) {
  std::vector<std::string> out;
  const Json* a = r.Array(parent, name);
  if (nil) *nil = a == nullptr;
  if (a)
    for (std::size_t i = 0; i < a->size(); ++i) out.push_back(r.Field(name).Index(i).AsString((*a)[i]));
  return out;
}

std::string Indexed(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }
std::string Child(const std::string& path, const char* name) { return path.empty() ? name : path + "." + name; }

// One v1.NodeSelectorRequirement (component-helpers nodeaffinity.go nodeSelectorRequirementsAsSelector /
// ...AsFieldSelector). JSON type errors raise; validation failures are appended to errors with field paths under
// path. Returns nullopt for an unsupported operator.
std::optional<LabelRequirement> ParseNodeRequirement(const Reader& r, const Json& e, bool field,
                                                     const std::string& path, std::vector<FieldError>& errors) {
  r.ExpectObject(e);
  std::string key = r.String(e, "key").value_or("");
  std::string op = r.String(e, "operator").value_or("");
  bool values_nil = false;
  std::vector<std::string> values = StringList(r, e, "values", &values_nil);
  if (field) {
    // Field selectors: In / NotIn with exactly one value; keys are not validated.
    if (op != "In" && op != "NotIn") {
      errors.push_back(
          {"Unsupported value", Child(path, "operator"), GoQuote(op), "supported values: \"In\", \"NotIn\""});
      return std::nullopt;
    }
    LabelRequirement req{Intern(key), op == "In" ? SelectorOp::In : SelectorOp::NotIn, {}, 0};
    for (const auto& v : values) req.values.push_back(Intern(v));
    if (values.size() != 1) {
      std::string list = values_nil ? "[]string(nil)" : "[]string{";
      if (!values_nil) {
        for (std::size_t i = 0; i < values.size(); ++i) list += (i ? ", " : "") + GoQuote(values[i]);
        list += "}";
      }
      errors.push_back({"Invalid value", Child(path, "values"), list, "must have one element"});
    }
    return req;
  }
  static const std::pair<const char*, SelectorOp> kOps[] = {
      {"In", SelectorOp::In},         {"NotIn", SelectorOp::NotIn},
      {"Exists", SelectorOp::Exists}, {"DoesNotExist", SelectorOp::DoesNotExist},
      {"Gt", SelectorOp::Gt},         {"Lt", SelectorOp::Lt}};
  for (const auto& [name, sop] : kOps)
    if (op == name) return NewRequirement(key, sop, values, path, errors, values_nil);
  errors.push_back({"Unsupported value", Child(path, "operator"), GoQuote(op),
                    "supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\""});
  return std::nullopt;
}
}  // namespace

LabelSelector Reader::AsLabelSelector(const Json& v) const {
  // metav1.LabelSelectorAsSelector (apimachinery/pkg/apis/meta/v1/helpers.go): null -> Nothing, {} -> Everything,
  // any invalid requirement is an error.
  LabelSelector sel;
  if (v.is_null()) return sel;
  ExpectObject(v);
  sel.nil = false;
  std::vector<FieldError> errors;
  if (const Json* ml = Object(v, "matchLabels")) {
    Reader at = Field("matchLabels");
    for (auto it = ml->begin(); it != ml->end(); ++it) {
      std::string value = at.Key(it.key()).AsString(*it);
      sel.requirements.push_back(NewRequirement(it.key(), SelectorOp::Equals, {value}, "", errors));
      if (!errors.empty()) at.Key(it.key()).Fail(AggregateError(errors));
    }
  }
  if (const Json* me = Array(v, "matchExpressions")) {
    for (std::size_t i = 0; i < me->size(); ++i) {
      Reader at = Field("matchExpressions").Index(i);
      const Json& e = (*me)[i];
      at.ExpectObject(e);
      std::string key = at.String(e, "key").value_or("");
      std::string op = at.String(e, "operator").value_or("");
      bool values_nil = false;
      std::vector<std::string> values = StringList(at, e, "values", &values_nil);
      SelectorOp sop = SelectorOp::In;
      if (op == "In")
        sop = SelectorOp::In;
      else if (op == "NotIn")
        sop = SelectorOp::NotIn;
      else if (op == "Exists")
        sop = SelectorOp::Exists;
      else if (op == "DoesNotExist")
        sop = SelectorOp::DoesNotExist;
      else
        at.Field("operator").Fail(Quote(op) + " is not a valid label selector operator");
      sel.requirements.push_back(NewRequirement(key, sop, values, "", errors, values_nil));
      if (!errors.empty()) at.Fail(AggregateError(errors));
    }
  }
  return sel;
}

LabelRequirement Reader::AsNodeSelectorRequirement(const Json& e, bool field) const {
  std::vector<FieldError> errors;
  auto req = ParseNodeRequirement(*this, e, field, "", errors);
  if (!errors.empty()) Fail(AggregateError(errors));
  return *req;
}

NodeSelectorTerm Reader::AsNodeSelectorTerm(const Json& v, bool lazy) const {
  // newNodeSelectorTerm (component-helpers nodeaffinity.go): errors of all requirements are collected.
  ExpectObject(v);
  NodeSelectorTerm term;
  for (bool field : {false, true}) {
    const char* name = field ? "matchFields" : "matchExpressions";
    const Json* list = Array(v, name);
    if (!list) continue;
    for (std::size_t i = 0; i < list->size(); ++i) {
      auto req = ParseNodeRequirement(Field(name).Index(i), (*list)[i], field, Indexed(name, i), term.errors);
      if (req) (field ? term.match_fields : term.match_expressions).push_back(std::move(*req));
    }
  }
  if (!lazy && !term.errors.empty()) Fail(AggregateError(term.errors));
  return term;
}

}  // namespace kplace::io
