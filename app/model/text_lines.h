// Where the lines of a text start, for showing a large text a screenful at a time: an index of every
// kLinesPerMark-th line's start, built in one pass, so finding line N reads at most kLinesPerMark lines of the text
// and the index stays small (a 67 MB scenario of 2.8 million lines: 11,000 offsets).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace kplace::app {

class TextLines {
 public:
  static constexpr std::size_t kLinesPerMark = 256;

  TextLines() = default;
  explicit TextLines(std::string_view text);

  // Lines as an editor counts them: one more than the newlines ("" is one empty line, "a\n" two).
  std::size_t count() const { return count_; }
  // The byte offset where line (0-based, < count()) starts in the text this index was built from.
  std::size_t Start(std::string_view text, std::size_t line) const;
  // Where the line starting at start ends: its '\n' (not included), or the text's end.
  static std::size_t End(std::string_view text, std::size_t start);

 private:
  std::size_t count_ = 1;
  std::vector<std::size_t> marks_{0};  // marks_[k]: where line k * kLinesPerMark starts
};

}  // namespace kplace::app
