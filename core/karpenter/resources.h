// Resource-list helpers as Karpenter uses them (pkg/utils/resources): fits, subtract, min/max, and the JSON form
// its error messages print.
#pragma once

#include <string>

#include "core/model/resource.h"

namespace kplace::karpenter {

// resources.Fits: every value of requests <= available, and no available value is negative.
bool Fits(const Resource& requests, const Resource& available);
// Element-wise minimum / maximum (absent = 0).
Resource Min(const Resource& a, const Resource& b);
Resource Max(const Resource& a, const Resource& b);
// Element-wise max(a, 0).
Resource ClampZero(const Resource& a);
bool AnyNegative(const Resource& a);
bool Equal(const Resource& a, const Resource& b);
// encoding/json of a v1.ResourceList: keys sorted, canonical quantities, zero entries (other than pods) omitted.
std::string ResourcesJson(const Resource& r);
// A canonical quantity string: cpu from milli-units, others from units.
std::string CpuString(std::int64_t milli);
std::string QuantityString(std::int64_t value);

}  // namespace kplace::karpenter
