// MostAllocated scoring strategy of NodeResourcesFit (upstream plugins/noderesources/most_allocated.go):
// favours nodes with more allocation (bin packing).
#pragma once

#include <cstdint>

namespace kplace::plugins::noderesources {

// mostRequestedScore: min(requested, capacity) * MaxNodeScore / capacity.
std::int64_t MostRequestedScore(std::int64_t requested, std::int64_t capacity);

}  // namespace kplace::plugins::noderesources
