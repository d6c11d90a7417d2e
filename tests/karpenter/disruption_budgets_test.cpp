// NodePool disruption budgets (core/karpenter/disruption/budgets.*, cron.*) and the parsing of spec.disruption:
// tests/data/disruption/budgets.json, upstream's budget, CEL-validation and defaulting cases plus kplace's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "core/io/scenario_parser.h"
#include "core/karpenter/disruption/budgets.h"
#include "core/karpenter/disruption/cron.h"
#include "core/model/input_error.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using nlohmann::json;
namespace kd = karpenter::disruption;

std::int64_t Time(const json& c) {
  if (!c.contains("now")) return 0;
  Scenario sc = io::ParseScenario(json{{"apiVersion", "v1"},
                                       {"kind", "List"},
                                       {"items",
                                        {{{"apiVersion", "kplace.dev/v1alpha1"},
                                          {"kind", "Simulation"},
                                          {"metadata", {{"name", "s"}}},
                                          {"spec", {{"now", c["now"]}}}}}}}
                                      .dump());
  return *sc.simulation.now;
}

// A NodePool with the case's budgets (or CRD input) as a scenario item.
json NodePoolItem(const json& c) {
  json disruption = json::object();
  json template_spec = {{"requirements", json::array()}};
  if (c.contains("budgets")) {
    json budgets = json::array();
    for (const auto& b : c["budgets"]) {
      json out = b;
      if (b.contains("durationWire")) out["duration"] = b["durationWire"];
      out.erase("durationWire");
      budgets.push_back(out);
    }
    disruption["budgets"] = budgets;
  }
  if (c.contains("input")) {
    for (const auto& [k, v] : c["input"].items()) {
      if (k == "expireAfter" || k == "terminationGracePeriod") {
        template_spec[k] = v;
      } else if (k == "budgets") {
        json budgets = json::array();
        for (const auto& b : v) {
          json out = b;
          if (b.contains("durationWire")) out["duration"] = b["durationWire"];
          out.erase("durationWire");
          budgets.push_back(out);
        }
        disruption["budgets"] = budgets;
      } else if (k != "replicas" && k != "rawDisruption") {
        disruption[k] = v;
      }
    }
  }
  // A typed Go client always sends consolidateAfter (the zero NillableDuration marshals as "Never").
  if (!disruption.contains("consolidateAfter")) disruption["consolidateAfter"] = "Never";
  if (c.contains("input") && c["input"].contains("rawDisruption")) disruption = c["input"]["rawDisruption"];
  return {{"apiVersion", "karpenter.sh/v1"},
          {"kind", "NodePool"},
          {"metadata", {{"name", "default"}}},
          {"spec", {{"disruption", disruption}, {"template", {{"spec", template_spec}}}}}};
}

// A Go duration of whole h/m/s parts ("1h", "30m", "2h20m"), as the tests write them.
std::int64_t GoDurationSeconds(const std::string& s) {
  std::int64_t total = 0, n = 0;
  for (char ch : s) {
    if (ch >= '0' && ch <= '9') {
      n = n * 10 + (ch - '0');
      continue;
    }
    total += n * (ch == 'h' ? 3600 : ch == 'm' ? 60 : 1);
    n = 0;
  }
  return total;
}

NodePool ParseNodePool(const json& item) {
  Scenario sc = io::ParseScenario(json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", {item}}}.dump());
  return sc.node_pools.at(0);
}

class BudgetTable : public ::testing::TestWithParam<testing::TableCase> {};

TEST_P(BudgetTable, Case) {
  testing::RunTableCase(GetParam(), [](const json& c) {
    const std::string kind = c.at("kind");
    if (kind == "CRDValidation") {
      const json item = NodePoolItem(c);
      if (c.at("wantValid").get<bool>()) {
        EXPECT_NO_THROW(ParseNodePool(item));
      } else {
        try {
          ParseNodePool(item);
          ADD_FAILURE() << "accepted " << item.dump();
        } catch (const InputError& e) {
          if (c.contains("wantError")) {
            EXPECT_NE(std::string(e.what()).find(c["wantError"].get<std::string>()), std::string::npos) << e.what();
          }
        }
      }
      return;
    }
    if (kind == "CRDDefault") {
      json item = NodePoolItem(c);
      item["spec"].erase("disruption");
      const NodePool np = ParseNodePool(item);
      EXPECT_EQ(np.disruption.consolidation_policy, ConsolidationPolicy::WhenEmptyOrUnderutilized);
      ASSERT_EQ(np.disruption.budgets.size(), 1u);
      EXPECT_EQ(np.disruption.budgets[0].nodes, "10%");
      EXPECT_FALSE(np.disruption.budgets[0].reasons);
      EXPECT_EQ(np.disruption.consolidate_after, std::optional<std::int64_t>(0));
      EXPECT_EQ(np.expire_after, std::optional<std::int64_t>(720 * 3600));
      return;
    }
    // Upstream's unit tests build NodePools in Go, past the CRD's validation ("1000a%"): built here the same way.
    NodePool np;
    np.disruption.budgets.clear();
    for (const auto& b : c.at("budgets")) {
      DisruptionBudget budget;
      budget.nodes = b.at("nodes");
      if (b.contains("reasons")) budget.reasons = b["reasons"].get<std::vector<std::string>>();
      if (b.contains("schedule")) budget.schedule = b["schedule"].get<std::string>();
      if (b.contains("duration")) budget.duration = GoDurationSeconds(b["duration"]);
      np.disruption.budgets.push_back(budget);
    }
    const std::int64_t now = Time(c);
    const std::int64_t nodes = c.value("numNodes", 0);
    std::string err;
    if (kind == "Budget.IsActive") {
      const bool active = kd::BudgetActive(np.disruption.budgets.at(0), now, &err);
      EXPECT_EQ(active, c.value("wantActive", false));  // an error returns false (nodepool.go IsActive)
    } else if (kind == "Budget.GetAllowedDisruptions") {
      EXPECT_EQ(kd::BudgetAllowed(np.disruption.budgets.at(0), now, nodes, &err), c.at("want").get<std::int64_t>());
    } else if (kind == "NodePool.GetAllowedDisruptionsByReason") {
      const std::string reason = c.at("reason");
      if (c.value("must", false))
        EXPECT_EQ(kd::MustAllowedByReason(np.disruption, now, nodes, reason), c.at("want").get<std::int64_t>());
      else
        EXPECT_EQ(kd::AllowedByReason(np.disruption, now, nodes, reason, &err), c.at("want").get<std::int64_t>());
    } else {
      FAIL() << "unknown kind " << kind;
    }
    if (c.contains("wantError")) {
      const std::string want = c["wantError"];
      if (c.value("wantErrorKind", "").rfind("exact", 0) == 0)
        EXPECT_EQ(err, want);
      else
        EXPECT_NE(err.find(want), std::string::npos) << err;
    } else if (!c.value("must", false)) {
      EXPECT_EQ(err, "");
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Karpenter, BudgetTable,
                         ::testing::ValuesIn(testing::ListTableCases("disruption/budgets.json")),
                         testing::TableCaseParamName);

// robfig/cron's parser: its messages, names, steps.
TEST(Cron, ParserMessages) {
  std::string err;
  EXPECT_FALSE(kd::ParseCron("0 0 * * tue-mon", &err));
  EXPECT_EQ(err, "beginning of range (2) beyond end of range (1): tue-mon");
  EXPECT_FALSE(kd::ParseCron("0 0 * * 1-2-3", &err));
  EXPECT_EQ(err, "too many hyphens: 1-2-3");
  EXPECT_FALSE(kd::ParseCron("0 0 * * 1/2/3", &err));
  EXPECT_EQ(err, "too many slashes: 1/2/3");
  EXPECT_FALSE(kd::ParseCron("0 0 0 * *", &err));
  EXPECT_EQ(err, "beginning of range (0) below minimum (1): 0");
  EXPECT_FALSE(kd::ParseCron("*/0 * * * *", &err));
  EXPECT_EQ(err, "step of range should be a positive number: */0");
  EXPECT_FALSE(kd::ParseCron("x * * * *", &err));
  EXPECT_EQ(err, "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax");
  EXPECT_FALSE(kd::ParseCron("-1 * * * *", &err));
  EXPECT_EQ(err, "failed to parse int from : strconv.Atoi: parsing \"\": invalid syntax");
  EXPECT_FALSE(kd::ParseCron("* * * *", &err));
  EXPECT_EQ(err, "expected exactly 5 fields, found 4: [* * * *]");
  auto s = kd::ParseCron("0 9 * JAN,feb Sun", &err);
  ASSERT_TRUE(s) << err;
  EXPECT_EQ(s->month, (1u << 1) | (1u << 2));
  EXPECT_EQ(s->dow, 1u);
}

TEST(Cron, NextFiring) {
  std::string err;
  // 2026-11-26T10:47:13Z (a Thursday) -> */15 fires next at 11:00:00.
  const std::int64_t t = 1795690033;
  auto s = kd::ParseCron("*/15 * * * *", &err);
  ASSERT_TRUE(s);
  EXPECT_EQ(*kd::NextFiring(*s, t), 1795690800);
  // Weekly on Sunday at midnight: 2026-11-29T00:00:00Z.
  auto w = kd::ParseCron("@weekly", &err);
  ASSERT_TRUE(w);
  EXPECT_EQ(*kd::NextFiring(*w, t), 1795910400);
  // Yearly: 2027-01-01T00:00:00Z; and a firing exactly at t is not "after" t.
  auto y = kd::ParseCron("@yearly", &err);
  ASSERT_TRUE(y);
  EXPECT_EQ(*kd::NextFiring(*y, t), 1798761600);
  EXPECT_EQ(*kd::NextFiring(*y, 1798761600), 1830297600);
  // 29 February: the next leap year; 30 February: never (within five years).
  auto leap = kd::ParseCron("0 0 29 2 *", &err);
  ASSERT_TRUE(leap);
  EXPECT_EQ(*kd::NextFiring(*leap, t), 1835395200);  // 2028-02-29T00:00:00Z
  auto never = kd::ParseCron("0 0 30 2 *", &err);
  ASSERT_TRUE(never);
  EXPECT_FALSE(kd::NextFiring(*never, t));
}

}  // namespace
}  // namespace kplace
