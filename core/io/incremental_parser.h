// A scenario parsed a slice of items at a time, for callers that must not block: the playground's main thread
// reads a large import across frames while its Web Worker runs the same text. The result, and every error, is
// exactly ParseScenario's.
//
// The text is split into the List's items with a linear scan; each Step parses some items (nlohmann, one item per
// document) and hands them to ScenarioBuilder, as ParseScenarioJson does with the whole document. Anything the
// scan does not recognise as a plain List, and any error, falls back to ParseScenario on the whole text, which then
// reports the error (a syntax error ahead of a semantic one, the first one in the text) exactly as it always does.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/io/scenario_parser.h"
#include "core/model/scenario.h"

namespace kplace::io {

class IncrementalScenarioParser {
 public:
  explicit IncrementalScenarioParser(std::string text) : text_(std::move(text)) {}

  // Parses at most max_items more items; the first call splits the text (or, for a text that is not a plain List,
  // parses it whole), the call after the last item finishes the scenario. Returns true when the scenario is complete
  // (Take() it). Throws InputError as ParseScenario(text) would.
  bool Step(std::size_t max_items);
  // Items parsed so far, and in all (0 until the first Step).
  std::size_t done() const { return next_; }
  std::size_t total() const { return elements_.size(); }
  bool complete() const { return result_.has_value(); }
  // The parsed scenario (once complete()); leaves the parser empty.
  Scenario Take();

 private:
  bool Split();

  std::string text_;
  bool started_ = false;
  std::vector<std::pair<std::size_t, std::size_t>> elements_;  // [begin, end) of each item in text_
  std::size_t next_ = 0;
  ScenarioBuilder builder_;
  std::optional<Scenario> result_;
};

}  // namespace kplace::io
