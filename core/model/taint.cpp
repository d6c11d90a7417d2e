#include "core/model/taint.h"

namespace kplace {

const char* EffectName(TaintEffect e) {
  switch (e) {
    case TaintEffect::None:
      return "";
    case TaintEffect::NoSchedule:
      return "NoSchedule";
    case TaintEffect::PreferNoSchedule:
      return "PreferNoSchedule";
    case TaintEffect::NoExecute:
      return "NoExecute";
  }
  return "";
}

bool TolerationsTolerate(const std::vector<Toleration>& tolerations, const Taint& taint) {
  for (const auto& tol : tolerations)
    if (tol.Tolerates(taint)) return true;
  return false;
}

}  // namespace kplace
