// Runs the Format K tables under tests/data/karpenter (ported from kubernetes-sigs/karpenter's scheduling and
// provisioning suites; see /work/notes/karpenter/format.md): each case is a scenario in karpenter mode whose
// expected placements, failure messages, relaxations and NodeClaims are compared. One test per case.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/io/scenario_parser.h"
#include "core/karpenter/resources.h"
#include "core/model/quantity.h"
#include "core/sim/simulation.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using io::Json;
using karpenter::ClaimOutcome;
using karpenter::PodOutcome;
using karpenter::PodOutcomeKind;

const Json& Catalogues() {
  static const Json j = testing::LoadJson(testing::DataPath("karpenter-catalogues/catalogues.json"));
  return j;
}

// metadata.labels plus zone / capacity type when every available offering shares one value.
std::map<std::string, std::string> EffectiveLabels(const Json& it) {
  std::map<std::string, std::string> labels;
  if (it["metadata"].contains("labels"))
    for (const auto& [k, v] : it["metadata"]["labels"].items()) labels[k] = v.get<std::string>();
  std::set<std::string> zones, cts;
  for (const auto& o : it["spec"]["offerings"]) {
    if (!o.value("available", true)) continue;
    zones.insert(o.value("zone", ""));
    cts.insert(o.value("capacityType", "on-demand"));
  }
  if (zones.size() == 1) labels["topology.kubernetes.io/zone"] = *zones.begin();
  if (cts.size() == 1) labels["karpenter.sh/capacity-type"] = *cts.begin();
  return labels;
}

Json ScenarioOf(const Json& c) {
  Json items = Json::array();
  if (c.contains("catalogue") && !c["catalogue"].is_null()) {
    const Json& drop =
        c.contains("catalogueFilter") ? c["catalogueFilter"].value("dropIfLabels", Json::object()) : Json::object();
    for (const auto& it : Catalogues()["catalogues"][c["catalogue"].get<std::string>()]["items"]) {
      if (!drop.empty()) {
        auto labels = EffectiveLabels(it);
        bool all = true;
        for (const auto& [k, v] : drop.items()) all = all && labels.count(k) && labels[k] == v.get<std::string>();
        if (all) continue;
      }
      items.push_back(it);
    }
  }
  for (const auto& it : c["items"]) items.push_back(it);
  return {{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}};
}

bool QuantityEquals(const Resource& got, const Json& want) {
  Resource w;
  for (const auto& [k, v] : want.items()) {
    auto q = Quantity::Parse(v.get<std::string>());
    if (!q) return false;
    if (k == "cpu")
      w.milli_cpu = q->MilliValue();
    else if (k == "memory")
      w.memory = q->Value();
    else if (k == "ephemeral-storage")
      w.ephemeral_storage = q->Value();
    else if (k == "pods")
      w.allowed_pod_number = q->Value();
    else
      w.SetScalar(Intern(k), q->Value());
  }
  return karpenter::Equal(got, w);
}

void CheckClaim(const ClaimOutcome& c, const Json& want,
                const std::vector<std::map<std::string, std::string>>& opt_labels, const std::string& label) {
  SCOPED_TRACE("claim " + label + " = " + c.name);
  if (want.contains("nodePool")) {
    EXPECT_EQ(c.node_pool, want["nodePool"].get<std::string>());
  }
  if (want.contains("instanceType")) {
    EXPECT_EQ(c.instance_type, want["instanceType"].get<std::string>());
  }
  if (want.contains("options")) {
    std::vector<std::string> got;
    for (const auto& o : c.options) got.push_back(Text(o.instance_type));
    EXPECT_EQ(Json(got).dump(), want["options"].dump());
  }
  if (want.contains("zone")) {
    EXPECT_EQ(c.zone, want["zone"].get<std::string>());
  }
  if (want.contains("capacityType")) {
    EXPECT_EQ(c.capacity_type, want["capacityType"].get<std::string>());
  }
  if (want.contains("price")) {
    EXPECT_NEAR(c.price, want["price"].get<double>(), 1e-9);
  }
  if (want.contains("zoneIn")) {
    auto zones = want["zoneIn"].get<std::vector<std::string>>();
    EXPECT_TRUE(std::find(zones.begin(), zones.end(), c.zone) != zones.end()) << c.zone;
  }
  if (want.contains("labels")) {
    for (const auto& [k, v] : want["labels"].items()) {
      auto it = c.labels.find(k);
      EXPECT_TRUE(it != c.labels.end() && it->second == v.get<std::string>()) << "label " << k;
    }
  }
  if (want.contains("labelsPresent")) {
    for (const auto& k : want["labelsPresent"]) EXPECT_TRUE(c.labels.count(k.get<std::string>())) << k;
  }
  if (want.contains("labelsAbsent")) {
    for (const auto& k : want["labelsAbsent"]) EXPECT_FALSE(c.labels.count(k.get<std::string>())) << k;
  }
  if (want.contains("labelsNot")) {
    for (const auto& [k, v] : want["labelsNot"].items()) {
      auto it = c.labels.find(k);
      EXPECT_TRUE(it == c.labels.end() || it->second != v.get<std::string>()) << "label " << k;
    }
  }
  if (want.contains("taints")) {
    Json got = Json::array();
    for (const auto& t : c.taints) {
      Json tj = {{"key", Text(t.key)}, {"effect", EffectName(t.effect)}};
      if (t.value != kEmptySymbol) tj["value"] = Text(t.value);
      got.push_back(tj);
    }
    Json w = want["taints"];
    EXPECT_EQ(got, w);
  }
  if (want.contains("requests")) {
    EXPECT_TRUE(QuantityEquals(c.requests, want["requests"])) << karpenter::ResourcesJson(c.requests);
  }
  if (want.contains("requirementsInclude")) {
    for (const auto& r : want["requirementsInclude"])
      EXPECT_TRUE(std::find(c.requirements.begin(), c.requirements.end(), r.get<std::string>()) != c.requirements.end())
          << r;
  }
  if (want.contains("requirementsExcludeKeys")) {
    for (const auto& k : want["requirementsExcludeKeys"])
      for (const auto& r : c.requirements) EXPECT_NE(r.rfind(k.get<std::string>() + " ", 0), 0u) << r;
  }
  for (const char* field : {"optionsAllLabels", "optionsAllOffering"}) {
    if (!want.contains(field)) continue;
    for (std::size_t i = 0; i < c.options.size(); ++i)
      for (const auto& [k, v] : want[field].items()) {
        std::string key = k == "zone"           ? "topology.kubernetes.io/zone"
                          : k == "capacityType" ? "karpenter.sh/capacity-type"
                                                : k;
        std::string got = opt_labels[i].count(key) ? opt_labels[i].at(key) : "";
        EXPECT_TRUE(got == v.get<std::string>() || got.find("|" + v.get<std::string>() + "|") != std::string::npos)
            << field << " " << Text(c.options[i].instance_type) << " " << key;
      }
  }
  if (want.contains("podCount")) {
    EXPECT_EQ(c.pods.size(), want["podCount"].get<std::size_t>());
  }
}

// ExpectSkew: group the matching pods that are bound or placed by the value of key on their node or claim.
void CheckSkew(const Json& list, const karpenter::Result& k, const Json& skew) {
  std::map<std::string, std::map<std::string, std::string>> node_labels;
  std::map<std::string, const Json*> pods;
  for (const auto& it : list["items"]) {
    if (it["kind"] == "Node") {
      auto& l = node_labels[it["metadata"]["name"].get<std::string>()];
      if (it["metadata"].contains("labels"))
        for (const auto& [key, v] : it["metadata"]["labels"].items()) l[key] = v.get<std::string>();
    }
    if (it["kind"] == "Pod")
      pods[it["metadata"].value("namespace", "default") + "/" + it["metadata"]["name"].get<std::string>()] = &it;
  }
  for (const auto& want : skew) {
    const std::string key = want["key"].get<std::string>();
    std::map<std::string, int> counts;
    for (const auto& o : k.pods) {
      auto pit = pods.find(o.key);
      if (pit == pods.end()) continue;
      const Json& pod = *pit->second;
      std::string phase = pod.contains("status") ? pod["status"].value("phase", "") : "";
      if (phase == "Succeeded" || phase == "Failed") continue;
      if (!want["namespace"].is_null() && pod["metadata"].value("namespace", "default") != want["namespace"]) continue;
      const Json& sel = want["selector"];
      if (!sel.is_null()) {
        std::map<std::string, std::string> labels;
        if (pod["metadata"].contains("labels"))
          for (const auto& [lk, lv] : pod["metadata"]["labels"].items()) labels[lk] = lv.get<std::string>();
        bool match = true;
        if (sel.contains("matchLabels"))
          for (const auto& [lk, lv] : sel["matchLabels"].items())
            match = match && labels.count(lk) && labels[lk] == lv.get<std::string>();
        if (sel.contains("matchExpressions"))
          for (const auto& e : sel["matchExpressions"]) {
            const std::string ek = e["key"].get<std::string>(), op = e["operator"].get<std::string>();
            std::vector<std::string> vals = e.value("values", std::vector<std::string>{});
            bool has = labels.count(ek) > 0;
            bool in = has && std::find(vals.begin(), vals.end(), labels[ek]) != vals.end();
            if (op == "In") match = match && in;
            if (op == "NotIn") match = match && !in;
            if (op == "Exists") match = match && has;
            if (op == "DoesNotExist") match = match && !has;
          }
        if (!match) continue;
      }
      std::string domain;
      std::string node = pod["spec"].value("nodeName", "");
      if (o.kind == PodOutcomeKind::Node) node = o.node;
      if (!node.empty()) {
        auto& l = node_labels[node];
        if (l.count(key))
          domain = l[key];
        else if (key == "kubernetes.io/hostname")
          domain = node;
        else
          continue;
      } else if (o.kind == PodOutcomeKind::Claim) {
        const ClaimOutcome& c = k.claims[static_cast<std::size_t>(o.claim)];
        if (key == "kubernetes.io/hostname")
          domain = "claim/" + c.name;
        else if (c.labels.count(key))
          domain = c.labels.at(key);
        else
          continue;
      } else {
        continue;
      }
      ++counts[domain];
    }
    std::vector<int> got;
    for (const auto& [d, n] : counts) got.push_back(n);
    std::vector<int> w = want["counts"].get<std::vector<int>>();
    std::sort(got.begin(), got.end());
    std::sort(w.begin(), w.end());
    EXPECT_EQ(Json(got).dump(), Json(w).dump()) << "skew on " << key;
  }
}

// Labels (and "|zone|ct|" lists of available offerings when not single-valued) of an InstanceType item.
std::map<std::string, std::string> OptionLabels(const Json& it) {
  auto labels = EffectiveLabels(it);
  std::string zones = "|", cts = "|";
  for (const auto& o : it["spec"]["offerings"])
    if (o.value("available", true)) {
      zones += o.value("zone", "") + "|";
      cts += o.value("capacityType", "on-demand") + "|";
    }
  if (!labels.count("topology.kubernetes.io/zone")) labels["topology.kubernetes.io/zone"] = zones;
  if (!labels.count("karpenter.sh/capacity-type")) labels["karpenter.sh/capacity-type"] = cts;
  return labels;
}

// A catalogue (after the case's filter), parsed once: its InstanceTypes and their option labels.
struct ParsedCatalogue {
  std::vector<InstanceType> types;
  std::map<std::string, std::map<std::string, std::string>> labels;
};

const ParsedCatalogue& CatalogueFor(const Json& c) {
  static std::map<std::string, ParsedCatalogue> cache;
  std::string key = c.contains("catalogue") && !c["catalogue"].is_null() ? c["catalogue"].get<std::string>() : "";
  if (c.contains("catalogueFilter")) key += "|" + c["catalogueFilter"].dump();
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  Json only = c;
  only["items"] = Json::array();
  Json list = ScenarioOf(only);
  ParsedCatalogue p;
  p.types = io::ParseScenarioJson(list).instance_types;
  for (const auto& item : list["items"]) p.labels[item["metadata"]["name"].get<std::string>()] = OptionLabels(item);
  return cache.emplace(key, std::move(p)).first->second;
}

void RunCase(const Json& c) {
  // The case's own items are parsed per case, the catalogue once; its InstanceTypes come first (catalogue order).
  const ParsedCatalogue& cat = CatalogueFor(c);
  Json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", c["items"]}};
  Scenario sc = io::ParseScenarioJson(list);
  sc.instance_types.insert(sc.instance_types.begin(), cat.types.begin(), cat.types.end());
  sim::SimResult result = sim::Run(std::move(sc));
  ASSERT_TRUE(result.karpenter.has_value());
  const karpenter::Result& k = *result.karpenter;
  std::map<std::string, const PodOutcome*> by_key;
  for (const auto& p : k.pods) by_key[p.key] = &p;
  std::map<std::string, std::map<std::string, std::string>> type_labels = cat.labels;
  for (const auto& it : list["items"])
    if (it["kind"] == "InstanceType") type_labels[it["metadata"]["name"].get<std::string>()] = OptionLabels(it);
  auto options_labels = [&](const ClaimOutcome& cl) {
    std::vector<std::map<std::string, std::string>> out;
    for (const auto& o : cl.options) out.push_back(type_labels[Text(o.instance_type)]);
    return out;
  };
  const Json& expect = c.at("expect");
  std::map<std::string, int> label_to_claim;
  std::map<int, std::string> claim_to_label;
  if (expect.contains("pods")) {
    for (const auto& [key, want] : expect["pods"].items()) {
      SCOPED_TRACE("pod " + key);
      ASSERT_TRUE(by_key.count(key)) << "no pod " << key;
      const PodOutcome& o = *by_key[key];
      if (want.contains("claim")) {
        ASSERT_EQ(o.kind, PodOutcomeKind::Claim) << o.reason << o.node;
        const std::string label = want["claim"].get<std::string>();
        auto [it, inserted] = label_to_claim.emplace(label, o.claim);
        EXPECT_EQ(it->second, o.claim) << "claim label " << label << " maps to two claims";
        auto [it2, inserted2] = claim_to_label.emplace(o.claim, label);
        EXPECT_EQ(it2->second, label) << "claim shared by labels";
      } else if (want.contains("node")) {
        EXPECT_EQ(o.kind, PodOutcomeKind::Node) << o.reason;
        EXPECT_EQ(o.node, want["node"].get<std::string>());
      } else if (want.contains("scheduled")) {
        EXPECT_TRUE(o.kind == PodOutcomeKind::Node || o.kind == PodOutcomeKind::Claim) << o.reason;
      } else if (want.contains("unschedulable")) {
        EXPECT_EQ(o.kind, PodOutcomeKind::Unschedulable) << o.node;
        const Json& u = want["unschedulable"];
        if (u.is_string()) {
          EXPECT_EQ(o.reason, u.get<std::string>());
        }
        if (u.is_object()) {
          EXPECT_NE(o.reason.find(u["contains"].get<std::string>()), std::string::npos) << o.reason;
        }
      } else if (want.contains("ignored")) {
        // Not simulated: rejected by Validate, or filtered out as not provisionable (DaemonSet-owned, ...).
        EXPECT_TRUE(o.kind == PodOutcomeKind::Ignored ||
                    (o.kind == PodOutcomeKind::NotProvisionable && !o.reason.empty()))
            << o.reason;
        if (want["ignored"].is_string()) {
          EXPECT_EQ(o.reason, want["ignored"].get<std::string>());
        }
      }
      if (want.contains("relaxations")) {
        EXPECT_EQ(Json(o.relaxations).dump(1), want["relaxations"].dump(1));
      }
    }
  }
  if (expect.contains("nodeClaims"))
    for (const auto& [label, want] : expect["nodeClaims"].items()) {
      auto it = label_to_claim.find(label);
      // A label no pod names is the only claim when the run made exactly one.
      if (it == label_to_claim.end() && k.claims.size() == 1) it = label_to_claim.emplace(label, 0).first;
      ASSERT_TRUE(it != label_to_claim.end()) << "no pod names claim " << label;
      const ClaimOutcome& cl = k.claims[static_cast<std::size_t>(it->second)];
      CheckClaim(cl, want, options_labels(cl), label);
    }
  if (expect.contains("allClaims"))
    for (const auto& cl : k.claims) CheckClaim(cl, expect["allClaims"], options_labels(cl), "*");
  if (expect.contains("nodeClaimCount")) {
    EXPECT_EQ(k.claims.size(), expect["nodeClaimCount"].get<std::size_t>());
  }
  if (expect.contains("skew")) CheckSkew(list, k, expect["skew"]);
  if (expect.contains("counts")) {
    std::size_t scheduled = 0, unschedulable = 0;
    for (const auto& p : k.pods) {
      scheduled += p.kind == PodOutcomeKind::Node || p.kind == PodOutcomeKind::Claim;
      unschedulable += p.kind == PodOutcomeKind::Unschedulable;
    }
    const Json& w = expect["counts"];
    if (w.contains("scheduled")) {
      EXPECT_EQ(scheduled, w["scheduled"].get<std::size_t>());
    }
    if (w.contains("unschedulable")) {
      EXPECT_EQ(unschedulable, w["unschedulable"].get<std::size_t>());
    }
  }
}

class KarpenterTable : public ::testing::TestWithParam<testing::TableCase> {};

TEST_P(KarpenterTable, Case) { testing::RunTableCase(GetParam(), RunCase); }

INSTANTIATE_TEST_SUITE_P(KarpenterTables, KarpenterTable, ::testing::ValuesIn(testing::ListTableCases("karpenter")),
                         testing::TableCaseParamName);

}  // namespace
}  // namespace kplace
