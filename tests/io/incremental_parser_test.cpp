// IncrementalScenarioParser gives exactly ParseScenario's scenario and errors, whatever the slice size: every
// preset runs to the same result bytes, every bad-input case (tests/data/io/bad_input.json) fails with the same
// message; SplitList finds a List's items and declines anything else.
#include "core/io/incremental_parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "core/io/result_writer.h"
#include "core/sim/simulation.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using io::Json;

std::string ErrorOf(const std::function<void()>& parse) {
  try {
    parse();
  } catch (const io::InputError& e) {
    return e.what();
  }
  return "";
}

Scenario ParseInSlices(const std::string& text, std::size_t slice, std::size_t* steps = nullptr) {
  io::IncrementalScenarioParser parser(text);
  std::size_t n = 1;
  while (!parser.Step(slice)) ++n;
  if (steps) *steps = n;
  return parser.Take();
}

std::string ResultBytes(Scenario sc) { return io::Dump(io::ResultToJson(sim::Run(std::move(sc)))); }

TEST(IncrementalScenarioParser, PresetsGiveTheSameResult) {
  int presets = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(KPLACE_SOURCE_DIR) + "/presets")) {
    if (e.path().extension() != ".json") continue;
    ++presets;
    const std::string text = testing::ReadFile(e.path().string());
    const std::string want = ResultBytes(io::ParseScenario(text));
    for (std::size_t slice : {1, 4, 1000}) {
      std::size_t steps = 0;
      EXPECT_EQ(ResultBytes(ParseInSlices(text, slice, &steps)), want) << e.path() << " slice " << slice;
      if (slice == 1) {
        EXPECT_GT(steps, 3u) << e.path() << ": parsed in one go, not item by item";
      }
    }
  }
  EXPECT_GE(presets, 12);
}

TEST(IncrementalScenarioParser, BadInputFailsExactlyAsParseScenario) {
  Json table = testing::LoadJson(testing::DataPath("io/bad_input.json"));
  int cases = 0;
  for (const Json& c : table.at("cases")) {
    const Json& s = c.at("scenario");
    const std::string text = s.is_string() ? s.get<std::string>() : s.dump();
    const std::string want = c.at("error");
    for (std::size_t slice : {2}) {
      EXPECT_EQ(ErrorOf([&] { ParseInSlices(text, slice); }), want) << c.at("name") << " slice " << slice;
    }
    ++cases;
  }
  EXPECT_GT(cases, 50);
}

TEST(IncrementalScenarioParser, ASyntaxErrorLaterInTheTextWinsOverAnEarlierBadItem) {
  // ParseScenario parses the whole text before reading any item: the JSON error is what it reports.
  const std::string text = R"({"kind": "List", "items": [
    {"kind": "Node", "metadata": {"name": "a"}},
    {"kind": "Node", "metadata": {"name": "a"}},
    {"kind": "Node", "metadata": {"name": "b"}, "status": {"allocatable": {"cpu": tru}}}
  ]})";
  const std::string want = ErrorOf([&] { io::ParseScenario(text); });
  ASSERT_NE(want.find("invalid JSON at line 4"), std::string::npos) << want;
  EXPECT_EQ(ErrorOf([&] { ParseInSlices(text, 1); }), want);
}

TEST(IncrementalScenarioParser, ProgressCountsItems) {
  Json list = {{"kind", "List"}, {"items", Json::array()}};
  for (int i = 0; i < 10; ++i)
    list["items"].push_back({{"kind", "Node"}, {"metadata", {{"name", "n" + std::to_string(i)}}}});
  const std::string text = list.dump();
  io::IncrementalScenarioParser parser(text);
  EXPECT_FALSE(parser.Step(4));  // the split
  EXPECT_EQ(parser.done(), 0u);
  EXPECT_EQ(parser.total(), 10u);
  EXPECT_FALSE(parser.Step(4));
  EXPECT_EQ(parser.done(), 4u);
  EXPECT_EQ(parser.total(), 10u);
  EXPECT_FALSE(parser.Step(4));
  EXPECT_FALSE(parser.Step(4));  // the last 2 items
  EXPECT_EQ(parser.done(), 10u);
  EXPECT_FALSE(parser.complete());
  EXPECT_TRUE(parser.Step(4));  // the finish is a step of its own
  EXPECT_TRUE(parser.Step(4));  // stays complete
  EXPECT_EQ(parser.Take().nodes.size(), 10u);
}

TEST(SplitList, FindsTheItems) {
  const std::string text = R"( { "apiVersion": "v1", "items" : [ {"a": "]}\"[{"} ,[1, [2]],
 "x" , 3 ], "kind": {"nested": ["items"]} } )";
  auto layout = io::SplitList(text);
  ASSERT_TRUE(layout);
  ASSERT_EQ(layout->elements.size(), 4u);
  auto at = [&](std::size_t i) {
    return text.substr(layout->elements[i].first, layout->elements[i].second - layout->elements[i].first);
  };
  EXPECT_EQ(at(0), R"({"a": "]}\"[{"})");
  EXPECT_EQ(at(1), "[1, [2]]");
  EXPECT_EQ(at(2), R"("x")");
  EXPECT_EQ(at(3), "3");
  EXPECT_EQ(text[layout->items_begin], '[');
  EXPECT_EQ(text[layout->items_end - 1], ']');
  EXPECT_EQ(io::SplitList(R"({"items": []})")->elements.size(), 0u);
}

// A step at a time, any budget, the splitter answers what SplitList answers, and every step but the last scans at
// least its budget (a truncated text included: the scan ends there with a refusal, it never stalls).
TEST(SplitList, ASliceAtATimeGivesTheSameLayout) {
  const std::string list = R"( { "apiVersion": "v1", "items" : [ {"a": "]}\"[{"} ,[1, [2]],
 "x" , 3 ], "kind": {"nested": ["items"]} } )";
  std::vector<std::string> texts = {list,
                                    R"({"items": []})",
                                    R"({"items": [{} {}]})",
                                    R"({"items": [{},]})",
                                    R"({"kind": "List"})",
                                    R"({"items": [{}], "items": [{}]})",
                                    "",
                                    "{"};
  for (std::size_t cut = 1; cut < list.size(); cut += 7) texts.push_back(list.substr(0, cut));
  for (const std::string& text : texts) {
    const auto whole = io::SplitList(text);
    for (const std::size_t budget : {std::size_t{1}, std::size_t{5}, std::size_t{64}}) {
      SCOPED_TRACE(text + " / " + std::to_string(budget));
      io::ListSplitter splitter(text);
      int steps = 0;
      std::size_t before = 0;
      while (!splitter.Step(budget)) {
        ASSERT_LT(++steps, 10000);
        EXPECT_GE(splitter.scanned(), before + budget);
        before = splitter.scanned();
      }
      const auto sliced = splitter.Take();
      ASSERT_EQ(sliced.has_value(), whole.has_value());
      if (!whole) continue;
      EXPECT_EQ(sliced->items_begin, whole->items_begin);
      EXPECT_EQ(sliced->items_end, whole->items_end);
      EXPECT_EQ(sliced->elements, whole->elements);
      if (budget == 1 && whole->elements.size() > 1) {
        EXPECT_GE(steps, static_cast<int>(whole->elements.size()));
      }
    }
  }
}

TEST(SplitList, DeclinesWhatIsNotAPlainList) {
  for (const char* text : {
           "", "[]", "{}", R"({"kind": "List"})",           // no items
           R"({"items": [], "items": [{}]})",               // repeated key: the last one wins
           R"({"\u0069tems": [{}]})",                       // an escaped key
           R"({"items": {}})",                              // not an array
           R"({"items": [{} {}]})", R"({"items": [{},]})",  // missing or trailing comma
           R"({"items": [{}]} x)",
           R"({"items": [{}]})"
           "}",
           R"({"items": [{"a": "x]})",           // trailing text, open
           R"({"items": [{}] "kind": "List"})",  // missing comma between members
       })
    EXPECT_FALSE(io::SplitList(text)) << text;
  std::string deep = R"({"items": [)" + std::string(200, '[') + std::string(200, ']') + "]}";
  EXPECT_FALSE(io::SplitList(deep)) << "deep nesting is left to the whole-text parse";
}

}  // namespace
}  // namespace kplace
