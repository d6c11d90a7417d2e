#include "core/io/incremental_parser.h"

namespace kplace::io {
namespace {

constexpr std::size_t kNone = std::string_view::npos;

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::size_t SkipSpace(std::string_view t, std::size_t i) {
  while (i < t.size() && IsSpace(t[i])) ++i;
  return i;
}

std::size_t SkipValue(std::string_view t, std::size_t i, int max_depth) { return JsonValueEnd(t, i, max_depth); }

// t[i] is '"': the index just past the closing quote.
std::size_t SkipString(std::string_view t, std::size_t i) { return JsonValueEnd(t, i, 0); }

}  // namespace

std::optional<ListLayout> SplitList(std::string_view t) {
  // Items sit two levels down (the List, its items array); keep well inside the depth limit.
  const int max_depth = kMaxJsonDepth - 4;
  ListLayout layout;
  bool have_items = false;
  std::size_t i = SkipSpace(t, 0);
  if (i >= t.size() || t[i] != '{') return std::nullopt;
  i = SkipSpace(t, i + 1);
  if (i < t.size() && t[i] == '}') return std::nullopt;  // no items
  while (true) {
    if (i >= t.size() || t[i] != '"') return std::nullopt;
    const std::size_t key_end = SkipString(t, i);
    if (key_end == kNone) return std::nullopt;
    const std::string_view key = t.substr(i + 1, key_end - i - 2);
    if (key.find('\\') != std::string_view::npos) return std::nullopt;  // an escaped key might spell "items"
    i = SkipSpace(t, key_end);
    if (i >= t.size() || t[i] != ':') return std::nullopt;
    i = SkipSpace(t, i + 1);
    if (key == "items") {
      if (have_items || i >= t.size() || t[i] != '[') return std::nullopt;  // a repeated key: the last one wins
      have_items = true;
      layout.items_begin = i;
      i = SkipSpace(t, i + 1);
      if (i < t.size() && t[i] == ']') {
        ++i;
      } else {
        while (true) {
          const std::size_t end = SkipValue(t, i, max_depth);
          if (end == kNone || end == i) return std::nullopt;
          layout.elements.emplace_back(i, end);
          i = SkipSpace(t, end);
          if (i < t.size() && t[i] == ',') {
            i = SkipSpace(t, i + 1);
            continue;
          }
          if (i < t.size() && t[i] == ']') {
            ++i;
            break;
          }
          return std::nullopt;
        }
      }
      layout.items_end = i;
    } else {
      i = SkipValue(t, i, max_depth);
      if (i == kNone) return std::nullopt;
    }
    i = SkipSpace(t, i);
    if (i < t.size() && t[i] == ',') {
      i = SkipSpace(t, i + 1);
      continue;
    }
    if (i < t.size() && t[i] == '}') break;
    return std::nullopt;
  }
  if (!have_items || SkipSpace(t, i + 1) != t.size()) return std::nullopt;
  return layout;
}

bool IncrementalScenarioParser::Split() {
  if (text_.size() > kMaxInputBytes) return false;
  auto layout = SplitList(text_);
  if (!layout) return false;
  // Everything but the items, syntax and List checks included: the text with an empty items array.
  std::string shell = text_.substr(0, layout->items_begin) + "[]" + text_.substr(layout->items_end);
  if (!builder_.BeginList(ParseJsonText(shell))) return false;
  elements_ = std::move(layout->elements);
  return true;
}

bool IncrementalScenarioParser::Step(std::size_t max_items) {
  if (result_) return true;
  try {
    if (!started_) {
      started_ = true;
      if (!Split()) {
        result_ = ParseScenario(text_);
        return true;
      }
    }
    for (std::size_t n = 0; n < max_items && next_ < elements_.size(); ++n, ++next_) {
      const auto [begin, end] = elements_[next_];
      builder_.Add(Json::parse(text_.begin() + static_cast<std::ptrdiff_t>(begin),
                               text_.begin() + static_cast<std::ptrdiff_t>(end)),
                   next_);
    }
    if (next_ == elements_.size()) result_ = builder_.Finish();
  } catch (const std::exception&) {
    // The whole-text parse reports the error exactly (or, should the scan have misread the text, parses it).
    result_ = ParseScenario(text_);
  }
  return result_.has_value();
}

Scenario IncrementalScenarioParser::Take() {
  Scenario sc = std::move(*result_);
  result_.reset();
  text_.clear();
  return sc;
}

}  // namespace kplace::io
