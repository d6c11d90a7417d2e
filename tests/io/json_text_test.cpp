// The JSON reader behind large imports: ParseJsonValue builds what Json::parse builds, leaves out exactly the
// values json_text.h lists (and nothing else) under Unread::kLeaveOut, and keeps the depth limit where the value
// sits in the whole text; CheckJsonSyntax reports what ParseJsonDocuments would; ParseScenario, which reads a List
// an item at a time, gives the same scenario and the same errors as parsing every document first
// (ParseScenarioDocuments over ReadDocuments), on every preset, golden input and bad input.
#include "core/io/json_text.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <random>

#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"
#include "tests/testing/table.h"

namespace kplace::io {
namespace {

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

Json Whole(std::string_view text, Unread unread) { return ParseJsonValue(text, 0, text.size(), 0, unread); }

// What kubectl prints for a Pod, with everything kplace never reads.
const char* kPod = R"({
  "apiVersion": "v1", "kind": "Pod",
  "metadata": {
    "name": "web-7d9f-abcde", "namespace": "shop", "labels": {"app": "web"},
    "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"v1\"}\n", "team": "a"},
    "managedFields": [{"manager": "kubectl", "fieldsV1": {"f:metadata": {"f:labels": {".": {}}}}}],
    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9f", "controller": true}]
  },
  "spec": {
    "containers": [
      {"name": "main", "image": "nginx:1.27", "env": [{"name": "A", "value": "1"}], "envFrom": [],
       "command": ["nginx"], "args": ["-g", "daemon off;"], "ports": [{"containerPort": 80}],
       "livenessProbe": {"httpGet": {"path": "/", "port": 80}}, "readinessProbe": {}, "startupProbe": null,
       "lifecycle": {"preStop": {"exec": {"command": ["sleep", "5"]}}},
       "volumeMounts": [{"name": "data", "mountPath": "/data"}],
       "resources": {"requests": {"cpu": "100m"}}}
    ],
    "initContainers": [{"name": "init", "image": "busybox", "command": ["true"], "restartPolicy": "Always"}],
    "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}],
    "nodeName": "node-1",
    "tolerations": [{"key": "env", "operator": "Exists"}]
  },
  "status": {
    "phase": "Running", "conditions": [{"type": "PodScheduled", "status": "True"}],
    "containerStatuses": [{"name": "main", "ready": true}], "initContainerStatuses": [],
    "ephemeralContainerStatuses": [], "startTime": "2026-01-01T00:00:00Z"
  }
})";

// JsonValueEnd skips strings a word at a time before memchr: a string's closing quote, after any run of escaped
// quotes and backslashes, is found wherever it falls (each byte of the first words, past them, at the text's end).
TEST(JsonText, ValueEndFindsEveryStringsClosingQuote) {
  for (std::size_t length = 0; length <= 40; ++length)
    for (std::size_t at = 0; at <= length; ++at)
      for (const std::string_view escape : {"", "\\\"", "\\\\", "\\\\\\\""}) {
        // A string of `length` plain bytes with an escape placed at `at`, inside an array, then more text.
        std::string body(length, 'x');
        body.insert(at, escape);
        const std::string value = "[\"" + body + "\",\"}\"]";
        for (const std::string_view after : {"", " ,{}"}) {
          const std::string text = value + std::string(after);
          EXPECT_EQ(JsonValueEnd(text, 0, 10), value.size()) << text;
          // A string on its own ends just past its closing quote; a string cut before it never ends.
          const std::string alone = "\"" + body + "\"";
          EXPECT_EQ(JsonValueEnd(alone + std::string(after), 0, 10), alone.size()) << alone;
          EXPECT_EQ(JsonValueEnd(std::string_view(alone).substr(0, alone.size() - 1), 0, 10), std::string_view::npos)
              << alone;
        }
      }
}

TEST(JsonText, KeepBuildsWhatJsonParseBuilds) {
  for (const char* text : {kPod, "[]", "{}", "null", "1", "-2", "18446744073709551615", "1.5e3", "\"s\"",
                           R"({"a": {"a": 1, "a": [1, {"b": null}]}, "c": [true, false, [], {}]})"}) {
    EXPECT_EQ(Whole(text, Unread::kKeep), Json::parse(text)) << text;
    EXPECT_EQ(ParseJsonText(text), Json::parse(text)) << text;
  }
  // Every preset, whole.
  for (const auto& e : std::filesystem::directory_iterator(std::string(KPLACE_SOURCE_DIR) + "/presets")) {
    const std::string text = testing::ReadFile(e.path().string());
    EXPECT_EQ(Whole(text, Unread::kKeep), Json::parse(text)) << e.path();
  }
}

TEST(JsonText, LeaveOutDropsExactlyWhatKplaceNeverReads) {
  Json want = Json::parse(kPod);
  want["metadata"].erase("managedFields");
  want["metadata"]["annotations"].erase("kubectl.kubernetes.io/last-applied-configuration");
  for (const char* k : {"env", "envFrom", "command", "args", "livenessProbe", "readinessProbe", "startupProbe",
                        "lifecycle", "volumeMounts"})
    want["spec"]["containers"][0].erase(k);
  want["spec"]["initContainers"][0].erase("command");
  for (const char* k : {"containerStatuses", "initContainerStatuses", "ephemeralContainerStatuses"})
    want["status"].erase(k);
  EXPECT_EQ(Whole(kPod, Unread::kLeaveOut), want);
  // The same fields in a workload's pod template.
  Json deployment = {{"kind", "Deployment"},
                     {"spec", {{"template", {{"spec", Json::parse(kPod)["spec"]}}}}},
                     {"status", {{"replicas", 3}}}};
  Json got = Whole(deployment.dump(), Unread::kLeaveOut);
  EXPECT_EQ(got["spec"]["template"]["spec"], want["spec"]);
  EXPECT_EQ(got["status"], deployment["status"]);
  // A Node: nodeInfo, addresses, daemonEndpoints and volumes go; images, allocatable and conditions stay.
  const Json node = {{"kind", "Node"},
                     {"metadata", {{"name", "n"}, {"managedFields", Json::array({1, 2})}}},
                     {"status",
                      {{"allocatable", {{"cpu", "4"}}},
                       {"images", {{{"names", {"a"}}, {"sizeBytes", 10}}}},
                       {"conditions", {{{"type", "Ready"}, {"status", "True"}}}},
                       {"nodeInfo", {{"kubeletVersion", "v1.33.1"}}},
                       {"addresses", {{{"type", "Hostname"}, {"address", "n"}}}},
                       {"daemonEndpoints", {{"kubeletEndpoint", {{"Port", 10250}}}}},
                       {"volumesAttached", Json::array()},
                       {"volumesInUse", Json::array()}}}};
  Json node_want = node;
  node_want["metadata"].erase("managedFields");
  for (const char* k : {"nodeInfo", "addresses", "daemonEndpoints", "volumesAttached", "volumesInUse"})
    node_want["status"].erase(k);
  EXPECT_EQ(Whole(node.dump(), Unread::kLeaveOut), node_want);
  // Only at those paths: the same keys elsewhere stay.
  const Json elsewhere = {{"spec", {{"env", 1}, {"template", {{"containers", {{{"env", 2}}}}}}}},
                          {"data", {{"managedFields", 3}, {"containerStatuses", 4}}},
                          {"managedFields", 5}};
  EXPECT_EQ(Whole(elsewhere.dump(), Unread::kLeaveOut), elsewhere);
  // Its syntax is still checked.
  EXPECT_EQ(ErrorOf([] { Whole(R"({"metadata": {"managedFields": [1 2]}})", Unread::kLeaveOut); }),
            "invalid JSON at line 1, column 35: syntax error while parsing array - unexpected number literal; "
            "expected ']'");
}

// Equal values of equal types all the way down (Json's == says 1 == 1u).
bool Identical(const Json& a, const Json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib)
      if (ia.key() != ib.key() || !Identical(ia.value(), ib.value())) return false;
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!Identical(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

// nlohmann's parse, and what Unread::kLeaveOut leaves out erased afterwards.
std::optional<Json> Reference(std::string_view text, Unread unread) {
  try {
    Json v = Json::parse(text);
    if (unread == Unread::kLeaveOut) EraseUnread(v);
    return v;
  } catch (const Json::exception&) {
    return std::nullopt;
  }
}

TEST(JsonText, FastPathAcceptsOnlyWhatNlohmannBuildsIdentically) {
  std::vector<std::string> seeds = {kPod,
                                    R"({"a": [1, -2, 0, -0, 123456789012345678, 1.5, 1e3, "x\u00e9\n\"\\\/", true,
                                         false, null, {}, []], "b": {"b": 1, "b": "2"}, "\u0041": "\ud83d\ude00"})",
                                    "\xEF\xBB\xBF{\"a\": 1}",
                                    "  [ ]  ",
                                    "\"\xC3\xA9\"",
                                    "{\"k\": \"\xE2\x82\xAC\"}"};
  for (const auto& e : std::filesystem::directory_iterator(std::string(KPLACE_SOURCE_DIR) + "/presets"))
    seeds.push_back(testing::ReadFile(e.path().string()));
  // Bytes that matter to a JSON lexer, and a few that do not.
  const std::string alphabet = "{}[]\":,\\/-+.0123456789eEtrufalsn \n\tu\x01\x7f\xC3\xA9\xED\xA0\x80\xF4\x90";
  std::mt19937 rng(7);
  std::size_t accepted = 0, declined = 0;
  // Also parsed in turn into one tree (as a List's items are, ParseJsonValueInto), written over whatever the round
  // before left in it, a half-written value after a decline included: the same answer, the same value.
  Json reused;
  for (int round = 0; round < 20000; ++round) {
    std::string text = seeds[static_cast<std::size_t>(round) % seeds.size()];
    if (text.size() > 4000) text = text.substr(0, 4000);  // a cut: mostly invalid
    const int edits = static_cast<int>(rng() % 4);
    for (int k = 0; k < edits && !text.empty(); ++k) {
      const std::size_t at = rng() % text.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          text[at] = c;
          break;
        case 1:
          text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        default:
          text.erase(at, 1);
      }
    }
    for (Unread unread : {Unread::kKeep, Unread::kLeaveOut}) {
      Json fast;
      const bool took = TryParseJsonFast(text, 0, unread, fast);
      ASSERT_EQ(TryParseJsonFast(text, 0, unread, reused), took) << text;
      if (!took) {
        ++declined;
        continue;
      }
      ++accepted;
      const std::optional<Json> want = Reference(text, unread);
      ASSERT_TRUE(want.has_value()) << "the fast path accepted what nlohmann rejects: " << text;
      ASSERT_TRUE(Identical(fast, *want)) << text;
      ASSERT_TRUE(Identical(reused, *want)) << text;
    }
  }
  EXPECT_GT(accepted, 1000u);
  EXPECT_GT(declined, 1000u);
}

// A List's items parsed in turn into one tree: each value is the one a fresh parse builds, whatever shape the value
// before had (more or fewer members, other types in the same places, repeated keys, what kLeaveOut leaves out), and
// what only nlohmann reads (a 19-digit integer) replaces a half-written tree.
TEST(JsonText, ParseJsonValueIntoWritesOverThePreviousValue) {
  const std::vector<std::string> items = {
      R"({"kind": "Pod", "metadata": {"name": "a", "labels": {"app": "web", "tier": "front"}}, "spec": {"x": [1, 2, 3]}})",
      R"({"kind": "Pod", "metadata": {"name": "b-with-a-longer-name"}, "spec": {"x": []}})",
      R"({"spec": "now a string", "kind": 7, "metadata": [{"name": "c"}, null, true]})",
      R"({"b": 1, "a": 2, "b": 3, "a": {"z": [{"y": "w"}]}})",
      R"({})",
      R"([])",
      R"("plain")",
      R"(-12)",
      R"({"metadata": {"name": "d", "managedFields": [{"manager": "kubectl"}],
          "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}", "keep": "me"}},
          "spec": {"containers": [{"name": "c", "env": [{"name": "E"}], "image": "i"}]}})",
      R"({"metadata": {"name": "e", "uid": 1234567890123456789}, "spec": {"x": [1.5, false]}})",
      R"({"kind": "Pod", "metadata": {"name": "a", "labels": {"app": "web", "tier": "front"}}, "spec": {"x": [1, 2, 3]}})"};
  for (Unread unread : {Unread::kKeep, Unread::kLeaveOut}) {
    Json into;
    for (int pass = 0; pass < 2; ++pass) {
      for (const std::string& text : items) {
        ParseJsonValueInto(text, 0, text.size(), 0, unread, into);
        const Json fresh = ParseJsonValue(text, 0, text.size(), 0, unread);
        EXPECT_TRUE(Identical(into, fresh)) << text << "\n" << into.dump() << "\n" << fresh.dump();
      }
    }
    ReleaseJson(into);
    EXPECT_TRUE(into.is_null());
  }
}

// Floats take the fast path too (an instance type's offering prices, a weight as 1.0): the double nlohmann builds,
// bit for bit; what it cannot build (an overflow) or reads differently (bad syntax) is left to it.
TEST(JsonText, FastPathBuildsFloatsAsNlohmannDoes) {
  for (const char* number : {"0.1", "-0.0", "0.0", "1.5", "-2.25e-3", "1E+2", "5e0", "3e-0", "0.30000000000000004",
                             "123456789.123456789e-5", "2.2250738585072011e-308", "4.9e-324", "1e-400",
                             "1.7976931348623157e308", "9007199254740993.0", "-1.0000000000000002"}) {
    const std::string text = std::string(R"({"price": )") + number + "}";
    Json fast;
    ASSERT_TRUE(TryParseJsonFast(text, 0, Unread::kKeep, fast)) << number;
    const Json want = Json::parse(text);
    ASSERT_TRUE(fast["price"].is_number_float()) << number;
    const double a = fast["price"].get<double>(), b = want["price"].get<double>();
    EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << number << ": " << a << " vs " << b;
  }
  // Declined: overflow, a number too long to copy, and what is no JSON number; the whole parse still answers as
  // nlohmann does (the overflow and bad syntax as errors, the long number as its value).
  const std::string long_number = "0." + std::string(70, '1');
  for (const std::string& number : {std::string("1e400"), std::string("-1e309"), long_number, std::string("1."),
                                    std::string(".5"), std::string("1.e5"), std::string("1e"), std::string("1e+"),
                                    std::string("01.5"), std::string("-.5"), std::string("1.5.2")}) {
    const std::string text = R"({"price": )" + number + "}";
    Json fast;
    EXPECT_FALSE(TryParseJsonFast(text, 0, Unread::kKeep, fast)) << number;
    const std::optional<Json> want = Reference(text, Unread::kKeep);
    const std::string error = ErrorOf([&] { ParseJsonText(text); });
    EXPECT_EQ(error.empty(), want.has_value()) << number << ": " << error;
    if (want) {
      EXPECT_TRUE(Identical(ParseJsonText(text), *want)) << number;
    }
  }
}

// A List whose one Node has a field nested `extra` containers deep inside the item.
std::string DeepList(int extra) {
  return R"({"kind":"List","items":[{"kind":"Node","metadata":{"name":"n"},"x":)" + std::string(extra, '[') +
         std::string(extra, ']') + "}]}";
}

TEST(JsonText, DepthCountsWhereTheValueSitsInTheWholeText) {
  int ok = 0, deep = 0;
  for (int extra = 120; extra <= 130; ++extra) {
    const std::string text = DeepList(extra);
    const std::string want = ErrorOf([&] { ParseJsonText(text); });
    // The item's text alone, 2 containers deep, as ParseScenario reads it.
    const auto begin = text.find("{\"kind\":\"Node\"");
    const auto end = text.size() - 2;
    EXPECT_EQ(ErrorOf([&] { ParseJsonValue(text, begin, end, 2, Unread::kLeaveOut); }), want) << extra;
    EXPECT_EQ(ErrorOf([&] { CheckJsonSyntax(text); }), want) << extra;
    EXPECT_EQ(ErrorOf([&] { ParseScenario(text); }).substr(0, want.size()), want) << extra;
    (want.empty() ? ok : deep)++;
  }
  EXPECT_GT(ok, 0);
  EXPECT_GT(deep, 0);
}

TEST(JsonText, CheckJsonSyntaxReportsWhatParsingWould) {
  const Json table = testing::LoadJson(testing::DataPath("io/bad_input.json"));
  int syntax = 0;
  for (const Json& c : table.at("cases")) {
    const Json& s = c.at("scenario");
    const std::string text = s.is_string() ? s.get<std::string>() : s.dump();
    const std::string parsed = ErrorOf([&] { ParseJsonDocuments(text); });
    EXPECT_EQ(ErrorOf([&] { CheckJsonSyntax(text); }), parsed) << c.at("name");
    syntax += !parsed.empty();
  }
  EXPECT_GT(syntax, 10);
}

// The scenario as the documents, each parsed whole, give it (what ParseScenario did before it read a List an item
// at a time).
Scenario ParseWhole(std::string_view text) {
  std::vector<std::size_t> numbers;
  return ParseScenarioDocuments(ReadDocuments(text, &numbers), numbers);
}

TEST(JsonText, ParseScenarioReadsItemByItemToTheSameResult) {
  int files = 0;
  for (const char* dir : {"/presets", "/tests/golden"}) {
    for (const auto& e : std::filesystem::directory_iterator(std::string(KPLACE_SOURCE_DIR) + dir)) {
      if (e.path().extension() != ".json") continue;
      const std::string text = testing::ReadFile(e.path().string());
      std::string want, got;
      const std::string want_error = ErrorOf([&] { want = Dump(ResultToJson(sim::Run(ParseWhole(text)))); });
      const std::string got_error = ErrorOf([&] { got = Dump(ResultToJson(sim::Run(ParseScenario(text)))); });
      EXPECT_EQ(got_error, want_error) << e.path();
      EXPECT_EQ(got, want) << e.path();
      ++files;
    }
  }
  EXPECT_GT(files, 20);
  // Several documents, typed lists without kinds, a list after an object.
  const std::string docs = R"({"kind": "NodeList", "apiVersion": "v1", "items": [
      {"metadata": {"name": "a", "managedFields": []}, "status": {"allocatable": {"cpu": "2", "pods": "10"}}}]}
    {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}]}}
    {"kind": "PodList", "items": [{"metadata": {"name": "q"}, "spec": {"containers": [{"name": "c"}]}}]})";
  const Scenario a = ParseScenario(docs), b = ParseWhole(docs);
  EXPECT_EQ(Dump(ResultToJson(sim::Run(a))), Dump(ResultToJson(sim::Run(b))));
  EXPECT_EQ(a.import.shape, "3 documents");
  EXPECT_EQ(a.item_labels, b.item_labels);
  EXPECT_EQ(a.item_labels.at(2), "document 3, items[0]");
}

TEST(JsonText, ParseScenarioFailsExactlyAsParsingEveryDocumentFirst) {
  const Json table = testing::LoadJson(testing::DataPath("io/bad_input.json"));
  int cases = 0;
  for (const Json& c : table.at("cases")) {
    const Json& s = c.at("scenario");
    const std::string text = s.is_string() ? s.get<std::string>() : s.dump();
    EXPECT_EQ(ErrorOf([&] { ParseScenario(text); }), ErrorOf([&] { ParseWhole(text); })) << c.at("name");
    ++cases;
  }
  EXPECT_GT(cases, 50);
  // An item that is wrong in the first document, a syntax error in the second: the syntax error, as before.
  const std::string text = "{\"kind\": \"List\", \"items\": [{\"kind\": \"Node\"}]}\n{\"kind\": tru}";
  EXPECT_EQ(ErrorOf([&] { ParseScenario(text); }), ErrorOf([&] { ParseWhole(text); }));
  EXPECT_NE(ErrorOf([&] { ParseScenario(text); }).find("invalid JSON at line 2"), std::string::npos);
  // A semantic error in the second document names it.
  const std::string second = "{\"kind\": \"List\", \"items\": []}\n{\"kind\": \"List\", \"items\": [{\"kind\": 1}]}";
  EXPECT_EQ(ErrorOf([&] { ParseScenario(second); }), "document 2, items[0]: kind: expected string, got integer");
}

// A view of n bytes that are never written (zero pages on demand): the size check comes before any reading.
struct HugeView {
  explicit HugeView(std::size_t n, char first) : size(n) {
    p = static_cast<char*>(
        mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0));
    if (p != MAP_FAILED) p[0] = first;
  }
  ~HugeView() {
    if (p != MAP_FAILED) munmap(p, size);
  }
  std::string_view view() const { return {p, size}; }
  std::size_t size;
  char* p;
};

TEST(JsonText, InputSizeLimitSaysWhatToDo) {
  const std::string want =
      "input is 1073741825 bytes; kplace reads at most 1073741824 (1 GiB): list only the kinds it simulates (kubectl "
      "get nodes,namespaces,pods,daemonsets,replicasets,statefulsets,jobs,poddisruptionbudgets,priorityclasses -A -o "
      "json) or print them unindented (kubectl get --raw, about a third the size)";
  EXPECT_EQ(ErrorOf([] { CheckInputSize(kMaxInputBytes + 1); }), want);
  EXPECT_EQ(ErrorOf([] { CheckInputSize(kMaxInputBytes); }), "");
  for (char first : {'{', 'a'}) {  // JSON, YAML
    HugeView huge(kMaxInputBytes + 1, first);
    ASSERT_NE(huge.p, MAP_FAILED);
    EXPECT_EQ(ErrorOf([&] { ParseScenario(huge.view()); }), want) << first;
  }
}

}  // namespace
}  // namespace kplace::io
