// Scenario JSON -> Scenario. Every error is an InputError whose message names the item and the JSON path.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "core/io/json_reader.h"
#include "core/model/scenario.h"

namespace kplace::io {

// Limits that keep hostile input from exhausting memory or time.
inline constexpr std::size_t kMaxInputBytes = 64u << 20;
inline constexpr int kMaxJsonDepth = 128;
inline constexpr std::int64_t kMaxPods = 200000;
inline constexpr std::int64_t kMaxNodes = 50000;

// Parses JSON text with the depth limit; syntax errors become "invalid JSON at line L, column C: ...".
Json ParseJsonText(std::string_view text);

// Parses a whole scenario (a List). Expands workloads into pods, resolves nothing else.
Scenario ParseScenario(std::string_view text);
Scenario ParseScenarioJson(const Json& doc);

// What ParseScenarioJson does, one List item at a time (IncrementalScenarioParser feeds it items parsed one by one).
class ScenarioBuilder {
 public:
  // The List's items, after checking the document is a List: throws InputError otherwise.
  static const Json& Items(const Json& doc);
  // Adds items[index]; throws InputError naming it.
  void Add(const Json& item, std::size_t index);
  // Expands workloads into pods; the builder is spent afterwards.
  Scenario Finish();

 private:
  Scenario sc_;
  std::unordered_map<std::string, std::string> seen_;  // "Kind ns/name" -> item label
  bool have_config_ = false;
  bool have_sim_ = false;
};

// Single objects, used by the scenario parser and by tests. r names the item for errors.
Pod ParsePod(const Json& v, const Reader& r);
Node ParseNode(const Json& v, const Reader& r);
Namespace ParseNamespace(const Json& v, const Reader& r);
// Applies one pluginConfig entry's args to the profile's PluginArgs.
void ParsePluginArgs(const std::string& plugin, const Json& args, const Reader& r, PluginArgs& out);
// "1.33" -> 33; errors for unsupported versions.
int ParseKubernetesVersion(const std::string& v, const Reader& r);

}  // namespace kplace::io
