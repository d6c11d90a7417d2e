#include "core/karpenter/disruption/budgets.h"

#include <algorithm>

#include "core/karpenter/disruption/cron.h"

namespace kplace::karpenter::disruption {
namespace {

// strconv.Atoi within int64; false for anything else (including values out of range).
bool AtoiInt64(const std::string& s, std::int64_t& v) {
  if (s.empty()) return false;
  std::size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
  if (i == s.size()) return false;
  unsigned long long n = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    if (n > (9223372036854775808ULL - static_cast<unsigned>(s[i] - '0')) / 10) return false;
    n = n * 10 + static_cast<unsigned>(s[i] - '0');
  }
  const bool neg = s[0] == '-';
  if (!neg && n > 9223372036854775807ULL) return false;
  v = neg ? static_cast<std::int64_t>(0 - n) : static_cast<std::int64_t>(n);
  return true;
}

}  // namespace

bool BudgetActive(const DisruptionBudget& b, std::int64_t now, std::string* error) {
  if (!b.schedule && !b.duration) return true;
  std::string err;
  auto cron = ParseCron(b.schedule.value_or(""), &err);
  if (!cron) {
    if (error) *error = "invariant violated, invalid cron, " + err + " (cron=<nil>)";
    return false;
  }
  auto next = NextFiring(*cron, now - b.duration.value_or(0));
  return !next || *next <= now;
}

std::int64_t BudgetAllowed(const DisruptionBudget& b, std::int64_t now, std::int64_t num_nodes, std::string* error) {
  std::string err;
  const bool active = BudgetActive(b, now, &err);
  if (!err.empty()) {
    if (error) *error = err;
    return 0;
  }
  if (!active) return kNoLimit;
  std::int64_t v = 0;
  if (AtoiInt64(b.nodes, v)) return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));  // int32(val)
  // intstr.GetScaledValueFromIntOrPercent with roundUp.
  if (b.nodes.empty() || b.nodes.back() != '%') {
    if (error) *error = "invalid value for IntOrString: invalid type: string is not a percentage";
    return 0;
  }
  const std::string pct = b.nodes.substr(0, b.nodes.size() - 1);
  if (!AtoiInt64(pct, v)) {
    if (error)
      *error = "invalid value for IntOrString: invalid value \"" + b.nodes + "\": strconv.Atoi: parsing \"" + pct +
               "\": invalid syntax";
    return 0;
  }
  // math.Ceil(float64(v) * float64(total) / 100), converted to int.
  const double scaled = static_cast<double>(v) * static_cast<double>(num_nodes) / 100.0;
  const double up = static_cast<double>(static_cast<std::int64_t>(scaled));
  return static_cast<std::int64_t>(up < scaled ? up + 1 : up);
}

std::int64_t AllowedByReason(const NodePoolDisruption& d, std::int64_t now, std::int64_t num_nodes,
                             const std::string& reason, std::string* error) {
  std::int64_t allowed = kNoLimit;
  std::string errors;
  for (const auto& b : d.budgets) {
    std::string err;
    const std::int64_t v = BudgetAllowed(b, now, num_nodes, &err);
    if (!err.empty()) errors += (errors.empty() ? "" : "; ") + err;
    if (!b.reasons || std::find(b.reasons->begin(), b.reasons->end(), reason) != b.reasons->end())
      allowed = std::min(allowed, v);
  }
  if (error) *error = errors;
  return allowed;
}

std::int64_t MustAllowedByReason(const NodePoolDisruption& d, std::int64_t now, std::int64_t num_nodes,
                                 const std::string& reason) {
  std::string err;
  const std::int64_t v = AllowedByReason(d, now, num_nodes, reason, &err);
  return err.empty() ? v : 0;
}

}  // namespace kplace::karpenter::disruption
