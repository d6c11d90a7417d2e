#include "core/io/incremental_parser.h"

namespace kplace::io {

bool IncrementalScenarioParser::Split() {
  auto layout = splitter_->Take();
  splitter_.reset();
  if (!layout) return false;
  // Everything but the items, syntax and List checks included: the text with an empty items array.
  const std::string shell =
      std::string(text_.substr(0, layout->items_begin)) + "[]" + std::string(text_.substr(layout->items_end));
  if (!builder_.BeginList(ParseJsonText(shell))) return false;
  elements_ = std::move(layout->elements);
  return true;
}

bool IncrementalScenarioParser::Step(std::size_t max_items) {
  if (result_) return true;
  try {
    if (!started_) {
      started_ = true;
      if (text_.size() > kMaxInputBytes) {
        result_ = ParseScenario(text_);  // which reports the size
        return true;
      }
      splitter_.emplace(text_);
    }
    if (splitter_) {  // the split, a scan of the whole text, a slice of it per step
      if (!splitter_->Step(max_items * kSplitBytesPerItem)) return false;
      if (!Split()) {
        result_ = ParseScenario(text_);
        return true;
      }
      return false;
    }
    std::size_t n = 0;
    for (; n < max_items && next_ < elements_.size(); ++n, ++next_) {
      const auto [begin, end] = elements_[next_];
      ParseJsonValueInto(text_, begin, end, 2, Unread::kLeaveOut, item_);
      builder_.Add(item_, next_);
    }
    // Finishing (workloads expanded, claims added: a tenth of a large import's reading) is a step of its own, so that
    // no step is a slice of items and the finish.
    if (next_ == elements_.size() && n == 0) {
      ReleaseJson(item_);
      result_ = builder_.Finish();
    }
  } catch (const std::exception&) {
    // The whole-text parse reports the error exactly (or, should the scan have misread the text, parses it).
    result_ = ParseScenario(text_);
  }
  return result_.has_value();
}

Scenario IncrementalScenarioParser::Take() {
  Scenario sc = std::move(*result_);
  result_.reset();
  return sc;
}

}  // namespace kplace::io
