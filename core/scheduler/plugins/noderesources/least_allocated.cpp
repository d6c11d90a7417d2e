#include "core/scheduler/plugins/noderesources/least_allocated.h"

#include <cstdint>

#include "core/model/quantity.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins::noderesources {

std::int64_t LeastRequestedScore(std::int64_t requested, std::int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  // 128-bit product: Go's int64 cannot overflow here for realistic sizes either, and C++ must not. A 128-bit
  // division is a library call (slow natively, slower in wasm), so it is kept for products that need it.
  const std::int64_t free = capacity - requested;
  if (free <= INT64_MAX / framework::kMaxNodeScore) return free * framework::kMaxNodeScore / capacity;
  return static_cast<std::int64_t>(static_cast<Int128>(free) * framework::kMaxNodeScore / capacity);
}

}  // namespace kplace::plugins::noderesources
