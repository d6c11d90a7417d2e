#include "core/karpenter/catalogue.h"

#include <algorithm>
#include <map>

#include "core/karpenter/resources.h"

namespace kplace::karpenter {
Symbol ZoneKey() {
  static const Symbol k = Intern("topology.kubernetes.io/zone");
  return k;
}
Symbol CapacityTypeKey() {
  static const Symbol k = Intern("karpenter.sh/capacity-type");
  return k;
}

std::vector<KType> BuildCatalogue(const std::vector<InstanceType>& types) {
  static const Symbol kInstanceType = Intern("node.kubernetes.io/instance-type");
  std::vector<KType> out;
  out.reserve(types.size());
  for (std::size_t i = 0; i < types.size(); ++i) {
    const InstanceType& it = types[i];
    KType t;
    t.src = &it;
    t.order = static_cast<int>(i);
    t.name = Intern(it.meta.name);
    t.requirements = FromLabels(it.meta.labels);
    for (const auto& r : it.requirements) t.requirements.Add(Requirement::FromSelector(r));
    t.requirements.Add(Requirement::Make(kInstanceType, ReqOp::In, {t.name}));
    std::vector<Symbol> zones, cts;
    for (const auto& o : it.offerings) {
      Offer off{Intern(o.zone), Intern(o.capacity_type), o.price, o.available};
      t.offerings.push_back(off);
      if (!o.available) continue;
      zones.push_back(off.zone);
      cts.push_back(off.capacity_type);
    }
    t.requirements.Add(Requirement::Make(ZoneKey(), ReqOp::In, zones));
    t.requirements.Add(Requirement::Make(CapacityTypeKey(), ReqOp::In, cts));
    t.capacity = it.capacity;
    t.allocatable = it.capacity;
    t.allocatable.Add(it.overhead, -1);
    out.push_back(std::move(t));
  }
  return out;
}

const Offer* FirstCompatibleOffering(const KType& t, const Requirements& reqs) {
  return FirstCompatibleOffering(t, reqs.Find(ZoneKey()), reqs.Find(CapacityTypeKey()));
}

const Offer* FirstCompatibleOffering(const KType& t, const Requirement* zone, const Requirement* capacity_type) {
  for (const auto& o : t.offerings)
    if (o.available && (!zone || zone->Has(o.zone)) && (!capacity_type || capacity_type->Has(o.capacity_type)))
      return &o;
  return nullptr;
}

const Offer* CheapestOffering(const KType& t, const Requirements& reqs) {
  return CheapestOffering(t, reqs.Find(ZoneKey()), reqs.Find(CapacityTypeKey()));
}

const Offer* CheapestOffering(const KType& t, const Requirement* zone, const Requirement* capacity_type) {
  const Offer* best = nullptr;
  for (const auto& o : t.offerings)
    if (o.available && (!zone || zone->Has(o.zone)) && (!capacity_type || capacity_type->Has(o.capacity_type)) &&
        (!best || o.price < best->price))
      best = &o;
  return best;
}

std::string UnmetMinValues(const std::vector<const KType*>& types, const Requirements& reqs) {
  std::vector<const Requirement*> keys;
  for (const auto& r : reqs.items())
    if (r.min_values) keys.push_back(&r);
  if (keys.empty()) return "";
  std::vector<std::vector<Symbol>> seen(keys.size());
  auto satisfied = [&] {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (static_cast<std::int64_t>(seen[i].size()) < *keys[i]->min_values) return false;
    return true;
  };
  for (const KType* t : types) {
    if (satisfied()) return "";
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const Requirement* tr = t->requirements.Find(keys[i]->key);
      if (!tr || tr->complement) continue;
      for (Symbol v : tr->values)
        if (std::find(seen[i].begin(), seen[i].end(), v) == seen[i].end()) seen[i].push_back(v);
    }
  }
  std::vector<std::string> unmet;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (static_cast<std::int64_t>(seen[i].size()) < *keys[i]->min_values) unmet.push_back(Text(keys[i]->key));
  if (unmet.empty()) return "";
  std::sort(unmet.begin(), unmet.end());
  std::string out = "[";
  for (std::size_t i = 0; i < unmet.size(); ++i) out += (i ? " " : "") + unmet[i];
  return out + "]";
}

std::vector<const Taint*> Untolerated(const std::vector<Taint>& taints, const std::vector<Toleration>& tolerations) {
  std::vector<const Taint*> out;
  for (const auto& t : taints)
    if (!TolerationsTolerate(tolerations, t)) out.push_back(&t);
  return out;
}

std::vector<Taint> NodeTaints(const Node& n) {
  std::vector<Taint> out = n.taints;
  // kubernetes pkg/controller/nodelifecycle/node_lifecycle_controller.go doNoScheduleTaintingPass: a Node with
  // spec.unschedulable gets node.kubernetes.io/unschedulable:NoSchedule (no value) unless a taint with that key and
  // effect is already there; the new taint goes last.
  static const Symbol kUnschedulable = Intern("node.kubernetes.io/unschedulable");
  if (n.unschedulable && std::none_of(out.begin(), out.end(), [](const Taint& t) {
        return t.key == kUnschedulable && t.effect == TaintEffect::NoSchedule;
      }))
    out.push_back(Taint{kUnschedulable, kEmptySymbol, TaintEffect::NoSchedule});
  return out;
}

std::string TaintString(const Taint& t) {
  std::string s = Text(t.key);
  if (t.value != kEmptySymbol) s += "=" + Text(t.value);
  return s + ":" + EffectName(t.effect);
}

std::vector<DaemonPod> BuildDaemons(const Scenario& sc) {
  std::vector<DaemonPod> out;
  for (const auto& w : sc.workloads) {
    if (w.kind != "DaemonSet" || !w.pod_template) continue;
    // getDaemonSetPods (provisioner.go): the newest pod the DaemonSet controls, else its template.
    const Pod* chosen = nullptr;
    for (const auto& p : sc.pods) {
      if (!p.generated_from.empty() || p.meta.namespace_ != w.meta.namespace_) continue;
      bool owned = std::any_of(p.meta.owner_references.begin(), p.meta.owner_references.end(), [&](const auto& o) {
        return o.kind == "DaemonSet" && o.name == w.meta.name && o.controller;
      });
      if (owned && (!chosen || p.meta.creation_unix >= chosen->meta.creation_unix)) chosen = &p;
    }
    const Pod& src = chosen ? *chosen : *w.pod_template;
    DaemonPod d;
    d.daemonset = w.meta.namespace_ + "/" + w.meta.name;
    d.data = MakePodData(src, 0);
    // The template's required node affinity replaces the pod's (drops the controller's hostname pinning).
    d.data.required_terms.clear();
    const Pod& t = *w.pod_template;
    if (t.affinity.node_affinity && t.affinity.node_affinity->required)
      d.data.required_terms = t.affinity.node_affinity->required->terms;
    d.data.Recompute();
    out.push_back(std::move(d));
  }
  return out;
}

namespace {

// Whether a daemon would run on a template's node of type t (sched/scheduler.go isDaemonPodCompatible).
bool DaemonCompatible(const DaemonPod& d, const Template& tmpl, const KType& t, const KeySet& well_known) {
  std::vector<Toleration> tols = d.data.tolerations;
  Toleration pns;
  pns.op = TolerationOp::Exists;
  pns.effect = TaintEffect::PreferNoSchedule;
  tols.push_back(pns);
  if (!Untolerated(tmpl.pool->taints, tols).empty()) return false;
  PodData data = d.data;
  for (;;) {
    if (IsCompatible(tmpl.requirements, data.strict, &well_known) && IntersectsOk(t.requirements, data.strict))
      return true;
    if (data.required_terms.size() <= 1) return false;
    data.required_terms.erase(data.required_terms.begin());
    data.Recompute();
  }
}

}  // namespace

std::optional<Template> BuildTemplate(const NodePool& pool, const std::vector<KType>& catalogue,
                                      const std::vector<DaemonPod>& daemons, const KeySet& well_known,
                                      std::string* dropped_reason) {
  static const Symbol kNodePool = Intern("karpenter.sh/nodepool");
  static const Symbol kRegistered = Intern("karpenter.sh/registered");
  static const Symbol kInitialized = Intern("karpenter.sh/initialized");
  static const Symbol kTrue = Intern("true");
  Template tmpl;
  tmpl.pool = &pool;
  tmpl.name = pool.meta.name;
  for (const auto& r : pool.requirements) {
    LabelRequirement lr = r.requirement;
    lr.key = NormalizeKey(lr.key);
    tmpl.requirements.Add(Requirement::FromSelector(lr, r.min_values));
  }
  for (auto [k, v] : pool.template_labels.entries()) tmpl.requirements.Add(Requirement::Make(k, ReqOp::In, {v}));
  tmpl.requirements.Add(Requirement::Make(kNodePool, ReqOp::In, {Intern(pool.meta.name)}));
  tmpl.requirements.Add(Requirement::Make(kRegistered, ReqOp::In, {kTrue}));
  tmpl.requirements.Add(Requirement::Make(kInitialized, ReqOp::In, {kTrue}));

  std::vector<const KType*> kept;
  for (const auto& t : catalogue) {
    if (!IntersectsOk(t.requirements, tmpl.requirements)) continue;
    if (!FirstCompatibleOffering(t, tmpl.requirements)) continue;
    if (AnyNegative(t.allocatable)) continue;
    kept.push_back(&t);
  }
  bool min_values_failed = false;
  if (!kept.empty() && !UnmetMinValues(kept, tmpl.requirements).empty()) {
    kept.clear();
    min_values_failed = true;
  }
  if (kept.empty()) {
    *dropped_reason = std::string("NodePool requirements filtered out all compatible available instance types") +
                      (min_values_failed ? " due to minValues incompatibility" : "");
    return std::nullopt;
  }
  tmpl.group_of.assign(catalogue.size(), -1);
  std::map<std::vector<int>, int> group_ids;
  for (const KType* t : kept) {
    tmpl.types.push_back(t->order);
    std::vector<int> ds;
    for (std::size_t i = 0; i < daemons.size(); ++i)
      if (DaemonCompatible(daemons[i], tmpl, *t, well_known)) ds.push_back(static_cast<int>(i));
    auto [it, inserted] = group_ids.emplace(ds, static_cast<int>(tmpl.groups.size()));
    if (inserted) {
      DaemonGroup g;
      g.daemons = ds;
      for (int i : ds) {
        g.overhead.Add(daemons[static_cast<std::size_t>(i)].data.requests);
        for (const auto& p : daemons[static_cast<std::size_t>(i)].data.host_ports) g.ports.push_back(p);
      }
      tmpl.groups.push_back(std::move(g));
    }
    tmpl.group_of[static_cast<std::size_t>(t->order)] = it->second;
  }
  return tmpl;
}

}  // namespace kplace::karpenter
