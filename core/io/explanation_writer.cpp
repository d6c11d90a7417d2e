// Explanations -> JSON (declared in result_writer.h): one pod's attempts with filter verdicts, scores, preemption
// and message, and Karpenter's record of it. Written on demand for a pod or a node, not per
// run: compiled for size in the page (CMakeLists.txt).
#include <algorithm>

#include "core/io/result_writer.h"

namespace kplace::io {

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
  if (!c.claims.empty()) {
    Json claims = Json::array();
    for (const auto& r : c.claims) {
      Json e = {{"claim", r.claim}, {"status", r.status}};
      if (!r.storage_class.empty()) e["storageClass"] = r.storage_class;
      if (!r.binding_mode.empty()) e["volumeBindingMode"] = r.binding_mode;
      if (!r.volume.empty()) e["volume"] = r.volume;
      if (!r.volume_node_affinity.empty()) e["volumeNodeAffinity"] = r.volume_node_affinity;
      claims.push_back(std::move(e));
    }
    j["claims"] = std::move(claims);
  }
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
