// A scenario parsed a slice of items at a time, for callers that must not block: the playground's main thread
// reads a large import across frames while its Web Worker runs the same text. The result, and every error, is
// exactly ParseScenario's.
//
// The text is split into the List's items with a linear scan, a slice of the text per Step; each later Step parses some
// items (nlohmann, one item per document) and hands them to ScenarioBuilder, as ParseScenarioJson does with the whole
// document. Anything the scan does not recognise as a plain List, and any error, falls back to ParseScenario on the
// whole text, which then reports the error (a syntax error ahead of a semantic one, the first one in the text) exactly
// as it always does.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/io/json_text.h"
#include "core/io/scenario_parser.h"
#include "core/model/scenario.h"

namespace kplace::io {

class IncrementalScenarioParser {
 public:
  // Reads text in place: the caller keeps it alive and unchanged until the parser is gone (the playground's session
  // parses its own text, of tens of MB, without a copy).
  explicit IncrementalScenarioParser(std::string_view text) : text_(text) {}
  IncrementalScenarioParser(std::string&&) = delete;  // a temporary would be gone
  IncrementalScenarioParser(const IncrementalScenarioParser&) = delete;
  IncrementalScenarioParser& operator=(const IncrementalScenarioParser&) = delete;
  static constexpr std::size_t kSplitBytesPerItem = 8 * 1024;

  // Parses at most max_items more items; the first calls split the text (max_items x kSplitBytesPerItem of it per
  // call; a text that is not a plain List is then parsed whole), the call after the last item finishes the scenario.
  // Returns true when the scenario is complete (Take() it). Throws InputError as ParseScenario(text) would.
  bool Step(std::size_t max_items);
  // Items parsed so far, and in all (0 until the first Step).
  std::size_t done() const { return next_; }
  std::size_t total() const { return elements_.size(); }
  bool complete() const { return result_.has_value(); }
  // The parsed scenario (once complete()); leaves the parser empty.
  Scenario Take();

 private:
  // The split's answer: the items found and the List begun (false: parse the text whole).
  bool Split();

  std::string_view text_;
  bool started_ = false;
  std::optional<ListSplitter> splitter_;                       // while the text is split
  std::vector<std::pair<std::size_t, std::size_t>> elements_;  // [begin, end) of each item in text_
  std::size_t next_ = 0;
  Json item_;  // each item parsed over the one before (ParseJsonValueInto)
  ScenarioBuilder builder_;
  std::optional<Scenario> result_;
};

}  // namespace kplace::io
