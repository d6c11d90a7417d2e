// RequestedToCapacityRatio scoring strategy of NodeResourcesFit (upstream plugins/noderesources/
// requested_to_capacity_ratio.go, plugins/helper/shape_score.go): a user-defined broken-line function of the
// utilisation.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/scheduler_config.h"

namespace kplace::plugins::noderesources {

// helper.BuildBrokenLinearFunction over points with scores already scaled to 0..MaxNodeScore.
class BrokenLinearFunction {
 public:
  struct Point {
    std::int64_t utilization = 0;
    std::int64_t score = 0;
  };
  explicit BrokenLinearFunction(std::vector<Point> points) : points_(std::move(points)) {}
  // Scales the user's shape (score 0..10) by MaxNodeScore / MaxCustomPriorityScore.
  static BrokenLinearFunction FromShape(const std::vector<UtilizationShapePoint>& shape);
  std::int64_t operator()(std::int64_t utilization) const;

 private:
  std::vector<Point> points_;
};

// The score of one resource: the function at utilisation requested * 100 / capacity (100 when over capacity).
std::int64_t RequestedToCapacityRatioScore(const BrokenLinearFunction& f, std::int64_t requested,
                                           std::int64_t capacity);

}  // namespace kplace::plugins::noderesources
