// Karpenter's records rebuilt from a background run's result JSON (`kplace run --format json`). karpenter mode:
// each pod's outcome and relaxations, the NodeClaims to launch, the cost and the NodePool notes. cluster mode: the
// launched NodeClaims, the rounds, each pod's last nomination, NodeClaim and disagreement. What the views draw;
// attempts are not in the result JSON (the inspector asks for them on demand).
#include <unordered_map>

#include "core/io/json_reader.h"
#include "core/model/symbol.h"
#include "core/model/taint.h"
#include "wasm/app/session.h"

namespace kplace::app {
namespace {

std::string Str(const io::Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> Strs(const io::Json& j, const char* key) {
  std::vector<std::string> out;
  if (auto it = j.find(key); it != j.end() && it->is_array())
    for (const auto& v : *it)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

double Num(const io::Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0;
}

std::vector<Taint> Taints(const io::Json& j, const char* key) {
  std::vector<Taint> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& t : *it) {
    Taint taint;
    taint.key = Intern(Str(t, "key"));
    const std::string value = Str(t, "value");
    taint.value = value.empty() ? kEmptySymbol : Intern(value);
    const std::string effect = Str(t, "effect");
    taint.effect = effect == "NoSchedule"         ? TaintEffect::NoSchedule
                   : effect == "PreferNoSchedule" ? TaintEffect::PreferNoSchedule
                   : effect == "NoExecute"        ? TaintEffect::NoExecute
                                                  : TaintEffect::None;
    out.push_back(taint);
  }
  return out;
}

karpenter::ClaimOutcome Claim(const io::Json& c) {
  karpenter::ClaimOutcome out;
  out.name = Str(c, "name");
  out.node_pool = Str(c, "nodePool");
  out.instance_type = Str(c, "instanceType");
  out.zone = Str(c, "zone");
  out.capacity_type = Str(c, "capacityType");
  out.price = Num(c, "price");
  out.pods = Strs(c, "pods");
  out.requirements = Strs(c, "requirements");
  if (auto it = c.find("options"); it != c.end() && it->is_array())
    for (const auto& o : *it) out.options.push_back({Str(o, "instanceType"), Num(o, "price")});
  if (auto it = c.find("labels"); it != c.end() && it->is_object())
    for (const auto& [k, v] : it->items())
      if (v.is_string()) out.labels.emplace(k, v.get<std::string>());
  out.taints = Taints(c, "taints");
  if (auto it = c.find("requests"); it != c.end() && it->is_object()) {
    try {
      out.requests = io::Reader("NodeClaim", "requests").AsResourceList(*it);
    } catch (const std::exception&) {  // display only: leave the bars empty
    }
  }
  return out;
}

}  // namespace

karpenter::Result KarpenterFromJson(const io::Json& j, const Scenario& sc) {
  karpenter::Result k;
  std::unordered_map<std::string, int> claim_at;
  if (auto it = j.find("nodeClaims"); it != j.end() && it->is_array())
    for (const auto& c : *it) {
      k.claims.push_back(Claim(c));
      claim_at.emplace(k.claims.back().name, static_cast<int>(k.claims.size()) - 1);
    }
  if (auto cost = j.find("cost"); cost != j.end() && cost->is_object()) k.hourly_price = Num(*cost, "hourly");
  k.events = Strs(j, "events");
  const io::Json empty = io::Json::object();
  auto pods_it = j.find("pods");
  const io::Json& pods = pods_it != j.end() && pods_it->is_object() ? *pods_it : empty;
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    karpenter::PodOutcome o;
    o.index = i;
    o.key = sc.pods[i].Key();
    if (auto it = pods.find(o.key); it != pods.end() && it->is_object()) {
      const io::Json& p = *it;
      o.relaxations = Strs(p, "relaxations");
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
    }
    k.pods.push_back(std::move(o));
  }
  return k;
}

std::vector<sim::LaunchedNodeClaim> LaunchedFromJson(const io::Json& j) {
  std::vector<sim::LaunchedNodeClaim> out;
  if (!j.contains("rounds")) return out;  // only cluster mode's nodeClaims were launched
  if (auto it = j.find("nodeClaims"); it != j.end() && it->is_array())
    for (const auto& c : *it) {
      sim::LaunchedNodeClaim l;
      l.claim = Claim(c);
      l.claim.pods = Strs(c, "karpenterPods");
      l.round = static_cast<int>(Num(c, "round"));
      l.node = Str(c, "node");
      l.pods = Strs(c, "pods");
      l.daemon_pods = Strs(c, "daemonSetPods");
      l.startup_taints = Taints(c, "startupTaints");
      out.push_back(std::move(l));
    }
  return out;
}

void ClusterFromJson(const io::Json& j, sim::SimResult& r) {
  r.node_claims = LaunchedFromJson(j);
  if (auto it = j.find("rounds"); it != j.end() && it->is_array())
    for (const auto& rj : *it) {
      sim::ClusterRound round;
      round.round = static_cast<int>(Num(rj, "round"));
      round.scheduled = Strs(rj, "scheduled");
      round.unschedulable = Strs(rj, "unschedulable");
      round.launched = Strs(rj, "launched");
      r.rounds.push_back(std::move(round));
    }
  if (auto cost = j.find("cost"); cost != j.end() && cost->is_object()) r.hourly_price = Num(*cost, "hourly");
  auto pods = j.find("pods");
  if (pods == j.end() || !pods->is_object()) return;
  for (auto& p : r.pods) {
    auto it = pods->find(p.key);
    if (it == pods->end() || !it->is_object()) continue;
    p.disagreement = Str(*it, "disagreement");
    p.node_claim = Str(*it, "nodeClaim");
    if (auto k = it->find("karpenter"); k != it->end() && k->is_object()) {
      sim::KarpenterNomination n;
      n.round = static_cast<int>(Num(*k, "round"));
      n.target = Str(*k, "nominated");
      n.reason = Str(*k, "unschedulable");
      n.relaxations = Strs(*k, "relaxations");
      p.karpenter.push_back(std::move(n));
    }
  }
}

}  // namespace kplace::app
