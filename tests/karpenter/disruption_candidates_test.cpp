// Karpenter's disruption candidates (core/karpenter/disruption/cluster.*, candidate.*, methods.*): which nodes each
// method may disrupt and why not, the events, NodeClaims' Consolidatable condition, Emptiness' command. Cases:
// tests/data/disruption/candidates.json (upstream's suites as data, plus kplace's).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/io/scenario_parser.h"
#include "core/karpenter/disruption/candidate.h"
#include "core/karpenter/disruption/cluster.h"
#include "core/karpenter/disruption/methods.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using nlohmann::json;
namespace kd = karpenter::disruption;

kd::Method MethodNamed(const std::string& m) {
  if (m == "emptiness") return kd::Method::Emptiness;
  if (m == "drift") return kd::Method::Drift;
  if (m == "multi") return kd::Method::MultiNodeConsolidation;
  if (m == "single") return kd::Method::SingleNodeConsolidation;
  throw std::runtime_error("unknown method " + m);
}

json EventJson(const karpenter::Event& e) {
  return {{"type", e.type}, {"reason", e.reason}, {"object", e.object}, {"message", e.message}};
}

class CandidateTable : public ::testing::TestWithParam<testing::TableCase> {};

TEST_P(CandidateTable, Case) {
  testing::RunTableCase(GetParam(), [](const json& table, const json& c) {
    // A case's items: the table's fixtures it names ("use"), then its own.
    json items = json::array();
    for (const auto& name : c.value("use", json::array()))
      for (const auto& item : table.at("fixtures").at(name.get<std::string>())) items.push_back(item);
    for (const auto& item : c.value("items", json::array())) items.push_back(item);
    json sim = {{"apiVersion", "kplace.dev/v1alpha1"},
                {"kind", "Simulation"},
                {"metadata", {{"name", "s"}}},
                {"spec", {{"mode", "karpenter"}}}};
    if (c.contains("now")) sim["spec"]["now"] = c["now"];
    items.push_back(sim);
    const Scenario sc = io::ParseScenario(json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}}.dump());
    const std::int64_t now = kd::EvaluationTime(sc);
    std::set<std::string> nominated;
    if (c.contains("nominated")) nominated = c["nominated"].get<std::set<std::string>>();
    const std::vector<kd::StateNode> nodes = kd::BuildStateNodes(sc, nominated);
    const bool has_method = c.contains("method");
    const kd::Method method = has_method ? MethodNamed(c["method"]) : kd::Method::Emptiness;
    kd::DisruptionClass cls = has_method ? kd::MethodClass(method) : kd::DisruptionClass::Graceful;
    if (c.value("class", "") == "eventual") cls = kd::DisruptionClass::Eventual;
    if (c.value("class", "") == "graceful") cls = kd::DisruptionClass::Graceful;

    std::vector<karpenter::Event> events;
    std::vector<kd::Candidate> candidates;
    candidates.reserve(nodes.size());
    json got = json::object(), why = json::object();
    for (const auto& n : nodes) {
      std::string err;
      auto cand = kd::NewCandidate(n, sc, cls, now, &err, &events);
      if (!cand) {
        got[n.name] = err;
        continue;
      }
      std::string reason;
      if (has_method && !kd::ShouldDisrupt(method, *cand, sc, now, &reason, &events)) {
        got[n.name] = "filtered";
        why[n.name] = reason;
        continue;
      }
      got[n.name] = "candidate";
      candidates.push_back(*cand);
    }
    for (const auto& [node, want] : c.at("want").items()) {
      ASSERT_TRUE(got.contains(node)) << "no node " << node;
      EXPECT_EQ(got[node], want) << node;
    }
    if (c.contains("wantWhy")) {
      for (const auto& [node, want] : c["wantWhy"].items()) EXPECT_EQ(why.value(node, json()), want) << node;
    }
    // Identical events are published once (the recorder's dedupe).
    json got_events = json::array();
    for (const auto& e : events) {
      json j = EventJson(e);
      if (std::find(got_events.begin(), got_events.end(), j) == got_events.end()) got_events.push_back(j);
    }
    if (c.contains("wantEvents")) {
      EXPECT_EQ(got_events, c["wantEvents"]) << got_events.dump(1);
    }
    if (c.contains("wantEventsContain")) {
      for (const auto& e : c["wantEventsContain"]) {
        EXPECT_NE(std::find(got_events.begin(), got_events.end(), e), got_events.end())
            << e.dump() << " not in " << got_events.dump(1);
      }
    }
    if (c.contains("wantConsolidatable")) {
      for (const auto& [node, want] : c["wantConsolidatable"].items()) {
        auto it = std::find_if(nodes.begin(), nodes.end(), [&node = node](const auto& n) { return n.name == node; });
        ASSERT_NE(it, nodes.end()) << node;
        const NodePool* pool = nullptr;
        for (const auto& p : sc.node_pools)
          if (p.meta.name == it->NodePoolName()) pool = &p;
        ASSERT_NE(pool, nullptr) << node;
        EXPECT_EQ(kd::Consolidatable(*it, *pool, sc, now), want.get<bool>()) << node;
      }
    }
    if (c.contains("wantEmptinessDeletes") || c.contains("wantBudgets")) {
      std::vector<karpenter::Event> budget_events;
      auto budgets = kd::BuildBudgetMapping(sc, nodes, now, "Empty", &budget_events);
      if (c.contains("wantBudgets")) {
        for (const auto& [pool, want] : c["wantBudgets"].items()) {
          EXPECT_EQ(budgets[pool].remaining, want.get<std::int64_t>()) << pool;
        }
      }
      if (c.contains("wantEmptinessDeletes")) {
        std::vector<const kd::Candidate*> ptrs;
        for (const auto& cand : candidates) ptrs.push_back(&cand);
        json deleted = json::array();
        for (const auto* cand : kd::EmptinessCommand(ptrs, budgets)) deleted.push_back(cand->state->name);
        EXPECT_EQ(deleted, c["wantEmptinessDeletes"]);
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Karpenter, CandidateTable,
                         ::testing::ValuesIn(testing::ListTableCases("disruption/candidates.json")),
                         testing::TableCaseParamName);

}  // namespace
}  // namespace kplace
