#include "core/io/result_writer.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/karpenter/disruption/cron.h"
#include "core/karpenter/resources.h"
#include "core/sim/compare.h"

namespace kplace::io {

double Dollars(double v) { return std::round(v * 10000) / 10000; }

void WriteCost(JsonWriter& w, double hourly) {
  w.BeginObject();
  w.Member("hourly", Dollars(hourly));
  w.Member("monthly", Dollars(hourly * 730));
  w.EndObject();
}

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
  if (!o.volume_requirements.empty()) e["volumeRequirements"] = o.volume_requirements;
  return e;
}

namespace {

Json ResourceJson(const Resource& r) { return Json::parse(karpenter::ResourcesJson(r)); }

// One event as `kubectl describe` lists it: the involved pod ("" when the object is not a pod) or object, the
// reporting component when not kube-scheduler. Every event of the document has this shape.
void WriteEvent(JsonWriter& w, const std::string& type, const std::string& reason, const std::string& pod,
                const std::string& message, const std::string& source, const std::string& object) {
  w.BeginObject();
  w.Member("message", message);
  if (!object.empty()) w.Member("object", object);
  w.Member("pod", pod);
  w.Member("reason", reason);
  if (!source.empty()) w.Member("source", source);
  w.Member("type", type);
  w.EndObject();
}

// Karpenter's events on NodePools (karpenter::Event).
void WriteKarpenterEvents(JsonWriter& w, const std::vector<karpenter::Event>& events) {
  w.BeginArray();
  for (const auto& e : events) WriteEvent(w, e.type, e.reason, "", e.message, "karpenter", e.object);
  w.EndArray();
}

void WriteDisruptionEvents(JsonWriter& w, const std::vector<karpenter::Event>& events) {
  w.BeginArray();
  for (const auto& e : events) {
    const bool pod = e.object.rfind("Pod/", 0) == 0;
    WriteEvent(w, e.type, e.reason, pod ? e.object.substr(4) : "", e.message, "karpenter", pod ? "" : e.object);
  }
  w.EndArray();
}

void WriteBudget(JsonWriter& w, const karpenter::disruption::NodePoolBudget& b) {
  w.BeginObject();
  w.Member("allowed", b.allowed);
  w.Member("disrupting", b.disrupting);
  if (!b.error.empty()) w.Member("error", b.error);
  w.Member("nodes", b.nodes);
  w.Member("remaining", b.remaining);
  w.EndObject();
}

void WriteCommand(JsonWriter& w, const karpenter::disruption::Command& c) {
  w.BeginObject();
  w.Member("decision", c.decision);
  w.Member("method", c.method);
  w.Member("nodes", c.nodes);
  w.Key("pods").BeginArray();
  for (const auto& m : c.pods) {
    w.BeginObject();
    if (!m.error.empty()) w.Member("error", m.error);
    w.Member("from", m.from);
    w.Member("pod", m.pod);
    if (!m.to.empty()) w.Member("to", m.to);
    w.EndObject();
  }
  w.EndArray();
  w.Member("price", c.price);
  w.Member("reason", c.reason);
  w.Key("replacements").BeginArray();
  for (const auto& rep : c.replacements) {
    w.BeginObject();
    if (!rep.capacity_type.empty()) w.Member("capacityType", rep.capacity_type);
    w.Member("instanceType", rep.instance_type);
    w.Member("instanceTypes", rep.instance_types);
    w.Member("nodePool", rep.node_pool);
    w.Member("pods", rep.pods);
    w.Member("price", rep.price);
    w.Member("requirements", rep.requirements);
    if (!rep.zone.empty()) w.Member("zone", rep.zone);
    w.EndObject();
  }
  w.EndArray();
  w.Member("savings", c.savings);
  w.Member("text", c.text);
  w.EndObject();
}

void WriteNodeReport(JsonWriter& w, const karpenter::disruption::NodeReport& n) {
  w.BeginObject();
  if (!n.blocked.empty()) w.Member("blocked", n.blocked);
  w.Member("candidate", n.candidate);
  const bool details = !n.methods.empty() || n.candidate;
  if (details && !n.capacity_type.empty()) w.Member("capacityType", n.capacity_type);
  if (details) w.Member("consolidatable", n.consolidatable);
  if (details) w.Member("disruptionCost", n.disruption_cost);
  if (!n.drifted.empty()) w.Member("drifted", n.drifted);
  if (details) w.Member("empty", n.empty);
  if (!n.held_by_budget.empty()) w.Member("heldByBudget", n.held_by_budget);
  if (details && !n.instance_type.empty()) w.Member("instanceType", n.instance_type);
  w.Member("managed", n.managed);
  if (!n.methods.empty()) {
    w.Key("methods").BeginObject();
    std::vector<karpenter::disruption::MethodVerdict> methods = n.methods;
    std::sort(methods.begin(), methods.end(), [](const auto& a, const auto& b) { return a.method < b.method; });
    for (const auto& m : methods) {
      w.Key(m.method).BeginObject();
      w.Member("considered", m.considered);
      if (!m.outcome.empty()) w.Member("outcome", m.outcome);
      if (!m.why.empty()) w.Member("why", m.why);
      w.EndObject();
    }
    w.EndObject();
  }
  if (!n.node_claim.empty()) w.Member("nodeClaim", n.node_claim);
  if (!n.node_pool.empty()) w.Member("nodePool", n.node_pool);
  if (details && !n.not_consolidatable.empty()) w.Member("notConsolidatable", n.not_consolidatable);
  if (details) w.Member("price", n.price);
  if (details) w.Member("reschedulablePods", n.reschedulable_pods);
  if (details && !n.zone.empty()) w.Member("zone", n.zone);
  w.EndObject();
}

// Karpenter's disruption dry run (karpenter::disruption::Report), documented in docs/scenario-format.md.
void WriteDisruption(JsonWriter& w, const karpenter::disruption::Report& r) {
  w.BeginObject();
  w.Key("budgets").BeginObject();
  for (const auto& [pool, reasons] : r.budgets) {
    w.Key(pool).BeginObject();
    for (const auto& [reason, b] : reasons) WriteBudget(w.Key(reason), b);
    w.EndObject();
  }
  w.EndObject();
  w.Key("commands").BeginArray();
  for (const auto& c : r.commands) WriteCommand(w, c);
  w.EndArray();
  if (!r.error.empty()) w.Member("error", r.error);
  WriteDisruptionEvents(w.Key("events"), r.events);
  w.Key("nodes").BeginObject();
  for (const auto& n : r.nodes) WriteNodeReport(w.Key(n.name), n);
  w.EndObject();
  w.Member("now", karpenter::disruption::FormatRfc3339(r.now));
  w.EndObject();
}

void WriteTaints(JsonWriter& w, const std::vector<Taint>& taints) {
  w.BeginArray();
  for (const auto& t : taints) {
    w.BeginObject();
    w.Member("effect", EffectName(t.effect));
    w.Member("key", Text(t.key));
    if (t.value != kEmptySymbol) w.Member("value", Text(t.value));
    w.EndObject();
  }
  w.EndArray();
}

// The text of NodeClaims' options lists, each different one written once: they repeat (Karpenter's 1,000 NodeClaims
// for 5,000 pods of its benchmark list 16 different ones, 395,000 options in all). Up to kTexts lists are kept; then
// the cache starts again.
class OptionsTexts {
 public:
  std::string_view Of(const std::vector<karpenter::ClaimOption>& options, int indent, std::size_t level) {
    key_.clear();
    const auto add = [this](const auto& v) { key_.append(reinterpret_cast<const char*>(&v), sizeof v); };
    add(indent);
    add(level);
    for (const auto& o : options) {
      add(o.instance_type);
      add(o.price);
    }
    if (texts_.size() >= kTexts && texts_.find(key_) == texts_.end()) texts_.clear();
    auto [it, added] = texts_.try_emplace(key_);
    if (added) {
      JsonWriter w(it->second, indent, level);
      w.BeginArray();
      for (const auto& o : options) {
        w.BeginObject();
        w.Member("instanceType", Text(o.instance_type));
        w.Member("price", o.price);
        w.EndObject();
      }
      w.EndArray();
    }
    return it->second;
  }

 private:
  static constexpr std::size_t kTexts = 64;
  std::string key_;
  std::unordered_map<std::string, std::string> texts_;
};

// A NodeClaim Karpenter decided on; in cluster mode (launched set) with what became of it.
void WriteClaim(JsonWriter& w, const karpenter::ClaimOutcome& c, const sim::LaunchedNodeClaim* launched,
                OptionsTexts& options) {
  w.BeginObject();
  w.Member("capacityType", c.capacity_type);
  if (launched && !launched->daemon_pods.empty()) w.Member("daemonSetPods", launched->daemon_pods);
  w.Member("instanceType", c.instance_type);
  if (launched) w.Member("karpenterPods", c.pods);
  w.Key("labels").BeginObject();
  for (const auto& [key, value] : c.labels) w.Member(key, value);
  w.EndObject();
  w.Member("name", c.name);
  if (launched) w.Member("node", launched->node);
  w.Member("nodePool", c.node_pool);
  w.Key("options").Raw(options.Of(c.options, w.Indent(), w.Level()));
  w.Member("pods", launched ? launched->pods : c.pods);
  w.Member("price", c.price);
  w.Key("requests").Value(ResourceJson(c.requests));
  w.Member("requirements", c.requirements);
  if (launched) w.Member("round", launched->round);
  if (launched && !launched->startup_taints.empty()) WriteTaints(w.Key("startupTaints"), launched->startup_taints);
  WriteTaints(w.Key("taints"), c.taints);
  w.Member("zone", c.zone);
  w.EndObject();
}

void WriteNomination(JsonWriter& w, const sim::KarpenterNomination& n) {
  w.BeginObject();
  if (!n.target.empty()) w.Member("nominated", n.target);
  if (!n.relaxations.empty()) w.Member("relaxations", n.relaxations);
  w.Member("round", n.round);
  if (n.target.empty()) w.Member("unschedulable", n.reason);
  if (!n.volume_requirements.empty()) w.Member("volumeRequirements", n.volume_requirements);
  w.EndObject();
}

// Indexes of items by key (a Json object's member order); of equal keys the last, as assigning them one by one
// into an object would keep.
template <typename Items, typename KeyOf>
std::vector<std::size_t> ByKey(const Items& items, KeyOf key_of) {
  std::vector<std::size_t> order(items.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return key_of(items[a]) < key_of(items[b]); });
  std::vector<std::size_t> out;
  out.reserve(order.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    if (i + 1 == order.size() || key_of(items[order[i]]) != key_of(items[order[i + 1]])) out.push_back(order[i]);
  return out;
}

void WriteDisruptionApplied(JsonWriter& w, const sim::DisruptionApplied& a) {
  w.BeginObject();
  w.Key("after").BeginObject();
  w.Member("hourly", a.hourly_after);
  w.Member("monthly", a.hourly_after * 730);
  w.EndObject();
  w.Key("before").BeginObject();
  w.Member("hourly", a.hourly_before);
  w.Member("monthly", a.hourly_before * 730);
  w.EndObject();
  w.Key("nodes").BeginObject();
  for (std::size_t i : ByKey(a.nodes, [](const sim::NodeSummary& n) -> const std::string& { return n.name; }))
    w.Member(a.nodes[i].name, a.nodes[i].pods);
  w.EndObject();
  w.Key("steps").BeginArray();
  for (const auto& s : a.steps) {
    w.BeginObject();
    WriteCommand(w.Key("command"), s.command);
    w.Member("deleted", s.deleted);
    WriteDisruptionEvents(w.Key("events"), s.events);
    w.Member("hourly", s.hourly);
    w.Member("launched", s.launched);
    w.Key("pods").BeginArray();
    for (const auto& p : s.pods) {
      w.BeginObject();
      if (!p.disagreement.empty()) w.Member("disagreement", p.disagreement);
      w.Member("from", p.from);
      w.Member("node", p.node);
      w.Member("planned", p.planned);
      w.Member("pod", p.pod);
      w.EndObject();
    }
    w.EndArray();
    w.Member("provisioned", s.provisioned);
    w.EndObject();
  }
  w.EndArray();
  w.Member("stopped", a.stopped);
  w.EndObject();
}

void WritePairs(JsonWriter& w, const std::vector<std::pair<std::string, std::string>>& pairs, const char* first,
                const char* second) {
  w.BeginArray();
  for (const auto& [a, b] : pairs) {
    w.BeginObject();
    // Members in name order: node before pod.
    if (std::string_view(first) < second) {
      w.Member(first, a);
      w.Member(second, b);
    } else {
      w.Member(second, b);
      w.Member(first, a);
    }
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

void WriteQueue(JsonWriter& w, const std::vector<sim::QueuedPod>& queue) {
  w.BeginArray();
  for (const auto& q : queue) {
    w.BeginObject();
    if (!q.events.empty()) w.Member("clusterEvents", q.events);
    if (!q.gates.empty()) w.Member("gates", q.gates);
    if (!q.message.empty()) w.Member("message", q.message);
    if (!q.moved.empty()) w.Member("moved", q.moved);
    w.Member("pod", q.pod);
    w.Member("queue", sim::QueueName(q.queue));
    w.EndObject();
  }
  w.EndArray();
}

void WriteTimeline(JsonWriter& w, const sim::Timeline& t, long step) {
  w.BeginObject();
  WritePairs(w.Key("boundAtStart"), t.bound_at_start, "node", "pod");
  WritePairs(w.Key("nominatedAtStart"), t.nominated_at_start, "pod", "node");
  if (step >= 0) w.Member("step", static_cast<std::int64_t>(step));
  w.Key("steps").BeginArray();
  for (std::size_t i = 0; i < t.steps.size(); ++i) {
    const sim::TimelineStep& s = t.steps[i];
    w.BeginObject();
    if (s.attempt > 0) w.Member("attempt", s.attempt);
    if (!s.by.empty()) w.Member("by", s.by);
    if (!s.events.empty()) w.Member("clusterEvents", s.events);
    w.Member("kind", sim::StepKindName(s.kind));
    if (!s.message.empty()) w.Member("message", s.message);
    if (!s.node.empty()) w.Member("node", s.node);
    if (s.pass > 0) w.Member("pass", s.pass);
    if (!s.pod.empty()) w.Member("pod", s.pod);
    if (!s.pods.empty()) w.Member("pods", s.pods);
    if (s.kind == sim::TimelineStep::Kind::Pass) WriteQueue(w.Key("queue"), s.queue);
    if (s.round > 0) w.Member("round", s.round);
    w.Member("step", i + 1);
    w.EndObject();
  }
  w.EndArray();
  if (t.stopped) WriteQueue(w.Key("stoppedQueue"), t.stopped_queue);
  w.EndObject();
}

// The contract's result: Karpenter's decisions (karpenter mode) or kube-scheduler's, with the cluster loop's
// NodeClaims, rounds and disagreements in cluster mode with NodePools. Members in name order (see JsonWriter).
void WriteResult(const sim::SimResult& result, JsonWriter& w) {
  const bool noteworthy = result.import.Noteworthy();
  w.BeginObject();
  if (result.karpenter) {
    const karpenter::Result& k = *result.karpenter;
    WriteCost(w.Key("cost"), k.hourly_price);
    if (result.disruption) WriteDisruption(w.Key("disruption"), *result.disruption);
    if (!k.events.empty()) WriteKarpenterEvents(w.Key("events"), k.events);
    if (noteworthy) w.Key("import").Value(ImportJson(result.import));
    w.Key("nodeClaims").BeginArray();
    OptionsTexts options;
    for (const auto& c : k.claims) WriteClaim(w, c, nullptr, options);
    w.EndArray();
    w.Key("pods").BeginObject();
    std::vector<Json> entries(k.pods.size());
    std::vector<const karpenter::PodOutcome*> written;
    for (std::size_t i = 0; i < k.pods.size(); ++i) {
      entries[i] = KarpenterPodJson(k, k.pods[i]);
      if (!entries[i].is_null()) written.push_back(&k.pods[i]);
    }
    for (std::size_t i : ByKey(written, [](const karpenter::PodOutcome* o) -> const std::string& { return o->key; }))
      w.Key(written[i]->key).Value(entries[static_cast<std::size_t>(written[i] - k.pods.data())]);
    w.EndObject();
    if (!result.warnings.empty()) w.Member("warnings", result.warnings);
    w.EndObject();
    return;
  }
  const bool loop = !result.rounds.empty();
  if (loop) WriteCost(w.Key("cost"), result.hourly_price);
  if (loop) {
    w.Key("disagreements").BeginArray();
    for (const auto& p : result.pods) {
      if (p.disagreement.empty()) continue;
      w.BeginObject();
      w.Member("interchangeable", p.interchangeable);
      w.Member("message", p.disagreement);
      w.Member("pod", p.key);
      w.EndObject();
    }
    w.EndArray();
  }
  if (result.disruption) WriteDisruption(w.Key("disruption"), *result.disruption);
  if (result.disruption_applied) WriteDisruptionApplied(w.Key("disruptionApplied"), *result.disruption_applied);
  w.Key("events").BeginArray();
  for (const auto& e : result.events) WriteEvent(w, e.type, e.reason, e.pod, e.message, e.source, e.object);
  w.EndArray();
  if (noteworthy) w.Key("import").Value(ImportJson(result.import));
  w.Key("nodeClaims").BeginArray();
  if (loop) {
    OptionsTexts options;
    for (const auto& l : result.node_claims) WriteClaim(w, l.claim, &l, options);
  }
  w.EndArray();
  w.Key("nominated").BeginObject();
  for (std::size_t i : ByKey(result.nominations, [](const auto& n) -> const std::string& { return n.first; }))
    w.Member(result.nominations[i].first, result.nominations[i].second);
  w.EndObject();
  // Pods placed, pending, preempted or left to others; not those bound from the start or terminal.
  std::vector<const sim::PodResult*> listed;
  listed.reserve(result.pods.size());
  for (const auto& p : result.pods)
    if (sim::Listed(p)) listed.push_back(&p);
  w.Key("pods").BeginObject();
  for (std::size_t i : ByKey(listed, [](const sim::PodResult* p) -> const std::string& { return p->key; })) {
    const sim::PodResult& p = *listed[i];
    w.Key(p.key).BeginObject();
    if (!p.preempted_by.empty()) {
      w.Key("preempted").BeginObject();
      w.Member("by", p.preempted_by);
      w.Member("node", p.preempted_from);
      w.EndObject();
      w.EndObject();
      continue;
    }
    const bool placed = p.other_scheduler.empty() && p.scheduling_gates.empty() && !p.node.empty();
    const bool pending = p.other_scheduler.empty() && p.scheduling_gates.empty() && p.node.empty();
    // The launched NodeClaim whose Node the pod runs on (the last of that name).
    const sim::LaunchedNodeClaim* claim = nullptr;
    if (placed && !p.node_claim.empty())
      for (const auto& l : result.node_claims)
        if (l.node == p.node) claim = &l;
    if (!p.disagreement.empty()) w.Member("disagreement", p.disagreement);
    if (claim) w.Member("instanceType", claim->claim.instance_type);
    if (!p.karpenter.empty()) WriteNomination(w.Key("karpenter"), p.karpenter.back());
    if (placed) w.Member("node", p.node);
    if (claim) w.Member("nodeClaim", claim->claim.name);
    if (claim) w.Member("nodePool", claim->claim.node_pool);
    if (pending && !p.nominated_node.empty()) w.Member("nominatedNode", p.nominated_node);
    if (!p.other_scheduler.empty()) w.Member("otherScheduler", p.other_scheduler);
    if (!p.profile.empty()) w.Member("profile", p.profile);
    if (p.other_scheduler.empty() && !p.scheduling_gates.empty()) w.Member("schedulingGated", p.scheduling_gates);
    if (pending) w.Member("unschedulable", p.unschedulable);
    if (placed && !p.volumes.empty()) {
      w.Key("volumes").BeginArray();
      for (const auto& v : p.volumes) {
        w.BeginObject();
        w.Member("claim", v.claim);
        if (v.provisioned) w.Member("provisioned", true);
        w.Member("volume", v.volume);
        w.EndObject();
      }
      w.EndArray();
    }
    w.EndObject();
  }
  w.EndObject();
  w.Member("preempted", result.preempted);
  w.Key("preemptions").BeginArray();
  for (const auto& pe : result.preemptions) {
    w.BeginObject();
    w.Member("attempt", pe.attempt);
    if (!pe.cleared_nominations.empty()) w.Member("clearedNominations", pe.cleared_nominations);
    w.Member("node", pe.node);
    w.Member("preemptor", pe.preemptor);
    w.Member("victims", pe.victims);
    w.EndObject();
  }
  w.EndArray();
  if (loop) {
    w.Key("rounds").BeginArray();
    for (const auto& r : result.rounds) {
      w.BeginObject();
      if (r.provision && !r.provision->events.empty())
        WriteKarpenterEvents(w.Key("karpenterEvents"), r.provision->events);
      w.Member("launched", r.launched);
      w.Member("round", r.round);
      w.Member("scheduled", r.scheduled);
      w.Member("unschedulable", r.unschedulable);
      w.EndObject();
    }
    w.EndArray();
  }
  if (result.timeline) WriteTimeline(w.Key("timeline"), *result.timeline);
  if (!result.warnings.empty()) w.Member("warnings", result.warnings);
  w.EndObject();
}

std::string ResultText(const sim::SimResult& result) {
  std::string out;
  JsonWriter w(out, 2);
  WriteResult(result, w);
  out += '\n';
  return out;
}

void ResultText(const sim::SimResult& result, const JsonWriter::Sink& sink) {
  std::string out;
  JsonWriter w(out, 2, sink);
  WriteResult(result, w);
  out += '\n';
  w.Flush();
}

Json ResultToJson(const sim::SimResult& result) {
  std::string text;
  JsonWriter w(text);
  WriteResult(result, w);
  return Json::parse(text);
}

Json NodeExplanationToJson(const sim::SimResult& result, const std::string& node) {
  if (!result.disruption) return Json();
  for (const auto& x : result.disruption->explained) {
    if (x.node != node) continue;
    std::string text;
    JsonWriter w(text);
    w.BeginObject();
    if (x.balanced_totals && x.balanced_best) {
      w.Key("balanced").BeginObject();
      w.Member("disruptionFraction", x.balanced_best->disruption_fraction);
      w.Member("k", static_cast<std::int64_t>(x.balanced_best->k));
      w.Member("savingsFraction", x.balanced_best->savings_fraction);
      w.Member("score", x.balanced_best->Score());
      w.Member("threshold", x.balanced_best->Threshold());
      w.Member("totalCost", x.balanced_totals->total_cost);
      w.Member("totalDisruptionCost", x.balanced_totals->total_disruption_cost);
      w.EndObject();
    }
    w.Key("checks").BeginArray();
    for (const auto& c : x.checks) {
      w.BeginObject();
      w.Member("check", c.check);
      if (!c.error.empty()) w.Member("error", c.error);
      w.Member("passed", c.passed);
      w.EndObject();
    }
    w.EndArray();
    if (!x.consolidation.empty()) w.Member("consolidation", x.consolidation);
    if (x.consolidation_command) WriteCommand(w.Key("consolidationCommand"), *x.consolidation_command);
    if (x.drain) WriteCommand(w.Key("drain"), *x.drain);
    if (!x.drain_error.empty()) w.Member("drainError", x.drain_error);
    w.Member("node", x.node);
    for (const auto& n : result.disruption->nodes)
      if (n.name == node) WriteNodeReport(w.Key("record"), n);
    w.EndObject();
    return Json::parse(text);
  }
  return Json();
}

}  // namespace kplace::io
