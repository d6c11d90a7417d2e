#include "wasm/engine.h"

#include <exception>
#include <utility>

#include "core/io/json_reader.h"
#include "core/io/scenario_parser.h"

namespace kplace::wasm {

Outcome RunText(std::string_view text, bool explain_all, bool keep_scenario, const std::set<std::string>& explain) {
  Outcome out;
  try {
    return RunScenario(io::ParseScenario(text), explain_all, keep_scenario, explain);
  } catch (const io::InputError& e) {
    out.error = e.what();
  } catch (const std::exception& e) {
    out.error = std::string("internal error: ") + e.what();
    out.internal = true;
  }
  return out;
}

Outcome RunScenario(Scenario scenario, bool explain_all, bool keep_scenario, const std::set<std::string>& explain) {
  Outcome out;
  try {
    if (keep_scenario) out.scenario = scenario;
    sim::RunOptions options;
    options.explain_all = explain_all;
    options.explain = explain;
    out.result = sim::Run(std::move(scenario), options);
    out.ok = true;
  } catch (const io::InputError& e) {
    out.error = e.what();
  } catch (const std::exception& e) {
    out.error = std::string("internal error: ") + e.what();
    out.internal = true;
  }
  return out;
}

}  // namespace kplace::wasm
