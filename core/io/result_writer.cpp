#include "core/io/result_writer.h"

namespace kplace::io {

Json ResultToJson(const sim::SimResult& result) {
  Json pods = Json::object();
  for (const auto& p : result.pods) {
    if (p.bound_at_start) continue;
    Json entry = Json::object();
    if (!p.scheduling_gates.empty()) {
      entry["schedulingGated"] = p.scheduling_gates;
    } else if (!p.node.empty()) {
      entry["node"] = p.node;
    } else if (!p.attempts.empty()) {
      entry["unschedulable"] = p.unschedulable;
    } else {
      continue;  // terminal pods (Succeeded / Failed) are not scheduled
    }
    pods[p.key] = std::move(entry);
  }
  Json out = Json::object();
  out["pods"] = std::move(pods);
  out["nodeClaims"] = Json::array();
  out["preempted"] = Json::array();
  out["nominated"] = Json::object();
  if (!result.warnings.empty()) out["warnings"] = result.warnings;
  return out;
}

namespace {
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
  if (!c.message.empty()) j["message"] = c.message;
  return j;
}
}  // namespace

Json ExplanationToJson(const sim::PodResult& pod) {
  Json j = Json::object();
  j["pod"] = pod.key;
  j["priority"] = pod.priority;
  if (!pod.generated_from.empty()) j["generatedFrom"] = pod.generated_from;
  if (pod.bound_at_start) j["boundAtStart"] = true;
  if (!pod.node.empty()) j["node"] = pod.node;
  if (!pod.unschedulable.empty()) j["unschedulable"] = pod.unschedulable;
  if (!pod.scheduling_gates.empty()) j["schedulingGated"] = pod.scheduling_gates;
  Json attempts = Json::array();
  for (const auto& c : pod.explanations) attempts.push_back(CycleToJson(c));
  j["attempts"] = std::move(attempts);
  return j;
}

std::string Dump(const Json& j) { return j.dump(2) + "\n"; }

}  // namespace kplace::io
