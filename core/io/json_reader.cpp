#include "core/io/json_reader.h"

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
std::string Quote(const std::string& s) {
  std::string out = "\"";
  std::size_t n = 0;
  for (char c : s) {
    if (++n > 80) {
      out += "...";
      break;
    }
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += '?';
      continue;
    }
    out += c;
  }
  return out + "\"";
}

bool PlainKey(const std::string& k) {
  if (k.empty()) return false;
  for (char c : k)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
  return true;
}
}  // namespace

Reader Reader::Key(const std::string& key) const {
  if (PlainKey(key)) return Field(key);
  return Reader(item_, path_ + "[" + Quote(key) + "]");
}

void Reader::Fail(const std::string& what) const {
  std::string msg = item_;
  if (!path_.empty()) msg += (msg.empty() ? "" : ": ") + path_;
  throw InputError(msg + ": " + what);
}

const Json* Reader::Object(const Json& parent, const char* name) const {
  auto it = parent.find(name);
  if (it == parent.end() || it->is_null()) return nullptr;
  Field(name).ExpectObject(*it);
  return &*it;
}

const Json* Reader::Array(const Json& parent, const char* name) const {
  auto it = parent.find(name);
  if (it == parent.end() || it->is_null()) return nullptr;
  Field(name).ExpectArray(*it);
  return &*it;
}

std::optional<std::string> Reader::String(const Json& parent, const char* name) const {
  auto it = parent.find(name);
  if (it == parent.end() || it->is_null()) return std::nullopt;
  return Field(name).AsString(*it);
}

std::optional<bool> Reader::Bool(const Json& parent, const char* name) const {
  auto it = parent.find(name);
  if (it == parent.end() || it->is_null()) return std::nullopt;
  if (!it->is_boolean()) Field(name).Fail("expected boolean, got " + JsonTypeName(*it));
  return it->get<bool>();
}

std::optional<std::int64_t> Reader::Int(const Json& parent, const char* name, std::int64_t min,
                                        std::int64_t max) const {
  auto it = parent.find(name);
  if (it == parent.end() || it->is_null()) return std::nullopt;
  Reader r = Field(name);
  std::int64_t v = 0;
  if (it->is_number_integer()) {
    v = it->get<std::int64_t>();
  } else if (it->is_number_unsigned()) {
    auto u = it->get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) r.Fail("integer out of range");
    v = static_cast<std::int64_t>(u);
  } else if (it->is_number_float()) {
    double d = it->get<double>();
    if (d != static_cast<double>(static_cast<std::int64_t>(d))) r.Fail("expected integer, got " + it->dump());
    v = static_cast<std::int64_t>(d);
  } else {
    r.Fail("expected integer, got " + JsonTypeName(*it));
  }
  if (v < min || v > max)
    r.Fail("must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " + std::to_string(v));
  return v;
}

std::optional<double> Reader::Number(const Json& parent, const char* name) const {
  auto it = parent.find(name);
  if (it == parent.end() || it->is_null()) return std::nullopt;
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

Labels Reader::AsLabels(const Json& v, std::map<std::string, std::string>* text) const {
  ExpectObject(v);
  Labels labels;
  for (auto it = v.begin(); it != v.end(); ++it) {
    Reader at = Key(it.key());
    std::string value = at.AsString(*it);
    labels.Set(Intern(it.key()), Intern(value));
    if (text) (*text)[it.key()] = value;
  }
  return labels;
}

namespace {
SelectorOp ParseOp(const Reader& r, const std::string& op, bool allow_numeric) {
  if (op == "In") return SelectorOp::In;
  if (op == "NotIn") return SelectorOp::NotIn;
  if (op == "Exists") return SelectorOp::Exists;
  if (op == "DoesNotExist") return SelectorOp::DoesNotExist;
  if (allow_numeric && op == "Gt") return SelectorOp::Gt;
  if (allow_numeric && op == "Lt") return SelectorOp::Lt;
  r.Fail("unsupported operator " + Quote(op));
}

std::vector<std::string> StringList(const Reader& r, const Json& parent, const char* name) {
  std::vector<std::string> out;
  if (const Json* a = r.Array(parent, name)) {
    for (std::size_t i = 0; i < a->size(); ++i) out.push_back(r.Field(name).Index(i).AsString((*a)[i]));
  }
  return out;
}
}  // namespace

LabelSelector Reader::AsLabelSelector(const Json& v) const {
  LabelSelector sel;
  if (v.is_null()) return sel;
  ExpectObject(v);
  sel.nil = false;
  if (const Json* ml = Object(v, "matchLabels")) {
    Labels l = Field("matchLabels").AsLabels(*ml);
    for (auto [k, val] : l.entries()) sel.requirements.push_back({k, SelectorOp::In, {val}, 0});
  }
  if (const Json* me = Array(v, "matchExpressions")) {
    for (std::size_t i = 0; i < me->size(); ++i) {
      Reader at = Field("matchExpressions").Index(i);
      const Json& e = (*me)[i];
      at.ExpectObject(e);
      LabelRequirement req;
      auto key = at.String(e, "key");
      if (!key || key->empty()) at.Field("key").Fail("required");
      req.key = Intern(*key);
      auto op = at.String(e, "operator");
      if (!op) at.Field("operator").Fail("required");
      req.op = ParseOp(at.Field("operator"), *op, false);
      auto values = StringList(at, e, "values");
      bool needs_values = req.op == SelectorOp::In || req.op == SelectorOp::NotIn;
      if (needs_values && values.empty())
        at.Field("values").Fail("must be specified when `operator` is 'In' or 'NotIn'");
      if (!needs_values && !values.empty())
        at.Field("values").Fail("may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
      for (const auto& s : values) req.values.push_back(Intern(s));
      sel.requirements.push_back(std::move(req));
    }
  }
  return sel;
}

LabelRequirement Reader::AsNodeSelectorRequirement(const Json& e, bool field) const {
  ExpectObject(e);
  LabelRequirement req;
  auto key = String(e, "key");
  if (!key || key->empty()) Field("key").Fail("required");
  if (field && *key != "metadata.name") Field("key").Fail("not a valid field selector key: " + Quote(*key));
  req.key = Intern(*key);
  auto op = String(e, "operator");
  if (!op) Field("operator").Fail("required");
  req.op = ParseOp(Field("operator"), *op, !field);
  if (field && req.op != SelectorOp::In && req.op != SelectorOp::NotIn)
    Field("operator").Fail("not a valid selector operator for a field: " + Quote(*op));
  auto values = StringList(*this, e, "values");
  switch (req.op) {
    case SelectorOp::In:
    case SelectorOp::NotIn:
      if (values.empty()) Field("values").Fail("must be specified when `operator` is 'In' or 'NotIn'");
      if (field && values.size() != 1)
        Field("values").Fail("must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
      break;
    case SelectorOp::Exists:
    case SelectorOp::DoesNotExist:
      if (!values.empty()) Field("values").Fail("may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
      break;
    case SelectorOp::Gt:
    case SelectorOp::Lt: {
      if (values.size() != 1) Field("values").Fail("must be specified single value when `operator` is 'Lt' or 'Gt'");
      std::size_t pos = 0;
      try {
        req.number = std::stoll(values[0], &pos);
      } catch (...) {
        pos = 0;
      }
      if (pos == 0 || pos != values[0].size()) Field("values").Index(0).Fail("must be an integer: " + Quote(values[0]));
      break;
    }
  }
  for (const auto& s : values) req.values.push_back(Intern(s));
  return req;
}

NodeSelectorTerm Reader::AsNodeSelectorTerm(const Json& v) const {
  ExpectObject(v);
  NodeSelectorTerm term;
  if (const Json* me = Array(v, "matchExpressions"))
    for (std::size_t i = 0; i < me->size(); ++i)
      term.match_expressions.push_back(Field("matchExpressions").Index(i).AsNodeSelectorRequirement((*me)[i], false));
  if (const Json* mf = Array(v, "matchFields"))
    for (std::size_t i = 0; i < mf->size(); ++i)
      term.match_fields.push_back(Field("matchFields").Index(i).AsNodeSelectorRequirement((*mf)[i], true));
  return term;
}

}  // namespace kplace::io
