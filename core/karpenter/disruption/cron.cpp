#include "core/karpenter/disruption/cron.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace kplace::karpenter::disruption {
namespace {

constexpr std::uint64_t kStar = std::uint64_t{1} << 63;

struct Bounds {
  unsigned min, max;
  const std::array<const char*, 12>* names;  // index = value - name_base
  unsigned name_base;
};

constexpr std::array<const char*, 12> kMonths = {"jan", "feb", "mar", "apr", "may", "jun",
                                                 "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr std::array<const char*, 12> kDays = {"sun", "mon", "tue", "wed", "thu", "fri", "sat", "", "", "", "", ""};

constexpr Bounds kMinute{0, 59, nullptr, 0}, kHour{0, 23, nullptr, 0}, kDom{1, 31, nullptr, 0},
    kMonth{1, 12, &kMonths, 1}, kDow{0, 6, &kDays, 0};

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t i = s.find(sep, start);
    out.push_back(s.substr(start, i == std::string_view::npos ? std::string_view::npos : i - start));
    if (i == std::string_view::npos) return out;
    start = i + 1;
  }
}

// strings.Fields: runs of Unicode white space separate fields (ASCII ones are what a schedule holds).
std::vector<std::string_view> Fields(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; };
  while (i < s.size()) {
    while (i < s.size() && space(s[i])) ++i;
    std::size_t start = i;
    while (i < s.size() && !space(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::string Join(const std::vector<std::string_view>& fields) {
  std::string out = "[";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ' ';
    out += fields[i];
  }
  return out + "]";
}

// strconv.Atoi: optional sign, decimal digits, within int64 (values beyond are "value out of range").
bool Atoi(std::string_view s, long long& v, std::string& err) {
  std::string q = "\"" + std::string(s) + "\"";
  std::size_t i = 0;
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    i = 1;
  }
  if (i == s.size()) {
    err = "strconv.Atoi: parsing " + q + ": invalid syntax";
    return false;
  }
  unsigned long long n = 0;
  bool range = false;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') {
      err = "strconv.Atoi: parsing " + q + ": invalid syntax";
      return false;
    }
    if (n > (9223372036854775808ULL - (s[i] - '0')) / 10) range = true;
    if (!range) n = n * 10 + static_cast<unsigned>(s[i] - '0');
  }
  if (range || (!neg && n > 9223372036854775807ULL)) {
    err = "strconv.Atoi: parsing " + q + ": value out of range";
    return false;
  }
  v = neg ? -static_cast<long long>(n) : static_cast<long long>(n);
  return true;
}

bool ParseInt(std::string_view expr, unsigned& out, std::string& err) {
  long long v = 0;
  std::string inner;
  if (!Atoi(expr, v, inner)) {
    err = "failed to parse int from " + std::string(expr) + ": " + inner;
    return false;
  }
  if (v < 0) {
    err = "negative number (" + std::to_string(v) + ") not allowed: " + std::string(expr);
    return false;
  }
  out = static_cast<unsigned>(v);
  if (static_cast<long long>(out) != v) out = 64;  // beyond every bound: reported as out of range below
  return true;
}

bool ParseIntOrName(std::string_view expr, const Bounds& b, unsigned& out, std::string& err) {
  if (b.names) {
    std::string lower(expr);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (std::size_t i = 0; i < b.names->size(); ++i)
      if (*(*b.names)[i] && lower == (*b.names)[i]) {
        out = static_cast<unsigned>(i) + b.name_base;
        return true;
      }
  }
  return ParseInt(expr, out, err);
}

std::uint64_t Bits(unsigned min, unsigned max, unsigned step) {
  std::uint64_t bits = 0;
  for (unsigned i = min; i <= max; i += step) bits |= std::uint64_t{1} << i;
  return bits;
}

bool Range(std::string_view expr, const Bounds& b, std::uint64_t& bits, std::string& err) {
  auto range_and_step = Split(expr, '/');
  auto low_high = Split(range_and_step[0], '-');
  const bool single = low_high.size() == 1;
  unsigned start = 0, end = 0, step = 1;
  std::uint64_t extra = 0;
  if (low_high[0] == "*" || low_high[0] == "?") {
    start = b.min;
    end = b.max;
    extra = kStar;
  } else {
    if (!ParseIntOrName(low_high[0], b, start, err)) return false;
    if (low_high.size() == 1) {
      end = start;
    } else if (low_high.size() == 2) {
      if (!ParseIntOrName(low_high[1], b, end, err)) return false;
    } else {
      err = "too many hyphens: " + std::string(expr);
      return false;
    }
  }
  if (range_and_step.size() == 2) {
    if (!ParseInt(range_and_step[1], step, err)) return false;
    if (single) end = b.max;
    if (step > 1) extra = 0;
  } else if (range_and_step.size() > 2) {
    err = "too many slashes: " + std::string(expr);
    return false;
  }
  if (start < b.min) {
    err = "beginning of range (" + std::to_string(start) + ") below minimum (" + std::to_string(b.min) +
          "): " + std::string(expr);
    return false;
  }
  if (end > b.max) {
    err = "end of range (" + std::to_string(end) + ") above maximum (" + std::to_string(b.max) +
          "): " + std::string(expr);
    return false;
  }
  if (start > end) {
    err = "beginning of range (" + std::to_string(start) + ") beyond end of range (" + std::to_string(end) +
          "): " + std::string(expr);
    return false;
  }
  if (step == 0) {
    err = "step of range should be a positive number: " + std::string(expr);
    return false;
  }
  bits = Bits(start, end, step) | extra;
  return true;
}

bool Field(std::string_view field, const Bounds& b, std::uint64_t& bits, std::string& err) {
  bits = 0;
  // strings.FieldsFunc on ',': empty pieces are dropped.
  for (std::string_view expr : Split(field, ',')) {
    if (expr.empty()) continue;
    std::uint64_t one = 0;
    if (!Range(expr, b, one, err)) return false;
    bits |= one;
  }
  return true;
}

std::uint64_t All(const Bounds& b) { return Bits(b.min, b.max, 1) | kStar; }

// Civil time in UTC.
struct Civil {
  std::int64_t y;
  int mo, d, h, mi, s;
};

std::int64_t DaysFromCivil(std::int64_t y, int m, int d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

Civil ToCivil(std::int64_t t) {
  std::int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
  std::int64_t secs = t - days * 86400;
  days += 719468;
  const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const std::int64_t doe = days - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return {yoe + era * 400 + (m <= 2), m, d, static_cast<int>(secs / 3600), static_cast<int>(secs / 60 % 60),
          static_cast<int>(secs % 60)};
}

std::int64_t FromCivil(std::int64_t y, int mo, int d, int h, int mi, int s) {
  // Normalize the month (time.Date does); days beyond the month roll over through the day count.
  std::int64_t m0 = mo - 1;
  y += m0 >= 0 ? m0 / 12 : -((-m0 + 11) / 12);
  m0 -= (m0 >= 0 ? m0 / 12 : -((-m0 + 11) / 12)) * 12;
  return (DaysFromCivil(y, static_cast<int>(m0) + 1, 1) + d - 1) * 86400 + h * 3600 + mi * 60 + s;
}

int Weekday(std::int64_t t) {
  std::int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
  return static_cast<int>(((days % 7) + 7 + 4) % 7);  // 1970-01-01 was a Thursday
}

bool Has(std::uint64_t bits, int v) { return (bits >> v) & 1; }

bool DayMatches(const CronSchedule& s, std::int64_t t) {
  const Civil c = ToCivil(t);
  const bool dom = Has(s.dom, c.d), dow = Has(s.dow, Weekday(t));
  if ((s.dom & kStar) || (s.dow & kStar)) return dom && dow;
  return dom || dow;
}

}  // namespace

std::optional<CronSchedule> ParseCron(std::string_view spec, std::string* error) {
  std::string err;
  auto fail = [&](std::string e) -> std::optional<CronSchedule> {
    if (error) *error = std::move(e);
    return std::nullopt;
  };
  // Karpenter's "TZ=UTC " prefix is consumed by the parser; the rest is trimmed.
  std::size_t b = 0, e = spec.size();
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; };
  while (b < e && space(spec[b])) ++b;
  while (e > b && space(spec[e - 1])) --e;
  spec = spec.substr(b, e - b);
  CronSchedule s;
  if (!spec.empty() && spec[0] == '@') {
    const std::string d(spec);
    if (d == "@yearly" || d == "@annually") {
      s = {1, 1, std::uint64_t{1} << 1, std::uint64_t{1} << 1, All(kDow), std::nullopt};
    } else if (d == "@monthly") {
      s = {1, 1, std::uint64_t{1} << 1, All(kMonth), All(kDow), std::nullopt};
    } else if (d == "@weekly") {
      s = {1, 1, All(kDom), All(kMonth), 1, std::nullopt};
    } else if (d == "@daily" || d == "@midnight") {
      s = {1, 1, All(kDom), All(kMonth), All(kDow), std::nullopt};
    } else if (d == "@hourly") {
      s = {1, All(kHour), All(kDom), All(kMonth), All(kDow), std::nullopt};
    } else if (d.rfind("@every ", 0) == 0) {
      auto secs = ParseGoDuration(std::string_view(d).substr(7), &err);
      if (!secs) return fail("failed to parse duration " + d + ": " + err);
      s.every = static_cast<std::int64_t>(*secs);
    } else {
      return fail("unrecognized descriptor: " + d);
    }
    return s;
  }
  auto fields = Fields(spec);
  if (fields.size() != 5)
    return fail("expected exactly 5 fields, found " + std::to_string(fields.size()) + ": " + Join(fields));
  if (!Field(fields[0], kMinute, s.minute, err) || !Field(fields[1], kHour, s.hour, err) ||
      !Field(fields[2], kDom, s.dom, err) || !Field(fields[3], kMonth, s.month, err) ||
      !Field(fields[4], kDow, s.dow, err))
    return fail(err);
  return s;
}

std::optional<std::int64_t> NextFiring(const CronSchedule& s, std::int64_t t) {
  if (s.every) {
    // ConstantDelaySchedule: the delay rounded down to whole seconds (at least one), from t without its fraction.
    const std::int64_t delay = *s.every < 1 ? 1 : *s.every;
    return t + delay;
  }
  t += 1;  // the next whole second (t holds no fraction)
  bool added = false;
  const std::int64_t year_limit = ToCivil(t).y + 5;
wrap:
  if (ToCivil(t).y > year_limit) return std::nullopt;
  while (!Has(s.month, ToCivil(t).mo)) {
    Civil c = ToCivil(t);
    if (!added) {
      added = true;
      c = {c.y, c.mo, 1, 0, 0, 0};
    }
    t = FromCivil(c.y, c.mo + 1, c.d, c.h, c.mi, c.s);
    if (ToCivil(t).mo == 1) goto wrap;
  }
  while (!DayMatches(s, t)) {
    if (!added) {
      added = true;
      Civil c = ToCivil(t);
      t = FromCivil(c.y, c.mo, c.d, 0, 0, 0);
    }
    t += 86400;
    if (ToCivil(t).d == 1) goto wrap;
  }
  while (!Has(s.hour, ToCivil(t).h)) {
    if (!added) {
      added = true;
      t -= t - (t >= 0 ? t / 3600 : -((-t + 3599) / 3600)) * 3600;
    }
    t += 3600;
    if (ToCivil(t).h == 0) goto wrap;
  }
  while (!Has(s.minute, ToCivil(t).mi)) {
    if (!added) {
      added = true;
      t -= ToCivil(t).s;
    }
    t += 60;
    if (ToCivil(t).mi == 0) goto wrap;
  }
  // Seconds: the standard parser allows second 0 only.
  while (ToCivil(t).s != 0) {
    added = true;
    t += 1;
    if (ToCivil(t).s == 0) goto wrap;
  }
  return t;
}

std::optional<double> ParseGoDuration(std::string_view s, std::string* error) {
  std::string err;
  auto fail = [&]() -> std::optional<double> {
    if (error) *error = err;
    return std::nullopt;
  };
  const std::string quoted = "\"" + std::string(s) + "\"";
  std::string_view orig = s;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return 0.0;
  if (s.empty()) {
    err = "time: invalid duration " + quoted;
    return fail();
  }
  double total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || (s[0] >= '0' && s[0] <= '9'))) {
      err = "time: invalid duration " + quoted;
      return fail();
    }
    std::size_t i = 0;
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')) ++i;
    std::string number(s.substr(0, i));
    if (number == ".") {
      err = "time: invalid duration " + quoted;
      return fail();
    }
    s.remove_prefix(i);
    i = 0;
    while (i < s.size() && s[i] != '.' && !(s[i] >= '0' && s[i] <= '9')) ++i;
    std::string unit(s.substr(0, i));
    s.remove_prefix(i);
    if (unit.empty()) {
      err = "time: missing unit in duration " + quoted;
      return fail();
    }
    double scale = 0;
    if (unit == "ns")
      scale = 1e-9;
    else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs")
      scale = 1e-6;
    else if (unit == "ms")
      scale = 1e-3;
    else if (unit == "s")
      scale = 1;
    else if (unit == "m")
      scale = 60;
    else if (unit == "h")
      scale = 3600;
    else {
      err = "time: unknown unit \"" + unit + "\" in duration " + quoted;
      return fail();
    }
    total += std::strtod(number.c_str(), nullptr) * scale;
  }
  (void)orig;
  return static_cast<double>(neg ? -total : total);
}

std::string FormatRfc3339(std::int64_t t) {
  const Civil c = ToCivil(t);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04lld-%02d-%02dT%02d:%02d:%02dZ", static_cast<long long>(c.y), c.mo, c.d, c.h, c.mi,
                c.s);
  return buf;
}

}  // namespace kplace::karpenter::disruption
