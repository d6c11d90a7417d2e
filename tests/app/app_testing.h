// Helpers of the app model's tests: the presets the app embeds, in each mode, and the Web Worker's answer.
#pragma once

#include <string>
#include <vector>

#include "app/model/json_text.h"
#include "app/model/presets.h"
#include "core/io/result_writer.h"
#include "core/io/run_text.h"

namespace kplace::app::testing {

struct PresetInMode {
  std::string name;  // "<preset>_<mode>"
  std::string text;  // the preset with spec.mode set (json_text::WithMode)
};

inline std::vector<PresetInMode> PresetsInEveryMode() {
  std::vector<PresetInMode> out;
  for (const auto& p : Presets())
    for (const char* mode : {"scheduler", "karpenter", "cluster"})
      if (auto text = json_text::WithMode(p.text, mode)) out.push_back({p.name + "_" + mode, *text});
  return out;
}

// What the page's Web Worker answers for text (kplace-core's kplace_run envelope, without explanations).
inline std::string WorkerEnvelope(const std::string& text) {
  const io::Outcome out = io::RunText(text, /*explain_all=*/false, /*keep_scenario=*/false);
  if (!out.ok) return io::Json({{"status", "failure"}, {"errors", {{{"message", out.error}}}}}).dump();
  return io::Json({{"status", "success"}, {"result", io::ResultToJson(out.result)}}).dump();
}

}  // namespace kplace::app::testing
