// Cron schedules as Karpenter's disruption budgets read them: robfig/cron v3 ParseStandard over "TZ=UTC " + the
// budget's schedule (pkg/apis/v1/nodepool.go Budget.IsActive), and SpecSchedule.Next in UTC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kplace::karpenter::disruption {

struct CronSchedule {
  // One bit per allowed value; bit 63 marks a field given as * or ? (robfig's starBit: day of month and day of week
  // must then both match, otherwise either).
  std::uint64_t minute = 0, hour = 0, dom = 0, month = 0, dow = 0;
  std::optional<std::int64_t> every;  // @every <duration>: seconds between firings
};

// ParseStandard of "TZ=UTC " + spec. On failure returns nullopt and sets *error to the parser's message
// ("expected exactly 5 fields, found 6: [...]", "end of range (7) above maximum (6): 1-7", ...).
std::optional<CronSchedule> ParseCron(std::string_view spec, std::string* error);

// The first firing strictly after t (unix seconds, UTC), as SpecSchedule.Next computes it; nullopt when it finds
// none within five years (Next returns the zero time).
std::optional<std::int64_t> NextFiring(const CronSchedule& s, std::int64_t t);

// time.ParseDuration: seconds (fractions kept), or nullopt with Go's error in *error ("time: invalid duration
// \"x\"", "time: missing unit in duration \"5\"", "time: unknown unit \"d\" in duration \"1d\"").
std::optional<double> ParseGoDuration(std::string_view s, std::string* error);

// time.Time.Format(time.RFC3339) of a UTC time: 2026-11-26T10:45:00Z.
std::string FormatRfc3339(std::int64_t unix_seconds);

}  // namespace kplace::karpenter::disruption
