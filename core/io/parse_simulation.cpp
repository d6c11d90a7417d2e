// The Simulation item (kplace.dev/v1alpha1): mode, seed, Kubernetes release, the clock, Karpenter's settings and the
// comparison it carries. One per scenario: compiled for size in the page (CMakeLists.txt).
#include "core/io/compare.h"
#include "core/io/object_parsers.h"

namespace kplace::io {

Simulation ParseSimulation(const Json& v, const Reader& r) {
  Simulation sim;
  if (const Json* meta = r.Object(v, "metadata"))
    if (const Json* annotations = r.Field("metadata").Object(*meta, "annotations")) {
      const Reader a = r.Field("metadata").Field("annotations");
      if (auto compare = a.String(*annotations, "kplace.dev/compare")) {
        SimulationOverrides checked;
        try {
          ParseOverrides(*compare, checked);
        } catch (const InputError& e) {
          a.Key("kplace.dev/compare").Fail(e.what());
        }
        sim.compare = *compare;
      }
    }
  const Json* spec = r.Object(v, "spec");
  if (!spec) return sim;
  Reader s = r.Field("spec");
  if (auto mode = s.String(*spec, "mode")) {
    if (auto m = ModeFromName(*mode))
      sim.mode = *m;
    else
      s.Field("mode").Fail("unsupported mode \"" + *mode + "\" (scheduler, karpenter or cluster)");
  }
  if (auto it = spec->find("seed"); it != spec->end() && !it->is_null()) {
    if (it->is_number_unsigned())
      sim.seed = it->get<std::uint64_t>();
    else if (it->is_number_integer() && it->get<std::int64_t>() >= 0)
      sim.seed = static_cast<std::uint64_t>(it->get<std::int64_t>());
    else if (it->is_number_integer())
      s.Field("seed").Fail("must be between 0 and 18446744073709551615, got " + it->dump());
    else
      s.Field("seed").Fail("expected integer, got " + JsonTypeName(*it));
  }
  if (auto v2 = s.String(*spec, "kubernetesVersion"))
    sim.kubernetes_minor = ParseKubernetesVersion(*v2, s.Field("kubernetesVersion"));
  if (auto now = s.String(*spec, "now")) {
    sim.now = ParseRfc3339(*now);
    if (!sim.now) s.Field("now").Fail("\"" + *now + "\" is not an RFC 3339 time");
    sim.now_text = *now;
  }
  if (const Json* karpenter = s.Object(*spec, "karpenter")) {
    Reader k = s.Field("karpenter");
    for (const auto& [key, value] : karpenter->items()) {
      if (key != "featureGates" && key != "applyDisruption")
        k.Field(key).Fail("unknown field (applyDisruption, featureGates)");
      (void)value;
    }
    if (auto apply = k.Bool(*karpenter, "applyDisruption")) sim.apply_disruption = *apply;
    if (const Json* gates = k.Object(*karpenter, "featureGates")) {
      Reader g = k.Field("featureGates");
      for (const auto& [key, value] : gates->items()) {
        // Karpenter's gates (pkg/operator/options FeatureGates); only SpotToSpotConsolidation changes what kplace
        // models.
        if (key != "SpotToSpotConsolidation")
          g.Field(key).Fail("unknown or unmodelled feature gate (SpotToSpotConsolidation)");
        (void)value;
      }
      if (auto v2 = g.Bool(*gates, "SpotToSpotConsolidation")) sim.spot_to_spot_consolidation = *v2;
    }
  }
  return sim;
}

}  // namespace kplace::io
