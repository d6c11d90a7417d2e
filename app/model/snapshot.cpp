#include "app/model/snapshot.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>

#include "core/io/result_reader.h"
#include "core/karpenter/disruption/cluster.h"
#include "core/model/features.h"
#include "core/model/pod_requests.h"
#include "core/model/symbol.h"
#include "core/sim/admission.h"
#include "core/sim/launch.h"

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

PodStatus StatusOf(const sim::PodResult& r, const karpenter::PodOutcome* k) {
  if (!r.preempted_by.empty()) return PodStatus::Preempted;
  if (r.bound_at_start) return PodStatus::BoundAtStart;
  if (!r.other_scheduler.empty()) return PodStatus::OtherScheduler;
  if (!r.scheduling_gates.empty()) return PodStatus::Gated;
  if (!r.node.empty()) return PodStatus::Scheduled;
  if (k) {  // karpenter mode: no kube-scheduler attempts; Karpenter's outcome decides
    if (k->kind == karpenter::PodOutcomeKind::Claim) return PodStatus::OnNewClaim;
    if (k->kind != karpenter::PodOutcomeKind::NotProvisionable || !k->reason.empty()) return PodStatus::Pending;
    return PodStatus::Terminal;
  }
  if (!r.attempts.empty() || !r.unschedulable.empty()) return PodStatus::Pending;
  // A step of the timeline (sim::ResultAt): queued, its first attempt still to come.
  if (r.terminal_phase.empty() && !r.bound_at_start) return PodStatus::Pending;
  return PodStatus::Terminal;
}

// The scenario's pods in key order (of equal keys, in scenario order): their keys (in scenario order) and their
// indices. A dump usually lists its pods in that order already; else (a cluster of 150,000 pods lands in the page's
// frame) the sort moves small (key, index) pairs, not the pods.
struct PodsByKey {
  std::vector<std::string> keys;
  std::vector<std::uint32_t> order;
};
PodsByKey SortPodsByKey(const Scenario& sc) {
  PodsByKey out;
  const std::size_t n = sc.pods.size();
  out.keys.reserve(n);
  for (const Pod& p : sc.pods) out.keys.push_back(p.Key());
  out.order.resize(n);
  bool sorted = true;
  for (std::size_t i = 0; i < n; ++i) {
    out.order[i] = static_cast<std::uint32_t>(i);
    if (i > 0 && out.keys[i] < out.keys[i - 1]) sorted = false;
  }
  if (sorted) return out;
  struct Entry {
    std::string_view key;
    std::uint32_t index;
  };
  std::vector<Entry> entries(n);
  for (std::size_t i = 0; i < n; ++i) entries[i] = {out.keys[i], static_cast<std::uint32_t>(i)};
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    const int c = a.key.compare(b.key);
    return c < 0 || (c == 0 && a.index < b.index);
  });
  for (std::size_t i = 0; i < n; ++i) out.order[i] = entries[i].index;
  return out;
}

// The SimResult the views need from a background run's result (io::ResultFromJson) and the scenario's pods
// (DaemonSets expanded, launched Nodes added): the pods the document leaves out (bound in the input, terminal), each
// pod's owner and priority, karpenter mode's outcomes in scenario order and its pods' places, the node list with the
// pods on each (bound at start, then the Scheduled events' order). No explanations, no attempts beyond the last
// outcome, no provisioning runs per round (the document has only their events).
// The result's pods are the scenario's in by_key's order (its keys are moved into them); ListPodsOnNodes lists them
// per node.
sim::SimResult JoinPods(sim::SimResult read, const Scenario& sc, PodsByKey& by_key) {
  sim::SimResult r = std::move(read);
  r.mode = sc.simulation.mode;
  std::vector<sim::PodResult> listed = std::move(r.pods);
  r.pods.clear();
  std::unordered_map<std::string, std::size_t> listed_at;  // (their keys are moved out below: not views)
  listed_at.reserve(listed.size());
  for (std::size_t i = 0; i < listed.size(); ++i) listed_at.emplace(listed[i].key, i);
  // karpenter mode: the outcomes in scenario order, one per pod (those the document leaves out: not considered).
  std::unordered_map<std::string, std::size_t> outcome_at;
  std::vector<karpenter::PodOutcome> outcomes;
  if (r.karpenter) {
    outcomes = std::move(r.karpenter->pods);
    for (std::size_t i = 0; i < outcomes.size(); ++i) outcome_at.emplace(outcomes[i].key, i);
    r.karpenter->pods.assign(sc.pods.size(), {});
  }
  r.pods.reserve(sc.pods.size());
  for (const std::uint32_t i : by_key.order) {
    const Pod& p = sc.pods[i];
    std::string& key = by_key.keys[i];
    sim::PodResult pr;
    if (r.karpenter) {
      karpenter::PodOutcome& o = r.karpenter->pods[i];
      auto it = outcome_at.find(key);
      if (it != outcome_at.end()) o = std::move(outcomes[it->second]);
      o.index = i;
      o.key = key;
      if (it == outcome_at.end()) {
        if (!p.node_name.empty()) {
          pr.bound_at_start = true;
          pr.node = p.node_name;
        }
      } else if (o.kind == karpenter::PodOutcomeKind::Node) {
        pr.node = o.node;
      } else if (o.kind == karpenter::PodOutcomeKind::Unschedulable) {
        pr.unschedulable = o.reason;
      }
    } else if (auto it = listed_at.find(key); it != listed_at.end()) {
      pr = std::move(listed[it->second]);
    } else if (!p.node_name.empty()) {
      pr.bound_at_start = true;
      pr.node = p.node_name;
    } else if (p.Terminal()) {
      pr.terminal_phase = p.phase;  // as the run records it (not in the document)
    }
    pr.key = std::move(key);
    pr.generated_from = p.generated_from;
    pr.priority = p.priority.value_or(0);
    r.pods.push_back(std::move(pr));
  }
  for (auto& round : r.rounds) round.provision.reset();
  return r;
}

// The node list of a result JoinPods made, with the pods on each (bound at start, then the Scheduled events' order).
// node_pods gets, per node, the indices into r.pods of the keys listed on it (the views are built in the same order,
// so Index need not search the keys again); left empty in karpenter mode (Index lists the pods per node, as for a run
// in the frame).
void ListPodsOnNodes(sim::SimResult& r, const Scenario& sc, std::vector<std::vector<int>>& node_pods) {
  // A pod's index in r.pods (sorted by key), or npos.
  const auto where = [&](const std::string& key) {
    auto it = std::lower_bound(r.pods.begin(), r.pods.end(), key,
                               [](const sim::PodResult& p, const std::string& k) { return p.key < k; });
    return it != r.pods.end() && it->key == key ? static_cast<std::size_t>(it - r.pods.begin()) : std::string::npos;
  };
  std::unordered_map<std::string_view, std::size_t> node_at;
  node_at.reserve(sc.nodes.size());
  r.nodes.reserve(sc.nodes.size());
  for (const auto& n : sc.nodes) {
    node_at.emplace(n.meta.name, r.nodes.size());
    sim::NodeSummary summary;
    summary.name = n.meta.name;
    r.nodes.push_back(std::move(summary));
  }
  if (r.karpenter) return;
  std::vector<bool> on_node(r.pods.size(), false);
  node_pods.assign(r.nodes.size(), {});
  auto list = [&](std::size_t i) {
    const auto& pr = r.pods[i];
    if (on_node[i] || pr.node.empty()) return;
    auto n = node_at.find(pr.node);
    if (n == node_at.end()) return;
    on_node[i] = true;
    r.nodes[n->second].pods.push_back(pr.key);
    node_pods[n->second].push_back(static_cast<int>(i));
  };
  for (std::size_t i = 0; i < r.pods.size(); ++i)
    if (r.pods[i].bound_at_start) list(i);
  for (const auto& e : r.events) {
    if (e.reason != "Scheduled") continue;
    if (const std::size_t i = where(e.pod); i != std::string::npos) list(i);
  }
  for (std::size_t i = 0; i < r.pods.size(); ++i) list(i);
}

// cluster mode: the Nodes the launched NodeClaims became, as the run launched them (the result reports each claim
// with the labels its Node registered with), and their DaemonSet pods.
void AddLaunchedNodes(Scenario& sc, const std::vector<sim::LaunchedNodeClaim>& claims) {
  if (claims.empty()) return;
  const std::size_t first = sc.nodes.size();
  for (const auto& lc : claims) {
    Node n = sim::NodeForClaim(sc, lc.claim);
    for (auto [key, value] : n.meta.labels.entries()) n.meta.label_text.emplace(Text(key), Text(value));
    sc.nodes.push_back(std::move(n));
  }
  sim::ExpandDaemonSets(sc, first);
}

}  // namespace

// Derives what the views draw from: which pods sit on which node and what they request. Display arithmetic only;
// placement comes from the result (rebuilt from result_json when given: a background run).
constexpr int kLastPhase = 5;

struct SnapshotIndexer::State {
  State(Snapshot& snapshot, const io::Json* json) : s(snapshot), result_json(json) {}
  Snapshot& s;
  const io::Json* result_json;
  int phase = 0;
  sim::SimResult read;                      // a background run's result as read, until joined
  PodsByKey by_key;                         // the scenario's pods in key order
  std::vector<const Pod*> objects;          // the scenario's pod of each result pod
  std::vector<std::vector<int>> node_pods;  // per s.result.nodes entry, when ListPodsOnNodes listed them
};

SnapshotIndexer::SnapshotIndexer(Snapshot& s, const io::Json* result_json)
    : state_(std::make_unique<State>(s, result_json)) {}
SnapshotIndexer::~SnapshotIndexer() = default;

bool SnapshotIndexer::Step() {
  State& st = *state_;
  Snapshot& s = st.s;
  if (st.phase > kLastPhase) return true;  // complete already
  switch (st.phase++) {
    case 0: {
      const bool karpenter_mode = s.scenario.simulation.mode == Mode::Karpenter;
      s.disruption =
          s.scenario.simulation.mode != Mode::Scheduler && karpenter::disruption::HasManagedNodes(s.scenario);
      // Admission adds these inside the run (not in karpenter mode: Karpenter reserves their overhead itself); the
      // views need their requests.
      if (!karpenter_mode) sim::ExpandDaemonSets(s.scenario, 0);
      // cluster mode: the launched NodeClaims are Nodes now, with DaemonSet pods of their own (a background run's
      // result lists pods on them: add them before reading it).
      if (st.result_json) {
        st.read = io::ResultFromJson(*st.result_json);
        AddLaunchedNodes(s.scenario, st.read.node_claims);
      } else {
        AddLaunchedNodes(s.scenario, s.result.node_claims);
      }
      return false;
    }
    case 1:
      st.by_key = SortPodsByKey(s.scenario);
      return false;
    case 2:
      // The scenario's pod of each result pod: a background run's result lists the scenario's pods in key order
      // (JoinPods); a run in the frame gives its pods in key order too, paired here with the scenario's in one pass
      // (of equal keys the first).
      if (st.result_json) {
        s.result = JoinPods(std::move(st.read), s.scenario, st.by_key);
        st.objects.reserve(st.by_key.order.size());
        for (const std::uint32_t i : st.by_key.order) st.objects.push_back(&s.scenario.pods[i]);
      } else {
        const PodsByKey& by_key = st.by_key;
        std::size_t next = 0;
        st.objects.resize(s.result.pods.size(), nullptr);
        for (std::size_t k = 0; k < s.result.pods.size(); ++k) {
          const std::string& key = s.result.pods[k].key;
          while (next < by_key.order.size() && by_key.keys[by_key.order[next]] < key) ++next;
          if (next < by_key.order.size() && by_key.keys[by_key.order[next]] == key)
            st.objects[k] = &s.scenario.pods[by_key.order[next]];
        }
      }
      st.by_key = {};
      return false;
    case 3:
      if (st.result_json) ListPodsOnNodes(s.result, s.scenario, st.node_pods);
      return false;
    case 4:
      IndexPods(st);
      return false;
    default:  // kLastPhase
      IndexNodes(st);
      IndexEvents(s);
      return true;
  }
}

void SnapshotIndexer::IndexPods(State& st) {
  Snapshot& s = st.s;
  std::unordered_map<std::string, const karpenter::PodOutcome*> outcomes;
  if (s.result.karpenter)
    for (const auto& o : s.result.karpenter->pods) outcomes.emplace(o.key, &o);
  PodRequestsOptions opts;
  opts.pod_level_resources = Features(s.scenario.simulation.kubernetes_minor).Enabled(Feature::PodLevelResources);

  s.pods.reserve(s.result.pods.size());
  for (std::size_t k = 0; k < s.result.pods.size(); ++k) {
    const sim::PodResult& r = s.result.pods[k];
    PodView v;
    v.key = r.key;
    v.name = r.key.substr(r.key.find('/') + 1);
    v.result = &r;
    v.pod = st.objects[k];
    v.owner = OwnerOf(v.pod, r);
    if (auto o = outcomes.find(r.key); o != outcomes.end()) v.karpenter = o->second;
    v.status = StatusOf(r, v.karpenter);
    if (v.pod) v.requests = PodRequests(*v.pod, opts);
    if (v.status == PodStatus::Pending || v.status == PodStatus::Gated || v.status == PodStatus::Preempted ||
        v.status == PodStatus::OtherScheduler)
      s.unplaced.push_back(static_cast<int>(s.pods.size()));
    s.placed += v.status == PodStatus::Scheduled;
    s.pending +=
        v.status == PodStatus::Pending || v.status == PodStatus::Gated || v.status == PodStatus::OtherScheduler;
    s.on_claims += v.status == PodStatus::OnNewClaim;
    s.pods.push_back(std::move(v));
  }
}

void SnapshotIndexer::IndexNodes(State& st) {
  Snapshot& s = st.s;
  std::unordered_map<std::string, const Node*> nodes;
  for (const auto& n : s.scenario.nodes) nodes.emplace(n.meta.name, &n);
  std::unordered_map<std::string, const sim::LaunchedNodeClaim*> launched;
  for (const auto& lc : s.result.node_claims) launched.emplace(lc.node, &lc);
  for (std::size_t k = 0; k < s.result.nodes.size(); ++k) {
    const sim::NodeSummary& summary = s.result.nodes[k];
    NodeView nv;
    auto it = nodes.find(summary.name);
    if (it == nodes.end()) continue;
    nv.node = it->second;
    if (auto l = launched.find(summary.name); l != launched.end()) nv.launched = l->second;
    s.node_index.emplace(summary.name, static_cast<int>(s.nodes.size()));
    for (std::size_t j = 0; j < summary.pods.size(); ++j) {
      const std::string& key = summary.pods[j];
      // The view ListPodsOnNodes found (the views are in the result's order), when it is the first of its key (what
      // FindPod returns); else the search.
      int i = k < st.node_pods.size() ? st.node_pods[k][j] : -1;
      if (i < 0 || s.pods[i].key != key || (i > 0 && s.pods[i - 1].key == key)) i = s.FindPod(key);
      if (i < 0) continue;
      nv.pods.push_back(i);
      nv.requested.Add(s.pods[i].requests);
    }
    s.nodes.push_back(std::move(nv));
  }

  // karpenter mode: the result lists no pods per node; the pods bound in the input, then those Karpenter expects
  // on an existing node.
  if (s.result.karpenter) {
    for (bool at_start : {true, false})
      for (std::size_t i = 0; i < s.pods.size(); ++i) {
        const sim::PodResult& r = *s.pods[i].result;
        if (r.node.empty() || r.bound_at_start != at_start) continue;
        const int n = s.FindNode(r.node);
        if (n < 0) continue;
        s.nodes[n].pods.push_back(static_cast<int>(i));
        s.nodes[n].requested.Add(s.pods[i].requests);
      }
  }

  // karpenter mode: the NodeClaims Karpenter would launch, with the pods it put on them.
  if (s.result.karpenter) {
    for (const auto& c : s.result.karpenter->claims) {
      ClaimView cv;
      cv.claim = &c;
      cv.allocatable = sim::NodeForClaim(s.scenario, c).allocatable;  // the Node it would become
      for (const auto& key : c.pods) {
        const int i = s.FindPod(key);
        if (i < 0) continue;
        s.pods[i].claim = static_cast<int>(s.claims.size());
        cv.pods.push_back(i);
      }
      s.claims.push_back(std::move(cv));
    }
  }
}

void IndexSnapshot(Snapshot& s, const io::Json* result_json) {
  SnapshotIndexer indexer(s, result_json);
  while (!indexer.Step()) {
  }
}

int Snapshot::FindPod(const std::string& key) const {
  auto it =
      std::lower_bound(pods.begin(), pods.end(), key, [](const PodView& p, const std::string& k) { return p.key < k; });
  return it != pods.end() && it->key == key ? static_cast<int>(it - pods.begin()) : -1;
}

int Snapshot::FindNode(const std::string& name) const {
  auto it = node_index.find(name);
  return it == node_index.end() ? -1 : it->second;
}

}  // namespace kplace::app
