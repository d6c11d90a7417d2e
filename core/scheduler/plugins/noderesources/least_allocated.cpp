#include "core/scheduler/plugins/noderesources/least_allocated.h"

#include "core/model/quantity.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins::noderesources {

std::int64_t LeastRequestedScore(std::int64_t requested, std::int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  // 128-bit product: Go's int64 cannot overflow here for realistic sizes either, and C++ must not.
  return static_cast<std::int64_t>(static_cast<Int128>(capacity - requested) * framework::kMaxNodeScore / capacity);
}

}  // namespace kplace::plugins::noderesources
