#include "core/io/run_text.h"

#include <exception>
#include <utility>

#include "core/io/json_reader.h"
#include "core/io/scenario_parser.h"

namespace kplace::io {
namespace {

// Runs scenario into out, keeping a copy of it first when asked; throws what the run throws.
void RunInto(Outcome& out, Scenario scenario, const sim::RunOptions& options, bool keep_scenario) {
  // Copy-constructed, then moved in: Scenario's copy assignment is a second copy of every member's code (16 KB of
  // wasm).
  if (keep_scenario) out.scenario = Scenario(scenario);
  out.result = sim::Run(std::move(scenario), options);
}

void RunInto(Outcome& out, Scenario scenario, bool explain_all, bool keep_scenario,
             const std::set<std::string>& explain, Progress progress, sim::DisruptionDryRun disruption,
             sim::DisruptionApplier apply_disruption) {
  sim::RunOptions options;
  options.explain_all = explain_all;
  options.explain = explain;
  options.progress = std::move(progress);
  options.disruption = disruption;
  options.apply_disruption = apply_disruption;
  RunInto(out, std::move(scenario), options, keep_scenario);
}

// Calls body(out) and marks out ok; an exception instead becomes out's error: an InputError's message as it is,
// anything else as an internal error.
template <typename Body>
Outcome Guarded(Body&& body) {
  Outcome out;
  try {
    body(out);
    out.ok = true;
  } catch (const io::InputError& e) {
    out.error = e.what();
  } catch (const std::exception& e) {
    out.error = std::string("internal error: ") + e.what();
    out.internal = true;
  }
  return out;
}

}  // namespace

Outcome RunText(std::string_view text, bool explain_all, bool keep_scenario, const std::set<std::string>& explain,
                Progress progress, sim::DisruptionDryRun disruption, sim::DisruptionApplier apply_disruption) {
  return Guarded([&](Outcome& out) {
    RunInto(out, io::ParseScenario(text), explain_all, keep_scenario, explain, std::move(progress), disruption,
            apply_disruption);
  });
}

Outcome RunScenario(Scenario scenario, bool explain_all, bool keep_scenario, const std::set<std::string>& explain,
                    Progress progress, sim::DisruptionDryRun disruption, sim::DisruptionApplier apply_disruption) {
  return Guarded([&](Outcome& out) {
    RunInto(out, std::move(scenario), explain_all, keep_scenario, explain, std::move(progress), disruption,
            apply_disruption);
  });
}

Outcome RunScenario(Scenario scenario, sim::RunOptions options, bool keep_scenario) {
  return Guarded([&](Outcome& out) { RunInto(out, std::move(scenario), options, keep_scenario); });
}

}  // namespace kplace::io
