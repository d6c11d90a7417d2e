// Resource lists as the scheduler sees them (framework.Resource): cpu in milli-units, everything else in units.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/symbol.h"

namespace kplace {

struct Resource {
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::int64_t ephemeral_storage = 0;
  std::int64_t allowed_pod_number = 0;  // only meaningful for node allocatable ("pods")
  // Extended and other scalar resources (nvidia.com/gpu, hugepages-2Mi, ...), sorted by symbol.
  std::vector<std::pair<Symbol, std::int64_t>> scalar;

  std::int64_t Scalar(Symbol name) const;
  void SetScalar(Symbol name, std::int64_t v);
  void AddScalar(Symbol name, std::int64_t v) { SetScalar(name, Scalar(name) + v); }
  // Adds (sign = +1) or subtracts (sign = -1) every request of other.
  void Add(const Resource& other, int sign = 1);
  // Per resource max (used for init containers).
  void SetMax(const Resource& other);
  bool IsZero() const;
  // Value of a named resource: cpu (milli), memory, ephemeral-storage, pods, or a scalar.
  std::int64_t Get(Symbol name) const;
};

namespace resource_names {
Symbol Cpu();
Symbol Memory();
Symbol EphemeralStorage();
Symbol Pods();
}  // namespace resource_names

// Resource name classes (pkg/apis/core/v1/helper, schedutil.IsScalarResourceName).
// Extended: contains '/', not kubernetes.io/-prefixed, not "requests."-prefixed, and "requests.<name>" is a
// qualified name (e.g. example.com/gpu).
bool IsExtendedResourceName(std::string_view name);
// Scalar: extended, hugepages-*, prefixed native (contains "kubernetes.io/"), attachable-volumes-*.
bool IsScalarResourceName(std::string_view name);

}  // namespace kplace
