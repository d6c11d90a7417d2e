#include "core/io/result_reader.h"

#include <exception>
#include <unordered_map>
#include <utility>

#include "core/model/symbol.h"
#include "core/model/taint.h"

namespace kplace::io {
namespace {

std::string Str(const Json& j, const char* key) {
  if (!j.is_object()) return {};
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> Strs(const Json& j, const char* key) {
  std::vector<std::string> out;
  if (!j.is_object()) return out;
  if (auto it = j.find(key); it != j.end() && it->is_array())
    for (const auto& v : *it)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

double Num(const Json& j, const char* key) {
  if (!j.is_object()) return 0;
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0;
}

int Int(const Json& j, const char* key) { return static_cast<int>(Num(j, key)); }

bool Flag(const Json& j, const char* key) {
  if (!j.is_object()) return false;
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

// The member key of j when it is of the wanted kind, else nullptr.
const Json* ArrayAt(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it != j.end() && it->is_array() ? &*it : nullptr;
}
const Json* ObjectAt(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it != j.end() && it->is_object() ? &*it : nullptr;
}

// The inverse of EffectName.
TaintEffect EffectNamed(const std::string& name) {
  for (TaintEffect e : {TaintEffect::NoSchedule, TaintEffect::PreferNoSchedule, TaintEffect::NoExecute})
    if (name == EffectName(e)) return e;
  return TaintEffect::None;
}

std::vector<Taint> Taints(const Json& j, const char* key) {
  std::vector<Taint> out;
  const Json* list = ArrayAt(j, key);
  if (!list) return out;
  for (const auto& t : *list) {
    Taint taint;
    taint.key = Intern(Str(t, "key"));
    const std::string value = Str(t, "value");
    taint.value = value.empty() ? kEmptySymbol : Intern(value);
    taint.effect = EffectNamed(Str(t, "effect"));
    out.push_back(taint);
  }
  return out;
}

// Karpenter's NodePool events (objects as the writer writes them; anything else is skipped).
std::vector<karpenter::Event> KarpenterEvents(const Json& j, const char* key) {
  std::vector<karpenter::Event> out;
  if (const Json* list = ArrayAt(j, key))
    for (const auto& e : *list)
      if (e.is_object()) out.push_back({Str(e, "type"), Str(e, "reason"), Str(e, "object"), Str(e, "message")});
  return out;
}

karpenter::ClaimOutcome Claim(const Json& c) {
  karpenter::ClaimOutcome out;
  out.name = Str(c, "name");
  out.node_pool = Str(c, "nodePool");
  out.instance_type = Str(c, "instanceType");
  out.zone = Str(c, "zone");
  out.capacity_type = Str(c, "capacityType");
  out.price = Num(c, "price");
  out.pods = Strs(c, "pods");
  out.requirements = Strs(c, "requirements");
  if (const Json* options = ArrayAt(c, "options"))
    for (const auto& o : *options) out.options.push_back({Intern(Str(o, "instanceType")), Num(o, "price")});
  if (const Json* labels = ObjectAt(c, "labels"))
    for (const auto& [k, v] : labels->items())
      if (v.is_string()) out.labels.emplace(k, v.get<std::string>());
  out.taints = Taints(c, "taints");
  if (const Json* requests = ObjectAt(c, "requests")) {
    try {
      out.requests = Reader("NodeClaim " + out.name, "requests").AsResourceList(*requests);
    } catch (const std::exception&) {  // not the writer's: leave the requests empty
    }
  }
  return out;
}

// karpenter mode: Karpenter's outcome per pod (in key order), the NodeClaims, the cost and its NodePool notes.
karpenter::Result KarpenterResult(const Json& j) {
  karpenter::Result k;
  std::unordered_map<std::string, int> claim_at;
  if (const Json* claims = ArrayAt(j, "nodeClaims"))
    for (const auto& c : *claims) {
      k.claims.push_back(Claim(c));
      claim_at.emplace(k.claims.back().name, static_cast<int>(k.claims.size()) - 1);
    }
  if (const Json* cost = ObjectAt(j, "cost")) k.hourly_price = Num(*cost, "hourly");
  k.events = KarpenterEvents(j, "events");
  if (const Json* pods = ObjectAt(j, "pods"))
    for (const auto& [key, p] : pods->items()) {
      karpenter::PodOutcome o;
      o.key = key;
      o.relaxations = Strs(p, "relaxations");
      o.volume_requirements = Strs(p, "volumeRequirements");
      if (p.contains("node")) {
        o.kind = karpenter::PodOutcomeKind::Node;
        o.node = Str(p, "node");
      } else if (auto c = claim_at.find(Str(p, "nodeClaim")); c != claim_at.end()) {
        o.kind = karpenter::PodOutcomeKind::Claim;
        o.claim = c->second;
      } else if (p.contains("unschedulable")) {
        o.kind = karpenter::PodOutcomeKind::Unschedulable;
        o.reason = Str(p, "unschedulable");
      } else if (p.contains("ignored")) {
        o.kind = karpenter::PodOutcomeKind::Ignored;
        o.reason = Str(p, "ignored");
      } else {
        o.reason = Str(p, "notProvisionable");
      }
      k.pods.push_back(std::move(o));
    }
  return k;
}

sim::PodAttempt LastOutcome(const std::string& node, const std::string& message) {
  sim::PodAttempt a;
  a.attempt = 1;
  a.node = node;
  a.message = message;
  return a;
}

sim::PodResult Pod(const std::string& key, const Json& p) {
  sim::PodResult r;
  r.key = key;
  if (const Json* pre = ObjectAt(p, "preempted")) {
    r.preempted_by = Str(*pre, "by");
    r.preempted_from = Str(*pre, "node");
    return r;
  }
  if (p.is_object() && p.contains("otherScheduler")) {
    r.other_scheduler = Str(p, "otherScheduler");
  } else if (p.is_object() && p.contains("schedulingGated")) {
    r.scheduling_gates = Strs(p, "schedulingGated");
  } else if (auto node = Str(p, "node"); !node.empty()) {
    r.node = node;
    r.node_claim = Str(p, "nodeClaim");
    r.attempts.push_back(LastOutcome(r.node, ""));
  } else {
    r.unschedulable = Str(p, "unschedulable");
    r.nominated_node = Str(p, "nominatedNode");
    r.attempts.push_back(LastOutcome("", r.unschedulable));
  }
  r.profile = Str(p, "profile");
  if (p.is_object())
    if (auto vols = p.find("volumes"); vols != p.end() && vols->is_array())
      for (const auto& v : *vols)
        r.volumes.push_back({Str(v, "claim"), Str(v, "volume"), v.is_object() && v.value("provisioned", false)});
  if (const Json* k = ObjectAt(p, "karpenter")) {
    sim::KarpenterNomination n;
    n.round = Int(*k, "round");
    n.target = Str(*k, "nominated");
    n.reason = Str(*k, "unschedulable");
    n.relaxations = Strs(*k, "relaxations");
    n.volume_requirements = Strs(*k, "volumeRequirements");
    r.karpenter.push_back(std::move(n));
  }
  r.disagreement = Str(p, "disagreement");
  return r;
}

// cluster mode with NodePools: the launched NodeClaims, the rounds, the disagreements and the cost.
void ClusterLoop(const Json& j, sim::SimResult& r) {
  if (const Json* claims = ArrayAt(j, "nodeClaims"))
    for (const auto& c : *claims) {
      sim::LaunchedNodeClaim l;
      l.claim = Claim(c);
      l.claim.pods = Strs(c, "karpenterPods");
      l.round = Int(c, "round");
      l.node = Str(c, "node");
      l.pods = Strs(c, "pods");
      l.daemon_pods = Strs(c, "daemonSetPods");
      l.startup_taints = Taints(c, "startupTaints");
      r.node_claims.push_back(std::move(l));
    }
  if (const Json* rounds = ArrayAt(j, "rounds"))
    for (const auto& rj : *rounds) {
      sim::ClusterRound round;
      round.round = Int(rj, "round");
      round.scheduled = Strs(rj, "scheduled");
      round.unschedulable = Strs(rj, "unschedulable");
      round.launched = Strs(rj, "launched");
      if (auto events = KarpenterEvents(rj, "karpenterEvents"); !events.empty()) {
        round.provision.emplace();
        round.provision->events = std::move(events);
      }
      r.rounds.push_back(std::move(round));
    }
  if (const Json* disagreements = ArrayAt(j, "disagreements")) {
    std::unordered_map<std::string, std::size_t> at;
    for (std::size_t i = 0; i < r.pods.size(); ++i) at.emplace(r.pods[i].key, i);
    for (const auto& d : *disagreements) {
      const std::string pod = Str(d, "pod");
      auto it = at.find(pod);
      if (it == at.end()) {
        it = at.emplace(pod, r.pods.size()).first;
        r.pods.emplace_back().key = pod;
      }
      r.pods[it->second].disagreement = Str(d, "message");
      r.pods[it->second].interchangeable = Flag(d, "interchangeable");
    }
  }
  if (const Json* cost = ObjectAt(j, "cost")) r.hourly_price = Num(*cost, "hourly");
}

}  // namespace

namespace {

ImportSummary ImportFromJson(const Json& j) {
  ImportSummary in;
  auto n = [&](const char* key) { return static_cast<std::size_t>(Num(j, key)); };
  in.nodes = n("nodes");
  in.pods_bound = n("podsBound");
  in.pods_pending = n("podsPending");
  in.other_scheduler = n("otherScheduler");
  in.finished_pods = n("finishedPods");
  in.terminating_pods = n("terminatingPods");
  in.controller_pods_kept = n("controllerPodsKept");
  in.workloads_represented = n("deploymentsRepresentedByReplicaSets");
  in.generated_names = n("generatedNames");
  in.volume_claims = n("volumeClaims");
  in.missing_claims = n("missingClaims");
  in.documents = n("documents");
  in.shape = Str(j, "shape");
  if (const Json* kinds = ObjectAt(j, "notSimulated"))
    for (auto it = kinds->begin(); it != kinds->end(); ++it)
      in.ignored_kinds.emplace_back(it.key(), it->is_number() ? it->get<std::size_t>() : 0);
  return in;
}

}  // namespace

sim::SimResult ResultFromJson(const Json& j) {
  sim::SimResult r;
  r.warnings = Strs(j, "warnings");
  if (const Json* in = ObjectAt(j, "import")) r.import = ImportFromJson(*in);
  // karpenter mode's document has no preemptions (nor kube-scheduler's events).
  if (!j.is_object() || !j.contains("preemptions")) {
    r.mode = Mode::Karpenter;
    r.karpenter = KarpenterResult(j);
    return r;
  }
  if (const Json* pods = ObjectAt(j, "pods"))  // keyed, so in key order: SimResult::pods' order
    for (const auto& [key, p] : pods->items()) r.pods.push_back(Pod(key, p));
  r.preempted = Strs(j, "preempted");
  if (const Json* preemptions = ArrayAt(j, "preemptions"))
    for (const auto& pj : *preemptions) {
      sim::Preemption pe;
      pe.preemptor = Str(pj, "preemptor");
      pe.attempt = Int(pj, "attempt");
      pe.node = Str(pj, "node");
      pe.victims = Strs(pj, "victims");
      pe.cleared_nominations = Strs(pj, "clearedNominations");
      r.preemptions.push_back(std::move(pe));
    }
  if (const Json* nominated = ObjectAt(j, "nominated"))
    for (const auto& [pod, node] : nominated->items())
      if (node.is_string()) r.nominations.emplace_back(pod, node.get<std::string>());
  if (const Json* events = ArrayAt(j, "events"))
    for (const auto& e : *events)
      r.events.push_back(
          {Str(e, "type"), Str(e, "reason"), Str(e, "pod"), Str(e, "message"), Str(e, "source"), Str(e, "object")});
  if (j.contains("rounds")) ClusterLoop(j, r);
  return r;
}

}  // namespace kplace::io
