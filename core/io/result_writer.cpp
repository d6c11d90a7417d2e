#include "core/io/result_writer.h"

#include <cmath>

#include "core/karpenter/resources.h"

namespace kplace::io {
namespace {

Json ResourceJson(const Resource& r) { return Json::parse(karpenter::ResourcesJson(r)); }

Json KarpenterPodJson(const karpenter::Result& k, const karpenter::PodOutcome& o) {
  Json e = Json::object();
  switch (o.kind) {
    case karpenter::PodOutcomeKind::Node:
      e["node"] = o.node;
      break;
    case karpenter::PodOutcomeKind::Claim: {
      const auto& c = k.claims[static_cast<std::size_t>(o.claim)];
      e["nodeClaim"] = c.name;
      e["nodePool"] = c.node_pool;
      e["instanceType"] = c.instance_type;
      break;
    }
    case karpenter::PodOutcomeKind::Unschedulable:
      e["unschedulable"] = o.reason;
      break;
    case karpenter::PodOutcomeKind::Ignored:
      e["ignored"] = o.reason;
      break;
    case karpenter::PodOutcomeKind::NotProvisionable:
      if (o.reason.empty()) return Json();
      e["notProvisionable"] = o.reason;
      break;
  }
  if (!o.relaxations.empty()) e["relaxations"] = o.relaxations;
  return e;
}

// One event as `kubectl describe` lists it: the involved pod ("" when the object is not a pod) or object, the
// reporting component when not kube-scheduler. Every event of the document has this shape.
Json EventJson(const std::string& type, const std::string& reason, const std::string& pod, const std::string& message,
               const std::string& source, const std::string& object) {
  Json j = {{"type", type}, {"reason", reason}, {"pod", pod}, {"message", message}};
  if (!source.empty()) j["source"] = source;
  if (!object.empty()) j["object"] = object;
  return j;
}

// Karpenter's events on NodePools (karpenter::Event).
Json KarpenterEventsJson(const std::vector<karpenter::Event>& events) {
  Json out = Json::array();
  for (const auto& e : events) out.push_back(EventJson(e.type, e.reason, "", e.message, "karpenter", e.object));
  return out;
}

Json TaintsJson(const std::vector<Taint>& taints) {
  Json out = Json::array();
  for (const auto& t : taints) {
    Json tj = {{"key", Text(t.key)}, {"effect", EffectName(t.effect)}};
    if (t.value != kEmptySymbol) tj["value"] = Text(t.value);
    out.push_back(std::move(tj));
  }
  return out;
}

Json ClaimToJson(const karpenter::ClaimOutcome& c) {
  Json options = Json::array();
  for (const auto& o : c.options) options.push_back({{"instanceType", o.instance_type}, {"price", o.price}});
  Json labels = Json::object();
  for (const auto& [key, value] : c.labels) labels[key] = value;
  return {{"name", c.name},
          {"nodePool", c.node_pool},
          {"instanceType", c.instance_type},
          {"zone", c.zone},
          {"capacityType", c.capacity_type},
          {"price", c.price},
          {"pods", c.pods},
          {"options", std::move(options)},
          {"requests", ResourceJson(c.requests)},
          {"labels", std::move(labels)},
          {"taints", TaintsJson(c.taints)},
          {"requirements", c.requirements}};
}

Json KarpenterToJson(const karpenter::Result& k) {
  Json claims = Json::array();
  for (const auto& c : k.claims) claims.push_back(ClaimToJson(c));
  return claims;
}

// Prices in dollars rounded to 1/10000 (a sum of prices, or x 730, would otherwise print binary noise such as
// 124.10000000000001).
double Dollars(double v) { return std::round(v * 10000) / 10000; }

Json CostJson(double hourly) { return {{"hourly", Dollars(hourly)}, {"monthly", Dollars(hourly * 730)}}; }

Json NominationJson(const sim::KarpenterNomination& n) {
  Json j = {{"round", n.round}};
  if (!n.target.empty())
    j["nominated"] = n.target;
  else
    j["unschedulable"] = n.reason;
  if (!n.relaxations.empty()) j["relaxations"] = n.relaxations;
  return j;
}

// cluster mode with NodePools: the launched NodeClaims, the rounds of the loop, the disagreements and the cost.
void AddClusterLoop(const sim::SimResult& result, Json& out) {
  Json claims = Json::array();
  for (const auto& l : result.node_claims) {
    Json c = ClaimToJson(l.claim);
    c["round"] = l.round;
    c["node"] = l.node;
    c["pods"] = l.pods;
    c["karpenterPods"] = l.claim.pods;
    if (!l.daemon_pods.empty()) c["daemonSetPods"] = l.daemon_pods;
    if (!l.startup_taints.empty()) c["startupTaints"] = TaintsJson(l.startup_taints);
    claims.push_back(std::move(c));
  }
  out["nodeClaims"] = std::move(claims);
  Json rounds = Json::array();
  for (const auto& r : result.rounds) {
    Json j = {{"round", r.round}, {"scheduled", r.scheduled}, {"unschedulable", r.unschedulable}};
    j["launched"] = r.launched;
    if (r.provision && !r.provision->events.empty()) j["karpenterEvents"] = KarpenterEventsJson(r.provision->events);
    rounds.push_back(std::move(j));
  }
  out["rounds"] = std::move(rounds);
  Json disagreements = Json::array();
  for (const auto& p : result.pods)
    if (!p.disagreement.empty())
      disagreements.push_back({{"pod", p.key}, {"message", p.disagreement}, {"interchangeable", p.interchangeable}});
  out["disagreements"] = std::move(disagreements);
  out["cost"] = CostJson(result.hourly_price);
}

Json ResultBodyJson(const sim::SimResult& result) {
  if (result.karpenter) {
    const karpenter::Result& k = *result.karpenter;
    Json pods = Json::object();
    for (const auto& o : k.pods) {
      Json e = KarpenterPodJson(k, o);
      if (!e.is_null()) pods[o.key] = std::move(e);
    }
    Json out = Json::object();
    out["pods"] = std::move(pods);
    out["nodeClaims"] = KarpenterToJson(k);
    out["cost"] = CostJson(k.hourly_price);
    if (!k.events.empty()) out["events"] = KarpenterEventsJson(k.events);
    if (!result.warnings.empty()) out["warnings"] = result.warnings;
    return out;
  }
  Json pods = Json::object();
  for (const auto& p : result.pods) {
    Json entry = Json::object();
    if (!p.preempted_by.empty()) {
      entry["preempted"] = {{"by", p.preempted_by}, {"node", p.preempted_from}};
      pods[p.key] = std::move(entry);
      continue;
    }
    if (p.bound_at_start) continue;
    if (!p.other_scheduler.empty()) {
      entry["otherScheduler"] = p.other_scheduler;
    } else if (!p.scheduling_gates.empty()) {
      entry["schedulingGated"] = p.scheduling_gates;
    } else if (!p.node.empty()) {
      entry["node"] = p.node;
      if (!p.node_claim.empty()) {
        for (const auto& l : result.node_claims) {
          if (l.node != p.node) continue;
          entry["nodeClaim"] = l.claim.name;
          entry["nodePool"] = l.claim.node_pool;
          entry["instanceType"] = l.claim.instance_type;
        }
      }
    } else if (!p.attempts.empty() || !p.unschedulable.empty()) {
      entry["unschedulable"] = p.unschedulable;
      if (!p.nominated_node.empty()) entry["nominatedNode"] = p.nominated_node;
    } else {
      continue;  // terminal pods (Succeeded / Failed) are not scheduled
    }
    if (!p.profile.empty()) entry["profile"] = p.profile;
    if (!p.karpenter.empty()) entry["karpenter"] = NominationJson(p.karpenter.back());
    if (!p.disagreement.empty()) entry["disagreement"] = p.disagreement;
    pods[p.key] = std::move(entry);
  }
  Json out = Json::object();
  out["pods"] = std::move(pods);
  out["nodeClaims"] = Json::array();
  out["preempted"] = result.preempted;
  Json preemptions = Json::array();
  for (const auto& pe : result.preemptions) {
    Json e = {{"preemptor", pe.preemptor}, {"attempt", pe.attempt}, {"node", pe.node}, {"victims", pe.victims}};
    if (!pe.cleared_nominations.empty()) e["clearedNominations"] = pe.cleared_nominations;
    preemptions.push_back(std::move(e));
  }
  out["preemptions"] = std::move(preemptions);
  Json nominated = Json::object();
  for (const auto& [pod, node] : result.nominations) nominated[pod] = node;
  out["nominated"] = std::move(nominated);
  Json events = Json::array();
  for (const auto& e : result.events)
    events.push_back(EventJson(e.type, e.reason, e.pod, e.message, e.source, e.object));
  out["events"] = std::move(events);
  if (!result.rounds.empty()) AddClusterLoop(result, out);
  if (!result.warnings.empty()) out["warnings"] = result.warnings;
  return out;
}

}  // namespace

Json ImportJson(const ImportSummary& in) {
  Json j = {{"nodes", in.nodes},
            {"podsBound", in.pods_bound},
            {"podsPending", in.pods_pending},
            {"otherScheduler", in.other_scheduler},
            {"finishedPods", in.finished_pods},
            {"terminatingPods", in.terminating_pods},
            {"controllerPodsKept", in.controller_pods_kept},
            {"deploymentsRepresentedByReplicaSets", in.workloads_represented},
            {"generatedNames", in.generated_names},
            {"volumeClaims", in.volume_claims},
            {"documents", in.documents}};
  if (!in.shape.empty()) j["shape"] = in.shape;
  Json kinds = Json::object();
  for (const auto& [kind, n] : in.ignored_kinds) kinds[kind] = n;
  j["notSimulated"] = std::move(kinds);
  return j;
}

std::string ImportSummarySentence(const ImportSummary& in) {
  auto n = [](std::size_t count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
  };
  std::string out = "Imported " + (in.shape.empty() ? std::string("a List") : in.shape) + ": " +
                    n(in.nodes, "node", "nodes") + ", " + n(in.pods_bound, "pod", "pods") + " bound, " +
                    std::to_string(in.pods_pending) + " pending";
  if (in.other_scheduler) out += " (" + std::to_string(in.other_scheduler) + " left to another scheduler)";
  if (in.finished_pods)
    out +=
        "; " + n(in.finished_pods, "finished pod", "finished pods") + " (Succeeded/Failed) left out: they hold nothing";
  if (in.terminating_pods)
    out += "; " +
           n(in.terminating_pods, "terminating pod still holds its node", "terminating pods still hold their nodes");
  if (in.controller_pods_kept)
    out += "; " + n(in.controller_pods_kept, "pod", "pods") + " of listed controllers not created again";
  if (in.workloads_represented)
    out += "; " + n(in.workloads_represented, "Deployment represented by its ReplicaSets",
                    "Deployments represented by their ReplicaSets");
  if (in.generated_names) out += "; " + n(in.generated_names, "name", "names") + " generated from generateName";
  if (in.volume_claims)
    out += "; " + n(in.volume_claims, "object uses", "objects use") +
           " PersistentVolumeClaims, which are not simulated (where volumes can attach is not checked)";
  if (!in.ignored_kinds.empty()) {
    out += "; not simulated:";
    for (std::size_t i = 0; i < in.ignored_kinds.size(); ++i)
      out += (i ? ", " : " ") + in.ignored_kinds[i].first + " " + std::to_string(in.ignored_kinds[i].second);
  }
  return out;
}

std::string ImportSummaryText(const ImportSummary& in) {
  return in.Noteworthy() ? ImportSummarySentence(in) + ".\n" : "";
}

Json ResultToJson(const sim::SimResult& result) {
  Json out = ResultBodyJson(result);
  if (result.import.Noteworthy()) out["import"] = ImportJson(result.import);
  return out;
}

namespace {
Json PreemptionToJson(const PreemptionRecord& p) {
  Json j = Json::object();
  j["eligible"] = p.eligible;
  if (!p.eligible) {
    j["notEligibleReason"] = p.not_eligible_reason;
    return j;
  }
  j["potentialNodes"] = p.potential_nodes;
  j["offset"] = p.offset;
  j["numCandidates"] = p.num_candidates;
  Json rejected = Json::array();
  for (const auto& n : p.rejected)
    rejected.push_back(
        {{"node", n.node}, {"plugin", n.plugin}, {"code", framework::CodeName(n.code)}, {"reasons", n.reasons}});
  j["rejected"] = std::move(rejected);
  Json candidates = Json::array();
  for (const auto& c : p.candidates) {
    Json victims = Json::array();
    for (std::size_t i = 0; i < c.victims.size(); ++i)
      victims.push_back({{"pod", c.victims[i]}, {"priority", c.victim_priorities[i]}});
    candidates.push_back(
        {{"node", c.node}, {"victims", std::move(victims)}, {"numPDBViolations", c.num_pdb_violations}});
  }
  j["candidates"] = std::move(candidates);
  if (!p.chosen.empty()) {
    j["chosen"] = p.chosen;
    j["decidedBy"] = p.decided_by;
    if (!p.tied.empty()) j["tiedWith"] = p.tied;
    if (!p.cleared_nominations.empty()) j["clearedNominations"] = p.cleared_nominations;
  }
  if (!p.message.empty()) j["message"] = p.message;
  return j;
}

Json CycleToJson(const CycleExplanation& c) {
  Json j = Json::object();
  j["attempt"] = c.attempt;
  j["filterPlugins"] = c.filter_plugins;
  j["numAllNodes"] = c.num_all_nodes;
  j["numNodesToFind"] = c.num_nodes_to_find;
  if (!c.prefilter_plugin.empty() || !c.prefilter_message.empty())
    j["preFilter"] = {{"plugin", c.prefilter_plugin}, {"message", c.prefilter_message}};
  if (!c.nominated_node.empty()) j["nominatedNode"] = {{"node", c.nominated_node}, {"fit", c.nominated_node_fit}};
  Json nodes = Json::array();
  for (const auto& n : c.nodes) {
    Json e = {{"node", n.node}, {"feasible", n.feasible}};
    if (!n.feasible) {
      e["plugin"] = n.plugin;
      e["code"] = framework::CodeName(n.code);
      e["reasons"] = n.reasons;
    }
    nodes.push_back(std::move(e));
  }
  j["filter"] = std::move(nodes);
  Json scores = Json::array();
  for (const auto& s : c.scores) {
    Json plugins = Json::array();
    for (const auto& p : s.plugins)
      plugins.push_back({{"plugin", p.plugin},
                         {"raw", p.raw},
                         {"normalized", p.normalized},
                         {"weight", p.weight},
                         {"weighted", p.weighted},
                         {"skipped", p.skipped}});
    scores.push_back({{"node", s.node}, {"total", s.total}, {"plugins", std::move(plugins)}});
  }
  j["scores"] = std::move(scores);
  if (!c.chosen.empty()) {
    j["chosen"] = c.chosen;
    j["tiedWith"] = c.tied;
  }
  if (!c.post_filter_message.empty()) j["postFilterMessage"] = c.post_filter_message;
  if (c.preemption_ran) j["preemption"] = PreemptionToJson(c.preemption);
  if (!c.message.empty()) j["message"] = c.message;
  return j;
}
}  // namespace

Json ExplanationToJson(const sim::PodResult& pod) {
  Json j = Json::object();
  j["pod"] = pod.key;
  j["priority"] = pod.priority;
  if (!pod.generated_from.empty()) j["generatedFrom"] = pod.generated_from;
  if (!pod.profile.empty()) j["profile"] = pod.profile;
  if (pod.bound_at_start) j["boundAtStart"] = true;
  if (!pod.node.empty()) j["node"] = pod.node;
  if (!pod.unschedulable.empty()) j["unschedulable"] = pod.unschedulable;
  if (!pod.scheduling_gates.empty()) j["schedulingGated"] = pod.scheduling_gates;
  if (!pod.nominated_node.empty()) j["nominatedNode"] = pod.nominated_node;
  if (!pod.preempted_by.empty()) j["preempted"] = {{"by", pod.preempted_by}, {"node", pod.preempted_from}};
  Json attempts = Json::array();
  for (const auto& c : pod.explanations) attempts.push_back(CycleToJson(c));
  j["attempts"] = std::move(attempts);
  return j;
}

namespace {

// One pod's Karpenter record: its outcome, then every try (relaxation, candidates, error) per queue attempt.
Json KarpenterRecordJson(const karpenter::Result& k, const karpenter::PodOutcome& o) {
  Json j = KarpenterPodJson(k, o);
  if (j.is_null()) j = Json::object();
  j["pod"] = o.key;
  Json attempts = Json::array();
  for (const auto& a : o.attempts) {
    Json tries = Json::array();
    for (const auto& t : a.tries) {
      Json candidates = Json::array();
      for (const auto& c : t.candidates) {
        Json cj = {{"target", c.target}, {"fit", c.reason.empty()}};
        if (!c.reason.empty()) cj["reason"] = c.reason;
        candidates.push_back(std::move(cj));
      }
      Json tj = {{"candidates", std::move(candidates)}};
      if (!t.relaxation.empty()) tj["relaxation"] = t.relaxation;
      if (!t.error.empty()) tj["error"] = t.error;
      tries.push_back(std::move(tj));
    }
    attempts.push_back({{"fit", a.fit}, {"tries", std::move(tries)}});
  }
  j["attempts"] = std::move(attempts);
  return j;
}

}  // namespace

Json KarpenterExplanationToJson(const sim::SimResult& result, const std::string& pod_key) {
  if (!result.karpenter) return Json();
  for (const auto& o : result.karpenter->pods)
    if (o.key == pod_key) return KarpenterRecordJson(*result.karpenter, o);
  return Json();
}

Json ClusterExplanationToJson(const sim::SimResult& result, const sim::PodResult& pod) {
  Json j = ExplanationToJson(pod);
  Json rounds = Json::array();
  for (const auto& r : result.rounds) {
    if (!r.provision) continue;
    for (const auto& o : r.provision->pods) {
      if (o.key != pod.key) continue;
      if (o.kind == karpenter::PodOutcomeKind::NotProvisionable && o.reason.empty()) break;
      Json rj = KarpenterRecordJson(*r.provision, o);
      rj["round"] = r.round;
      rounds.push_back(std::move(rj));
    }
  }
  j["karpenter"] = std::move(rounds);
  if (!pod.disagreement.empty()) j["disagreement"] = pod.disagreement;
  if (!pod.node_claim.empty()) j["nodeClaim"] = pod.node_claim;
  return j;
}

Json PodExplanationToJson(const sim::SimResult& result, const sim::PodResult& pod) {
  if (result.karpenter) {
    Json j = KarpenterExplanationToJson(result, pod.key);
    return j.is_null() ? ExplanationToJson(pod) : j;
  }
  return result.rounds.empty() ? ExplanationToJson(pod) : ClusterExplanationToJson(result, pod);
}

std::string Dump(const Json& j) { return j.dump(2) + "\n"; }

}  // namespace kplace::io
