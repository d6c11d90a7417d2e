#include "app/model/text_lines.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kplace::app {
namespace {

// Every line's [start, end) by a plain split, to hold the index against.
std::vector<std::pair<std::size_t, std::size_t>> Split(const std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') continue;
    out.emplace_back(start, i);
    start = i + 1;
  }
  out.emplace_back(start, text.size());
  return out;
}

void ExpectSameAsSplit(const std::string& text) {
  const TextLines lines(text);
  const auto want = Split(text);
  ASSERT_EQ(lines.count(), want.size()) << text.size() << " bytes";
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::size_t start = lines.Start(text, i);
    ASSERT_EQ(start, want[i].first) << "line " << i;
    ASSERT_EQ(TextLines::End(text, start), want[i].second) << "line " << i;
  }
  EXPECT_EQ(lines.Start(text, want.size()), text.size());  // past the last line: the end
}

TEST(TextLinesTest, CountsLinesAsAnEditorDoes) {
  EXPECT_EQ(TextLines("").count(), 1u);
  EXPECT_EQ(TextLines("a").count(), 1u);
  EXPECT_EQ(TextLines("a\n").count(), 2u);
  EXPECT_EQ(TextLines("\n\n").count(), 3u);
  EXPECT_EQ(TextLines().count(), 1u);
}

TEST(TextLinesTest, StartsMatchAPlainSplitAcrossMarks) {
  for (const std::string& text : {std::string(""), std::string("abc"), std::string("\n"), std::string("a\r\nb\n")})
    ExpectSameAsSplit(text);
  // Around the marks: lines of varied length (empty ones too), counts one below, at and above multiples of the mark.
  for (std::size_t n : {TextLines::kLinesPerMark - 1, TextLines::kLinesPerMark, TextLines::kLinesPerMark + 1,
                        3 * TextLines::kLinesPerMark + 17}) {
    std::string text;
    for (std::size_t i = 0; i < n; ++i) text += std::string(i % 7, 'x') + "\n";
    ExpectSameAsSplit(text);
    ExpectSameAsSplit(text + "tail without a newline");
  }
}

}  // namespace
}  // namespace kplace::app
