#include "core/io/kwok_instance_types.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/io/scenario_parser.h"
#include "core/model/quantity.h"

namespace kplace::io {
namespace {

const char* const kZoneKey = "topology.kubernetes.io/zone";
const char* const kCapacityTypeKey = "karpenter.sh/capacity-type";

enum class QuantityFormat { DecimalSI, BinarySI, DecimalExponent };

// The format resource.ParseQuantity records: from the suffix after the number.
QuantityFormat FormatOf(std::string_view t) {
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.')) ++i;
  std::string_view suffix = t.substr(i);
  if (suffix.size() == 2 && suffix[1] == 'i') return QuantityFormat::BinarySI;
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) return QuantityFormat::DecimalExponent;
  return QuantityFormat::DecimalSI;
}

std::string Int128String(Int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string out;
  while (v != 0) {
    int digit = static_cast<int>(v % 10);
    out.push_back(static_cast<char>('0' + (digit < 0 ? -digit : digit)));
    v /= 10;
  }
  if (negative) out.push_back('-');
  std::reverse(out.begin(), out.end());
  return out;
}

// Go encoding/json field lookup: an exact key first, else the first key equal under case folding.
const Json* FindField(const Json& obj, const char* name) {
  if (auto it = obj.find(name); it != obj.end()) return it->is_null() ? nullptr : &*it;
  const std::string want(name);
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string& k = it.key();
    if (k.size() == want.size() && std::equal(k.begin(), k.end(), want.begin(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
        }))
      return it->is_null() ? nullptr : &*it;
  }
  return nullptr;
}

std::string QuantityText(const Json& v, const Reader& r) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return v.dump();
  r.Fail("expected string or number, got " + JsonTypeName(v));
}

// parseSizeFromType: the size of an AWS "family.size" name, else the cpu quantity.
std::string InstanceSize(const std::string& name, const std::string& cpu) {
  static const char* const kSizes[] = {"nano", "micro", "small", "medium", "large", "metal"};
  auto dot = name.find('.');
  if (dot == std::string::npos || dot == 0) return cpu;
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (!std::all_of(name.begin(), name.begin() + static_cast<std::ptrdiff_t>(dot), word)) return cpu;
  const std::string size = name.substr(dot + 1);
  for (const char* s : kSizes)
    if (size == s) return size;
  // \d*xlarge
  if (size.size() >= 6 && size.compare(size.size() - 6, 6, "xlarge") == 0 &&
      std::all_of(size.begin(), size.end() - 6, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return size;
  return cpu;
}

// parseFamilyFromType: the name before the first "." or "-", else its first character.
std::string InstanceFamily(const std::string& name) {
  if (name.empty()) return "";
  auto pos = name.find_first_of(".-");
  if (pos == std::string::npos) return name.substr(0, 1);
  return name.substr(0, pos);
}

std::vector<std::string> StringArray(const Json& v, const Reader& r) {
  r.ExpectArray(v);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(r.Index(i).AsString(v[i]));
  return out;
}

// kwok/examples/instance_types.json (the file kwok/README.md points to) still has the offering shape
// {capacityType, zone, price} of cloudprovider.Offering before kubernetes-sigs/karpenter a30f67aaf (May 2024). No
// release reads it: v0.37 decodes Offering.Requirements instead, and since v1.0.0 (kwok/cloudprovider/helpers.go
// KWOKOffering) offerings are {Price, Available, Requirements: []NodeSelectorRequirement}, with capacityType and
// zone unknown keys that encoding/json drops. Reading them would simulate a catalogue no kwok provider builds, so
// an offering in that shape is an error that shows it rewritten.
void RejectOlderOfferingShape(const Json& off, const Reader& o) {
  const Json* zone = FindField(off, "zone");
  const Json* capacity_type = FindField(off, "capacityType");
  if (!zone && !capacity_type) return;
  auto requirement = [](const char* key, const Json* v) {
    return Json{{"key", key}, {"operator", "In"}, {"values", Json::array({v ? *v : Json("...")})}};
  };
  const Json* price = FindField(off, "Price");
  const Json rewritten = {
      {"Price", price ? *price : Json(0)},
      {"Requirements", Json::array({requirement(kCapacityTypeKey, capacity_type), requirement(kZoneKey, zone)})}};
  o.Fail(
      "older kwok offering shape {capacityType, zone, price} (as in karpenter's kwok/examples/instance_types.json); "
      "expected {Price, Requirements}: the kwok provider reads offerings as {Price, Available, Requirements} "
      "since Karpenter v1.0.0 and ignores capacityType and zone. Write this offering as " +
      rewritten.dump());
}

Json ConvertOne(const Json& e, const Reader& r) {
  r.ExpectObject(e);
  const Json* name_v = FindField(e, "name");
  const std::string name = name_v ? r.Field("name").AsString(*name_v) : "";
  if (name.empty()) r.Field("name").Fail("required");

  // resources (a v1.ResourceList); pods defaults to 110.
  Json capacity = Json::object();
  std::string cpu, memory;
  if (const Json* res = FindField(e, "resources")) {
    Reader rr = r.Field("resources");
    rr.ExpectObject(*res);
    for (auto it = res->begin(); it != res->end(); ++it) {
      Reader q = rr.Key(it.key());
      const std::string text = QuantityText(*it, q);
      auto canonical = CanonicalQuantity(text);
      if (!canonical) q.Fail(GoQuote(text) + " is not a quantity");
      if (canonical->front() == '-') q.Fail("must be non-negative, got " + GoQuote(text));
      capacity[it.key()] = *canonical;
      if (it.key() == "cpu") cpu = *canonical;
      if (it.key() == "memory") memory = *canonical;
    }
  }
  if (!capacity.contains("pods")) capacity["pods"] = "110";

  std::string arch;
  if (const Json* a = FindField(e, "architecture")) arch = r.Field("architecture").AsString(*a);
  std::vector<std::string> oses;
  if (const Json* o = FindField(e, "operatingSystems")) oses = StringArray(*o, r.Field("operatingSystems"));

  Json labels = Json::object();
  labels["kubernetes.io/arch"] = arch;
  labels["karpenter.kwok.sh/instance-size"] = InstanceSize(name, cpu);
  labels["karpenter.kwok.sh/instance-family"] = InstanceFamily(name);
  labels["karpenter.kwok.sh/instance-cpu"] = cpu;
  labels["karpenter.kwok.sh/instance-memory"] = memory;
  Json requirements = Json::array();
  std::set<std::string> os_set(oses.begin(), oses.end());
  if (os_set.size() == 1) {
    labels["kubernetes.io/os"] = *os_set.begin();
  } else if (os_set.empty()) {
    requirements.push_back({{"key", "kubernetes.io/os"}, {"operator", "DoesNotExist"}});
  } else {
    requirements.push_back({{"key", "kubernetes.io/os"},
                            {"operator", "In"},
                            {"values", std::vector<std::string>(os_set.begin(), os_set.end())}});
  }

  Json offerings = Json::array();
  const Json* offs = FindField(e, "offerings");
  Reader ro = r.Field("offerings");
  if (offs) ro.ExpectArray(*offs);
  if (!offs || offs->empty()) ro.Fail("must have at least one offering");
  for (std::size_t i = 0; i < offs->size(); ++i) {
    Reader o = ro.Index(i);
    const Json& off = (*offs)[i];
    o.ExpectObject(off);
    if (!FindField(off, "Requirements")) RejectOlderOfferingShape(off, o);
    double price = 0;
    if (const Json* p = FindField(off, "Price")) {
      if (!p->is_number()) o.Field("Price").Fail("expected number, got " + JsonTypeName(*p));
      price = p->get<double>();
      if (price < 0) o.Field("Price").Fail("must be non-negative");
    }
    // Available is forced true on load; ReservationCapacity is not modelled. Both must still have their type.
    if (const Json* a = FindField(off, "Available"); a && !a->is_boolean())
      o.Field("Available").Fail("expected boolean, got " + JsonTypeName(*a));
    if (const Json* c = FindField(off, "ReservationCapacity"); c && !c->is_number_integer())
      o.Field("ReservationCapacity").Fail("expected integer, got " + JsonTypeName(*c));
    std::vector<std::string> zones, capacity_types;
    bool have_zone = false, have_ct = false;
    if (const Json* reqs = FindField(off, "Requirements")) {
      Reader rq = o.Field("Requirements");
      rq.ExpectArray(*reqs);
      for (std::size_t j = 0; j < reqs->size(); ++j) {
        Reader q = rq.Index(j);
        const Json& req = (*reqs)[j];
        q.ExpectObject(req);
        const Json* k = FindField(req, "key");
        const std::string key = k ? q.Field("key").AsString(*k) : "";
        const Json* op_v = FindField(req, "operator");
        const std::string op = op_v ? q.Field("operator").AsString(*op_v) : "";
        std::vector<std::string> values;
        if (const Json* v = FindField(req, "values")) values = StringArray(*v, q.Field("values"));
        if (key != kZoneKey && key != kCapacityTypeKey)
          q.Field("key").Fail(
              "unsupported offering requirement key " + GoQuote(key) +
              " (kplace offerings have a topology.kubernetes.io/zone and a karpenter.sh/capacity-type)");
        // lo.Find: the first requirement on the key decides.
        bool& seen = key == kZoneKey ? have_zone : have_ct;
        if (seen) continue;
        seen = true;
        if (op != "In") q.Field("operator").Fail("unsupported operator " + GoQuote(op) + " for " + key + " (In)");
        if (values.empty()) q.Field("values").Fail("In needs at least one value");
        if (key == kCapacityTypeKey)
          for (std::size_t v = 0; v < values.size(); ++v)
            if (values[v] != "on-demand" && values[v] != "spot" && values[v] != "reserved")
              q.Field("values").Index(v).Fail("unsupported capacity type " + GoQuote(values[v]) +
                                              " (on-demand, spot or reserved)");
        (key == kZoneKey ? zones : capacity_types) = std::move(values);
      }
    }
    if (!have_zone) o.Field("Requirements").Fail("needs a topology.kubernetes.io/zone In requirement");
    if (!have_ct) o.Field("Requirements").Fail("needs a karpenter.sh/capacity-type In requirement");
    for (const auto& z : zones)
      for (const auto& ct : capacity_types)
        offerings.push_back({{"zone", z}, {"capacityType", ct}, {"price", price}, {"available", true}});
  }

  Json spec = {{"capacity", capacity}, {"overhead", {{"cpu", "100m"}, {"memory", "10Mi"}}}};
  if (!requirements.empty()) spec["requirements"] = requirements;
  spec["offerings"] = offerings;
  return {{"apiVersion", "kplace.dev/v1alpha1"},
          {"kind", "InstanceType"},
          {"metadata", {{"name", name}, {"labels", labels}}},
          {"spec", spec}};
}

}  // namespace

std::optional<std::string> CanonicalQuantity(std::string_view text) {
  auto q = Quantity::Parse(text);
  if (!q) return std::nullopt;
  const Int128 n = q->Nanos();
  if (n == 0) return "0";
  QuantityFormat f = FormatOf(text);
  const Int128 kNano = 1'000'000'000;
  const Int128 magnitude = n < 0 ? -n : n;
  if (f == QuantityFormat::BinarySI) {
    // CanonicalizeBytes: below 1Ki, or not a whole number, it prints as DecimalSI.
    if (magnitude < 1024 * kNano || n % kNano != 0) {
      f = QuantityFormat::DecimalSI;
    } else {
      static const char* const kBinary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
      Int128 v = n / kNano;
      int e = 0;
      while (v % 1024 == 0 && e < 6) {
        v /= 1024;
        ++e;
      }
      return Int128String(v) + kBinary[e];
    }
  }
  // AsCanonicalBytes: drop factors of ten, then lower the exponent to a multiple of three.
  Int128 m = n;
  int exp = -9;
  while (m % 10 == 0) {
    m /= 10;
    ++exp;
  }
  while (((exp % 3) + 3) % 3 != 0) {
    m *= 10;
    --exp;
  }
  if (f == QuantityFormat::DecimalExponent) return Int128String(m) + (exp ? "e" + std::to_string(exp) : "");
  static const std::map<int, const char*> kDecimal = {{-9, "n"}, {-6, "u"}, {-3, "m"}, {0, ""},   {3, "k"},
                                                      {6, "M"},  {9, "G"},  {12, "T"}, {15, "P"}, {18, "E"}};
  auto it = kDecimal.find(exp);
  return Int128String(m) + (it == kDecimal.end() ? "" : it->second);
}

Json KwokInstanceTypesToItemsJson(std::string_view text) { return KwokDocumentToItemsJson(ParseJsonText(text)); }

Json KwokDocumentToItemsJson(const Json& doc) {
  if (!doc.is_array()) throw InputError("kwok instance types must be a JSON array, got " + JsonTypeName(doc));
  Json items = Json::array();
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    const Json& e = doc[i];
    std::string label = "[" + std::to_string(i) + "]";
    if (e.is_object())
      if (auto n = e.find("name"); n != e.end() && n->is_string()) label += " (" + n->get<std::string>() + ")";
    Reader r(label, "");
    Json item = ConvertOne(e, r);
    const std::string name = item["metadata"]["name"].get<std::string>();
    auto [it, inserted] = seen.emplace(name, i);
    if (!inserted)
      r.Field("name").Fail("duplicate instance type " + GoQuote(name) + " (also [" + std::to_string(it->second) + "])");
    items.push_back(std::move(item));
  }
  return items;
}

std::string KwokInstanceTypesToItems(std::string_view text) {
  return KwokInstanceTypesToItemsJson(text).dump(2) + "\n";
}

std::vector<InstanceType> ParseKwokInstanceTypes(std::string_view text) {
  Json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", KwokInstanceTypesToItemsJson(text)}};
  Scenario sc;
  try {
    sc = ParseScenarioJson(list);
  } catch (const InputError& e) {
    // A value the kwok shape allows but kplace's InstanceType does not (a label value, say): "[i] (...)".
    std::string msg = e.what();
    if (msg.rfind("items[", 0) == 0) msg = msg.substr(5);
    throw InputError(msg);
  }
  for (auto& it : sc.instance_types) it.item_index = -1;
  return std::move(sc.instance_types);
}

}  // namespace kplace::io
