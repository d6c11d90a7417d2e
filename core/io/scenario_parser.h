// Scenario JSON -> Scenario: checks the List, dispatches each item to its parser (object_parsers.h), and expands
// workloads into pods. Every error is an InputError whose message names the item and the JSON path.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "core/io/json_reader.h"
#include "core/io/json_text.h"
#include "core/io/object_parsers.h"
#include "core/model/scenario.h"

namespace kplace::io {

struct ParseOptions {
  // Check Pods and workload templates as the API server would (validate_pod.h). Only the test harnesses that port
  // upstream's scheduler unit tests turn it off: those tests hand pods straight to the scheduler, never through the
  // API server, and many of their pods would not pass it (no containers, hostPort without containerPort, ...).
  bool api_validation = true;
};

// Parses a whole scenario (a List). Expands workloads into pods, resolves nothing else.
Scenario ParseScenario(std::string_view text);
Scenario ParseScenarioJson(const Json& doc, ParseOptions options = {});

// What ParseScenarioJson does, one List item at a time (IncrementalScenarioParser feeds it items parsed one by one).
class ScenarioBuilder {
 public:
  explicit ScenarioBuilder(ParseOptions options = {}) : options_(options) {}
  // The List's items, after checking the document is a List: throws InputError otherwise.
  static const Json& Items(const Json& doc);
  // Adds items[index]; throws InputError naming it.
  void Add(const Json& item, std::size_t index);
  // Expands workloads into pods; the builder is spent afterwards.
  Scenario Finish();

 private:
  ParseOptions options_;
  Scenario sc_;
  std::unordered_map<std::string, std::string> seen_;  // "Kind ns/name" -> item label
  bool have_config_ = false;
  bool have_sim_ = false;
};

}  // namespace kplace::io
