// The one way a front end that must not throw runs the core: scenario text in, parsed scenario + result (or the
// error message) out. Shared by the wasm C API (wasm/api.cpp) and the app model (app/model/session.cpp); adds no
// scheduling logic of its own.
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "core/model/scenario.h"
#include "core/sim/simulation.h"

namespace kplace::io {

struct Outcome {
  bool ok = false;
  std::string error;      // when !ok: the InputError message (names the item and JSON path), or "internal error: ..."
  bool internal = false;  // the error is a bug in kplace, not bad input
  Scenario scenario;      // as parsed, before the run (only when asked to keep it)
  sim::SimResult result;
};

// sim::RunOptions::progress: called now and then with (pods done, pods to do) scheduling attempts.
using Progress = std::function<void(std::size_t, std::size_t)>;

// Parses and runs text; never throws. explain_all records the explanation of every pod (what the inspector shows),
// explain only of the pods named (keys); progress (optional) is handed to the run, and disruption and
// apply_disruption (sim::RunOptions).
Outcome RunText(std::string_view text, bool explain_all, bool keep_scenario, const std::set<std::string>& explain = {},
                Progress progress = {}, sim::DisruptionDryRun disruption = nullptr,
                sim::DisruptionApplier apply_disruption = nullptr);
// Runs a scenario that is already parsed (the app parses first to decide where the run happens).
Outcome RunScenario(Scenario scenario, bool explain_all, bool keep_scenario, const std::set<std::string>& explain = {},
                    Progress progress = {}, sim::DisruptionDryRun disruption = nullptr,
                    sim::DisruptionApplier apply_disruption = nullptr);
// The same with the run's options spelled out (the app's runs in the frame record the timeline).
Outcome RunScenario(Scenario scenario, sim::RunOptions options, bool keep_scenario);

}  // namespace kplace::io
