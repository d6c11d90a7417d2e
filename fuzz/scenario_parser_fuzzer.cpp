// libFuzzer target: any byte string must either parse and simulate, or fail with io::InputError. Nothing else
// (crash, sanitizer report, other exception) is acceptable.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    kplace::Scenario sc = kplace::io::ParseScenario(text);
    if (sc.pods.size() * (sc.nodes.size() + 1) > 200000) return 0;  // keep each input fast
    auto result = kplace::sim::Run(std::move(sc), {true, {}});
    (void)kplace::io::Dump(kplace::io::ResultToJson(result));
  } catch (const kplace::io::InputError&) {
  }
  return 0;
}
