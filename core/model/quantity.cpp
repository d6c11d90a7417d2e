#include "core/model/quantity.h"

#include <array>
#include <cctype>
#include <limits>

namespace kplace {
namespace {

constexpr Int128 kNanosPerUnit = 1'000'000'000;
constexpr Int128 kMaxNanos = static_cast<Int128>(std::numeric_limits<std::int64_t>::max()) * kNanosPerUnit;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

struct Suffix {
  int base = 10;       // 10 or 2
  int exponent = 0;    // power of base
};

std::optional<Suffix> InterpretSuffix(std::string_view s) {
  static constexpr std::array<std::pair<std::string_view, int>, 6> kBinary = {
      {{"Ki", 10}, {"Mi", 20}, {"Gi", 30}, {"Ti", 40}, {"Pi", 50}, {"Ei", 60}}};
  static constexpr std::array<std::pair<std::string_view, int>, 10> kDecimal = {
      {{"n", -9}, {"u", -6}, {"m", -3}, {"", 0}, {"k", 3}, {"M", 6}, {"G", 9}, {"T", 12}, {"P", 15}, {"E", 18}}};
  for (auto [name, exp] : kBinary)
    if (s == name) return Suffix{2, exp};
  for (auto [name, exp] : kDecimal)
    if (s == name) return Suffix{10, exp};
  // Exponent form: e or E followed by an optionally signed integer.
  if (s.size() >= 2 && (s[0] == 'e' || s[0] == 'E')) {
    std::size_t i = 1;
    bool negative = false;
    if (s[i] == '+' || s[i] == '-') negative = s[i++] == '-';
    if (i >= s.size()) return std::nullopt;
    long long value = 0;
    for (; i < s.size(); ++i) {
      if (!IsDigit(s[i])) return std::nullopt;
      value = value * 10 + (s[i] - '0');
      if (value > 100000) value = 100000;  // far beyond any representable magnitude; keeps the math bounded
    }
    return Suffix{10, static_cast<int>(negative ? -value : value)};
  }
  return std::nullopt;
}

// Splits text the way upstream's parseQuantityString does. Returns false on a format error.
bool Split(std::string_view str, bool& positive, std::string_view& num, std::string_view& denom,
           std::string_view& suffix) {
  positive = true;
  std::size_t pos = 0, end = str.size();
  if (pos < end && (str[0] == '-' || str[0] == '+')) {
    positive = str[0] != '-';
    ++pos;
  }
  while (pos < end && str[pos] == '0') ++pos;  // leading zeros
  if (pos >= end) {
    num = "0";
    return true;
  }
  std::size_t i = pos;
  while (i < end && IsDigit(str[i])) ++i;
  num = str.substr(pos, i - pos);
  if (num.empty()) num = "0";
  pos = i;
  if (pos < end && str[pos] == '.') {
    ++pos;
    i = pos;
    while (i < end && IsDigit(str[i])) ++i;
    denom = str.substr(pos, i - pos);
    pos = i;
  }
  std::size_t suffix_start = pos;
  static constexpr std::string_view kSuffixChars = "eEinumkKMGTP";
  i = pos;
  while (i < end && kSuffixChars.find(str[i]) != std::string_view::npos) ++i;
  if (i >= end) {
    suffix = str.substr(suffix_start);
    return true;
  }
  pos = i;
  if (str[pos] == '-' || str[pos] == '+') ++pos;
  for (i = pos; i < end; ++i)
    if (!IsDigit(str[i])) return false;
  suffix = str.substr(suffix_start);
  return true;
}

Int128 Pow(Int128 base, int exp) {
  Int128 r = 1;
  for (int i = 0; i < exp; ++i) {
    r *= base;
    if (r > kMaxNanos) return kMaxNanos + 1;
  }
  return r;
}

}  // namespace

std::optional<Quantity> Quantity::Parse(std::string_view text) {
  if (text.empty()) return std::nullopt;
  bool positive = true;
  std::string_view num, denom, suffix_text;
  if (!Split(text, positive, num, denom, suffix_text)) return std::nullopt;
  auto suffix = InterpretSuffix(suffix_text);
  if (!suffix) return std::nullopt;

  // Exact value = digits * 10^scale10 * 2^exp2, with digits = num ++ denom.
  std::string digits(num);
  digits.append(denom);
  int scale10 = -static_cast<int>(denom.size());
  int exp2 = 0;
  if (suffix->base == 10)
    scale10 += suffix->exponent;
  else
    exp2 = suffix->exponent;
  scale10 += 9;  // to nano-units

  // Drop leading zeros, then accumulate with saturation.
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return Quantity(0);
  digits.erase(0, first);

  bool saturated = false;
  bool inexact = false;  // true if nonzero digits were dropped (for rounding up)
  Int128 mantissa = 0;
  // Digits beyond the nano position get dropped (with round-up).
  long long keep = static_cast<long long>(digits.size()) + std::min(scale10, 0);
  if (scale10 < 0) scale10 = 0;
  for (long long i = 0; i < static_cast<long long>(digits.size()); ++i) {
    int d = digits[static_cast<std::size_t>(i)] - '0';
    if (i >= keep) {
      if (d != 0) inexact = true;
      continue;
    }
    if (!saturated) {
      mantissa = mantissa * 10 + d;
      if (mantissa > kMaxNanos) saturated = true;
    }
  }
  if (!saturated) {
    if (scale10 > 40) {
      saturated = mantissa != 0;
    } else {
      Int128 p = Pow(10, scale10);
      if (p > kMaxNanos || (mantissa != 0 && mantissa > kMaxNanos / p)) saturated = mantissa != 0;
      else mantissa *= p;
    }
  }
  if (!saturated && exp2 > 0) {
    Int128 p = Pow(2, exp2);
    if (p > kMaxNanos || (mantissa != 0 && mantissa > kMaxNanos / p)) saturated = mantissa != 0;
    else mantissa *= p;
  }
  if (inexact && !saturated) mantissa += 1;  // round up to the next nano-unit
  if (saturated || mantissa > kMaxNanos) mantissa = kMaxNanos;
  return Quantity(positive ? mantissa : -mantissa);
}

namespace {
std::int64_t CeilDiv(Int128 v, Int128 d) {
  Int128 q = v / d;
  if (v % d != 0 && v > 0) ++q;
  constexpr Int128 kMax = std::numeric_limits<std::int64_t>::max();
  constexpr Int128 kMin = std::numeric_limits<std::int64_t>::min();
  if (q > kMax) return std::numeric_limits<std::int64_t>::max();
  if (q < kMin) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(q);
}
}  // namespace

std::int64_t Quantity::Value() const { return CeilDiv(nanos_, kNanosPerUnit); }
std::int64_t Quantity::MilliValue() const { return CeilDiv(nanos_, 1'000'000); }

}  // namespace kplace
