// Human-readable renderings of simulation records (kubectl-like table, events, explanations).
#pragma once

#include <string>

#include "core/sim/simulation.h"

namespace kplace::cli {

std::string RenderTable(const sim::SimResult& result);
std::string RenderExplanation(const sim::PodResult& pod, const sim::SimResult& result);

}  // namespace kplace::cli
