// resource.Quantity: parsing and the two integer views the scheduler uses.
// Grammar and rounding follow k8s.io/apimachinery/pkg/api/resource/quantity.go: an optional sign, decimal digits
// with an optional fraction, then a suffix (binary Ki..Ei, decimal n u m "" k M G T P E, or an exponent e/E<int>).
// Values are kept exactly in nano-units, rounded up (away from zero) below 1n and capped at 2^63-1 units.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kplace {

__extension__ typedef __int128 Int128;

class Quantity {
 public:
  Quantity() = default;
  static Quantity FromMilli(std::int64_t milli) { return Quantity(static_cast<Int128>(milli) * 1'000'000); }
  static Quantity FromValue(std::int64_t value) { return Quantity(static_cast<Int128>(value) * 1'000'000'000); }

  // Parses text; nullopt when it is not a Quantity.
  static std::optional<Quantity> Parse(std::string_view text);

  // Quantity.Value(): the integer value, rounded away from zero and saturated to int64.
  std::int64_t Value() const;
  // Quantity.MilliValue(): the value in milli-units, rounded away from zero and saturated to int64.
  std::int64_t MilliValue() const;
  bool IsNegative() const { return nanos_ < 0; }
  bool IsZero() const { return nanos_ == 0; }
  Int128 Nanos() const { return nanos_; }

  friend bool operator==(const Quantity& a, const Quantity& b) { return a.nanos_ == b.nanos_; }

 private:
  explicit Quantity(Int128 nanos) : nanos_(nanos) {}
  Int128 nanos_ = 0;
};

}  // namespace kplace
