// YAML -> Json as kubectl converts it (core/io/yaml_text.h). Every expected value follows from the upstream rules the
// implementation cites: k8s.io/apimachinery pkg/util/yaml/decoder.go (stream splitting, JSON sniffing),
// sigs.k8s.io/yaml yaml.go (keys to strings, encoding/json output) and go.yaml.in/yaml/v2 resolve.go and decode.go
// (YAML 1.1 scalars, merge keys, aliases). The kubectl fixture tests/data/io/kubectl-get-pods.yaml is shaped like
// `kubectl get pods -o yaml` output; kubectl-get-pods.json is the same List as `-o json` prints it.
#include "core/io/yaml_text.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace kplace::io {
namespace {

std::string Fixture(const char* name) {
  std::ifstream f(std::string(KPLACE_SOURCE_DIR) + "/tests/data/io/" + name);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

std::string ErrorOf(std::string_view text) {
  try {
    auto docs = ParseYamlText(text);
    return "<no error: " + std::to_string(docs.size()) + " documents>";
  } catch (const InputError& e) {
    return e.what();
  }
}

// The single document of text.
Json One(std::string_view text) {
  auto docs = ParseYamlText(text);
  EXPECT_EQ(docs.size(), 1u) << text;
  return docs.empty() ? Json() : docs[0];
}

// The value of key `v` in a one-line mapping `v: <scalar>`.
Json Value(const std::string& scalar) { return One("v: " + scalar + "\n").at("v"); }

TEST(YamlText, KubectlGetPodsYamlEqualsItsJson) {
  std::string yaml = Fixture("kubectl-get-pods.yaml");
  ASSERT_FALSE(yaml.empty());
  Json doc = One(yaml);
  EXPECT_EQ(doc, ParseJsonText(Fixture("kubectl-get-pods.json")));

  EXPECT_EQ(doc.at("kind"), "List");
  ASSERT_EQ(doc.at("items").size(), 2u);
  const Json& web = doc["items"][0];
  // A literal block (`|`) keeps its lines and one final newline; the annotation holds JSON text, left as text.
  EXPECT_EQ(web["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"],
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"annotations\":{},\"labels\":{\"app\":\"web\"},"
            "\"name\":\"web-0\",\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"image\":\"nginx:1.25\","
            "\"name\":\"web\",\"resources\":{\"requests\":{\"cpu\":\"250m\",\"memory\":\"64Mi\"}}}]}}\n");
  EXPECT_EQ(web["spec"]["containers"][0]["args"][1], "set -e\necho \"starting\"\nexec nginx -g 'daemon off;'\n");
  // managedFields: `.: {}` and keys that look like JSON (`k:{"name":"web"}`) are plain keys.
  EXPECT_EQ(web["metadata"]["managedFields"][0]["fieldsV1"]["f:spec"]["f:containers"]["k:{\"name\":\"web\"}"]["."],
            Json::object());
  EXPECT_EQ(web["metadata"]["managedFields"][1]["subresource"], "status");
  // Quoted scalars stay strings ("True", "12345", "1"); plain ones resolve (true, 0, 80, null).
  EXPECT_EQ(web["status"]["conditions"][1]["status"], "True");
  EXPECT_EQ(web["metadata"]["resourceVersion"], "12345");
  EXPECT_EQ(web["metadata"]["labels"]["tier"], "1");
  EXPECT_TRUE(web["status"]["conditions"][1]["lastProbeTime"].is_null());
  EXPECT_EQ(web["status"]["containerStatuses"][0]["ready"], true);
  EXPECT_TRUE(web["status"]["containerStatuses"][0]["restartCount"].is_number_integer());
  EXPECT_EQ(web["spec"]["containers"][0]["ports"][0]["containerPort"], 80);
  EXPECT_EQ(web["status"]["hostIP"], "172.18.0.2");
  // A single-quoted scalar folded over two lines: the line break becomes one space.
  EXPECT_EQ(doc["items"][1]["status"]["conditions"][0]["message"],
            "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption "
            "victims found for incoming pod.");
  EXPECT_EQ(doc["metadata"]["resourceVersion"], "");
}

TEST(YamlText, MultiDocumentStream) {
  // decoder.go's YAMLReader: a line starting with `---` and holding nothing else but a comment ends a document; a
  // first `---` stays in its document. Empty, comment-only and null documents are skipped (cli-runtime's
  // StreamVisitor skips "null"); `...` ends a document and go-yaml reads nothing after it up to the next `---`.
  const std::string text =
      "# a manifest\n"              // 1
      "---\n"                       // 2: separator with only a comment before: that chunk is skipped
      "apiVersion: v1\n"            // 3
      "kind: Namespace\n"           // 4
      "---   # trailing comment\n"  // 5
      "\n"                          // 6: an empty document
      "---\n"                       // 7
      "# only a comment\n"          // 8
      "---\n"                       // 9
      "kind: ConfigMap\n"           // 10
      "data: {k: v}\n"              // 11
      "...\n"                       // 12
      "ignored: after the end\n"    // 13
      "---\n"                       // 14
      "~\n"                         // 15: null
      "---\n"                       // 16
      "- a list\n";                 // 17
  std::vector<std::pair<YamlDocumentInfo, Json>> seen;
  ForEachYamlDocument(text, [&](Json&& j, const YamlDocumentInfo& info) { seen.emplace_back(info, std::move(j)); });
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].second, Json::parse(R"({"apiVersion": "v1", "kind": "Namespace"})"));
  EXPECT_EQ(seen[0].first.number, 2u);
  EXPECT_EQ(seen[0].first.line, 3u);
  EXPECT_EQ(seen[1].second, Json::parse(R"({"kind": "ConfigMap", "data": {"k": "v"}})"));
  EXPECT_EQ(seen[1].first.number, 5u);
  EXPECT_EQ(seen[1].first.line, 10u);
  EXPECT_EQ(seen[2].second, Json::parse(R"(["a list"])"));
  EXPECT_EQ(seen[2].first.number, 7u);
  EXPECT_EQ(ParseYamlText(text).size(), 3u);

  EXPECT_TRUE(ParseYamlText("").empty());
  EXPECT_TRUE(ParseYamlText("# nothing\n---\n---\n").empty());
  // CRLF line endings (bufio.ReadLine drops them) and a last line without a newline.
  EXPECT_EQ(ParseYamlText("a: 1\r\n---\r\nb: |\r\n  x\r\n  y"),
            (std::vector<Json>{Json::parse(R"({"a": 1})"), Json::parse(R"({"b": "x\ny"})")}));
  // `---` followed by anything but a comment is refused by the reader, before the document it ends is decoded.
  EXPECT_EQ(ErrorOf("a: 1\n--- !tag\nb: 2\n"), "invalid YAML at line 2, column 1: invalid document separator: !tag");
  EXPECT_EQ(ErrorOf("----\n"), "invalid YAML at line 1, column 1: invalid document separator: -");
}

TEST(YamlText, Yaml11Scalars) {
  // resolve.go: plain scalars only; YAML 1.1 booleans in three spellings each, y/n included.
  for (const char* t : {"on", "On", "ON", "yes", "Yes", "YES", "y", "Y", "true", "True", "TRUE"})
    EXPECT_EQ(Value(t), true) << t;
  for (const char* f : {"off", "Off", "OFF", "no", "No", "NO", "n", "N", "false", "False", "FALSE"})
    EXPECT_EQ(Value(f), false) << f;
  for (const char* s : {"oN", "yES", "tRUE", "enabled", "'yes'", "\"on\""}) EXPECT_TRUE(Value(s).is_string()) << s;
  for (const char* n : {"~", "null", "Null", "NULL", ""}) EXPECT_TRUE(Value(n).is_null()) << n;
  EXPECT_EQ(Value("nULL"), "nULL");
  EXPECT_EQ(Value("'~'"), "~");

  // strconv.ParseInt(s, 0, 64) after dropping underscores: a leading 0 is octal, 0o/0x/0b prefixes, signs.
  EXPECT_EQ(Value("0777"), 511);
  EXPECT_EQ(Value("0o17"), 15);
  EXPECT_EQ(Value("0x1F"), 31);
  EXPECT_EQ(Value("0x_1F"), 31);
  EXPECT_EQ(Value("0b101"), 5);
  EXPECT_EQ(Value("-0b101"), -5);
  EXPECT_EQ(Value("1_000"), 1000);
  EXPECT_EQ(Value("1_"), 1);
  EXPECT_EQ(Value("+12"), 12);
  EXPECT_EQ(Value("-0x10"), -16);
  EXPECT_EQ(Value("\"0777\""), "0777");
  EXPECT_EQ(Value("'1_000'"), "1_000");
  // 08 is no octal int, but matches yamlStyleFloat: the float 8, which encoding/json writes as 8.
  EXPECT_EQ(Value("08"), 8);
  EXPECT_TRUE(Value("08").is_number_integer());
  EXPECT_EQ(Value("0x"), "0x");
  EXPECT_EQ(Value("0b2"), "0b2");
  EXPECT_EQ(Value("_1"), "_1");
  EXPECT_EQ(Value("1.2.3"), "1.2.3");
  EXPECT_EQ(Value("1:20"), "1:20");  // no base-60 in go-yaml

  // Floats: yamlStyleFloat, or a leading '.'; encoding/json writes integral values below 1e21 without a point.
  EXPECT_EQ(Value("1e3"), 1000);
  EXPECT_TRUE(Value("1e3").is_number_integer());
  EXPECT_TRUE(Value("1.0").is_number_integer());
  EXPECT_EQ(Value(".5"), 0.5);
  EXPECT_EQ(Value("-.5e1"), -5);
  EXPECT_EQ(Value("1.5"), 1.5);
  EXPECT_EQ(Value("6.02e23"), 6.02e23);
  EXPECT_TRUE(Value("1e21").is_number_float());
  EXPECT_EQ(Value("1e-400"), 0);
  EXPECT_EQ(Value("1e400"), "1e400");  // out of range: not a float, so a string
  EXPECT_EQ(Value(".5_5"), 0.55);      // ParseFloat takes underscores between digits
  EXPECT_EQ(Value("1.5e"), "1.5e");
  EXPECT_EQ(Value("."), ".");
  // .inf and .nan resolve to floats that encoding/json refuses.
  EXPECT_EQ(ErrorOf("v: .inf\n"), "invalid YAML at line 1, column 4: json: unsupported value: +Inf");
  EXPECT_EQ(ErrorOf("v: -.Inf\n"), "invalid YAML at line 1, column 4: json: unsupported value: -Inf");
  EXPECT_EQ(ErrorOf("- .NaN\n"), "invalid YAML at line 1, column 3: json: unsupported value: NaN");
  EXPECT_EQ(Value("'.inf'"), ".inf");

  // Timestamps decode into interface{} as their own text.
  EXPECT_EQ(Value("2001-12-14"), "2001-12-14");
  EXPECT_EQ(Value("2001-12-14t21:59:43.10-05:00"), "2001-12-14t21:59:43.10-05:00");
  // The merge key's text as a value is just "<<".
  EXPECT_EQ(Value("<<"), "<<");
}

TEST(YamlText, BigIntegers) {
  // ParseInt, then ParseUint, then ParseFloat: int64, uint64, then float64 (written as JSON digits up to 1e21).
  EXPECT_EQ(Value("9223372036854775807"), Json(std::int64_t{9223372036854775807}));
  EXPECT_EQ(Value("-9223372036854775808"), Json(std::numeric_limits<std::int64_t>::min()));
  Json u = Value("18446744073709551615");
  EXPECT_TRUE(u.is_number_unsigned());
  EXPECT_EQ(u.get<std::uint64_t>(), 18446744073709551615u);
  // One past uint64: the float 2^64, written "18446744073709551616", which JSON reads back as a float.
  Json over = Value("18446744073709551616");
  EXPECT_TRUE(over.is_number_float());
  EXPECT_EQ(over.get<double>(), 18446744073709551616.0);
  // Below int64 (ParseUint takes no sign): the float -2^63, whose JSON text is int64's minimum again.
  Json under = Value("-9223372036854775809");
  EXPECT_TRUE(under.is_number_integer());
  EXPECT_EQ(under.get<std::int64_t>(), std::numeric_limits<std::int64_t>::min());
  // "+" keeps ParseUint away too: float.
  EXPECT_TRUE(Value("+18446744073709551615").is_number_float());
  Json huge = Value("123456789012345678901234567890");
  EXPECT_TRUE(huge.is_number_float());
  EXPECT_EQ(huge.get<double>(), 1.2345678901234568e29);
  EXPECT_EQ(huge.dump(), "1.2345678901234568e+29");
}

TEST(YamlText, Tags) {
  // decode.go: a tag makes even a quoted scalar resolve; resolve's deferred check refuses a mismatch.
  EXPECT_EQ(Value("!!str 123"), "123");
  EXPECT_EQ(Value("!!str yes"), "yes");
  EXPECT_EQ(Value("!!str ~"), "~");
  EXPECT_EQ(Value("!!int \"12\""), 12);
  EXPECT_EQ(Value("!!bool \"on\""), true);
  EXPECT_EQ(Value("!!float 1"), 1);  // an int under !!float becomes float64(1): JSON 1
  EXPECT_EQ(Value("!!float '1.5'"), 1.5);
  EXPECT_TRUE(Value("!!null ''").is_null());
  EXPECT_EQ(Value("!!timestamp 2001-12-14"), "2001-12-14");
  // Tags go-yaml cannot resolve (custom ones, the non-specific `!`) keep the text.
  EXPECT_EQ(Value("! 123"), "123");
  EXPECT_EQ(Value("!custom 5"), "5");
  EXPECT_EQ(Value("!!map x"), "x");
  // !!binary: base64, decoded.
  EXPECT_EQ(Value("!!binary aGVsbG8="), "hello");
  EXPECT_EQ(Value("!!binary |\n  aGVs\n  bG8=\n"), "hello");
  EXPECT_EQ(Value("!!binary /w=="), "\xEF\xBF\xBD");  // byte 0xFF: encoding/json writes U+FFFD
  EXPECT_EQ(ErrorOf("v: !!binary a\n"),
            "invalid YAML at line 1, column 4: !!binary value contains invalid base64 data");
  EXPECT_EQ(ErrorOf("v: !!int abc\n"), "invalid YAML at line 1, column 4: cannot decode !!str `abc` as a !!int");
  EXPECT_EQ(ErrorOf("v: !!bool 1\n"), "invalid YAML at line 1, column 4: cannot decode !!int `1` as a !!bool");
  EXPECT_EQ(ErrorOf("v: !!null x\n"), "invalid YAML at line 1, column 4: cannot decode !!str `x` as a !!null");
  EXPECT_EQ(ErrorOf("v: !!timestamp 2001-13-01\n"),
            "invalid YAML at line 1, column 4: cannot decode !!str `2001-13-01` as a !!timestamp");
  // uint64 is no int64 or int: resolve.go's !!float fix-up does not apply.
  EXPECT_EQ(ErrorOf("v: !!float 18446744073709551615\n"),
            "invalid YAML at line 1, column 4: cannot decode !!int `18446744073709551615` as a !!float");
}

TEST(YamlText, MapKeys) {
  // sigs.k8s.io/yaml: non-string keys become strings; ints in decimal, floats as float32 %g, bools as true/false.
  Json keys =
      One("y: plain y is true\n"
          "\"y\": quoted y\n"
          "0x10: hex\n"
          "1.5: float\n"
          "1e6: million\n"
          "0.00001: tiny\n"
          "0.0001: small\n"
          "100.25: hundred\n"
          "-0.0: minus zero\n"
          "3.14159265358979: pi\n"
          ".inf: inf\n"
          "-.inf: minus inf\n"
          ".nan: nan\n"
          "1e300: past float32\n"
          "off: false key\n"
          "'01': quoted\n"
          "2001-12-14: date\n");
  EXPECT_EQ(keys, Json::parse(R"({"true": "plain y is true", "y": "quoted y", "16": "hex", "1.5": "float",
      "1e+06": "million", "1e-05": "tiny", "0.0001": "small", "100.25": "hundred", "-0": "minus zero", "3.1415927": "pi", ".inf": "past float32", "-.inf": "minus inf",
      ".nan": "nan", "false": "false key", "01": "quoted", "2001-12-14": "date"})"));
  // Later duplicates win (Go map assignment).
  EXPECT_EQ(One("a: 1\na: 2\n"), Json::parse(R"({"a": 2})"));
  EXPECT_EQ(ErrorOf("~: x\n"), "invalid YAML at line 1, column 1: a null map key cannot become a JSON object key");
  EXPECT_EQ(ErrorOf("a: 1\n18446744073709551615: x\n"),
            "invalid YAML at line 2, column 1: map key 18446744073709551615 is above the int64 range and cannot "
            "become a JSON object key");
  EXPECT_EQ(ErrorOf("? [a, b]\n: x\n"),
            "invalid YAML at line 1, column 3: invalid map key: a sequence cannot be a map key");
  EXPECT_EQ(ErrorOf("x: 1\n{a: 1}: x\n"),
            "invalid YAML at line 2, column 1: invalid map key: a mapping cannot be a map key");
  // The same first in the stream reads as JSON first, and kubectl reports the JSON error when both readings fail.
  EXPECT_EQ(ErrorOf("{a: 1}: x\n"),
            "invalid JSON at line 1, column 2: syntax error while parsing object key - invalid literal; last read: "
            "'{a'; expected string literal");
}

TEST(YamlText, AnchorsAliasesAndMergeKeys) {
  Json doc =
      One("base: &base {cpu: 100m, memory: 64Mi}\n"
          "more: &more {memory: 128Mi, gpu: 1}\n"
          "copy: *base\n"
          "merged:\n"
          "  <<: *base\n"
          "  cpu: 200m\n"
          "both:\n"
          "  <<: [*base, *more]\n"
          "list: &l [a, b]\n"
          "again: *l\n"
          "scalar: &s 0777\n"
          "alias_scalar: *s\n");
  EXPECT_EQ(doc["copy"], Json::parse(R"({"cpu": "100m", "memory": "64Mi"})"));
  EXPECT_EQ(doc["merged"], Json::parse(R"({"cpu": "200m", "memory": "64Mi"})"));
  // A sequence merges from its last mapping to its first: the earlier mapping wins.
  EXPECT_EQ(doc["both"], Json::parse(R"({"cpu": "100m", "memory": "64Mi", "gpu": 1})"));
  EXPECT_EQ(doc["again"], Json::parse(R"(["a", "b"])"));
  EXPECT_EQ(doc["alias_scalar"], 511);
  // go-yaml v2 sets merged entries in order into the same map: a merge after a key overrides it.
  EXPECT_EQ(One("m: &m {a: 1}\nx:\n  a: 0\n  <<: *m\n")["x"], Json::parse(R"({"a": 1})"));
  // An inline mapping, and a quoted "<<" that is an ordinary key.
  EXPECT_EQ(One("x:\n  <<: {a: 1, b: 2}\n  b: 3\n  \"<<\": q\n")["x"], Json::parse(R"({"a": 1, "b": 3, "<<": "q"})"));
  // An anchor redefined later: aliases see the latest definition before them.
  EXPECT_EQ(One("a: &x 1\nb: *x\nc: &x 2\nd: *x\n"), Json::parse(R"({"a": 1, "b": 1, "c": 2, "d": 2})"));
  // An aliased scalar as a key is converted like the scalar.
  EXPECT_EQ(One("a: &k 12\n*k : twelve\n"), Json::parse(R"({"a": 12, "12": "twelve"})"));

  EXPECT_EQ(ErrorOf("x:\n  <<: 1\n"),
            "invalid YAML at line 2, column 7: map merge requires map or sequence of maps as the value");
  EXPECT_EQ(ErrorOf("l: &l [a]\nx:\n  <<: *l\n"),
            "invalid YAML at line 3, column 7: map merge requires map or sequence of maps as the value");
  EXPECT_EQ(ErrorOf("x:\n  <<: [{a: 1}, b]\n"),
            "invalid YAML at line 2, column 16: map merge requires map or sequence of maps as the value");
  EXPECT_EQ(ErrorOf("a: *nowhere\n"), "invalid YAML at line 1, column 4: unknown anchor 'nowhere' referenced");
  EXPECT_EQ(ErrorOf("a: &a [1, *a]\n"), "invalid YAML at line 1, column 11: anchor 'a' value contains itself");
}

TEST(YamlText, JsonDocuments) {
  // A stream starting with `{` is read as JSON values first (decoder.go's YAMLOrJSONDecoder), with JSON's numbers.
  auto docs = ParseYamlText("{\"a\": 1.0, \"b\": [true, null]}\n{\"c\": \"d\"}\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_TRUE(docs[0]["a"].is_number_float());
  EXPECT_EQ(docs[1], Json::parse(R"({"c": "d"})"));
  // JSON in a YAML stream is YAML (a superset), with YAML's number rules.
  docs = ParseYamlText("a: 1\n---\n{\"b\": 1.0, \"c\": [1, {\"d\": \"e\"}]}\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(docs[1], Json::parse(R"({"b": 1, "c": [1, {"d": "e"}]})"));
  EXPECT_TRUE(docs[1]["b"].is_number_integer());
  // One JSON value, then YAML: the reader switches after the first failure.
  EXPECT_EQ(ParseYamlText("{\"a\": 1}\n---\nb: 2\n"),
            (std::vector<Json>{Json::parse(R"({"a": 1})"), Json::parse(R"({"b": 2})")}));
  // Not JSON but valid YAML: a flow mapping.
  EXPECT_EQ(ParseYamlText("{\"a\": 1, b: yes,}"), std::vector<Json>{Json::parse(R"({"a": 1, "b": true})")});
  // Neither: kubectl reports the JSON error.
  EXPECT_EQ(ErrorOf("{\"a\": 1\n"),
            "invalid JSON at line 2, column 1: syntax error while parsing object - unexpected end of input; expected "
            "'}'");
  // After two JSON values the stream is JSON: a third bad one is a JSON error, in the stream's lines.
  EXPECT_EQ(ErrorOf("{\"a\": 1}\n{\"b\": 2}\n{\"c\" 3}\n"),
            "invalid JSON in document 3 at line 3, column 6: syntax error while parsing object separator - unexpected "
            "number literal; expected ':'");
}

TEST(YamlText, NestedFlowCollections) {
  EXPECT_EQ(One("{a: [1, {b: [c, {d: e}]}], f: {}, g: [], h: [[], [[x]]]}"),
            Json::parse(R"({"a": [1, {"b": ["c", {"d": "e"}]}], "f": {}, "g": [], "h": [[], [["x"]]]})"));
  EXPECT_EQ(One("- [a, b]\n- {c: [d, {e: f}]}\n- - g\n  - [h]\n"),
            Json::parse(R"([["a", "b"], {"c": ["d", {"e": "f"}]}, ["g", ["h"]]])"));
  // In a flow collection, `:` without a space does not separate: `a:1` is one plain scalar.
  EXPECT_EQ(One("{a:1}"), Json::parse(R"({"a:1": null})"));
}

TEST(YamlText, BadInputNamesLineAndColumn) {
  EXPECT_EQ(ErrorOf("a:\n\tb: 1\n"),
            "invalid YAML at line 2, column 1: found character that cannot start any token (while scanning for the "
            "next token at line 2, column 1)");
  EXPECT_EQ(ErrorOf("a: \"unclosed\nb: 2\n"),
            "invalid YAML at line 3, column 1: found unexpected end of stream (while scanning a quoted scalar at "
            "line 1, column 4)");
  EXPECT_EQ(ErrorOf("a:\n  b: 1\n c: 2\n"),
            "invalid YAML at line 3, column 2: did not find expected key (while parsing a block mapping at line 1, "
            "column 1)");
  EXPECT_EQ(ErrorOf("a: b: c\n"), "invalid YAML at line 1, column 5: mapping values are not allowed in this context");
  // The document number from the second document on; lines count from the top of the stream.
  EXPECT_EQ(ErrorOf("a: 1\n---\nb: [1,\n"),
            "invalid YAML in document 2 at line 4, column 1: did not find expected node content (while parsing a "
            "flow node at line 4, column 1)");
  EXPECT_EQ(ErrorOf("a: \x01\n"), "invalid YAML at line 1, column 4: control characters are not allowed");
  EXPECT_EQ(ErrorOf("a: \xff\n"), "invalid YAML at line 1, column 4: invalid leading UTF-8 octet");
  // Nothing half-done: the good first document is not returned either.
  EXPECT_THROW(ParseYamlText("a: 1\n---\n: : :\n"), InputError);
}

TEST(YamlText, DepthLimit) {
  auto nested = [](int n) {
    return std::string(static_cast<std::size_t>(n), '[') + std::string(static_cast<std::size_t>(n), ']');
  };
  EXPECT_NO_THROW(ParseYamlText(nested(kMaxJsonDepth)));
  EXPECT_EQ(ErrorOf(nested(kMaxJsonDepth + 1)), "invalid YAML at line 1, column 129: nested deeper than 128 levels");
  // Block nesting counts the same, and so does a deep anchor copied deeper by an alias.
  std::string block;
  for (int i = 0; i < kMaxJsonDepth + 1; ++i) block += std::string(static_cast<std::size_t>(i) * 2, ' ') + "k:\n";
  EXPECT_EQ(ErrorOf(block), "invalid YAML at line 129, column 257: nested deeper than 128 levels");
  std::string deep = "a: &d " + nested(100) + "\nb: " + nested(27) + "\n";
  deep.replace(deep.rfind('['), 1, "[*d,");  // *d in the root mapping and 27 sequences: 1 + 27 + 100 = 128
  EXPECT_NO_THROW(ParseYamlText(deep));
  std::string deeper = "a: &d " + nested(100) + "\nb: " + nested(28) + "\n";
  deeper.replace(deeper.rfind('['), 1, "[*d,");
  EXPECT_EQ(ErrorOf(deeper), "invalid YAML at line 2, column 32: nested deeper than 128 levels");
}

TEST(YamlText, AliasExpansionIsBounded) {
  // The billion laughs: each level holds nine aliases of the one before.
  std::string laughs = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    std::string prev(1, static_cast<char>(c - 1));
    laughs += std::string(1, c) + ": &" + c + " [";
    for (int k = 0; k < 9; ++k) laughs += (k ? ",*" : "*") + prev;
    laughs += "]\n";
  }
  // decode.go counts 13 nodes for the document, `a` and its items; 99 for `b` (90 aliased), 911 for `c`. The
  // fourth *c in `d` brings the aliased share to 4630 of 4671 nodes, over 99%.
  EXPECT_EQ(ErrorOf(laughs), "invalid YAML at line 4, column 17: document contains excessive aliasing");
  // Few aliases of a big scalar: go-yaml's node ratio never trips, the byte bound does (2 * 300,043 + 1 MiB; each
  // alias adds 300,001: the sixth passes it).
  std::string big = "a: &a " + std::string(300000, 'x') + "\nb: [*a, *a, *a, *a, *a, *a, *a, *a]\n";
  EXPECT_EQ(ErrorOf(big),
            "invalid YAML at line 2, column 25: aliases expand to more than 1648662 bytes (the limit is twice the "
            "input size plus 1 MiB)");
  // Moderate aliasing is fine (go-yaml allows up to 99% aliased nodes in small documents).
  std::string fine = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: [";
  for (int k = 0; k < 50; ++k) fine += k ? ", *a" : "*a";
  fine += "]\n";
  EXPECT_EQ(One(fine)["b"].size(), 50u);
}

TEST(YamlText, TruncatedInputParsesOrFailsCleanly) {
  // Prefixes of the kubectl fixture (every 7th length) and of a stream with anchors, flow collections and JSON (every
  // length): a result or an InputError, never a crash (the ASan preset runs this too).
  const std::pair<std::string, std::size_t> cases[] = {
      {Fixture("kubectl-get-pods.yaml"), 7},
      {"a: &a {x: [1, \"two\", 'three', {y: !!str 4}]}\nb:\n  <<: *a\n  c: |\n    text\n---\n"
       "{\"j\": [1.5, true, null]}\n...\n--- # c\n- ? k\n  : v\n- *a\n",
       1}};
  for (const auto& [text, stride] : cases) {
    std::size_t results = 0, errors = 0, tries = 0;
    for (std::size_t n = 0; n <= text.size(); n += stride, ++tries) {
      try {
        ParseYamlText(std::string_view(text).substr(0, n));
        ++results;
      } catch (const InputError&) {
        ++errors;
      }
    }
    EXPECT_EQ(results + errors, tries);
    EXPECT_GT(results, 0u);
    EXPECT_GT(errors, 0u);
  }
}

}  // namespace
}  // namespace kplace::io
