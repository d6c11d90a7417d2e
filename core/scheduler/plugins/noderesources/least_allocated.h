// LeastAllocated scoring strategy of NodeResourcesFit (upstream plugins/noderesources/least_allocated.go):
// favours nodes with more free capacity.
#pragma once

#include <cstdint>

namespace kplace::plugins::noderesources {

// leastRequestedScore: (capacity - requested) * MaxNodeScore / capacity; 0 when the request exceeds capacity.
std::int64_t LeastRequestedScore(std::int64_t requested, std::int64_t capacity);

}  // namespace kplace::plugins::noderesources
