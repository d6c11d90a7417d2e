#include "app/model/text_lines.h"

#include <cstring>

namespace kplace::app {

TextLines::TextLines(std::string_view text) {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  for (const char* p = begin; p < end;) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (!nl) break;
    p = static_cast<const char*>(nl) + 1;
    if (count_ % kLinesPerMark == 0) marks_.push_back(static_cast<std::size_t>(p - begin));  // line count_ starts
    ++count_;
  }
}

std::size_t TextLines::Start(std::string_view text, std::size_t line) const {
  if (line >= count_) return text.size();
  std::size_t at = marks_[line / kLinesPerMark];
  for (std::size_t n = line % kLinesPerMark; n > 0; --n) at = End(text, at) + 1;
  return at;
}

std::size_t TextLines::End(std::string_view text, std::size_t start) {
  const std::size_t nl = text.find('\n', start);
  return nl == std::string_view::npos ? text.size() : nl;
}

}  // namespace kplace::app
