#include "wasm/app/session.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "core/io/result_writer.h"
#include "core/scheduler/framework/types.h"
#include "core/sim/admission.h"
#include "wasm/engine.h"

namespace kplace::app {
namespace {

std::string OwnerOf(const Pod* pod, const sim::PodResult& r) {
  if (!r.generated_from.empty()) return r.generated_from;
  if (pod) {
    for (const char* label : {"app.kubernetes.io/name", "app"}) {
      auto it = pod->meta.label_text.find(label);
      if (it != pod->meta.label_text.end()) return it->second;
    }
    for (const auto& o : pod->meta.owner_references)
      if (o.controller) return o.kind + "/" + o.name;
  }
  return r.key.substr(r.key.find('/') + 1);
}

PodStatus StatusOf(const sim::PodResult& r) {
  if (!r.preempted_by.empty()) return PodStatus::Preempted;
  if (r.bound_at_start) return PodStatus::BoundAtStart;
  if (!r.scheduling_gates.empty()) return PodStatus::Gated;
  if (!r.node.empty()) return PodStatus::Scheduled;
  if (!r.attempts.empty()) return PodStatus::Pending;
  return PodStatus::Terminal;
}

// Derives what the views draw from: which pods sit on which node and what they request. Display arithmetic only;
// placement comes from the result.
void Index(Snapshot& s) {
  sim::ExpandDaemonSets(s.scenario, 0);  // admission adds these inside the run; the views need their requests
  std::unordered_map<std::string, const Pod*> objects;
  for (const auto& p : s.scenario.pods) objects.emplace(p.Key(), &p);
  framework::PodRequestsOptions opts;
  opts.pod_level_resources = s.scenario.simulation.kubernetes_minor >= 34;

  s.pods.reserve(s.result.pods.size());
  for (const auto& r : s.result.pods) {
    PodView v;
    v.key = r.key;
    v.name = r.key.substr(r.key.find('/') + 1);
    v.result = &r;
    auto it = objects.find(r.key);
    v.pod = it == objects.end() ? nullptr : it->second;
    v.owner = OwnerOf(v.pod, r);
    v.status = StatusOf(r);
    if (v.pod) v.requests = framework::PodRequests(*v.pod, opts);
    s.pod_index.emplace(v.key, static_cast<int>(s.pods.size()));
    if (v.status == PodStatus::Pending || v.status == PodStatus::Gated || v.status == PodStatus::Preempted)
      s.unplaced.push_back(static_cast<int>(s.pods.size()));
    s.pods.push_back(std::move(v));
  }

  std::unordered_map<std::string, const Node*> nodes;
  for (const auto& n : s.scenario.nodes) nodes.emplace(n.meta.name, &n);
  for (const auto& summary : s.result.nodes) {
    NodeView nv;
    auto it = nodes.find(summary.name);
    if (it == nodes.end()) continue;
    nv.node = it->second;
    for (const auto& key : summary.pods) {
      int i = s.FindPod(key);
      if (i < 0) continue;
      nv.pods.push_back(i);
      nv.requested.Add(s.pods[i].requests);
    }
    s.nodes.push_back(std::move(nv));
  }
}

}  // namespace

int Snapshot::FindPod(const std::string& key) const {
  auto it = pod_index.find(key);
  return it == pod_index.end() ? -1 : it->second;
}

bool Session::SetText(std::string text) {
  text_ = std::move(text);
  return Rerun();
}

bool Session::Rerun() {
  ++generation_;
  const auto start = std::chrono::steady_clock::now();
  wasm::Outcome out = wasm::RunText(text_, /*explain_all=*/true, /*keep_scenario=*/true);
  if (!out.ok) {
    error_ = out.error;
    return false;
  }
  auto snap = std::make_unique<Snapshot>();
  snap->scenario = std::move(out.scenario);
  snap->result = std::move(out.result);
  snap->result_json = io::Dump(io::ResultToJson(snap->result));
  Index(*snap);
  snap->run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  snap->generation = generation_;
  snapshot_ = std::move(snap);
  error_.clear();
  return true;
}

}  // namespace kplace::app
