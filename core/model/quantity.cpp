#include "core/model/quantity.h"

#include <array>
#include <cstdint>
#include <limits>

namespace kplace {
namespace {

constexpr Int128 kNanosPerUnit = 1'000'000'000;
constexpr Int128 kMaxNanos = static_cast<Int128>(std::numeric_limits<std::int64_t>::max()) * kNanosPerUnit;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

struct Suffix {
  int base = 10;              // 10 or 2
  std::int32_t exponent = 0;  // power of base
};

// quantitySuffixer.interpret (suffix.go): decimal SI, binary SI, then e/E followed by a Go ParseInt(…, 10, 64)
// integer that upstream then truncates to int32.
std::optional<Suffix> InterpretSuffix(std::string_view s) {
  // The SI suffixes (none, n u m k M G T P E) and the binary ones (Ki Mi Gi Ti Pi Ei) by their letters: a quantity is
  // parsed for every request and capacity read.
  if (s.empty()) return Suffix{10, 0};
  if (s.size() == 1) {
    switch (s[0]) {
      case 'n':
        return Suffix{10, -9};
      case 'u':
        return Suffix{10, -6};
      case 'm':
        return Suffix{10, -3};
      case 'k':
        return Suffix{10, 3};
      case 'M':
        return Suffix{10, 6};
      case 'G':
        return Suffix{10, 9};
      case 'T':
        return Suffix{10, 12};
      case 'P':
        return Suffix{10, 15};
      case 'E':
        return Suffix{10, 18};
      default:
        return std::nullopt;  // not an exponent either ("e" needs digits)
    }
  }
  if (s.size() == 2 && s[1] == 'i') {
    switch (s[0]) {
      case 'K':
        return Suffix{2, 10};
      case 'M':
        return Suffix{2, 20};
      case 'G':
        return Suffix{2, 30};
      case 'T':
        return Suffix{2, 40};
      case 'P':
        return Suffix{2, 50};
      case 'E':
        return Suffix{2, 60};
      default:
        break;
    }
  }
  if (s.size() < 2 || (s[0] != 'e' && s[0] != 'E')) return std::nullopt;
  std::size_t i = 1;
  bool negative = false;
  if (s[i] == '+' || s[i] == '-') negative = s[i++] == '-';
  if (i >= s.size()) return std::nullopt;
  std::uint64_t magnitude = 0;
  constexpr std::uint64_t kLimit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1;
  for (; i < s.size(); ++i) {
    if (!IsDigit(s[i])) return std::nullopt;
    magnitude = magnitude * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (magnitude > kLimit) return std::nullopt;  // strconv.ErrRange
  }
  if (!negative && magnitude == kLimit) return std::nullopt;
  std::uint64_t bits = negative ? ~magnitude + 1 : magnitude;  // two's complement int64
  return Suffix{10, static_cast<std::int32_t>(static_cast<std::uint32_t>(bits))};
}

struct Parts {
  bool positive = true;
  bool has_digits = false;  // any digit before the suffix (inf.Dec.SetString needs one)
  std::string_view num;     // integer digits, leading zeros stripped
  std::string_view denom;   // fraction digits
  std::string_view suffix;
};

// parseQuantityString (quantity.go): [+-] digits [. digits] then [eEinumkKMGTP]* [+-]? digits*.
bool Split(std::string_view str, Parts& out) {
  std::size_t pos = 0, end = str.size();
  if (pos < end && (str[0] == '-' || str[0] == '+')) out.positive = str[pos++] != '-';
  std::size_t digits_start = pos;
  while (pos < end && str[pos] == '0') ++pos;
  std::size_t i = pos;
  while (i < end && IsDigit(str[i])) ++i;
  out.num = str.substr(pos, i - pos);
  pos = i;
  if (pos < end && str[pos] == '.') {
    ++pos;
    for (i = pos; i < end && IsDigit(str[i]); ++i) {
    }
    out.denom = str.substr(pos, i - pos);
    pos = i;
  }
  out.has_digits = pos > digits_start && (str.substr(digits_start, pos - digits_start) != ".");
  std::size_t suffix_start = pos;
  const auto suffix_char = [](char c) {
    switch (c) {
      case 'e':
      case 'E':
      case 'i':
      case 'n':
      case 'u':
      case 'm':
      case 'k':
      case 'K':
      case 'M':
      case 'G':
      case 'T':
      case 'P':
        return true;
      default:
        return false;
    }
  };
  for (i = pos; i < end && suffix_char(str[i]); ++i) {
  }
  if (i < end && (str[i] == '-' || str[i] == '+')) ++i;
  for (; i < end; ++i)
    if (!IsDigit(str[i])) return false;  // ErrFormatWrong
  out.suffix = str.substr(suffix_start);
  return true;
}

// ceil(0.f1f2…fk * 2^bits) for the decimal fraction digits f (1 <= bits <= 60), by exact long multiplication.
// Only the first 64 digits are multiplied: 0.f1…f64 * 2^bits has a fractional part that is a multiple of
// 2^bits / 10^64 (2^bits divides 10^64), and the dropped tail adds less than that, so it can only matter when the
// product is an integer, where any nonzero tail rounds it up by one.
Int128 CeilFractionTimesPow2(std::string_view fraction, int bits) {
  constexpr std::size_t kKeep = 64;
  std::array<std::uint32_t, kKeep> digits{};
  std::size_t n = fraction.size() < kKeep ? fraction.size() : kKeep;
  for (std::size_t i = 0; i < n; ++i) digits[i] = static_cast<std::uint32_t>(fraction[i] - '0');
  bool rest = fraction.size() > kKeep && fraction.substr(kKeep).find_first_not_of('0') != std::string_view::npos;
  Int128 whole = 0;
  while (bits > 0) {
    int step = bits < 20 ? bits : 20;
    bits -= step;
    std::uint64_t carry = 0;
    for (std::size_t i = n; i-- > 0;) {
      std::uint64_t v = (static_cast<std::uint64_t>(digits[i]) << step) + carry;
      digits[i] = static_cast<std::uint32_t>(v % 10);
      carry = v / 10;
    }
    whole = (whole << step) + carry;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (digits[i] != 0) return whole + 1;
  return rest ? whole + 1 : whole;
}

}  // namespace

// Upstream keeps the parsed amount exactly (int64Amount or inf.Dec), rounding only values finer than 1n, away from
// zero, and capping only binary-SI amounts at 2^63-1. Here the amount is kept in nano-units, computed as
// digits * 10^(point shift) * 2^bits with the same rounding, and capped at 2^63-1 units for every suffix: a decimal
// amount above that has no defined Value() upstream either.
std::optional<Quantity> Quantity::Parse(std::string_view text) {
  if (text.empty()) return std::nullopt;
  Parts parts;
  if (!Split(text, parts)) return std::nullopt;
  auto suffix = InterpretSuffix(parts.suffix);
  if (!suffix) return std::nullopt;
  // Upstream's int64 fast path never fails; its inf.Dec path fails without any digit (SetString needs one). With no
  // digit that path is taken for a scale below nano ("e-10"; "e-9" and "e3" are 0) and for a binary suffix whose
  // precision estimate 15 - len("0") - exponent*3/10 - 1 is negative ("Pi", "Ei"; "Ti" is 0).
  if (!parts.has_digits) {
    bool slow = suffix->base == 2 ? 15 - 1 - suffix->exponent * 3 / 10 - 1 < 0 : suffix->exponent < -9;
    if (slow) return std::nullopt;
  }

  // digits = num ++ denom; the nano-unit point sits after `point` digits (may be < 0 or > digits.size()).
  std::string digits(parts.num);
  digits.append(parts.denom);
  std::int64_t point = static_cast<std::int64_t>(parts.num.size()) + 9;
  int bits = 0;
  if (suffix->base == 10)
    point += suffix->exponent;
  else
    bits = suffix->exponent;
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return Quantity(0);
  digits.erase(0, first);
  point -= static_cast<std::int64_t>(first);

  // Integer part (saturating), then the fraction rounded up. The first 18 digits fit a 64-bit word and stay far
  // below kMaxNanos (about 9.2e27): accumulated there, without 128-bit multiplications (calls in WebAssembly).
  std::uint64_t head = 0;
  std::int64_t i = 0;
  const auto digit = [&digits](std::int64_t at) {
    return at < static_cast<std::int64_t>(digits.size()) ? digits[static_cast<std::size_t>(at)] - '0' : 0;
  };
  for (; i < point && i < 18; ++i) head = head * 10 + static_cast<std::uint64_t>(digit(i));
  Int128 whole = head;
  bool saturated = false;
  for (; i < point && !saturated; ++i) {
    whole = whole * 10 + digit(i);
    saturated = whole > kMaxNanos;
  }
  if (!saturated && bits > 0) {
    saturated = whole > (kMaxNanos >> bits);
    if (!saturated) whole <<= bits;
  }
  if (saturated) return Quantity(parts.positive ? kMaxNanos : -kMaxNanos);

  // Round the part below 1n up. For a decimal suffix any nonzero digit after the point counts. For a binary suffix
  // the fraction is multiplied by 2^bits; -point zeros come first when point < 0, and below 10^-64 the product is
  // under 1n anyway.
  std::string_view fraction;
  if (point < static_cast<std::int64_t>(digits.size()))
    fraction = std::string_view(digits).substr(static_cast<std::size_t>(point < 0 ? 0 : point));
  Int128 up = 0;
  if (fraction.find_first_not_of('0') == std::string_view::npos) {
    up = 0;
  } else if (bits == 0 || point <= -64) {
    up = 1;
  } else if (point < 0) {
    std::string padded(static_cast<std::size_t>(-point), '0');
    padded += fraction;
    up = CeilFractionTimesPow2(padded, bits);
  } else {
    up = CeilFractionTimesPow2(fraction, bits);
  }
  Int128 nanos = whole + up;
  if (nanos > kMaxNanos) nanos = kMaxNanos;
  return Quantity(parts.positive ? nanos : -nanos);
}

namespace {
// v / d rounded away from zero (upstream's int64Amount.AsScaledInt64), saturated to int64.
std::int64_t DivAwayFromZero(Int128 v, Int128 d) {
  Int128 q = v / d;
  if (v % d != 0) q += v > 0 ? 1 : -1;
  constexpr Int128 kMax = std::numeric_limits<std::int64_t>::max();
  constexpr Int128 kMin = std::numeric_limits<std::int64_t>::min();
  if (q > kMax) return std::numeric_limits<std::int64_t>::max();
  if (q < kMin) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(q);
}
}  // namespace

std::int64_t Quantity::Value() const { return DivAwayFromZero(nanos_, kNanosPerUnit); }
std::int64_t Quantity::MilliValue() const { return DivAwayFromZero(nanos_, 1'000'000); }

}  // namespace kplace
