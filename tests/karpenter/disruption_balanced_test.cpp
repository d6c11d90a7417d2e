// The Balanced consolidation policy (core/karpenter/disruption/balanced.*): the score and its message
// (tests/data/disruption/balanced.json, upstream's balanced tests as data) and the NodePool totals the dry run
// scores against. Whole decisions under Balanced are cases of tests/data/disruption/decisions.json.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/scenario_parser.h"
#include "core/karpenter/disruption/balanced.h"
#include "core/karpenter/disruption/dry_run.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using nlohmann::json;
namespace kd = karpenter::disruption;

double Number(const json& v) {
  if (v.is_string() && v == "+Inf") return std::numeric_limits<double>::infinity();
  return v.get<double>();
}

class BalancedScoreTable : public ::testing::TestWithParam<testing::TableCase> {};

TEST_P(BalancedScoreTable, Case) {
  testing::RunTableCase(GetParam(), [](const json& c) {
    kd::ScoreResult s;
    if (c.contains("scoreResult")) {
      const json& r = c["scoreResult"];
      s = kd::ScoreResult{r["savingsFraction"].get<double>(), r["disruptionFraction"].get<double>(), r["k"].get<int>()};
    } else {
      const kd::NodePoolTotals totals{c["totals"][0].get<double>(), c["totals"][1].get<double>()};
      s = kd::ScoreMove(c["savings"].get<double>(), c["disruption"].get<double>(), totals, c["k"].get<int>());
    }
    if (c.contains("wantApproved")) {
      EXPECT_EQ(s.Approved(), c["wantApproved"].get<bool>()) << "score " << s.Score();
    }
    if (c.contains("wantScore")) {
      const double want = Number(c["wantScore"]);
      if (std::isinf(want) || !c.contains("scoreTolerance")) {
        EXPECT_EQ(s.Score(), want);
      } else {
        EXPECT_NEAR(s.Score(), want, c["scoreTolerance"].get<double>());
      }
    }
    const double tolerance = c.value("fractionTolerance", 0.0);
    if (c.contains("wantSavingsFraction")) {
      EXPECT_NEAR(s.savings_fraction, c["wantSavingsFraction"].get<double>(), tolerance);
    }
    if (c.contains("wantDisruptionFraction")) {
      EXPECT_NEAR(s.disruption_fraction, c["wantDisruptionFraction"].get<double>(), tolerance);
    }
    if (c.contains("wantMessage")) {
      EXPECT_EQ(kd::ApprovedMessage(s), c["wantMessage"].get<std::string>());
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Karpenter, BalancedScoreTable,
                         ::testing::ValuesIn(testing::ListTableCases("disruption/balanced.json")),
                         testing::TableCaseParamName);

// --- The NodePool totals (balanced.go computeNodePoolTotals, statenode.go DisruptionCost, state/cost) -------------

json Pool() {
  return {{"apiVersion", "karpenter.sh/v1"},
          {"kind", "NodePool"},
          {"metadata", {{"name", "default"}}},
          {"spec",
           {{"disruption", {{"consolidationPolicy", "Balanced"}, {"consolidateAfter", "0s"}}},
            {"template", {{"spec", {{"requirements", json::array()}}}}}}}};
}

// Type t: on-demand in test-zone-1 at 4.84 (balanced_scoring_test.go makeCandidate).
json Type(const json& offerings = json{{{"zone", "test-zone-1"}, {"capacityType", "on-demand"}, {"price", 4.84}}}) {
  return {{"apiVersion", "kplace.dev/v1alpha1"},
          {"kind", "InstanceType"},
          {"metadata", {{"name", "t"}}},
          {"spec", {{"capacity", {{"cpu", "4"}, {"memory", "16Gi"}, {"pods", "110"}}}, {"offerings", offerings}}}};
}

json Labels(const std::string& type) {
  return {{"karpenter.sh/nodepool", "default"},
          {"node.kubernetes.io/instance-type", type},
          {"topology.kubernetes.io/zone", "test-zone-1"},
          {"karpenter.sh/capacity-type", "on-demand"}};
}

// A Node of the NodePool without a NodeClaim object (kplace infers its NodeClaim).
json NodeOf(const std::string& name, const std::string& type = "t", const json& annotations = json::object()) {
  json labels = Labels(type);
  labels["kubernetes.io/hostname"] = name;
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", name}, {"labels", labels}, {"annotations", annotations}}},
          {"status", {{"allocatable", {{"cpu", "4"}, {"memory", "16Gi"}, {"pods", "110"}}}}}};
}

// A registered, initialized Node with its NodeClaim, whose own labels are claim_labels.
json ClaimedNode(const std::string& name, const json& claim_labels) {
  json node = NodeOf(name);
  node["metadata"]["labels"]["karpenter.sh/registered"] = "true";
  node["metadata"]["labels"]["karpenter.sh/initialized"] = "true";
  json claim = {{"apiVersion", "karpenter.sh/v1"},
                {"kind", "NodeClaim"},
                {"metadata", {{"name", name + "-claim"}, {"labels", claim_labels}}},
                {"status",
                 {{"nodeName", name},
                  {"providerID", "fake://" + name},
                  {"conditions",
                   {{{"type", "Launched"}, {"status", "True"}},
                    {{"type", "Registered"}, {"status", "True"}},
                    {{"type", "Initialized"}, {"status", "True"}}}}}}};
  return json::array({claim, node});
}

json PodOn(const std::string& name, const std::string& node, const json& extra_meta = json::object(),
           const std::string& phase = "Running") {
  json meta = {{"name", name}, {"namespace", "default"}};
  meta.update(extra_meta);
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", meta},
          {"spec",
           {{"nodeName", node},
            {"containers", {{{"name", "c"}, {"image", "nginx"}, {"resources", {{"requests", {{"cpu", "10m"}}}}}}}}}},
          {"status", {{"phase", phase}}}};
}

kd::Report DryRunOf(json items, const std::string& explain) {
  items.push_back({{"apiVersion", "kplace.dev/v1alpha1"},
                   {"kind", "Simulation"},
                   {"metadata", {{"name", "s"}}},
                   {"spec", {{"mode", "karpenter"}, {"now", "2026-11-26T12:00:00Z"}}}});
  const Scenario sc = io::ParseScenario(json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}}.dump());
  return kd::DryRun(sc, {}, {explain});
}

kd::NodePoolTotals TotalsOf(const kd::Report& r) {
  EXPECT_EQ(r.explained.size(), 1u);
  if (r.explained.empty() || !r.explained[0].balanced_totals) {
    ADD_FAILURE() << "no Balanced totals";
    return {};
  }
  return *r.explained[0].balanced_totals;
}

TEST(BalancedTotals, FiveCandidates) {
  // balanced_scoring_test.go:186: five candidates at 4.84 with one pod each.
  json items = {Pool(), Type()};
  for (int i = 0; i < 5; ++i) {
    items.push_back(NodeOf("node-" + std::to_string(i)));
    items.push_back(PodOn("p" + std::to_string(i), "node-" + std::to_string(i)));
  }
  const kd::NodePoolTotals t = TotalsOf(DryRunOf(items, "node-0"));
  EXPECT_NEAR(t.total_cost, 24.2, 1e-9);
  EXPECT_EQ(t.total_disruption_cost, 10);
}

TEST(BalancedTotals, UnknownInstanceTypeCountsItsDisruptionAtPriceZero) {
  // balanced_scoring_test.go:209: the middle candidate's instance type is unknown (price 0, disruption 2).
  const json items = {Pool(),
                      Type(),
                      NodeOf("node-0"),
                      NodeOf("node-1", "unknown"),
                      NodeOf("node-2"),
                      PodOn("p0", "node-0"),
                      PodOn("p1", "node-1"),
                      PodOn("p2", "node-2")};
  const kd::Report r = DryRunOf(items, "node-0");
  const kd::NodePoolTotals t = TotalsOf(r);
  EXPECT_NEAR(t.total_cost, 9.68, 1e-9);
  EXPECT_EQ(t.total_disruption_cost, 6);
  ASSERT_TRUE(r.explained[0].balanced_best);
  EXPECT_NEAR(r.explained[0].balanced_best->Score(), 1.5, 1e-9);  // (4.84 / 9.68) / (2 / 6)
}

TEST(BalancedTotals, NonCandidatesCountEveryPodButDaemonSetAndFinishedOnes) {
  // statenode.go DisruptionCost: a node that is no candidate (do-not-disrupt) counts its mirror and terminating pods,
  // not its DaemonSet or finished pods; a candidate counts its reschedulable pods only.
  const json ds = {{"ownerReferences", {{{"apiVersion", "apps/v1"}, {"kind", "DaemonSet"}, {"name", "d"}}}}};
  const json mirror = {{"ownerReferences", {{{"apiVersion", "v1"}, {"kind", "Node"}, {"name", "node-1"}}}}};
  const json terminating = {{"deletionTimestamp", "2026-11-26T11:59:00Z"}};
  const json items = {Pool(),
                      Type(),
                      NodeOf("node-0"),
                      NodeOf("node-1", "t", {{"karpenter.sh/do-not-disrupt", "true"}}),
                      PodOn("p0", "node-0"),
                      PodOn("ds0", "node-0", ds),
                      PodOn("ds1", "node-1", ds),
                      PodOn("mirror", "node-1", mirror),
                      PodOn("leaving", "node-1", terminating),
                      PodOn("done", "node-1", json::object(), "Succeeded")};
  const kd::NodePoolTotals t = TotalsOf(DryRunOf(items, "node-0"));
  EXPECT_EQ(t.total_disruption_cost, 2 + 3);  // node-0: 1 + p0; node-1: 1 + mirror + leaving
  EXPECT_NEAR(t.total_cost, 9.68, 1e-9);      // the cost tracker counts node-1 too
}

TEST(BalancedTotals, PriceIgnoresAvailability) {
  // balanced_adversarial_test.go:133: the node's zone offering is unavailable; its price is still that offering's.
  const json offerings = {
      {{"zone", "test-zone-1"}, {"capacityType", "on-demand"}, {"price", 1.0}, {"available", false}},
      {{"zone", "test-zone-2"}, {"capacityType", "on-demand"}, {"price", 5.0}}};
  const kd::Report r = DryRunOf({Pool(), Type(offerings), NodeOf("node-0"), PodOn("p0", "node-0")}, "node-0");
  ASSERT_EQ(r.nodes.size(), 1u);
  EXPECT_EQ(r.nodes[0].price, 1.0);
  EXPECT_EQ(TotalsOf(r).total_cost, 1.0);
}

TEST(BalancedTotals, TrackerCountsOnlyNodeClaimsWithTheirOwnLabels) {
  // state/cost UpdateNodeClaim: a NodeClaim whose own labels lack the zone is not tracked; a partial sum is used as
  // it is, and the candidates' prices only when nothing is tracked.
  json full = Labels("t");
  json partial = Labels("t");
  partial.erase("topology.kubernetes.io/zone");
  json items = {Pool(), Type(), PodOn("p0", "node-0"), PodOn("p1", "node-1")};
  for (const json& o : ClaimedNode("node-0", full)) items.push_back(o);
  for (const json& o : ClaimedNode("node-1", partial)) items.push_back(o);
  EXPECT_NEAR(TotalsOf(DryRunOf(items, "node-0")).total_cost, 4.84, 1e-12);

  json none = {Pool(), Type(), PodOn("p0", "node-0"), PodOn("p1", "node-1")};
  for (const json& o : ClaimedNode("node-0", partial)) none.push_back(o);
  for (const json& o : ClaimedNode("node-1", partial)) none.push_back(o);
  EXPECT_NEAR(TotalsOf(DryRunOf(none, "node-0")).total_cost, 9.68, 1e-12);
}

TEST(BalancedTotals, OtherPoliciesGetNoBalancedExplanation) {
  json pool = Pool();
  pool["spec"]["disruption"]["consolidationPolicy"] = "WhenEmptyOrUnderutilized";
  const kd::Report r = DryRunOf({pool, Type(), NodeOf("node-0"), PodOn("p0", "node-0")}, "node-0");
  ASSERT_EQ(r.explained.size(), 1u);
  EXPECT_FALSE(r.explained[0].balanced_totals);
}

}  // namespace
}  // namespace kplace
