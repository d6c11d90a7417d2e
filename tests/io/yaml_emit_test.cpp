// Json -> YAML (core/io/yaml_text.h JsonToYaml), the playground's "Scenario (YAML)" export: kubectl's `-o yaml` look,
// and a property: every preset, every JSON file under tests/data and strings chosen to trip YAML 1.1 readers come
// back from the core's YAML reader (go-yaml v2's rules, as kubectl reads YAML) as the same JSON.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/io/json_text.h"
#include "core/io/yaml_text.h"
#include "tests/testing/table.h"

namespace kplace::io {
namespace {

// doc -> YAML -> the core's reader: one document equal to doc.
void ExpectRoundTrip(const Json& doc, const std::string& what) {
  const std::string yaml = JsonToYaml(doc);
  std::vector<Json> back;
  try {
    back = ParseYamlText(yaml);
  } catch (const InputError& e) {
    ADD_FAILURE() << what << ": " << e.what() << "\n" << yaml.substr(0, 2000);
    return;
  }
  if (doc.is_null()) {  // a null document is skipped, as kubectl skips it
    EXPECT_TRUE(back.empty()) << what;
    return;
  }
  ASSERT_EQ(back.size(), 1u) << what << "\n" << yaml.substr(0, 2000);
  EXPECT_EQ(back[0], doc) << what << "\n" << yaml.substr(0, 2000);
}

TEST(JsonToYaml, KubectlLook) {
  const Json doc = Json::parse(R"({"apiVersion":"v1","kind":"List","items":[
    {"kind":"Node","metadata":{"name":"n1","labels":{"zone":"a"}},"spec":{"taints":[{"key":"k","effect":"NoSchedule"}]}},
    {"kind":"Pod","spec":{"containers":[],"nodeSelector":{},"priority":10,"x":[[1,2],[]],"on":true,"f":1.5,"n":null}}]})");
  EXPECT_EQ(JsonToYaml(doc),
            "apiVersion: v1\n"
            "items:\n"
            "- kind: Node\n"
            "  metadata:\n"
            "    labels:\n"
            "      zone: a\n"
            "    name: n1\n"
            "  spec:\n"
            "    taints:\n"
            "    - effect: NoSchedule\n"
            "      key: k\n"
            "- kind: Pod\n"
            "  spec:\n"
            "    containers: []\n"
            "    f: 1.5\n"
            "    \"n\": null\n"
            "    nodeSelector: {}\n"
            "    \"on\": true\n"
            "    priority: 10\n"
            "    x:\n"
            "    - - 1\n"
            "      - 2\n"
            "    - []\n"
            "kind: List\n");
  EXPECT_EQ(JsonToYaml(Json::object()), "{}\n");
  EXPECT_EQ(JsonToYaml(Json::array()), "[]\n");
  EXPECT_EQ(JsonToYaml("x"), "x\n");
}

TEST(JsonToYaml, StringsThatWouldReadAsSomethingElseAreQuoted) {
  const std::vector<std::pair<std::string, std::string>> cases = {{"true", "\"true\""},
                                                                  {"yes", "\"yes\""},
                                                                  {"No", "\"No\""},
                                                                  {"y", "\"y\""},
                                                                  {"off", "\"off\""},
                                                                  {"~", "\"~\""},
                                                                  {"null", "\"null\""},
                                                                  {"", "\"\""},
                                                                  {"0777", "\"0777\""},
                                                                  {"0x1F", "\"0x1F\""},
                                                                  {"1_000", "\"1_000\""},
                                                                  {"1e3", "\"1e3\""},
                                                                  {".inf", "\".inf\""},
                                                                  {"-.INF", "\"-.INF\""},
                                                                  {".NaN", "\".NaN\""},
                                                                  {"12", "\"12\""},
                                                                  {"+1", "\"+1\""},
                                                                  {"0b101", "\"0b101\""},
                                                                  {"0o17", "\"0o17\""},
                                                                  {"1.", "\"1.\""},
                                                                  {"190:20:30", "\"190:20:30\""},
                                                                  {"2026-01-01", "\"2026-01-01\""},
                                                                  {"2026-01-01T00:00:00Z", "\"2026-01-01T00:00:00Z\""},
                                                                  {" lead", "\" lead\""},
                                                                  {"trail ", "\"trail \""},
                                                                  {"a: b", "\"a: b\""},
                                                                  {"a #b", "\"a #b\""},
                                                                  {"a:", "\"a:\""},
                                                                  {"- x", "\"- x\""},
                                                                  {"-x", "\"-x\""},
                                                                  {"*ref", "\"*ref\""},
                                                                  {"&a", "\"&a\""},
                                                                  {"!tag", "\"!tag\""},
                                                                  {"%x", "\"%x\""},
                                                                  {"@x", "\"@x\""},
                                                                  {"`x", "\"`x\""},
                                                                  {"[a]", "\"[a]\""},
                                                                  {"{a}", "\"{a}\""},
                                                                  {"|", "\"|\""},
                                                                  {">", "\">\""},
                                                                  {"'q'", "\"'q'\""},
                                                                  {"\"q\"", "\"\\\"q\\\"\""},
                                                                  {"#c", "\"#c\""},
                                                                  {"...", "\"...\""},
                                                                  {"---", "\"---\""},
                                                                  {"<<", "\"<<\""},
                                                                  {"?", "\"?\""},
                                                                  {"a\nb", "\"a\\nb\""},
                                                                  {"tab\there", "\"tab\\there\""},
                                                                  {"\x01", "\"\\x01\""},
                                                                  {"caf\xC3\xA9", "\"caf\xC3\xA9\""},
                                                                  {"\xE2\x80\xA8", "\"\\L\""},
                                                                  {"\xC2\x85", "\"\\N\""},
                                                                  // Plain: what kubectl writes plain.
                                                                  {"500m", "500m"},
                                                                  {"nginx:1.25", "nginx:1.25"},
                                                                  {"a#b", "a#b"},
                                                                  {".", "."},
                                                                  {"k:{\"name\":\"web\"}", "k:{\"name\":\"web\"}"},
                                                                  {"f:metadata", "f:metadata"},
                                                                  {"NoSchedule", "NoSchedule"},
                                                                  {"kubernetes.io/hostname", "kubernetes.io/hostname"},
                                                                  {"10.0.0.1", "10.0.0.1"},
                                                                  {"1.2.3", "1.2.3"}};
  for (const auto& [s, want] : cases) {
    EXPECT_EQ(JsonToYaml(Json(s)), want + "\n") << s;
    EXPECT_EQ(JsonToYaml(Json({{"v", s}})), "v: " + want + "\n") << s;
    ExpectRoundTrip(Json(s), s);
    ExpectRoundTrip(Json({{s, s}}), "key " + s);
    ExpectRoundTrip(Json::array({s, Json::array({s}), Json({{s, Json::array({s})}})}), "nested " + s);
  }
}

TEST(JsonToYaml, AdversarialRoundTrips) {
  std::vector<std::string> strings = {
      "\xEF\xBB\xBF"
      "bom",
      "a\r\nb",
      "trailing newline\n",
      "\n",
      " ",
      "  two",
      "a\\b",
      "quote\"inside",
      "it's",
      "x: y: z",
      "- - -",
      "--- x",
      "... x",
      "0",
      "-0",
      "00",
      "0.0",
      "+.5",
      "1e-400",
      "9223372036854775808",
      "18446744073709551616",
      "0x",
      "1:2",
      "-1:30",
      "1_0.5",
      "True",
      "TRUE",
      "On",
      "NULL",
      "Y",
      "n",
      "=",
      "!!str x",
      "&a *a",
      "x\x7fy",
      "ends with space ",
      "emoji \xF0\x9F\x98\x80",
      "\xE2\x80\xA9para",
      "c1 \xC2\x80\xC2\x9F",
      "\xEF\xBF\xBE\xEF\xBF\xBF",
      "key?",
      "? key",
      ":x",
      "x :y"};
  std::string long_key(1500, 'k');
  strings.push_back(long_key);
  strings.push_back(long_key + ": v");
  for (const auto& s : strings) {
    ExpectRoundTrip(Json(s), s);
    ExpectRoundTrip(Json({{s, s}, {"list", Json::array({s, Json::object({{s, Json::array({s})}})})}}), "in " + s);
  }
  for (const Json& v : {Json(0), Json(-1), Json(1.5), Json(1e300), Json(-2.5e-7), Json(true), Json(false), Json(),
                        Json(std::uint64_t{18446744073709551615u}), Json(std::int64_t{-9223372036854775807 - 1})}) {
    ExpectRoundTrip(Json({{"v", v}}), v.dump());
    ExpectRoundTrip(Json::array({v, Json::array({v})}), v.dump());
  }
  ExpectRoundTrip(Json(), "null");
  ExpectRoundTrip(Json::parse(R"({"a":{"b":{"c":[[[{}]],[[]],{"d":[{"e":[]}]}]}}})"), "nesting");
}

TEST(JsonToYaml, EveryPresetAndFixtureRoundTrips) {
  int files = 0;
  for (const char* dir : {"presets", "tests/data", "tests/golden"}) {
    for (const auto& e :
         std::filesystem::recursive_directory_iterator(std::filesystem::path(KPLACE_SOURCE_DIR) / dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".json") continue;
      std::vector<Json> docs;
      try {
        docs = ParseJsonDocuments(testing::ReadFile(e.path().string()));
      } catch (const InputError&) {
        continue;  // a fixture of bad JSON
      }
      for (const Json& doc : docs) ExpectRoundTrip(doc, e.path().string());
      ++files;
    }
  }
  EXPECT_GT(files, 50);
}

}  // namespace
}  // namespace kplace::io
