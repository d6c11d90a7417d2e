// Tests of app/model/json_text: positions in scenario text and its formatting-preserving edits.
#include "app/model/json_text.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using kplace::app::json_text::ErrorPath;
using kplace::app::json_text::ErrorPosition;
using kplace::app::json_text::Find;
using kplace::app::json_text::Path;
using kplace::app::json_text::PositionOf;
using kplace::app::json_text::TolerationFor;
using kplace::app::json_text::WithKubernetesVersion;
using kplace::app::json_text::WithMode;
using kplace::app::json_text::WithoutTaint;
using kplace::app::json_text::WithTaintEffect;
using kplace::app::json_text::WithToleration;
using kplace::app::json_text::WithUnschedulable;

std::string At(const std::string& text, const Path& path) {
  auto m = Find(text, path);
  return m.depth == path.size() ? text.substr(m.span.begin, m.span.end - m.span.begin) : "<missing>";
}

TEST(JsonTextTest, Find) {
  const std::string t = R"({ "a": 1, "b": { "c": [ 10, {"d": "x\"y"}, [1, 2] ] }, "e": null })";
  EXPECT_TRUE(At(t, {}) == t);
  EXPECT_TRUE(At(t, {std::string("a")}) == "1");
  EXPECT_TRUE(At(t, {std::string("b"), std::string("c"), std::size_t{0}}) == "10");
  EXPECT_TRUE(At(t, {std::string("b"), std::string("c"), std::size_t{1}, std::string("d")}) == R"("x\"y")");
  EXPECT_TRUE(At(t, {std::string("b"), std::string("c"), std::size_t{2}}) == "[1, 2]");
  EXPECT_TRUE(At(t, {std::string("e")}) == "null");
  EXPECT_TRUE(At(t, {std::string("zz")}) == "<missing>");
  // A missing tail gives the deepest existing value.
  auto m = Find(t, {std::string("b"), std::string("c"), std::size_t{7}});
  EXPECT_TRUE(m.depth == 2);
  EXPECT_TRUE(t.substr(m.span.begin, 1) == "[");
}

TEST(JsonTextTest, Positions) {
  const std::string t =
      "{\n  \"items\": [\n    {\"kind\": \"Node\",\n     \"status\": {\"allocatable\": {\"cpu\": \"abc\"}}}\n  ]\n}\n";
  auto lc = PositionOf(t, t.find("\"abc\""));
  EXPECT_TRUE(lc.line == 4);
  EXPECT_TRUE(lc.column == 40);
  auto path = ErrorPath(R"(items[0] (Node n1): status.allocatable.cpu: "abc" is not a quantity)");
  EXPECT_TRUE(path && path->size() == 5);
  auto pos = ErrorPosition(t, R"(items[0] (Node n1): status.allocatable.cpu: "abc" is not a quantity)");
  EXPECT_TRUE(pos && pos->line == 4 && pos->column == 40);
  // Map keys with dots and indices.
  auto p2 = ErrorPath(R"(items[2] (Pod default/web): metadata.labels["app.kubernetes.io/name"]: invalid)");
  EXPECT_TRUE(p2 && p2->size() == 5 && std::get<std::string>((*p2)[4]) == "app.kubernetes.io/name");
  auto p3 = ErrorPath(R"(items[12] (Pod a/b): spec.containers[3].image: required)");
  EXPECT_TRUE(p3 && p3->size() == 6 && std::get<std::size_t>((*p3)[1]) == 12 && std::get<std::size_t>((*p3)[4]) == 3);
  // A syntax error carries its own position; a message naming no item has none.
  auto syn = ErrorPosition("{", "invalid JSON at line 1, column 2: syntax error");
  EXPECT_TRUE(syn && syn->line == 1 && syn->column == 2);
  EXPECT_TRUE(!ErrorPosition("{}", "only one Simulation is allowed"));
}

TEST(JsonTextTest, WithKubernetesVersion) {
  const std::string base =
      R"({"items": [{"kind": "Simulation", "spec": {"mode": "scheduler", "kubernetesVersion": "1.35"}}]})";
  EXPECT_EQ(WithKubernetesVersion(base, "1.37"),
            R"({"items": [{"kind": "Simulation", "spec": {"mode": "scheduler", "kubernetesVersion": "1.37"}}]})");
  // Added when missing, the rest untouched.
  auto added = WithKubernetesVersion(R"({"items": [{"kind": "Simulation", "spec": {"seed": 1}}]})", "1.33");
  ASSERT_TRUE(added);
  EXPECT_NE(added->find(R"("kubernetesVersion": "1.33")"), std::string::npos) << *added;
  EXPECT_NE(added->find(R"("seed": 1)"), std::string::npos) << *added;
  EXPECT_FALSE(WithKubernetesVersion("[]", "1.37"));
}

TEST(JsonTextTest, WithMode) {
  const std::string base =
      "{\n  \"kind\": \"List\",\n  \"items\": [\n    { \"kind\": \"Simulation\", \"spec\": { \"mode\": \"scheduler\", "
      "\"seed\": 0 } },\n    { \"kind\": \"Node\" }\n  ]\n}\n";
  auto out = WithMode(base, "karpenter");
  EXPECT_TRUE(out && *out == std::string(base).replace(base.find("\"scheduler\""), 11, "\"karpenter\""));
  // spec without mode, item without spec, no Simulation at all.
  auto no_mode = WithMode(R"({"items": [{"kind": "Simulation", "spec": {"seed": 1}}]})", "cluster");
  EXPECT_TRUE(no_mode && *no_mode == R"({"items": [{"kind": "Simulation", "spec": { "mode": "cluster", "seed": 1}}]})");
  auto no_spec = WithMode(R"({"items": [{"kind": "Simulation"}]})", "cluster");
  EXPECT_TRUE(no_spec && *no_spec == R"({"items": [{ "spec": { "mode": "cluster" }, "kind": "Simulation"}]})");
  auto no_sim = WithMode(R"({"items": []})", "scheduler");
  EXPECT_TRUE(no_sim && no_sim->find(R"("kind": "Simulation")") != std::string::npos &&
              no_sim->find(R"("mode": "scheduler")") != std::string::npos);
  EXPECT_TRUE(!WithMode(R"({"kind": "List"})", "scheduler"));
  EXPECT_TRUE(!WithMode("not json", "scheduler"));
}

TEST(JsonTextTest, NodeEdits) {
  const std::string base =
      "{\"items\": [\n  {\"kind\": \"Simulation\"},\n  {\"kind\": \"Node\",\n   \"spec\": {\"taints\": [\n"
      "     {\"key\": \"a\", \"effect\": \"NoSchedule\"},\n     {\"key\": \"b\", \"effect\": \"NoExecute\"}\n   "
      "]}}\n]}\n";
  auto cycled = WithTaintEffect(base, 1, 1, "NoSchedule");
  EXPECT_TRUE(cycled && *cycled == std::string(base).replace(base.find("\"NoExecute\""), 11, "\"NoSchedule\""));
  EXPECT_TRUE(!WithTaintEffect(base, 1, 2, "NoSchedule"));
  EXPECT_TRUE(!WithTaintEffect(base, 0, 0, "NoSchedule"));
  auto first = WithoutTaint(base, 1, 0);
  EXPECT_TRUE(first && *first == std::string(base).erase(base.find("{\"key\": \"a\""),
                                                         base.find("{\"key\": \"b\"") - base.find("{\"key\": \"a\"")));
  auto second = WithoutTaint(base, 1, 1);
  const auto a_end = base.find("}", base.find("{\"key\": \"a\"")) + 1;
  const auto b_end = base.find("}", base.find("{\"key\": \"b\"")) + 1;
  EXPECT_TRUE(second && *second == std::string(base).erase(a_end, b_end - a_end));
  auto none = WithoutTaint(*first, 1, 0);
  EXPECT_TRUE(none && none->find("\"taints\": []") != std::string::npos);
  // Cordon adds spec.unschedulable after the last spec member; uncordon removes it again.
  auto cordoned = WithUnschedulable(base, 1, true);
  EXPECT_TRUE(cordoned && *cordoned == std::string(base).replace(base.find("]}}"), 3, "], \"unschedulable\": true}}"));
  auto uncordoned = WithUnschedulable(*cordoned, 1, false);
  EXPECT_TRUE(uncordoned && *uncordoned == base);
  auto no_spec = WithUnschedulable(R"({"items": [{"kind": "Node", "metadata": {}}]})", 0, true);
  EXPECT_TRUE(no_spec &&
              *no_spec == R"({"items": [{"kind": "Node", "metadata": {}, "spec": { "unschedulable": true }}]})");
  auto back = WithUnschedulable(*no_spec, 0, false);
  EXPECT_TRUE(back && *back == R"({"items": [{"kind": "Node", "metadata": {}}]})");
  auto again = WithUnschedulable(R"({"items": [{"spec": {"unschedulable": false}}]})", 0, true);
  EXPECT_TRUE(again && *again == R"({"items": [{"spec": {"unschedulable": true}}]})");
}

TEST(JsonTextTest, Toleration) {
  const std::string tol = TolerationFor("dedicated", "gpu", "NoSchedule");
  EXPECT_TRUE(tol == R"({ "key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule" })");
  EXPECT_TRUE(TolerationFor("k", "", "NoExecute") == R"({ "key": "k", "operator": "Exists", "effect": "NoExecute" })");
  const Path pod{std::string("items"), std::size_t{0}, std::string("spec")};
  auto created = WithToleration(R"({"items": [{"spec": {"containers": []}}]})", pod, tol);
  EXPECT_TRUE(created && *created == R"({"items": [{"spec": {"containers": [], "tolerations": [ )" + tol + " ]}}]}");
  auto appended = WithToleration(*created, pod, "{}");
  EXPECT_TRUE(appended &&
              *appended == R"({"items": [{"spec": {"containers": [], "tolerations": [ )" + tol + ", {} ]}}]}");
  auto empty = WithToleration(R"({"items": [{"spec": {"tolerations": []}}]})", pod, "{}");
  EXPECT_TRUE(empty && *empty == R"({"items": [{"spec": {"tolerations": [ {} ]}}]})");
  const Path tmpl{std::string("items"), std::size_t{0}, std::string("spec"), std::string("template"),
                  std::string("spec")};
  auto workload = WithToleration(R"({"items": [{"spec": {"template": {"spec": {}}}}]})", tmpl, "{}");
  EXPECT_TRUE(workload && *workload == R"({"items": [{"spec": {"template": {"spec": { "tolerations": [ {} ] }}}}]})");
  EXPECT_TRUE(!WithToleration(R"({"items": [{"spec": {"tolerations": 1}}]})", pod, "{}"));
}

}  // namespace
