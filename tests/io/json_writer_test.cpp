// JsonWriter prints what nlohmann's dump() prints for the same tree, compact and indented, and refuses a member
// order a Json object would not have.
#include "core/io/json_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace kplace::io {
namespace {

std::string Written(const Json& j, int indent) {
  std::string out;
  JsonWriter w(out, indent);
  w.Value(j);
  return out;
}

TEST(JsonWriterTest, TreesPrintAsNlohmannDumpsThem) {
  const std::vector<Json> trees = {
      Json::object(),
      Json::array(),
      Json(nullptr),
      Json("plain"),
      Json(std::string("quote \" backslash \\ slash / tab \t newline \n cr \r bs \b ff \f nul ") + '\0' +
           " unit \x1f del \x7f"),
      Json("caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x9a\x80"),  // UTF-8 passes through (ensure_ascii off)
      Json(std::int64_t{-9223372036854775807} - 1),
      Json(std::numeric_limits<std::uint64_t>::max()),
      Json(0),
      Json(0.0),
      Json(-0.0),
      Json(1.0),
      Json(0.1),
      Json(0.0416),
      Json(124.1),
      Json(1e-7),
      Json(1e21),
      Json(123456789012345680.0),
      Json(std::numeric_limits<double>::quiet_NaN()),
      Json(std::numeric_limits<double>::infinity()),
      Json(true),
      Json::parse(R"({"b":[1,{"z":[],"a":{}},[[]]],"a":{"y":"x","B":null,"":0},"c":[{"k":[1.5,-2,"s"]}]})"),
  };
  for (const Json& j : trees) {
    EXPECT_EQ(Written(j, -1), j.dump()) << j.dump();
    EXPECT_EQ(Written(j, 2), j.dump(2)) << j.dump();
    EXPECT_EQ(Written(j, 4), j.dump(4)) << j.dump();
  }
}

// Every ASCII byte, alone and inside runs of plain text, escaped as nlohmann escapes it.
TEST(JsonWriterTest, EveryAsciiByteEscapesAsDumpEscapesIt) {
  std::string all;
  for (int b = 0; b < 0x80; ++b) {
    const std::string one(1, static_cast<char>(b));
    EXPECT_EQ(Written(Json(one), -1), Json(one).dump()) << b;
    all += "ab" + one;
  }
  EXPECT_EQ(Written(Json(all), -1), Json(all).dump());
}

TEST(JsonWriterTest, MembersAndScalarsWrittenOneByOne) {
  std::string out;
  JsonWriter w(out, 2);
  w.BeginObject();
  w.Member("a", std::string("x"));
  w.Key("b").BeginArray();
  w.Int(-3);
  w.Unsigned(4);
  w.Double(2.5);
  w.Bool(false);
  w.Null();
  w.Strings({"p", "q"});
  w.BeginObject();
  w.EndObject();
  w.EndArray();
  w.Member("c", std::vector<std::string>{});
  w.EndObject();
  EXPECT_EQ(out, Json::parse(R"({"a":"x","b":[-3,4,2.5,false,null,["p","q"],{}],"c":[]})").dump(2));
}

// Doubles are printed through a small cache of recent texts: many distinct values (colliding in it), each twice.
TEST(JsonWriterTest, ManyDoublesPrintAsDumpPrintsThem) {
  Json values = Json::array();
  double x = 0.013;
  for (int i = 0; i < 5000; ++i) {
    x = std::fmod(x * 7.31 + 0.1 * i, 1000.0);
    values.push_back(x);
    values.push_back(-x / 3);
  }
  Json twice = Json::array({values, values});
  EXPECT_EQ(Written(twice, -1), twice.dump());
}

// The writer gathers text a few KB at a time: strings and indentation of any length around that size print whole,
// and the output string holds the document as soon as it is complete (a scalar, or the outermost container closed).
TEST(JsonWriterTest, TextOfAnyLengthAndCompleteDocumentsAtOnce) {
  Json tree = Json::array();
  for (std::size_t n : {0, 1, 4094, 4095, 4096, 4097, 8191, 8192, 10000}) tree.push_back(std::string(n, 'x'));
  Json deep = "leaf";
  for (int i = 0; i < 40; ++i) deep = Json::array({deep, i});  // indentation past 64 spaces
  tree.push_back(deep);
  for (int indent : {-1, 0, 2, 200}) EXPECT_EQ(Written(tree, indent), tree.dump(indent));
  std::string out;
  JsonWriter w(out);
  w.String("alone");
  EXPECT_EQ(out, "\"alone\"");
  std::string doc;
  JsonWriter d(doc, 2);
  d.BeginObject();
  d.Member("a", 1);
  d.EndObject();
  EXPECT_EQ(doc, "{\n  \"a\": 1\n}");
}

// A value written once by a writer made at the level where it goes (Level) and placed as text (Raw) prints as the
// same value written in place, at any depth and indentation.
TEST(JsonWriterTest, RawTextWrittenAtItsLevelPrintsAsTheValueInPlace) {
  const Json options = Json::array({{{"instanceType", "a"}, {"price", 0.5}}, {{"instanceType", "b"}, {"price", 1.25}}});
  Json tree = Json::array();
  for (int i = 0; i < 3; ++i) tree.push_back({{"name", i}, {"options", options}, {"zone", Json::array({"z"})}});
  const Json deep = {{"outer", {{"claims", tree}}}};
  for (int indent : {-1, 0, 2, 4}) {
    std::string out;
    JsonWriter w(out, indent);
    w.BeginObject();
    w.Key("outer").BeginObject();
    w.Key("claims").BeginArray();
    std::string text;  // written once, where the first claim puts it
    for (int i = 0; i < 3; ++i) {
      w.BeginObject();
      w.Member("name", i);
      w.Key("options");
      if (text.empty()) {
        JsonWriter once(text, w.Indent(), w.Level());
        once.Value(options);
      }
      w.Raw(text);
      w.Key("zone").BeginArray();
      w.String("z");
      w.EndArray();
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    w.EndObject();
    EXPECT_EQ(out, deep.dump(indent)) << "indent " << indent;
  }
}

// With a sink the text arrives in pieces that make the same document, none held whole.
TEST(JsonWriterTest, SinkReceivesTheSameTextInPieces) {
  Json big = Json::array();
  for (int i = 0; i < 40000; ++i)
    big.push_back({{"instanceType", "fake-it-" + std::to_string(i)}, {"price", i * 0.25}});
  std::string pieces;
  std::size_t calls = 0, largest = 0;
  std::string buffer;
  JsonWriter w(buffer, 2, [&](std::string_view piece) {
    pieces.append(piece);
    ++calls;
    largest = std::max(largest, piece.size());
  });
  w.Value(big);
  w.Flush();
  EXPECT_TRUE(buffer.empty());
  EXPECT_EQ(pieces, big.dump(2));
  EXPECT_GT(calls, 1u);
  EXPECT_LT(largest, 2 * JsonWriter::kChunk);
}

TEST(JsonWriterTest, MembersOutOfNameOrderAreRefused) {
  std::string out;
  JsonWriter w(out);
  w.BeginObject();
  w.Member("b", 1);
  EXPECT_THROW(w.Member("a", 2), std::logic_error);  // a tree would print "a" first
  std::string again;
  JsonWriter twice(again);
  twice.BeginObject();
  twice.Member("a", 1);
  EXPECT_THROW(twice.Member("a", 2), std::logic_error);  // a tree holds one "a"
  std::string upper;
  JsonWriter bytes(upper);
  bytes.BeginObject();
  bytes.Member("Z", 1);
  EXPECT_NO_THROW(bytes.Member("a", 2));  // byte order, as std::map<std::string> sorts
}

TEST(JsonWriterTest, MisuseIsRefused) {
  std::string out;
  JsonWriter w(out);
  w.BeginObject();
  EXPECT_THROW(w.Int(1), std::logic_error);  // a member needs its name
  EXPECT_THROW(w.EndArray(), std::logic_error);
  std::string arr;
  JsonWriter a(arr);
  a.BeginArray();
  EXPECT_THROW(a.Key("k"), std::logic_error);
}

TEST(JsonWriterTest, InvalidUtf8FailsAsDumpDoes) {
  const std::string bad = "ab\xff";
  std::string out;
  JsonWriter w(out);
  EXPECT_THROW(w.String(bad), Json::type_error);
  EXPECT_THROW((void)Json(bad).dump(), Json::type_error);
}

}  // namespace
}  // namespace kplace::io
