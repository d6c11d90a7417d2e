#include "core/scheduler/plugins/noderesources/most_allocated.h"

#include <cstdint>

#include "core/model/quantity.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins::noderesources {

std::int64_t MostRequestedScore(std::int64_t requested, std::int64_t capacity) {
  if (capacity == 0) return 0;
  // A pod that does not fit is scored as a full node (more than 100% is not allowed).
  if (requested > capacity) requested = capacity;
  // 128-bit only when the 64-bit product could overflow (see least_allocated.cpp).
  if (requested >= 0 && requested <= INT64_MAX / framework::kMaxNodeScore)
    return requested * framework::kMaxNodeScore / capacity;
  return static_cast<std::int64_t>(static_cast<Int128>(requested) * framework::kMaxNodeScore / capacity);
}

}  // namespace kplace::plugins::noderesources
