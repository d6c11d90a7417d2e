// Runs tests/data/model/toleration.json and untolerated_taint.json through Toleration::Tolerates and
// FindUntoleratedTaint, with tolerations and taints read by the scenario parser (io::ParsePod / io::ParseNode).
// The tables' gatedCases need the alpha TaintTolerationComparisonOperators gate; kplace models it as off, so
// they are checked against the gate-off behaviour instead: a Gt/Lt toleration tolerates nothing.
#include "core/model/taint.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/io/scenario_parser.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using io::Json;

std::vector<Toleration> ParseTolerations(const Json& tolerations) {
  Json pod = {{"metadata", {{"name", "p"}}}, {"spec", {{"tolerations", tolerations}}}};
  return io::ParsePod(pod, io::Reader("pod", "")).tolerations;
}

std::vector<Taint> ParseTaints(const Json& taints) {
  Json node = {{"metadata", {{"name", "n"}}}, {"spec", {{"taints", taints}}}};
  return io::ParseNode(node, io::Reader("node", "")).taints;
}

TaintEffect Effect(const std::string& name) {
  for (TaintEffect e : {TaintEffect::NoSchedule, TaintEffect::PreferNoSchedule, TaintEffect::NoExecute})
    if (name == EffectName(e)) return e;
  ADD_FAILURE() << "unknown effect " << name;
  return TaintEffect::None;
}

// The result of FindUntoleratedTaint for a case's "effects" (null = no filter, every taint applies).
const Taint* FindFor(const Json& c, const std::vector<Taint>& taints, const std::vector<Toleration>& tolerations) {
  const Json& effects = c.at("effects");
  std::vector<TaintEffect> keep;
  if (!effects.is_null())
    for (const auto& e : effects) keep.push_back(Effect(e.get<std::string>()));
  return FindUntoleratedTaint(taints, tolerations, [&](const Taint& t) {
    return effects.is_null() || std::find(keep.begin(), keep.end(), t.effect) != keep.end();
  });
}

bool IsComparison(const Toleration& t) { return t.op == TolerationOp::Gt || t.op == TolerationOp::Lt; }

TEST(TolerationTable, ToleratesTaint) {
  Json table = testing::LoadJson(testing::DataPath("model/toleration.json"));
  ASSERT_FALSE(table.at("cases").empty());
  for (const Json& c : table.at("cases")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    auto tols = ParseTolerations(Json::array({c.at("toleration")}));
    auto taints = ParseTaints(Json::array({c.at("taint")}));
    ASSERT_EQ(tols.size(), 1u);
    ASSERT_EQ(taints.size(), 1u);
    EXPECT_EQ(tols[0].Tolerates(taints[0]), c.at("want").get<bool>());
    EXPECT_EQ(TolerationsTolerate(tols, taints[0]), c.at("want").get<bool>());
  }
}

TEST(TolerationTable, GatedCasesWithGateOff) {
  Json table = testing::LoadJson(testing::DataPath("model/toleration.json"));
  ASSERT_FALSE(table.at("gatedCases").empty());
  for (const Json& c : table.at("gatedCases")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    auto tols = ParseTolerations(Json::array({c.at("toleration")}));
    auto taints = ParseTaints(Json::array({c.at("taint")}));
    ASSERT_TRUE(IsComparison(tols[0]));
    EXPECT_FALSE(tols[0].Tolerates(taints[0]));
  }
}

TEST(UntoleratedTaintTable, FindMatchingUntoleratedTaint) {
  Json table = testing::LoadJson(testing::DataPath("model/untolerated_taint.json"));
  ASSERT_FALSE(table.at("cases").empty());
  for (const Json& c : table.at("cases")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    auto taints = ParseTaints(c.at("taints"));
    auto tols = ParseTolerations(c.at("tolerations"));
    const Taint* got = FindFor(c, taints, tols);
    EXPECT_EQ(got != nullptr, c.at("wantUntolerated").get<bool>());
    const Json& want = c.at("wantTaint");
    if (want.is_null()) {
      EXPECT_EQ(got, nullptr);
    } else if (got) {
      auto want_taint = ParseTaints(Json::array({want}));
      EXPECT_EQ(got->key, want_taint[0].key);
      EXPECT_EQ(got->value, want_taint[0].value);
      EXPECT_EQ(got->effect, want_taint[0].effect);
    }
  }
}

TEST(UntoleratedTaintTable, GatedCasesWithGateOff) {
  // With the gate off a Gt/Lt toleration is inert: the answer is the one for the other tolerations alone.
  Json table = testing::LoadJson(testing::DataPath("model/untolerated_taint.json"));
  ASSERT_FALSE(table.at("gatedCases").empty());
  for (const Json& c : table.at("gatedCases")) {
    SCOPED_TRACE(c.at("name").get<std::string>());
    auto taints = ParseTaints(c.at("taints"));
    auto tols = ParseTolerations(c.at("tolerations"));
    std::vector<Toleration> plain;
    std::copy_if(tols.begin(), tols.end(), std::back_inserter(plain),
                 [](const Toleration& t) { return !IsComparison(t); });
    EXPECT_EQ(FindFor(c, taints, tols), FindFor(c, taints, plain));
  }
}

TEST(Toleration, EmptyEffectAndOperator) {
  auto taints = ParseTaints(Json::parse(R"([{"key":"k","value":"v","effect":"NoExecute"},
                                            {"key":"k","effect":"PreferNoSchedule"}])"));
  // Empty effect matches every effect; empty operator means Equal (so an empty value matches only "").
  auto equal = ParseTolerations(Json::parse(R"([{"key":"k","value":"v"}])"));
  EXPECT_TRUE(equal[0].Tolerates(taints[0]));
  EXPECT_FALSE(equal[0].Tolerates(taints[1]));
  auto exists_all = ParseTolerations(Json::parse(R"([{"operator":"Exists"}])"));
  EXPECT_TRUE(exists_all[0].Tolerates(taints[0]));
  EXPECT_TRUE(exists_all[0].Tolerates(taints[1]));
  // An empty key skips the key check, so Equal with no value matches any taint whose value is ""
  // (API validation would reject this toleration; ToleratesTaint itself allows it).
  auto empty_equal = ParseTolerations(Json::parse(R"([{"operator":"Equal"}])"));
  EXPECT_FALSE(empty_equal[0].Tolerates(taints[0]));
  EXPECT_TRUE(empty_equal[0].Tolerates(taints[1]));
  // The first untolerated taint in node order is reported.
  auto none = ParseTolerations(Json::array());
  const Taint* first = FindUntoleratedTaint(taints, none, [](const Taint&) { return true; });
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first, &taints[0]);
}

}  // namespace
}  // namespace kplace
