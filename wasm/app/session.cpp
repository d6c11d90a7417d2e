#include "wasm/app/session.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "core/io/incremental_parser.h"
#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/model/symbol.h"
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

PodStatus StatusOf(const sim::PodResult& r, const karpenter::PodOutcome* k) {
  if (!r.preempted_by.empty()) return PodStatus::Preempted;
  if (r.bound_at_start) return PodStatus::BoundAtStart;
  if (!r.scheduling_gates.empty()) return PodStatus::Gated;
  if (!r.node.empty()) return PodStatus::Scheduled;
  if (k) {  // karpenter mode: no kube-scheduler attempts; Karpenter's outcome decides
    if (k->kind == karpenter::PodOutcomeKind::Claim) return PodStatus::OnNewClaim;
    if (k->kind != karpenter::PodOutcomeKind::NotProvisionable || !k->reason.empty()) return PodStatus::Pending;
    return PodStatus::Terminal;
  }
  if (!r.attempts.empty() || !r.unschedulable.empty()) return PodStatus::Pending;
  return PodStatus::Terminal;
}

const InstanceType* FindInstanceType(const Scenario& sc, const std::string& name) {
  for (const auto& it : sc.instance_types)
    if (it.meta.name == name) return &it;
  return nullptr;
}

Resource AllocatableOf(const Scenario& sc, const std::string& instance_type) {
  Resource r;
  if (const InstanceType* it = FindInstanceType(sc, instance_type)) {
    r = it->capacity;
    r.Add(it->overhead, -1);
  }
  return r;
}

// The Node a launched NodeClaim became, as the views need it: the claim's labels (plus the well-known ones from its
// decision), its taints (startupTaints are gone before kube-scheduler binds) and its instance type's allocatable.
Node NodeOfClaim(const sim::LaunchedNodeClaim& lc, const Scenario& sc) {
  Node n;
  n.meta.name = lc.node;
  n.name_symbol = Intern(lc.node);
  const karpenter::ClaimOutcome& c = lc.claim;
  auto& labels = n.meta.label_text;
  for (const auto& [key, value] : c.labels) labels.emplace(key, value);
  for (auto [key, value] : {std::pair<const char*, const std::string*>{"karpenter.sh/nodepool", &c.node_pool},
                            {"node.kubernetes.io/instance-type", &c.instance_type},
                            {"topology.kubernetes.io/zone", &c.zone},
                            {"karpenter.sh/capacity-type", &c.capacity_type},
                            {"kubernetes.io/hostname", &lc.node}})
    if (!value->empty()) labels.emplace(key, *value);
  for (const auto& [key, value] : labels) n.meta.labels.Set(Intern(key), Intern(value));
  n.taints = c.taints;
  n.allocatable = AllocatableOf(sc, c.instance_type);
  n.capacity = n.allocatable;
  if (const InstanceType* it = FindInstanceType(sc, c.instance_type)) n.capacity = it->capacity;
  return n;
}

std::vector<std::string> Strings(const io::Json& j) {
  std::vector<std::string> out;
  if (j.is_array())
    for (const auto& v : j)
      if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}
std::string StringAt(const io::Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// What the editor shows for a text that does not parse: the InputError (it names the item and the JSON path), or a
// bug of kplace's.
std::string ParseErrorText(const std::exception& e) {
  if (dynamic_cast<const io::InputError*>(&e)) return e.what();
  return std::string("internal error: ") + e.what();
}

sim::PodAttempt Attempt(const std::string& node, const std::string& message) {
  sim::PodAttempt a;
  a.attempt = 1;
  a.node = node;
  a.message = message;
  return a;
}

// The SimResult the views need, rebuilt from a background run's result JSON (`kplace run --format json`) and the
// scenario's pods (DaemonSets expanded): placements, messages, events. No explanations, no attempt records beyond
// the last outcome. Node pod order: bound at start, then the Scheduled events' order.
sim::SimResult ResultFromJson(const io::Json& j, const Scenario& sc) {
  sim::SimResult r;
  r.mode = sc.simulation.mode;
  const io::Json empty = io::Json::object();
  auto pods_it = j.find("pods");
  const io::Json& pods = pods_it != j.end() && pods_it->is_object() ? *pods_it : empty;
  std::unordered_map<std::string, std::size_t> where;
  where.reserve(sc.pods.size());
  std::vector<sim::PodResult> in_scenario_order;
  in_scenario_order.reserve(sc.pods.size());
  for (const auto& p : sc.pods) {
    sim::PodResult pr;
    pr.key = p.Key();
    pr.generated_from = p.generated_from;
    pr.priority = p.priority.value_or(0);
    auto it = pods.find(pr.key);
    if (it == pods.end()) {
      if (!p.node_name.empty()) {
        pr.bound_at_start = true;
        pr.node = p.node_name;
      }
    } else if (auto pre = it->find("preempted"); pre != it->end()) {
      pr.preempted_by = StringAt(*pre, "by");
      pr.preempted_from = StringAt(*pre, "node");
    } else if (auto gates = it->find("schedulingGated"); gates != it->end()) {
      pr.scheduling_gates = Strings(*gates);
    } else if (auto node = it->find("node"); node != it->end() && node->is_string()) {
      pr.node = node->get<std::string>();
      pr.attempts.push_back(Attempt(pr.node, ""));
    } else {
      pr.unschedulable = StringAt(*it, "unschedulable");
      pr.nominated_node = StringAt(*it, "nominatedNode");
      pr.attempts.push_back(Attempt("", pr.unschedulable));
    }
    in_scenario_order.push_back(std::move(pr));
  }
  // Sorted by key: an order of indices first (a PodResult is large to move about).
  std::vector<std::size_t> order(in_scenario_order.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return in_scenario_order[a].key < in_scenario_order[b].key; });
  r.pods.reserve(order.size());
  for (std::size_t i : order) r.pods.push_back(std::move(in_scenario_order[i]));
  for (std::size_t i = 0; i < r.pods.size(); ++i) where.emplace(r.pods[i].key, i);

  if (auto events = j.find("events"); events != j.end() && events->is_array())
    for (const auto& e : *events) {
      sim::Event ev;
      ev.type = StringAt(e, "type");
      ev.reason = StringAt(e, "reason");
      ev.pod = StringAt(e, "pod");
      ev.message = StringAt(e, "message");
      ev.source = StringAt(e, "source");
      ev.object = StringAt(e, "object");
      r.events.push_back(std::move(ev));
    }
  if (auto pre = j.find("preempted"); pre != j.end()) r.preempted = Strings(*pre);
  if (auto nom = j.find("nominated"); nom != j.end() && nom->is_object())
    for (const auto& [pod, node] : nom->items())
      if (node.is_string()) r.nominations.emplace_back(pod, node.get<std::string>());
  if (auto w = j.find("warnings"); w != j.end()) r.warnings = Strings(*w);

  std::unordered_map<std::string, std::size_t> node_at;
  for (const auto& n : sc.nodes) {
    node_at.emplace(n.meta.name, r.nodes.size());
    sim::NodeSummary summary;
    summary.name = n.meta.name;
    r.nodes.push_back(std::move(summary));
  }
  if (j.contains("rounds")) ClusterFromJson(j, r);  // cluster mode with NodePools (sc has the launched Nodes)
  std::vector<bool> listed(r.pods.size(), false);
  auto list = [&](std::size_t i) {
    const auto& pr = r.pods[i];
    if (listed[i] || pr.node.empty()) return;
    auto n = node_at.find(pr.node);
    if (n == node_at.end()) return;
    listed[i] = true;
    r.nodes[n->second].pods.push_back(pr.key);
  };
  for (std::size_t i = 0; i < r.pods.size(); ++i)
    if (r.pods[i].bound_at_start) list(i);
  for (const auto& e : r.events) {
    if (e.reason != "Scheduled") continue;
    if (auto it = where.find(e.pod); it != where.end()) list(it->second);
  }
  for (std::size_t i = 0; i < r.pods.size(); ++i) list(i);
  if (sc.simulation.mode == Mode::Karpenter) {  // no kube-scheduler: Karpenter's outcomes decide, as in Run
    r.karpenter = KarpenterFromJson(j, sc);
    for (auto& pr : r.pods) pr.attempts.clear();
    for (auto& n : r.nodes) n.pods.clear();  // Index lists them, as for a run in the frame
  }
  return r;
}

void AddLaunchedNodes(Scenario& sc, const std::vector<sim::LaunchedNodeClaim>& claims) {
  if (claims.empty()) return;
  const std::size_t first = sc.nodes.size();
  for (const auto& lc : claims) sc.nodes.push_back(NodeOfClaim(lc, sc));
  sim::ExpandDaemonSets(sc, first);
}

// Derives what the views draw from: which pods sit on which node and what they request. Display arithmetic only;
// placement comes from the result (rebuilt from result_json when given: a background run).
void Index(Snapshot& s, const io::Json* result_json = nullptr) {
  const bool karpenter_mode = s.scenario.simulation.mode == Mode::Karpenter;
  // Admission adds these inside the run (not in karpenter mode: Karpenter reserves their overhead itself); the views
  // need their requests.
  if (!karpenter_mode) sim::ExpandDaemonSets(s.scenario, 0);
  // cluster mode: the launched NodeClaims are Nodes now, with DaemonSet pods of their own (a background run's result
  // lists pods on them: add them before reading it).
  if (result_json) {
    AddLaunchedNodes(s.scenario, LaunchedFromJson(*result_json));
    s.result = ResultFromJson(*result_json, s.scenario);
  } else {
    AddLaunchedNodes(s.scenario, s.result.node_claims);
  }
  std::unordered_map<std::string, const karpenter::PodOutcome*> outcomes;
  if (s.result.karpenter)
    for (const auto& o : s.result.karpenter->pods) outcomes.emplace(o.key, &o);
  std::unordered_map<std::string, const Pod*> objects;
  objects.reserve(s.scenario.pods.size());
  for (const auto& p : s.scenario.pods) objects.emplace(p.Key(), &p);
  PodRequestsOptions opts;
  opts.pod_level_resources = Features(s.scenario.simulation.kubernetes_minor).Enabled(Feature::PodLevelResources);

  s.pods.reserve(s.result.pods.size());
  s.pod_index.reserve(s.result.pods.size());
  for (const auto& r : s.result.pods) {
    PodView v;
    v.key = r.key;
    v.name = r.key.substr(r.key.find('/') + 1);
    v.result = &r;
    auto it = objects.find(r.key);
    v.pod = it == objects.end() ? nullptr : it->second;
    v.owner = OwnerOf(v.pod, r);
    if (auto k = outcomes.find(r.key); k != outcomes.end()) v.karpenter = k->second;
    v.status = StatusOf(r, v.karpenter);
    if (v.pod) v.requests = PodRequests(*v.pod, opts);
    s.pod_index.emplace(v.key, static_cast<int>(s.pods.size()));
    if (v.status == PodStatus::Pending || v.status == PodStatus::Gated || v.status == PodStatus::Preempted)
      s.unplaced.push_back(static_cast<int>(s.pods.size()));
    s.pods.push_back(std::move(v));
  }

  std::unordered_map<std::string, const Node*> nodes;
  for (const auto& n : s.scenario.nodes) nodes.emplace(n.meta.name, &n);
  std::unordered_map<std::string, const sim::LaunchedNodeClaim*> launched;
  for (const auto& lc : s.result.node_claims) launched.emplace(lc.node, &lc);
  for (const auto& summary : s.result.nodes) {
    NodeView nv;
    auto it = nodes.find(summary.name);
    if (it == nodes.end()) continue;
    nv.node = it->second;
    if (auto l = launched.find(summary.name); l != launched.end()) nv.launched = l->second;
    s.node_index.emplace(summary.name, static_cast<int>(s.nodes.size()));
    for (const auto& key : summary.pods) {
      int i = s.FindPod(key);
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
      cv.allocatable = AllocatableOf(s.scenario, c.instance_type);
      for (const auto& key : c.pods) {
        const int i = s.FindPod(key);
        if (i < 0) continue;
        s.pods[i].claim = static_cast<int>(s.claims.size());
        cv.pods.push_back(i);
      }
      s.claims.push_back(std::move(cv));
    }
  }
  IndexEvents(s);
}

}  // namespace

int Snapshot::FindPod(const std::string& key) const {
  auto it = pod_index.find(key);
  return it == pod_index.end() ? -1 : it->second;
}

int Snapshot::FindNode(const std::string& name) const {
  auto it = node_index.find(name);
  return it == node_index.end() ? -1 : it->second;
}

void Session::PushUndo() {
  constexpr std::size_t kUndoDepth = 64;
  if (undo_.size() >= kUndoDepth) undo_.erase(undo_.begin());
  undo_.push_back(text_);
}

std::optional<std::string> Session::PopUndo() {
  if (undo_.empty()) return std::nullopt;
  std::string text = std::move(undo_.back());
  undo_.pop_back();
  return text;
}

bool Session::SetText(std::string text) {
  text_ = std::move(text);
  return Rerun();
}

bool Session::Rerun() {
  ++generation_;
  pending_.reset();  // a background run of an older text is superseded: its answer will be dropped
  const auto start = std::chrono::steady_clock::now();
  // A large text (an imported cluster) runs in the background at once; this side reads it a slice per frame
  // (Tick), so the page keeps drawing, and shows the result when both are done.
  if (runner_ && text_.size() >= kSlicedParseBytes) {
    error_.clear();
    pending_ = std::make_unique<Pending>();
    pending_->generation = generation_;
    pending_->start = start;
    pending_->parser = std::make_unique<io::IncrementalScenarioParser>(text_);
    runner_(generation_, text_);
    return true;
  }
  // Parse first: an input error shows at once, and the scenario's size decides where the run happens.
  Scenario scenario;
  try {
    scenario = io::ParseScenario(text_);
  } catch (const std::exception& e) {
    error_ = ParseErrorText(e);
    return false;
  }
  error_.clear();
  // Candidates per pod: the nodes, and the instance types Karpenter may launch (a Karpenter scenario can start
  // with no node at all).
  const std::size_t work = (scenario.nodes.size() + scenario.instance_types.size() + 1) * scenario.pods.size();
  if (runner_ && work > async_threshold_) {
    pending_ = std::make_unique<Pending>();
    pending_->generation = generation_;
    pending_->scenario = std::move(scenario);
    pending_->start = start;
    runner_(generation_, text_);
    return true;
  }

  wasm::Outcome out = wasm::RunScenario(std::move(scenario), /*explain_all=*/true, /*keep_scenario=*/true);
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
  return true;
}

void Session::SetAsyncRunner(AsyncRunner runner, std::size_t threshold) {
  runner_ = std::move(runner);
  async_threshold_ = threshold;
}

double Session::running_seconds() const {
  if (!pending_) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - pending_->start).count();
}

bool Session::Complete(std::uint64_t seq, std::string_view envelope) {
  if (!pending_ || pending_->generation != seq) return false;  // superseded by a newer edit
  if (pending_->parser) {  // the text is still being read: the answer waits for it (Tick)
    pending_->envelope = std::string(envelope);
    return false;
  }
  return Land(envelope);
}

double Session::reading_progress() const {
  if (!pending_ || !pending_->parser) return -1;
  const io::IncrementalScenarioParser& parser = *pending_->parser;
  return parser.total() == 0 ? 0 : static_cast<double>(parser.done()) / static_cast<double>(parser.total());
}

bool Session::Tick(double budget_ms) {
  if (!pending_ || !pending_->parser) return false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(budget_ms);
  constexpr std::size_t kItemsPerClockCheck = 32;
  try {
    while (!pending_->parser->Step(kItemsPerClockCheck))
      if (std::chrono::steady_clock::now() >= deadline) return false;
  } catch (const std::exception& e) {
    error_ = ParseErrorText(e);
    pending_.reset();  // the background run's answer will be dropped
    return true;
  }
  pending_->scenario = pending_->parser->Take();
  pending_->parser.reset();
  if (!pending_->envelope) return false;  // the background run has not answered yet
  const std::string envelope = std::move(*pending_->envelope);
  return Land(envelope);
}

bool Session::Land(std::string_view envelope) {
  std::unique_ptr<Pending> pending = std::move(pending_);
  io::Json doc = io::Json::parse(envelope, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || StringAt(doc, "status") != "success" || !doc.contains("result")) {
    error_ = "the background run failed";
    if (doc.is_object() && doc.contains("errors") && doc["errors"].is_array() && !doc["errors"].empty())
      error_ = StringAt(doc["errors"][0], "message");
    return false;
  }
  auto snap = std::make_unique<Snapshot>();
  snap->scenario = std::move(pending->scenario);
  const io::Json& result = doc["result"];
  snap->result_json = io::Dump(result);
  Index(*snap, &result);
  snap->explained = false;
  snap->run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pending->start).count();
  snap->generation = pending->generation;
  snapshot_ = std::move(snap);
  return true;
}

bool Session::RequestExplanation(const std::string& pod) {
  // Only the text that produced the snapshot can be explained (not an edited or pending one).
  if (!explain_runner_ || !snapshot_ || snapshot_->generation != generation_ || pending_) return false;
  if (explain_generation_ != snapshot_->generation) {
    explanations_.clear();
    explain_generation_ = snapshot_->generation;
  }
  if (explanations_.count(pod) || explaining_ == pod) return false;
  explaining_ = pod;
  explain_runner_(snapshot_->generation, text_, pod);
  return true;
}

bool Session::CompleteExplanation(std::uint64_t seq, const std::string& pod, std::string_view envelope) {
  if (stale_explain() || seq != explain_generation_ || pod != explaining_) return false;
  explaining_.clear();
  io::Json doc = io::Json::parse(envelope, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("explanations") || !doc["explanations"].is_object() ||
      !doc["explanations"].contains(pod))
    return false;
  explanations_[pod] = std::move(doc["explanations"][pod]);
  return true;
}

const io::Json* Session::explanation(const std::string& pod) const {
  if (stale_explain()) return nullptr;
  auto it = explanations_.find(pod);
  return it == explanations_.end() ? nullptr : &it->second;
}

}  // namespace kplace::app
