// Runs tests/data/model/label_selector.json and node_selector.json (see each file's "format") against
// core/model/labels.h and the selector parser (io::Reader::AsLabelSelector / AsNodeSelectorTerm), plus the
// nodeaffinity helpers of the NodeAffinity plugin. One GoogleTest test per case: ModelTables/<file>.<index>.
#include "core/model/labels.h"

#include <gtest/gtest.h>

#include "core/io/json_reader.h"
#include "core/io/scenario_parser.h"
#include "core/scheduler/plugins/helper/node_affinity_match.h"
#include "core/scheduler/plugins/nodeaffinity/node_affinity.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using io::Json;

Labels ParseLabels(const Json& j) {
  if (j.is_null()) return {};
  return io::Reader("labels", "").AsLabels(j);
}

// A v1.Node with only what selectors read; metadata.name absent = empty name (no metadata.name field).
Node ParseNodeJson(const Json& j) {
  Node n;
  if (auto m = j.find("metadata"); m != j.end()) {
    n.meta.name = m->value("name", "");
    if (m->contains("labels")) n.meta.labels = ParseLabels((*m)["labels"]);
  }
  n.name_symbol = Intern(n.meta.name);
  return n;
}

// Lazily parsed v1.NodeSelector (terms keep their errors).
NodeSelector ParseNodeSelector(const Json& j) {
  NodeSelector sel;
  io::Reader r("nodeSelector", "");
  if (auto t = j.find("nodeSelectorTerms"); t != j.end() && !t->is_null())
    for (std::size_t i = 0; i < t->size(); ++i)
      sel.terms.push_back(r.Field("nodeSelectorTerms").Index(i).AsNodeSelectorTerm((*t)[i], true));
  return sel;
}

void ExpectErrors(const Json& c, const std::vector<FieldError>& got) {
  bool want_error = c.at("wantError").get<bool>();
  EXPECT_EQ(!got.empty(), want_error) << AggregateError(got);
  if (!c.contains("wantErrors")) return;
  const Json& want = c["wantErrors"];
  ASSERT_EQ(got.size(), want.size()) << AggregateError(got);
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].type, want[i].at("type").get<std::string>()) << i;
    EXPECT_EQ(got[i].field, want[i].at("field").get<std::string>()) << i;
    EXPECT_EQ(got[i].detail, want[i].at("detail").get<std::string>()) << i;
  }
}

void RunNodeSelectorCase(const Json& c) {
  const std::string fn = c.at("function");
  if (fn == "NodeSelector") {
    // Strict: nodeaffinity.NewNodeSelector fails when any term has a parse error.
    NodeSelector sel = ParseNodeSelector(c.at("nodeSelector"));
    std::vector<FieldError> errors = sel.Errors();
    if (c.contains("wantError")) {
      ExpectErrors(c, errors);
      // The strict reader raises on the same input.
      bool threw = false;
      const Json& terms = c.at("nodeSelector").value("nodeSelectorTerms", Json::array());
      for (const auto& t : terms) {
        try {
          io::Reader("term", "").AsNodeSelectorTerm(t);
        } catch (const io::InputError&) {
          threw = true;
        }
      }
      EXPECT_EQ(threw, c["wantError"].get<bool>());
      if (c["wantError"].get<bool>()) return;
    }
    if (c.contains("want")) {
      ASSERT_TRUE(errors.empty()) << AggregateError(errors);
      bool got = false;
      if (!c.at("node").is_null()) {
        Node n = ParseNodeJson(c["node"]);
        got = sel.Matches(n.meta.labels, n.name_symbol);
      }
      EXPECT_EQ(got, c["want"].get<bool>());
    }
  } else if (fn == "MatchNodeSelectorTerms") {
    // Lazy: terms with errors are skipped; nil selector or nil node -> false.
    bool got = false;
    if (!c.at("nodeSelector").is_null() && !c.at("node").is_null()) {
      Node n = ParseNodeJson(c["node"]);
      got = ParseNodeSelector(c["nodeSelector"]).Matches(n.meta.labels, n.name_symbol);
    }
    EXPECT_EQ(got, c.at("want").get<bool>());
  } else if (fn == "PreferredSchedulingTerms") {
    std::vector<PreferredSchedulingTerm> terms;
    const Json& list = c.at("preferredSchedulingTerms");
    io::Reader r("terms", "");
    for (std::size_t i = 0; i < list.size(); ++i) {
      PreferredSchedulingTerm t;
      t.weight = list[i].value("weight", 0);
      if (list[i].contains("preference"))
        t.preference = r.Index(i).Field("preference").AsNodeSelectorTerm(list[i]["preference"], true);
      terms.push_back(std::move(t));
    }
    auto errors = plugins::PreferredSchedulingTermsErrors(terms);
    if (c.contains("wantError")) {
      ExpectErrors(c, errors);
      if (c["wantError"].get<bool>()) return;
    }
    ASSERT_TRUE(errors.empty()) << AggregateError(errors);
    Node n = ParseNodeJson(c.at("node"));
    EXPECT_EQ(plugins::PreferredSchedulingTermsScore(terms, n), c.at("wantScore").get<std::int64_t>());
  } else if (fn == "NodeSelectorRequirementsAsSelector") {
    Json term = Json::object();
    if (!c.at("matchExpressions").is_null()) term["matchExpressions"] = c["matchExpressions"];
    NodeSelectorTerm t = io::Reader("term", "").AsNodeSelectorTerm(term, true);
    // Field paths: the table's optional "path" replaces the term's "matchExpressions" prefix.
    std::vector<FieldError> errors = t.errors;
    std::string path = c.value("path", "");
    for (auto& e : errors) {
      ASSERT_EQ(e.field.rfind("matchExpressions", 0), 0u) << e.field;
      e.field = path + e.field.substr(std::string("matchExpressions").size());
    }
    if (c.contains("wantError")) {
      ExpectErrors(c, errors);
      if (c["wantError"].get<bool>()) return;
    }
    ASSERT_TRUE(errors.empty()) << AggregateError(errors);
    const Json& want = c.at("wantSelector");
    if (want.value("nothing", false)) {
      // labels.Nothing(): no requirements, and a term without expressions matches no node.
      EXPECT_TRUE(t.match_expressions.empty());
      EXPECT_FALSE(t.Matches(Labels(), kEmptySymbol));
    } else {
      EXPECT_EQ(SelectorString(t.match_expressions), want.at("string").get<std::string>());
    }
  } else if (fn == "RequiredNodeAffinity") {
    Json pod = c.at("pod");
    if (!pod.contains("metadata")) pod["metadata"] = {{"name", "pod"}};
    Pod p = io::ParsePod(pod, io::Reader("pod", ""));
    Node n = ParseNodeJson(c.at("node"));
    EXPECT_EQ(plugins::helper::MatchesRequiredNodeAffinity(p, n), c.at("want").get<bool>());
  } else {
    FAIL() << "unknown function " << fn;
  }
}

void RunLabelSelectorCase(const Json& c) {
  io::Reader r("selector", "");
  if (c.contains("error")) {
    if (c["error"].get<bool>()) {
      EXPECT_THROW(r.AsLabelSelector(c.at("selector")), io::InputError);
      return;
    }
    LabelSelector sel;
    ASSERT_NO_THROW(sel = r.AsLabelSelector(c.at("selector")));
    if (!c.contains("wantSelector")) return;
    const Json& want = c["wantSelector"];
    if (want.value("nothing", false)) {
      EXPECT_TRUE(sel.nil);
      EXPECT_FALSE(sel.Matches(Labels()));
    } else if (want.value("everything", false)) {
      EXPECT_FALSE(sel.nil);
      EXPECT_TRUE(sel.requirements.empty());
      EXPECT_TRUE(sel.Matches(Labels()));
    } else {
      EXPECT_EQ(sel.String(), want.at("string").get<std::string>());
    }
    return;
  }
  LabelSelector sel = r.AsLabelSelector(c.at("selector"));
  EXPECT_EQ(sel.Matches(ParseLabels(c.at("labels"))), c.at("want").get<bool>());
}

class NodeSelectorTable : public ::testing::TestWithParam<testing::TableCase> {};
TEST_P(NodeSelectorTable, Case) { testing::RunTableCase(GetParam(), RunNodeSelectorCase); }
INSTANTIATE_TEST_SUITE_P(ModelTables, NodeSelectorTable,
                         ::testing::ValuesIn(testing::ListTableCases("model/node_selector.json")),
                         testing::TableCaseParamName);

class LabelSelectorTable : public ::testing::TestWithParam<testing::TableCase> {};
TEST_P(LabelSelectorTable, Case) { testing::RunTableCase(GetParam(), RunLabelSelectorCase); }
INSTANTIATE_TEST_SUITE_P(ModelTables, LabelSelectorTable,
                         ::testing::ValuesIn(testing::ListTableCases("model/label_selector.json")),
                         testing::TableCaseParamName);

}  // namespace
}  // namespace kplace
