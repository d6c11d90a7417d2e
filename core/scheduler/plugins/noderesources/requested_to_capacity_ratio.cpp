#include "core/scheduler/plugins/noderesources/requested_to_capacity_ratio.h"

#include <cstdint>

#include "core/model/quantity.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins::noderesources {
namespace {
constexpr std::int64_t kMaxUtilization = 100;
constexpr std::int64_t kMaxCustomPriorityScore = 10;  // config.MaxCustomPriorityScore
}  // namespace

BrokenLinearFunction BrokenLinearFunction::FromShape(const std::vector<UtilizationShapePoint>& shape) {
  std::vector<Point> points;
  points.reserve(shape.size());
  for (const auto& p : shape)
    points.push_back({p.utilization, p.score * (framework::kMaxNodeScore / kMaxCustomPriorityScore)});
  return BrokenLinearFunction(std::move(points));
}

std::int64_t BrokenLinearFunction::operator()(std::int64_t p) const {
  if (points_.empty()) return 0;
  for (std::size_t i = 0; i < points_.size(); ++i) {
    if (p <= points_[i].utilization) {
      if (i == 0) return points_[0].score;
      const Point& a = points_[i - 1];
      const Point& b = points_[i];
      // Integer division truncating toward zero, as Go's.
      return a.score + (b.score - a.score) * (p - a.utilization) / (b.utilization - a.utilization);
    }
  }
  return points_.back().score;
}

std::int64_t RequestedToCapacityRatioScore(const BrokenLinearFunction& f, std::int64_t requested,
                                           std::int64_t capacity) {
  if (capacity == 0 || requested > capacity) return f(kMaxUtilization);
  // 128-bit only when the 64-bit product could overflow (see least_allocated.cpp).
  if (requested >= 0 && requested <= INT64_MAX / kMaxUtilization) return f(requested * kMaxUtilization / capacity);
  return f(static_cast<std::int64_t>(static_cast<Int128>(requested) * kMaxUtilization / capacity));
}

}  // namespace kplace::plugins::noderesources
