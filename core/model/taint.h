// Taints and tolerations (k8s.io/api/core/v1/toleration.go ToleratesTaint,
// k8s.io/component-helpers/scheduling/corev1/helpers.go FindMatchingUntoleratedTaint).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/symbol.h"

namespace kplace {

enum class TaintEffect : std::uint8_t { None, NoSchedule, PreferNoSchedule, NoExecute };
const char* EffectName(TaintEffect e);

struct Taint {
  Symbol key = kEmptySymbol;
  Symbol value = kEmptySymbol;
  TaintEffect effect = TaintEffect::None;
};

// Gt / Lt exist behind the alpha TaintTolerationComparisonOperators gate (off through 1.35): such a toleration
// tolerates nothing.
enum class TolerationOp : std::uint8_t { Equal, Exists, Gt, Lt };

struct Toleration {
  Symbol key = kEmptySymbol;  // empty + Exists tolerates every taint
  TolerationOp op = TolerationOp::Equal;
  Symbol value = kEmptySymbol;
  TaintEffect effect = TaintEffect::None;          // None (empty) matches every effect
  std::optional<std::int64_t> toleration_seconds;  // irrelevant to placement

  bool Tolerates(const Taint& t) const {
    if (effect != TaintEffect::None && effect != t.effect) return false;
    if (key != kEmptySymbol && key != t.key) return false;
    if (op == TolerationOp::Exists) return true;
    return op == TolerationOp::Equal && value == t.value;
  }
};

bool TolerationsTolerate(const std::vector<Toleration>& tolerations, const Taint& taint);

// The first taint (in node order) whose effect passes the filter and that no toleration tolerates.
template <typename EffectFilter>
const Taint* FindUntoleratedTaint(const std::vector<Taint>& taints, const std::vector<Toleration>& tolerations,
                                  EffectFilter&& filter) {
  for (const auto& t : taints) {
    if (!filter(t)) continue;
    if (!TolerationsTolerate(tolerations, t)) return &t;
  }
  return nullptr;
}

}  // namespace kplace
