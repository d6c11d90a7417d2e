// Karpenter's disruption decisions (core/karpenter/disruption/simulate.*, command.*, consolidation.*, dry_run.*): the
// scheduling simulation, delete versus replace, prices, spot-to-spot, multi- and single-node consolidation, Drift,
// the plan and the events, through the dry run. Cases: tests/data/disruption/decisions.json (upstream's suites as
// data, plus kplace's).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "core/io/scenario_parser.h"
#include "core/karpenter/disruption/dry_run.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using nlohmann::json;
namespace kd = karpenter::disruption;

const json& Catalogues() {
  static const json j = testing::LoadJson(testing::DataPath("karpenter-catalogues/catalogues.json"));
  return j;
}

// An event matches a pattern when every field the pattern gives is equal ("messageContains": a substring).
bool Matches(const karpenter::Event& e, const json& want) {
  if (want.contains("type") && want["type"] != e.type) return false;
  if (want.contains("reason") && want["reason"] != e.reason) return false;
  if (want.contains("object") && want["object"] != e.object) return false;
  if (want.contains("message") && want["message"] != e.message) return false;
  if (want.contains("messageContains") &&
      e.message.find(want["messageContains"].get<std::string>()) == std::string::npos)
    return false;
  return true;
}

std::string Dump(const std::vector<karpenter::Event>& events) {
  std::string out;
  for (const auto& e : events) out += "  " + e.object + " " + e.reason + ": " + e.message + "\n";
  return out;
}

class DecisionTable : public ::testing::TestWithParam<testing::TableCase> {};

TEST_P(DecisionTable, Case) {
  testing::RunTableCase(GetParam(), [](const json& table, const json& c) {
    json items = json::array();
    for (const auto& name : c.value("use", json::array()))
      for (const auto& item : table.at("fixtures").at(name.get<std::string>())) items.push_back(item);
    if (c.contains("catalogue"))
      for (const auto& it : Catalogues()["catalogues"][c["catalogue"].get<std::string>()]["items"]) items.push_back(it);
    for (const auto& item : c.value("items", json::array())) items.push_back(item);
    json sim = {{"apiVersion", "kplace.dev/v1alpha1"},
                {"kind", "Simulation"},
                {"metadata", {{"name", "s"}}},
                {"spec", {{"mode", c.value("mode", "karpenter")}}}};
    if (c.contains("now")) sim["spec"]["now"] = c["now"];
    if (c.value("spotToSpot", false))
      sim["spec"]["karpenter"] = {{"featureGates", {{"SpotToSpotConsolidation", true}}}};
    items.push_back(sim);
    const Scenario sc = io::ParseScenario(json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}}.dump());
    std::set<std::string> nominated;
    if (c.contains("nominated")) nominated = c["nominated"].get<std::set<std::string>>();
    const kd::Report r = kd::DryRun(sc, nominated);
    const std::string events = Dump(r.events);

    if (c.contains("wantCommand")) {
      const json& want = c["wantCommand"];
      if (want.is_null()) {
        EXPECT_TRUE(r.commands.empty()) << r.commands.front().method << " " << r.commands.front().text << "\n"
                                        << events;
      } else {
        ASSERT_EQ(r.commands.size(), 1u) << events;
        const kd::Command& cmd = r.commands[0];
        if (want.contains("method")) {
          EXPECT_EQ(cmd.method, want["method"]);
        }
        if (want.contains("decision")) {
          EXPECT_EQ(cmd.decision, want["decision"]) << cmd.text << "\n" << events;
        }
        if (want.contains("nodes")) {
          EXPECT_EQ(json(cmd.nodes), want["nodes"]) << cmd.text;
        }
        if (want.contains("text")) {
          EXPECT_EQ(cmd.text, want["text"]);
        }
        if (want.contains("savings")) {
          EXPECT_NEAR(cmd.savings, want["savings"].get<double>(), 1e-9);
        }
        if (want.contains("nodeCount")) {
          EXPECT_EQ(cmd.nodes.size(), want["nodeCount"].get<std::size_t>());
        }
      }
    }
    if (c.contains("wantReplacements")) {
      ASSERT_EQ(r.commands.size(), 1u) << events;
      const auto& reps = r.commands[0].replacements;
      ASSERT_EQ(reps.size(), c["wantReplacements"].size()) << r.commands[0].text;
      for (std::size_t i = 0; i < reps.size(); ++i) {
        const json& want = c["wantReplacements"][i];
        const kd::Replacement& rep = reps[i];
        if (want.contains("instanceTypesCount")) {
          EXPECT_EQ(rep.instance_types.size(), want["instanceTypesCount"].get<std::size_t>());
        }
        for (const auto& t : want.value("instanceTypesContain", json::array()))
          EXPECT_NE(std::find(rep.instance_types.begin(), rep.instance_types.end(), t), rep.instance_types.end()) << t;
        for (const auto& t : want.value("instanceTypesExclude", json::array()))
          EXPECT_EQ(std::find(rep.instance_types.begin(), rep.instance_types.end(), t), rep.instance_types.end()) << t;
        if (want.contains("instanceTypes")) {
          EXPECT_EQ(json(rep.instance_types), want["instanceTypes"]);
        }
        if (want.contains("instanceType")) {
          EXPECT_EQ(rep.instance_type, want["instanceType"]);
        }
        if (want.contains("zone")) {
          EXPECT_EQ(rep.zone, want["zone"]);
        }
        if (want.contains("capacityType")) {
          EXPECT_EQ(rep.capacity_type, want["capacityType"]);
        }
        if (want.contains("nodePool")) {
          EXPECT_EQ(rep.node_pool, want["nodePool"]);
        }
        for (const auto& req : want.value("requirementsContain", json::array()))
          EXPECT_NE(std::find(rep.requirements.begin(), rep.requirements.end(), req), rep.requirements.end())
              << req << " not in " << json(rep.requirements).dump();
      }
    }
    if (c.contains("wantPods")) {
      ASSERT_EQ(r.commands.size(), 1u) << events;
      json got = json::object();
      for (const auto& m : r.commands[0].pods) got[m.pod] = m.to.empty() ? "error: " + m.error : m.to;
      EXPECT_EQ(got, c["wantPods"]);
    }
    if (c.contains("wantOutcome")) {
      for (const auto& [node, methods] : c["wantOutcome"].items()) {
        auto n = std::find_if(r.nodes.begin(), r.nodes.end(), [&node = node](const auto& x) { return x.name == node; });
        ASSERT_NE(n, r.nodes.end()) << node;
        for (const auto& [method, want] : methods.items()) {
          auto v = std::find_if(n->methods.begin(), n->methods.end(),
                                [&method = method](const auto& m) { return m.method == method; });
          ASSERT_NE(v, n->methods.end()) << node << " " << method;
          EXPECT_EQ(v->outcome, want.get<std::string>()) << node << " " << method << "\n" << events;
        }
      }
    }
    for (const auto& want : c.value("wantEventsContain", json::array()))
      EXPECT_TRUE(std::any_of(r.events.begin(), r.events.end(), [&](const auto& e) { return Matches(e, want); }))
          << want.dump() << " not in\n"
          << events;
    for (const auto& want : c.value("wantEventsExclude", json::array()))
      EXPECT_FALSE(std::any_of(r.events.begin(), r.events.end(), [&](const auto& e) { return Matches(e, want); }))
          << want.dump() << " in\n"
          << events;
    if (c.contains("wantEventCount")) {
      const json& w = c["wantEventCount"];
      const auto n =
          std::count_if(r.events.begin(), r.events.end(), [&](const auto& e) { return Matches(e, w["match"]); });
      EXPECT_EQ(n, w["count"].get<long>()) << events;
    }
    if (c.contains("wantError")) {
      EXPECT_EQ(r.error, c["wantError"]);
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Karpenter, DecisionTable,
                         ::testing::ValuesIn(testing::ListTableCases("disruption/decisions.json")),
                         testing::TableCaseParamName);

}  // namespace
}  // namespace kplace
