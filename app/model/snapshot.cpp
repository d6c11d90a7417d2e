#include "app/model/snapshot.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

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
      if (const std::string* value = pod->meta.LabelValue(label)) return *value;
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
// frames) a merge sort of small (key, index) pairs, not the pods: a run sorted or two runs merged per step.
struct PodsByKey {
  struct Entry {
    std::string_view key;
    std::uint32_t index;
  };
  std::vector<std::string> keys;
  std::vector<std::uint32_t> order;
  bool sorted = true;          // the keys came in order
  std::vector<Entry> entries;  // while sorting
  bool runs_sorted = false;    // the runs of `run` entries are sorted; merging runs of `width`
  std::size_t width = 0;
  std::size_t next = 0;  // where the next run or merge starts
};

bool EntryLess(const PodsByKey::Entry& a, const PodsByKey::Entry& b) {
  const int c = a.key.compare(b.key);
  return c < 0 || (c == 0 && a.index < b.index);
}

// Takes the keys of the next `count` pods; true once every pod's is in.
bool CollectKeys(const Scenario& sc, PodsByKey& out, std::size_t count) {
  const std::size_t n = sc.pods.size();
  if (out.keys.capacity() < n) out.keys.reserve(n);
  const std::size_t end = std::min(n, out.keys.size() + count);
  for (std::size_t i = out.keys.size(); i < end; ++i) {
    out.keys.push_back(sc.pods[i].Key());
    if (i > 0 && out.keys[i] < out.keys[i - 1]) out.sorted = false;
  }
  return out.keys.size() == n;
}

// One step of the sort: the next run of `run` entries sorted, or the next two sorted runs merged; true once `order`
// is complete.
bool SortStep(PodsByKey& out, std::size_t run) {
  const std::size_t n = out.keys.size();
  if (!out.sorted && out.entries.empty()) {
    out.entries.resize(n);
    for (std::size_t i = 0; i < n; ++i) out.entries[i] = {out.keys[i], static_cast<std::uint32_t>(i)};
    return false;
  }
  auto& e = out.entries;
  const auto at = [&](std::size_t i) { return e.begin() + static_cast<std::ptrdiff_t>(i); };
  if (!out.sorted && !out.runs_sorted) {
    const std::size_t end = std::min(n, out.next + run);
    std::sort(at(out.next), at(end), EntryLess);
    out.next = end;
    if (out.next == n) {
      out.runs_sorted = true;
      out.width = run;
      out.next = 0;
    }
    return false;
  }
  if (!out.sorted && out.width < n) {
    const std::size_t mid = std::min(n, out.next + out.width), end = std::min(n, mid + out.width);
    std::inplace_merge(at(out.next), at(mid), at(end), EntryLess);
    out.next = end;
    if (out.next == n) {
      out.width *= 2;
      out.next = 0;
    }
    return false;
  }
  out.order.resize(n);
  for (std::size_t i = 0; i < n; ++i) out.order[i] = out.sorted ? static_cast<std::uint32_t>(i) : e[i].index;
  out.entries = {};
  return true;
}

// A background run's result (io::ResultFromJson) joined with the scenario's pods (DaemonSets expanded, launched
// Nodes added) into the SimResult the views need: the pods the document leaves out (bound in the input, terminal),
// each pod's owner and priority, karpenter mode's outcomes in scenario order and its pods' places, the node list with
// the pods on each (bound at start, then the Scheduled events' order). No explanations, no attempts beyond the last
// outcome, no provisioning runs per round (the document has only their events).
// The result's pods are the scenario's in by_key's order (its keys are moved into them), a slice per step;
// ListStep lists them per node.
struct Join {
  std::vector<sim::PodResult> listed;
  std::unordered_map<std::string, std::size_t> listed_at;  // (their keys are moved out below: not views)
  std::unordered_map<std::string, std::size_t> outcome_at;
  std::vector<karpenter::PodOutcome> outcomes;
  std::size_t next = 0;  // into by_key.order
};

void BeginJoin(sim::SimResult& r, const Scenario& sc, Join& j) {
  r.mode = sc.simulation.mode;
  j.listed = std::move(r.pods);
  r.pods.clear();
  j.listed_at.reserve(j.listed.size());
  for (std::size_t i = 0; i < j.listed.size(); ++i) j.listed_at.emplace(j.listed[i].key, i);
  // karpenter mode: the outcomes in scenario order, one per pod (those the document leaves out: not considered).
  if (r.karpenter) {
    j.outcomes = std::move(r.karpenter->pods);
    for (std::size_t i = 0; i < j.outcomes.size(); ++i) j.outcome_at.emplace(j.outcomes[i].key, i);
    r.karpenter->pods.assign(sc.pods.size(), {});
  }
  r.pods.reserve(sc.pods.size());
}

// Joins the next `count` pods; true once every pod is in.
bool JoinStep(sim::SimResult& r, const Scenario& sc, PodsByKey& by_key, Join& j, std::size_t count) {
  const std::size_t end = std::min(by_key.order.size(), j.next + count);
  for (; j.next < end; ++j.next) {
    const std::uint32_t i = by_key.order[j.next];
    const Pod& p = sc.pods[i];
    std::string& key = by_key.keys[i];
    sim::PodResult pr;
    if (r.karpenter) {
      karpenter::PodOutcome& o = r.karpenter->pods[i];
      auto it = j.outcome_at.find(key);
      if (it != j.outcome_at.end()) o = std::move(j.outcomes[it->second]);
      o.index = i;
      o.key = key;
      if (it == j.outcome_at.end()) {
        if (!p.node_name.empty()) {
          pr.bound_at_start = true;
          pr.node = p.node_name;
        }
      } else if (o.kind == karpenter::PodOutcomeKind::Node) {
        pr.node = o.node;
      } else if (o.kind == karpenter::PodOutcomeKind::Unschedulable) {
        pr.unschedulable = o.reason;
      }
    } else if (auto it = j.listed_at.find(key); it != j.listed_at.end()) {
      pr = std::move(j.listed[it->second]);
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
  if (j.next < by_key.order.size()) return false;
  for (auto& round : r.rounds) round.provision.reset();
  return true;
}

// The node list of a result JoinStep made, with the pods on each (bound at start, then the Scheduled events' order),
// in passes a slice per step: the nodes, the pods bound at start, the Scheduled events, the other pods. node_pods
// gets, per node, the indices into r.pods of the keys listed on it (the views are built in the same order, so
// IndexNodes need not search the keys again); left empty in karpenter mode (IndexNodes lists the pods per node, as
// for a run in the frame).
struct Listing {
  std::unordered_map<std::string_view, std::size_t> node_at;
  std::vector<bool> on_node;
  int pass = 0;
  std::size_t next = 0;
};

bool ListStep(sim::SimResult& r, const Scenario& sc, std::vector<std::vector<int>>& node_pods, Listing& l,
              std::size_t count) {
  const auto list = [&](std::size_t i) {
    const auto& pr = r.pods[i];
    if (l.on_node[i] || pr.node.empty()) return;
    auto n = l.node_at.find(pr.node);
    if (n == l.node_at.end()) return;
    l.on_node[i] = true;
    r.nodes[n->second].pods.push_back(pr.key);
    node_pods[n->second].push_back(static_cast<int>(i));
  };
  // The pass's items, and the next pass when they are done.
  const std::size_t items = l.pass == 0 ? sc.nodes.size() : l.pass == 2 ? r.events.size() : r.pods.size();
  const std::size_t end = std::min(items, l.next + count);
  for (; l.next < end; ++l.next) {
    const std::size_t i = l.next;
    if (l.pass == 0) {
      const Node& n = sc.nodes[i];
      if (i == 0) {
        l.node_at.reserve(sc.nodes.size());
        r.nodes.reserve(sc.nodes.size());
      }
      l.node_at.emplace(n.meta.name, r.nodes.size());
      sim::NodeSummary summary;
      summary.name = n.meta.name;
      r.nodes.push_back(std::move(summary));
    } else if (l.pass == 1) {
      if (r.pods[i].bound_at_start) list(i);
    } else if (l.pass == 2) {
      const sim::Event& e = r.events[i];
      if (e.reason != "Scheduled") continue;
      // The pod's index in r.pods (sorted by key).
      auto it = std::lower_bound(r.pods.begin(), r.pods.end(), e.pod,
                                 [](const sim::PodResult& p, const std::string& k) { return p.key < k; });
      if (it != r.pods.end() && it->key == e.pod) list(static_cast<std::size_t>(it - r.pods.begin()));
    } else {
      list(i);
    }
  }
  if (l.next < items) return false;
  if (l.pass == 0) {
    if (r.karpenter) return true;
    l.on_node.assign(r.pods.size(), false);
    node_pods.assign(r.nodes.size(), {});
  }
  l.next = 0;
  return ++l.pass == 4;
}

// cluster mode: the Nodes the launched NodeClaims became, as the run launched them (the result reports each claim
// with the labels its Node registered with), and their DaemonSet pods.
void AddLaunchedNodes(Scenario& sc, const std::vector<sim::LaunchedNodeClaim>& claims) {
  if (claims.empty()) return;
  const std::size_t first = sc.nodes.size();
  for (const auto& lc : claims) {
    sc.nodes.push_back(sim::NodeForClaim(sc, lc.claim));
  }
  sim::ExpandDaemonSets(sc, first);
}

}  // namespace

// Derives what the views draw from: which pods sit on which node and what they request. Display arithmetic only;
// placement comes from the result (rebuilt from result_json when given: a background run).
struct SnapshotIndexer::State {
  State(Snapshot& snapshot, const io::Json* json, std::size_t items)
      : s(snapshot), result_json(json), per_step(items) {}
  Snapshot& s;
  const io::Json* result_json;
  std::size_t per_step;
  int phase = 0;
  bool begun = false;      // the phase has taken its first step
  std::size_t next = 0;    // the phase's next item
  std::size_t paired = 0;  // a run in the frame: the scenario's next pod in key order
  sim::SimResult read;     // a background run's result as read, until joined
  PodsByKey by_key;        // the scenario's pods in key order
  Join join;
  Listing listing;
  std::vector<const Pod*> objects;          // the scenario's pod of each result pod
  std::vector<std::vector<int>> node_pods;  // per s.result.nodes entry, when ListStep listed them
  // IndexPods' and IndexNodes' lookups.
  PodRequestsOptions requests;
  std::unordered_map<std::string, const karpenter::PodOutcome*> outcomes;
  std::unordered_map<std::string_view, const Node*> nodes;
  std::unordered_map<std::string_view, const sim::LaunchedNodeClaim*> launched;
};

namespace {
enum Phase : int { kPrepare, kKeys, kSort, kJoin, kList, kIndexPods, kIndexNodes, kKarpenterPods, kEvents, kDone };
}  // namespace

SnapshotIndexer::SnapshotIndexer(Snapshot& s, const io::Json* result_json, std::size_t items_per_step)
    : state_(std::make_unique<State>(s, result_json, std::clamp<std::size_t>(items_per_step, 1, kAllAtOnce))) {}
SnapshotIndexer::~SnapshotIndexer() = default;

bool SnapshotIndexer::Step() {
  State& st = *state_;
  if (st.phase == kDone) return true;  // complete already
  const bool first = !st.begun;
  st.begun = true;
  if (RunPhase(st, first)) {
    st.next = 0;
    st.begun = false;
    ++st.phase;
  }
  return st.phase == kDone;
}

bool SnapshotIndexer::RunPhase(State& st, bool first) {
  Snapshot& s = st.s;
  switch (st.phase) {
    case kPrepare: {
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
      return true;
    }
    case kKeys:
      return CollectKeys(s.scenario, st.by_key, st.per_step);
    case kSort:
      return SortStep(st.by_key, st.per_step);
    case kJoin:
      // The scenario's pod of each result pod: a background run's result lists the scenario's pods in key order
      // (JoinStep); a run in the frame gives its pods in key order too, paired here with the scenario's in one pass
      // (of equal keys the first).
      if (st.result_json) {
        if (first) {
          s.result = std::move(st.read);
          BeginJoin(s.result, s.scenario, st.join);
          st.objects.reserve(st.by_key.order.size());
          return false;
        }
        const std::size_t from = st.join.next;
        const bool done = JoinStep(s.result, s.scenario, st.by_key, st.join, st.per_step);
        for (std::size_t k = from; k < st.join.next; ++k) st.objects.push_back(&s.scenario.pods[st.by_key.order[k]]);
        if (done) {
          st.join = {};
          st.by_key = {};
        }
        return done;
      } else {
        const PodsByKey& by_key = st.by_key;
        if (st.objects.size() != s.result.pods.size()) st.objects.resize(s.result.pods.size(), nullptr);
        std::size_t& next = st.paired;
        const std::size_t end = std::min(s.result.pods.size(), st.next + st.per_step);
        for (std::size_t k = st.next; k < end; ++k) {
          const std::string& key = s.result.pods[k].key;
          while (next < by_key.order.size() && by_key.keys[by_key.order[next]] < key) ++next;
          if (next < by_key.order.size() && by_key.keys[by_key.order[next]] == key)
            st.objects[k] = &s.scenario.pods[by_key.order[next]];
        }
        st.next = end;
        if (end < s.result.pods.size()) return false;
        st.by_key = {};
        return true;
      }
    case kList:
      return !st.result_json || ListStep(s.result, s.scenario, st.node_pods, st.listing, st.per_step);
    case kIndexPods:
      return IndexPods(st, first);
    case kIndexNodes:
      return IndexNodes(st, first);
    case kKarpenterPods:
      return KarpenterPods(st);
    default:  // kEvents
      IndexEvents(s);
      return true;
  }
}

bool SnapshotIndexer::IndexPods(State& st, bool first) {
  Snapshot& s = st.s;
  if (first) {
    if (s.result.karpenter)
      for (const auto& o : s.result.karpenter->pods) st.outcomes.emplace(o.key, &o);
    st.requests.pod_level_resources =
        Features(s.scenario.simulation.kubernetes_minor).Enabled(Feature::PodLevelResources);
    s.pods.reserve(s.result.pods.size());
  }
  const std::size_t end = std::min(s.result.pods.size(), st.next + st.per_step);
  for (std::size_t k = st.next; k < end; ++k) {
    const sim::PodResult& r = s.result.pods[k];
    PodView v;
    v.key = r.key;
    v.name = r.key.substr(r.key.find('/') + 1);
    v.result = &r;
    v.pod = st.objects[k];
    v.owner = OwnerOf(v.pod, r);
    if (auto o = st.outcomes.find(r.key); o != st.outcomes.end()) v.karpenter = o->second;
    v.status = StatusOf(r, v.karpenter);
    if (v.pod) v.requests = PodRequests(*v.pod, st.requests);
    if (v.status == PodStatus::Pending || v.status == PodStatus::Gated || v.status == PodStatus::Preempted ||
        v.status == PodStatus::OtherScheduler)
      s.unplaced.push_back(static_cast<int>(s.pods.size()));
    s.placed += v.status == PodStatus::Scheduled;
    s.pending +=
        v.status == PodStatus::Pending || v.status == PodStatus::Gated || v.status == PodStatus::OtherScheduler;
    s.on_claims += v.status == PodStatus::OnNewClaim;
    s.pods.push_back(std::move(v));
  }
  st.next = end;
  if (end < s.result.pods.size()) return false;
  st.outcomes.clear();
  return true;
}

// The node views, nodes a step until their pods reach per_step.
bool SnapshotIndexer::IndexNodes(State& st, bool first) {
  Snapshot& s = st.s;
  if (first) {
    for (const auto& n : s.scenario.nodes) st.nodes.emplace(n.meta.name, &n);
    for (const auto& lc : s.result.node_claims) st.launched.emplace(lc.node, &lc);
  }
  std::size_t pods = 0;
  for (; st.next < s.result.nodes.size() && pods < st.per_step; ++st.next) {
    const std::size_t k = st.next;
    const sim::NodeSummary& summary = s.result.nodes[k];
    pods += 1 + summary.pods.size();
    NodeView nv;
    auto it = st.nodes.find(summary.name);
    if (it == st.nodes.end()) continue;
    nv.node = it->second;
    if (auto l = st.launched.find(summary.name); l != st.launched.end()) nv.launched = l->second;
    s.node_index.emplace(summary.name, static_cast<int>(s.nodes.size()));
    for (std::size_t j = 0; j < summary.pods.size(); ++j) {
      const std::string& key = summary.pods[j];
      // The view ListStep found (the views are in the result's order), when it is the first of its key (what
      // FindPod returns); else the search.
      int i = k < st.node_pods.size() ? st.node_pods[k][j] : -1;
      if (i < 0 || s.pods[i].key != key || (i > 0 && s.pods[i - 1].key == key)) i = s.FindPod(key);
      if (i < 0) continue;
      nv.pods.push_back(i);
      nv.requested.Add(s.pods[i].requests);
    }
    s.nodes.push_back(std::move(nv));
  }
  if (st.next < s.result.nodes.size()) return false;
  st.nodes.clear();
  st.launched.clear();
  st.node_pods = {};
  return true;
}

// karpenter mode: the result lists no pods per node; the pods bound in the input, then those Karpenter expects on an
// existing node (two passes over the pods, a slice per step); then the NodeClaims Karpenter would launch, with the
// pods it put on them.
bool SnapshotIndexer::KarpenterPods(State& st) {
  Snapshot& s = st.s;
  if (!s.result.karpenter) return true;
  const std::size_t n = s.pods.size();
  const std::size_t end = std::min(2 * n, st.next + st.per_step);
  for (; st.next < end; ++st.next) {
    const bool at_start = st.next < n;
    const std::size_t i = at_start ? st.next : st.next - n;
    const sim::PodResult& r = *s.pods[i].result;
    if (r.node.empty() || r.bound_at_start != at_start) continue;
    const int node = s.FindNode(r.node);
    if (node < 0) continue;
    s.nodes[node].pods.push_back(static_cast<int>(i));
    s.nodes[node].requested.Add(s.pods[i].requests);
  }
  if (st.next < 2 * n) return false;
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
  return true;
}

void IndexSnapshot(Snapshot& s, const io::Json* result_json) {
  SnapshotIndexer indexer(s, result_json, SnapshotIndexer::kAllAtOnce);
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
