// libFuzzer target: any byte string must either parse and simulate, or fail with io::InputError. Nothing else
// (crash, sanitizer report, other exception) is acceptable. Differential: IncrementalScenarioParser (the
// playground's per-frame reading of large texts) must give the same scenario or the same error message; the cluster
// import (kplace convert kubectl, the page's import) must accept what the parser accepts, fail with its message
// otherwise (unless it found kwok instance types), and convert its own scenario to itself; every document must
// come back from JsonToYaml through the YAML reader unchanged.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/cluster_import.h"
#include "core/io/incremental_parser.h"
#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/io/yaml_text.h"
#include "core/sim/simulation.h"

namespace {

// The outcome of a parse as bytes: the error message, or the parsed scenario's result when it runs quickly.
std::string Outcome(const kplace::Scenario* sc, const std::string& error) {
  if (!sc) return "error: " + error;
  std::string out = "ok: " + std::to_string(sc->nodes.size()) + " nodes, " + std::to_string(sc->pods.size()) +
                    " pods, " + std::to_string(sc->warnings.size()) + " warnings";
  if (sc->pods.size() * (sc->nodes.size() + 1) <= 20000)
    out += "\n" + kplace::io::ResultText(kplace::sim::Run(*sc, {}));
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string whole, sliced;
  try {
    kplace::Scenario sc = kplace::io::ParseScenario(text);
    whole = Outcome(&sc, "");
    if (sc.pods.size() * (sc.nodes.size() + 1) <= 200000) {  // keep each input fast
      auto result = kplace::sim::Run(std::move(sc), {true, {}, {}, &kplace::karpenter::disruption::DryRun});
      (void)kplace::io::ResultText(result);
    }
  } catch (const kplace::io::InputError& e) {
    whole = Outcome(nullptr, e.what());
  }
  try {
    kplace::io::IncrementalScenarioParser parser{text};
    while (!parser.Step(1)) {
    }
    kplace::Scenario sc = parser.Take();
    sliced = Outcome(&sc, "");
  } catch (const kplace::io::InputError& e) {
    sliced = Outcome(nullptr, e.what());
  }
  if (whole != sliced) __builtin_trap();
  // The documents, whether one is kwok's instance types (which only the import reads), and the parser's own verdict
  // (whole above may also hold an error the run found).
  std::vector<kplace::io::Json> docs;
  bool kwok = false;
  std::string parse_error = "-";
  try {
    docs = kplace::io::ReadDocuments(text);
    for (const auto& doc : docs) kwok = kwok || kplace::io::IsKwokInstanceTypes(doc);
    (void)kplace::io::ParseScenario(text);
    parse_error.clear();
  } catch (const kplace::io::InputError& e) {
    parse_error = e.what();
  }
  try {
    const kplace::io::ClusterImport im = kplace::io::ImportClusterDump(text);
    if (!parse_error.empty() && !kwok) __builtin_trap();
    if (kplace::io::ImportClusterDump(im.scenario).scenario != im.scenario) __builtin_trap();
  } catch (const kplace::io::InputError& e) {
    if (!kwok && parse_error != e.what()) __builtin_trap();
  }
  for (const auto& doc : docs) {
    const std::vector<kplace::io::Json> back = kplace::io::ParseYamlText(kplace::io::JsonToYaml(doc));
    if (doc.is_null() ? !back.empty() : back.size() != 1 || back[0] != doc) __builtin_trap();
  }
  return 0;
}
