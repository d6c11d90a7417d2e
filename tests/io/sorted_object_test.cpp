// Json's object type (core/io/sorted_object.h) against nlohmann's std::map: the same members in the same order
// after every way kplace builds objects (the fast parser, nlohmann's SAX fallback, Json::parse, YAML, member by
// member), the same lookups, and std::map's rules for repeated keys.
#include "core/io/sorted_object.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "core/io/json_reader.h"
#include "core/io/json_text.h"
#include "core/io/yaml_text.h"

namespace kplace::io {
namespace {

Json Fast(std::string_view text) {
  Json out;
  EXPECT_TRUE(TryParseJsonFast(text, 0, Unread::kKeep, out)) << text.substr(0, 80);
  return out;
}
// ParseJsonValue's fallback (nlohmann's SAX events): an integer of more than 18 digits anywhere sends the text there.
Json Fallback(const std::string& text) {
  const std::string with_long_integer = R"({"f":1234567890123456789,"v":)" + text + "}";
  Json out;
  EXPECT_FALSE(TryParseJsonFast(with_long_integer, 0, Unread::kKeep, out));
  return ParseJsonValue(with_long_integer, 0, with_long_integer.size(), 0, Unread::kKeep)["v"];
}

TEST(SortedObject, EveryParserSortsMembersAndKeepsTheLastOfARepeatedKey) {
  const std::string text = R"({"b":1,"a":2,"c":{"z":1,"q":[{"k":1,"j":2}]},"a":3,"":0,"aa":4})";
  const std::string want = nlohmann::json::parse(text).dump();  // std::map's order and rules
  EXPECT_EQ(want, R"({"":0,"a":3,"aa":4,"b":1,"c":{"q":[{"j":2,"k":1}],"z":1}})");
  EXPECT_EQ(Fast(text).dump(), want);
  EXPECT_EQ(Fallback(text).dump(), want);
  EXPECT_EQ(Json::parse(text).dump(), want);
  const auto docs = ParseYamlText("b: 1\na: 2\nc:\n  z: 1\n  q:\n  - k: 1\n    j: 2\na: 3\n\"\": 0\naa: 4\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].dump(), want);
}

TEST(SortedObject, YamlMergeKeysOverrideInTurn) {
  // decode.go: `<<` sets the merged mapping's entries in turn; keys after it override them, keys before it do not
  // survive it.
  const auto docs = ParseYamlText("base: &b {p: 1, q: 2}\nm:\n  q: 0\n  <<: *b\n  p: 9\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0]["m"].dump(), R"({"p":9,"q":2})");
}

TEST(SortedObject, MemberByMemberFollowsStdMap) {
  Json j = Json::object();
  j["m"] = 1;
  j["b"] = 2;
  j["m"] = 3;                              // operator[]: replaces
  EXPECT_FALSE(j.emplace("b", 9).second);  // emplace: keeps the first
  EXPECT_EQ(j["b"], 2);
  j.update(Json{{"a", 0}, {"m", 4}});
  EXPECT_EQ(j.dump(), R"({"a":0,"b":2,"m":4})");
  EXPECT_EQ(j.erase("b"), 1u);
  EXPECT_EQ(j.erase("zz"), 0u);
  EXPECT_EQ(j.dump(), R"({"a":0,"m":4})");
  // An initializer list with a repeated key keeps the first, as std::map's emplace does.
  EXPECT_EQ(Json({{"k", 1}, {"k", 2}}).dump(), nlohmann::json({{"k", 1}, {"k", 2}}).dump());
  EXPECT_EQ(Json({{"k", 1}, {"k", 2}})["k"], 1);
  EXPECT_TRUE(j.contains("a"));
  EXPECT_FALSE(j.contains("b"));
  EXPECT_EQ(j.at("m"), 4);
  EXPECT_THROW(static_cast<void>(j.at("b")), Json::out_of_range);
}

// Random objects of every size around the scan/bisect and insertion-sort cut-offs, keys sharing prefixes, repeated,
// empty and with bytes above 0x7f: dump and every lookup as std::map gives them.
TEST(SortedObject, RandomObjectsMatchStdMap) {
  std::mt19937 rng(7);
  const std::vector<std::string> alphabet = {"a", "b", "ab", "", "\xc3\xa9", "z", "aa", "b\xc3\xa9"};
  for (int round = 0; round < 300; ++round) {
    const int n = static_cast<int>(rng() % 40);
    std::string text = "{";
    std::vector<std::string> keys;
    for (int i = 0; i < n; ++i) {
      std::string key = alphabet[rng() % alphabet.size()] + alphabet[rng() % alphabet.size()];
      keys.push_back(key);
      text += (i ? "," : "") + nlohmann::json(key).dump() + ":" + std::to_string(i);
    }
    text += "}";
    const nlohmann::json want = nlohmann::json::parse(text);
    for (const Json& got : {Fast(text), Fallback(text), Json::parse(text)}) {
      ASSERT_EQ(got.dump(), want.dump()) << text;
      for (const std::string& key : keys) ASSERT_EQ(got.at(key).dump(), want.at(key).dump()) << key << " in " << text;
      ASSERT_FALSE(got.contains("missing")) << text;
    }
  }
}

// FindMember (the readers' lookup by a NUL-terminated name) finds what find() finds, in objects small enough to be
// scanned and large enough to be bisected, with keys that are prefixes of one another, empty, or hold a NUL byte.
TEST(SortedObject, FindMemberAgreesWithFind) {
  const std::vector<std::string> keys = {
      "",   "a",        "ab",   "abc",       "b",  std::string("a\0b", 3), std::string("\0", 1),
      "ba", "\xc3\xa9", "name", "namespace", "nam"};
  const std::vector<const char*> names = {"",         "a",    "ab",        "abc", "abcd", "b",     "ba", "bb",
                                          "\xc3\xa9", "name", "namespace", "nam", "n",    "names", "z"};
  for (std::size_t size = 0; size <= keys.size(); ++size) {
    Json object = Json::object();
    for (std::size_t i = 0; i < size; ++i) object[keys[i]] = static_cast<int>(i);
    for (const char* name : names) {
      const auto it = object.find(std::string_view(name));
      const Json* found = FindMember(object, name);
      if (it == object.end()) {
        EXPECT_EQ(found, nullptr) << "\"" << name << "\" among " << size << " keys";
      } else {
        ASSERT_NE(found, nullptr) << "\"" << name << "\" among " << size << " keys";
        EXPECT_EQ(found, &*it) << name;
      }
    }
  }
  EXPECT_EQ(FindMember(Json::array({1, 2}), "a"), nullptr);
  EXPECT_EQ(FindMember(Json("a"), "a"), nullptr);
  EXPECT_EQ(FindMember(Json(), "a"), nullptr);
}

// A hostile object, a hundred thousand keys in descending order: each parser sorts it once when it closes (placing
// each member in order as it comes would move every member after it: quadratic, minutes).
TEST(SortedObject, LargeObjectInDescendingOrder) {
  std::string text = "{";
  for (int i = 99999; i >= 0; --i)
    text += "\"k" + std::to_string(100000 + i) + "\":" + std::to_string(i) + (i ? "," : "}");
  // ParseJsonText: a whole document (not a List's item), as read when the text is no List.
  for (const Json& got : {Fast(text), Fallback(text), ParseJsonText(text)}) {
    ASSERT_EQ(got.size(), 100000u);
    EXPECT_EQ(got.begin().key(), "k100000");
    EXPECT_EQ(got["k150000"], 50000);
    EXPECT_EQ(got["k199999"], 99999);
  }
}

}  // namespace
}  // namespace kplace::io
