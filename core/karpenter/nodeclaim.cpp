#include "core/karpenter/nodeclaim.h"

#include <algorithm>

#include "core/karpenter/existing_node.h"
#include "core/karpenter/resources.h"

namespace kplace::karpenter {
namespace {

// The flags of InstanceTypeFilterError (sched/nodeclaim.go).
struct FilterFlags {
  bool requirements_met = false, fits = false, has_offering = false;
  bool requirements_and_fits = false, requirements_and_offering = false, fits_and_offering = false;
  bool tracked = false;
  Resource min_overhead, max_overhead;
};

std::string FilterMessage(const FilterFlags& f, const std::string& min_values_err, const Requirements& reqs,
                          const Resource& pod_requests) {
  std::string resources;
  if (!f.tracked) {
    resources = ResourcesJson(pod_requests);
  } else {
    Resource lo = pod_requests, hi = pod_requests;
    lo.Add(f.min_overhead);
    hi.Add(f.max_overhead);
    std::string a = ResourcesJson(lo), b = ResourcesJson(hi);
    resources = a == b ? a : "min=" + a + ", max=" + b;
  }
  const std::string suffix = ", requirements=" + reqs.String() + ", resources=" + resources;
  if (!min_values_err.empty()) return min_values_err + suffix;
  const bool R = f.requirements_met, F = f.fits, O = f.has_offering;
  if (!R && !F && !O)
    return "no instance type met the scheduling requirements or had enough resources or had a required offering" +
           suffix;
  if (!R && !F) return "no instance type met the scheduling requirements or had enough resources" + suffix;
  if (!R && !O) return "no instance type met the scheduling requirements or had a required offering" + suffix;
  if (!F && !O) return "no instance type had enough resources or had a required offering" + suffix;
  if (!R) return "no instance type met all requirements" + suffix;
  if (!F) {
    std::string msg = "no instance type has enough resources" + suffix;
    if (pod_requests.milli_cpu >= 1'000'000'000) msg += " (CPU request >= 1 Million, m vs M typo?)";
    return msg;
  }
  if (!O) return "no instance type has the required offering" + suffix;
  if (f.requirements_and_fits)
    return "no instance type which met the scheduling requirements and had enough resources, had a required offering" +
           suffix;
  if (f.fits_and_offering)
    return "no instance type which had enough resources and the required offering met the scheduling requirements" +
           suffix;
  if (f.requirements_and_offering)
    return "no instance type which met the scheduling requirements and the required offering had the required "
           "resources" +
           suffix;
  return "no instance type met the requirements/resources/offering tuple" + suffix;
}

}  // namespace

namespace {
CanAddResult TryClaimAlternative(const Claim& c, const Template& t, const PodData& pod, const ClaimContext& ctx,
                                 Requirements narrowed, bool own, std::string* err);
}  // namespace

CanAddResult CanAddToClaim(const Claim& c, const Template& t, const PodData& pod, const ClaimContext& ctx,
                           std::string* err) {
  CanAddResult out;
  // 1. the template's taints, every effect.
  if (auto bad = Untolerated(t.pool->taints, pod.tolerations); !bad.empty()) {
    if (err) {
      err->clear();
      for (std::size_t i = 0; i < bad.size(); ++i)
        *err += (i ? "; " : "") + std::string("did not tolerate taint (taint=") + TaintString(*bad[i]) + ")";
    }
    return out;
  }
  // 2. requirements, with the well-known allowance.
  if (err) {
    std::string e = Compatible(c.requirements, pod.requirements, ctx.well_known);
    if (!e.empty()) {
      *err = "incompatible requirements, " + e;
      return out;
    }
  } else if (!IsCompatible(c.requirements, pod.requirements, ctx.well_known)) {
    return out;
  }
  // The claim's requirements narrowed by the pod's; copied only when the pod narrows them (hot path: most pods of
  // a workload add nothing, and most in-flight claims reject them).
  Requirements narrowed;
  const Requirements* reqs_ptr = &c.requirements;
  if (!pod.requirements.empty() && !c.requirements.Implies(pod.requirements)) {
    narrowed = c.requirements;
    narrowed.Add(pod.requirements);
    reqs_ptr = &narrowed;
  }
  const bool own = reqs_ptr == &narrowed;
  if (pod.volume_requirements.empty()) return TryClaimAlternative(c, t, pod, ctx, std::move(narrowed), own, err);
  // Each volume topology alternative in turn (nodeclaim.go tryVolumeAlternative): added to the claim's requirements
  // only; the first that fits wins, else the last one's error is the claim's.
  for (const auto& alternative : pod.volume_requirements) {
    const Requirements& base = own ? narrowed : c.requirements;
    if (err) {
      std::string e = Compatible(base, alternative, ctx.well_known);
      if (!e.empty()) {
        *err = "incompatible volume requirements, " + e;
        continue;
      }
    } else if (!IsCompatible(base, alternative, ctx.well_known)) {
      continue;
    }
    CanAddResult r;
    if (base.Implies(alternative)) {
      r = TryClaimAlternative(c, t, pod, ctx, own ? narrowed : Requirements(), own, err);
    } else {
      Requirements merged = base;
      merged.Add(alternative);
      r = TryClaimAlternative(c, t, pod, ctx, std::move(merged), true, err);
    }
    if (r.ok) return r;
  }
  return out;
}

namespace {

// NodeClaim.CanAdd from the topology step on, under one set of requirements: the claim's own (own false) or
// narrowed (by the pod, a volume alternative).
CanAddResult TryClaimAlternative(const Claim& c, const Template& t, const PodData& pod, const ClaimContext& ctx,
                                 Requirements narrowed, bool own, std::string* err) {
  CanAddResult out;
  const Requirements* reqs_ptr = own ? &narrowed : &c.requirements;
  // 3. topology: the domains it allows are intersected in.
  if (ctx.topology && !ctx.topology->empty()) {
    Requirements domains;
    if (!ctx.topology->AddRequirements(pod, t.pool->taints, *reqs_ptr, ctx.well_known, &domains, err)) return out;
    // Domains the requirements already imply change nothing (and a set is always compatible with itself).
    if (!domains.empty() && !reqs_ptr->Implies(domains)) {
      Requirements merged = *reqs_ptr;
      merged.Add(domains);
      if (err) {
        std::string e = Compatible(*reqs_ptr, merged, ctx.well_known);
        if (!e.empty()) {
          *err = e;
          return out;
        }
      } else if (!IsCompatible(*reqs_ptr, merged, ctx.well_known)) {
        return out;
      }
      narrowed = std::move(merged);
      reqs_ptr = &narrowed;
    }
  }
  // 4. instance types (filterInstanceTypesByRequirements): group-major order, as upstream.
  const Requirements& reqs = *reqs_ptr;
  // The options meet the claim's requirements and have offerings compatible with them (options_filtered): only the
  // keys the pod or its topology narrowed need checking again, and the offerings only when zone or capacity type
  // narrowed. Unchanged requirements: nothing to check.
  const bool known_compatible = c.options_filtered && reqs_ptr == &c.requirements;
  const bool incremental = c.options_filtered && !known_compatible;
  std::vector<const Requirement*> changed;  // incremental: the requirements of reqs that differ from the claim's
  bool offerings_changed = false;
  if (incremental) {
    for (const auto& r : reqs.items()) {
      const Requirement* before = c.requirements.Find(r.key);
      if (before && *before == r) continue;
      changed.push_back(&r);
      offerings_changed = offerings_changed || r.key == ZoneKey() || r.key == CapacityTypeKey();
    }
  }
  Resource total = c.requests;
  total.Add(pod.requests);
  FilterFlags f;
  std::vector<int> remaining;
  const auto& cat = *ctx.catalogue;
  const Requirement* zone = known_compatible ? nullptr : reqs.Find(ZoneKey());
  const Requirement* capacity_type = known_compatible ? nullptr : reqs.Find(CapacityTypeKey());
  for (std::size_t g = 0; g < t.groups.size(); ++g) {
    const DaemonGroup& group = t.groups[g];
    if (PortsConflict(group.ports, pod.host_ports) || PortsConflict(c.ports, pod.host_ports)) continue;
    Resource need = total;
    if (!group.daemons.empty()) {
      if (!f.tracked) {
        f.min_overhead = f.max_overhead = group.overhead;
        f.tracked = true;
      } else {
        f.min_overhead = Min(f.min_overhead, group.overhead);
        f.max_overhead = Max(f.max_overhead, group.overhead);
      }
      need.Add(group.overhead);
    }
    for (int idx : c.options) {
      if (t.group_of[static_cast<std::size_t>(idx)] != static_cast<int>(g)) continue;
      const KType& it = cat[static_cast<std::size_t>(idx)];
      // Without a message to build, a type too small is rejected before the requirement checks.
      const bool room = Fits(need, it.allocatable);
      if (!err && !room) continue;
      bool compat = known_compatible;
      bool offering = known_compatible;
      if (incremental) {
        compat = std::none_of(changed.begin(), changed.end(), [&](const Requirement* r) {
          const Requirement* own = it.requirements.Find(r->key);
          return own && Conflicts(*own, *r);
        });
        offering = !offerings_changed || FirstCompatibleOffering(it, zone, capacity_type) != nullptr;
      } else if (!known_compatible) {
        compat = IntersectsOk(it.requirements, reqs);
        offering = FirstCompatibleOffering(it, zone, capacity_type) != nullptr;
      }
      bool fits = offering && room;
      f.requirements_met |= compat;
      f.fits |= fits;
      f.has_offering |= offering;
      f.requirements_and_fits |= compat && fits && !offering;
      f.requirements_and_offering |= compat && offering && !fits;
      f.fits_and_offering |= fits && offering && !compat;
      if (compat && fits && offering) remaining.push_back(idx);
    }
  }
  std::string min_values_err;
  bool has_min_values = std::any_of(reqs.items().begin(), reqs.items().end(),
                                    [](const Requirement& r) { return r.min_values.has_value(); });
  if (has_min_values) {
    std::vector<const KType*> types;
    for (int idx : remaining) types.push_back(&cat[static_cast<std::size_t>(idx)]);
    std::string unmet = UnmetMinValues(types, reqs);
    if (!unmet.empty()) {
      remaining.clear();
      min_values_err = "minValues requirement is not met for label(s) (label(s)=" + unmet + ")";
    }
  }
  if (remaining.empty()) {
    if (err) *err = FilterMessage(f, min_values_err, reqs, pod.requests);
    return out;
  }
  out.ok = true;
  out.requirements = reqs_ptr == &narrowed ? std::move(narrowed) : c.requirements;
  out.options = std::move(remaining);
  return out;
}

}  // namespace

void AddToClaim(Claim& c, const Template& t, const PodData& pod, CanAddResult r, const ClaimContext& ctx) {
  if (ctx.topology) {
    ctx.topology->Register(HostnameKey(), c.hostname);
    ctx.topology->Record(pod, t.pool->taints, r.requirements, ctx.well_known);
  }
  c.pods.push_back(pod.index);
  c.options = std::move(r.options);
  c.options_filtered = true;
  c.requests.Add(pod.requests);
  c.requirements = std::move(r.requirements);
  c.ports.insert(c.ports.end(), pod.host_ports.begin(), pod.host_ports.end());
}

Resource MinDaemonOverhead(const Claim& c, const Template& t) {
  Resource out;
  bool any = false;
  for (std::size_t g = 0; g < t.groups.size(); ++g) {
    bool has = std::any_of(c.options.begin(), c.options.end(),
                           [&](int idx) { return t.group_of[static_cast<std::size_t>(idx)] == static_cast<int>(g); });
    if (!has || t.groups[g].daemons.empty()) continue;
    out = any ? Min(out, t.groups[g].overhead) : t.groups[g].overhead;
    any = true;
  }
  return out;
}

}  // namespace kplace::karpenter
