#include "cli/render_text.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/karpenter/disruption/cron.h"
#include "core/scheduler/framework/status.h"

namespace kplace::cli {
namespace {

std::string RenderDisruption(const karpenter::disruption::Report& r);
std::string RenderDisruptionApplied(const sim::DisruptionApplied& a);

std::string Pad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string Table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (widths.size() <= i) widths.push_back(0);
      widths[i] = std::max(widths[i], r[i].size() + 3);
    }
  std::string out;
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) line += i + 1 == r.size() ? r[i] : Pad(r[i], widths[i]);
    out += line + "\n";
  }
  return out;
}

std::string Join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

std::string RenderPreemption(const PreemptionRecord& p) {
  std::string out = "  Preemption (DefaultPreemption PostFilter):\n";
  if (!p.eligible) return out + "    not eligible: " + p.not_eligible_reason + "\n";
  if (p.potential_nodes.empty())
    return out + "    no node was rejected with a plain Unschedulable status: " + "removing pods cannot help\n";
  out += "    potential nodes (plain Unschedulable): " + Join(p.potential_nodes) + "\n";
  out += "    dry run from offset " + std::to_string(p.offset) + ", wants " + std::to_string(p.num_candidates) +
         " candidate(s)\n";
  std::vector<std::vector<std::string>> rows = {{"    NODE", "OUTCOME", "VICTIMS (most important first)", "PDB"}};
  for (const auto& c : p.candidates) {
    std::vector<std::string> victims;
    for (std::size_t i = 0; i < c.victims.size(); ++i)
      victims.push_back(c.victims[i] + " (" + std::to_string(c.victim_priorities[i]) + ")");
    rows.push_back({"    " + c.node, c.node == p.chosen ? "candidate, chosen" : "candidate", Join(victims),
                    std::to_string(c.num_pdb_violations) + " violation(s)"});
  }
  for (const auto& n : p.rejected) rows.push_back({"    " + n.node, "no candidate", Join(n.reasons), ""});
  out += Table(rows);
  if (!p.chosen.empty()) {
    out += "    chosen: " + p.chosen + " (" + p.decided_by;
    if (!p.tied.empty()) out += " among " + Join(p.tied, " ");
    out += "); victims deleted, pod nominated to " + p.chosen + "\n";
    if (!p.cleared_nominations.empty())
      out += "    lower-priority pods lose their nomination to " + p.chosen + ": " + Join(p.cleared_nominations) + "\n";
  } else if (!p.message.empty()) {
    out += "    " + p.message + "\n";
  }
  return out;
}

// The status of a pod the run did not schedule because the input already decided it: bound there (spec.nodeName),
// or terminal (phase Succeeded / Failed: never scheduled).
std::string InputStatus(const sim::PodResult& p) {
  if (p.bound_at_start) return (p.terminal_phase.empty() ? "Running" : p.terminal_phase) + " (bound in the input)";
  return p.terminal_phase + " (not scheduled)";
}

// Karpenter's events on NodePools (NoCompatibleInstanceTypes), as `kubectl describe nodepool` lists them.
struct EventRows {
  std::vector<std::vector<std::string>> rows = {{"  OBJECT", "TYPE", "REASON", "MESSAGE"}};
  void Add(const std::string& object, const std::string& type, const std::string& reason, const std::string& message) {
    rows.push_back({"  " + object, type, reason, message});
  }
  std::string Render() const { return rows.size() > 1 ? "\nNodePool events:\n" + Table(rows) : ""; }
};

// One claim as the attempt saw it: "claim data-db-2: Bound to pv-db-2 (gp3, WaitForFirstConsumer); PV node
// affinity Term 0: topology.kubernetes.io/zone in [us-east-1c]".
std::string ClaimLine(const ClaimRecord& r) {
  std::string out = "claim " + r.claim + ": " + r.status;
  if (!r.volume.empty()) out += (r.status == "Bound" ? " to " : ", volumeName ") + r.volume;
  if (!r.storage_class.empty())
    out += " (" + r.storage_class + (r.binding_mode.empty() ? "" : ", " + r.binding_mode) + ")";
  if (!r.volume_node_affinity.empty()) out += "; PV node affinity " + r.volume_node_affinity;
  return out;
}

}  // namespace

std::string RenderTable(const sim::SimResult& result) {
  std::vector<std::vector<std::string>> rows = {{"POD", "NODE", "STATUS"}};
  // With several scheduler profiles, a PROFILE column names the one that scheduled each pod.
  const bool profiles =
      std::any_of(result.pods.begin(), result.pods.end(), [](const sim::PodResult& p) { return !p.profile.empty(); });
  if (profiles) rows[0].push_back("PROFILE");
  std::vector<const sim::PodResult*> failed;
  for (const auto& p : result.pods) {
    std::string status;
    if (!p.preempted_by.empty()) {
      rows.push_back({p.key, p.preempted_from, "Preempted by " + p.preempted_by});
      if (profiles) rows.back().push_back(p.profile.empty() ? "<none>" : p.profile);
      continue;
    }
    if (!p.other_scheduler.empty()) {
      status = "Pending (schedulerName " + p.other_scheduler + ": not this scheduler's)";
    } else if (!p.scheduling_gates.empty()) {
      status = "SchedulingGated";
    } else if (p.bound_at_start) {
      status = InputStatus(p);
    } else if (!p.node.empty()) {
      status = p.node_claim.empty() ? "Scheduled" : "Scheduled (new NodeClaim)";
    } else if (!p.attempts.empty() || !p.unschedulable.empty()) {
      status = p.nominated_node.empty() ? "Pending" : "Pending (nominated to " + p.nominated_node + ")";
      failed.push_back(&p);
    } else if (p.terminal_phase.empty()) {
      status = "Pending (not tried yet)";  // `run --at`: queued, its first attempt after the step
    } else {
      status = InputStatus(p);
    }
    rows.push_back({p.key, p.node.empty() ? "<none>" : p.node, status});
    if (profiles) rows.back().push_back(p.profile.empty() ? "<none>" : p.profile);
  }
  std::string out = Table(rows);
  if (!failed.empty() || !result.preemptions.empty()) {
    out += "\nEvents:\n";
    std::vector<std::vector<std::string>> ev = {{"  POD", "REASON", "MESSAGE"}};
    // Preemptions in the order they happened, then the last FailedScheduling message of each pending pod.
    for (const auto& e : result.events)
      if (e.reason == "Preempted") ev.push_back({"  " + e.pod, e.reason, e.message});
    for (const auto* p : failed) {
      ev.push_back({"  " + p->key, "FailedScheduling", p->unschedulable});
      if (!p->karpenter.empty() && p->karpenter.back().target.empty())
        ev.push_back({"  " + p->key, "Karpenter", p->karpenter.back().reason});
    }
    out += Table(ev);
  }
  EventRows pool_events;
  for (const auto& e : result.events)
    if (e.object.rfind("NodePool/", 0) == 0) pool_events.Add(e.object, e.type, e.reason, e.message);
  out += pool_events.Render();
  if (!result.rounds.empty()) out += RenderClusterLoop(result);
  if (result.disruption) out += RenderDisruption(*result.disruption);
  if (result.disruption_applied) out += RenderDisruptionApplied(*result.disruption_applied);
  for (const auto& w : result.warnings) out += "warning: " + w + "\n";
  return out;
}

std::string RenderExplanation(const sim::PodResult& pod, const sim::SimResult& result) {
  std::string out = "Pod " + pod.key + " (priority " + std::to_string(pod.priority) + ")";
  if (!pod.generated_from.empty()) out += " from " + pod.generated_from;
  out += "\n";
  if (!pod.profile.empty()) out += "  profile: " + pod.profile + " (spec.schedulerName)\n";
  if (!pod.preempted_by.empty())
    return out + "  preempted: deleted from " + pod.preempted_from + " to make room for " + pod.preempted_by +
           " (run --explain " + pod.preempted_by + " for the preemption)\n";
  if (pod.bound_at_start) return out + "  already bound to " + pod.node + " in the input (spec.nodeName)\n";
  if (!pod.other_scheduler.empty())
    return out + "  not scheduled: spec.schedulerName is \"" + pod.other_scheduler +
           "\", which names no profile of this kube-scheduler; that scheduler places it\n";
  if (!pod.scheduling_gates.empty()) {
    out += "  not scheduled: spec.schedulingGates holds it out of the queue:";
    for (const auto& g : pod.scheduling_gates) out += " " + g;
    return out + "\n";
  }
  if (pod.attempts.empty() && !pod.unschedulable.empty()) return out + "  not scheduled: " + pod.unschedulable + "\n";
  if (pod.attempts.empty()) return out + "  not scheduled (phase Succeeded/Failed)\n";
  out += "  result: " + (pod.node.empty() ? "Pending: " + pod.unschedulable : "scheduled on " + pod.node) + "\n";
  for (const auto& v : pod.volumes)
    out += "  volume: claim " + v.claim + " -> PersistentVolume " + v.volume +
           (v.provisioned ? " (provisioned on " + pod.node + ")" : "") + "\n";
  for (const auto& c : pod.explanations) {
    out += "\nAttempt " + std::to_string(c.attempt) + " of " + std::to_string(pod.attempts.size()) + "\n";
    for (const auto& r : c.claims) out += "  " + ClaimLine(r) + "\n";
    if (!c.prefilter_message.empty()) {
      out += "  PreFilter rejected the pod (" + c.prefilter_plugin + "): " + c.prefilter_message + "\n";
    }
    if (!c.nominated_node.empty())
      out += "  nominated node " + c.nominated_node +
             (c.nominated_node_fit ? " fits: taken without scoring\n" : " does not fit\n");
    if (!c.nodes.empty()) {
      out += "  Filter";
      if (c.num_nodes_to_find > 0 && c.num_nodes_to_find < c.num_all_nodes)
        out += " (stops after " + std::to_string(c.num_nodes_to_find) + " feasible of " +
               std::to_string(c.num_all_nodes) + " nodes: percentageOfNodesToScore)";
      out += ":\n";
      std::vector<std::vector<std::string>> rows = {{"    NODE", "VERDICT", "PLUGIN", "REASON"}};
      for (const auto& n : c.nodes) {
        if (n.feasible) {
          rows.push_back({"    " + n.node, "passed", "", ""});
        } else {
          std::string reasons;
          for (std::size_t i = 0; i < n.reasons.size(); ++i) reasons += (i ? ", " : "") + n.reasons[i];
          rows.push_back({"    " + n.node, framework::CodeName(n.code), n.plugin, reasons});
        }
      }
      out += Table(rows);
    }
    if (!c.scores.empty()) {
      out += "  Score (normalized x weight):\n";
      std::vector<std::vector<std::string>> rows;
      std::vector<std::string> header = {"    NODE", "TOTAL"};
      for (const auto& p : c.scores.front().plugins) header.push_back(p.plugin);
      rows.push_back(header);
      for (const auto& s : c.scores) {
        std::vector<std::string> row = {"    " + s.node, std::to_string(s.total)};
        for (const auto& p : s.plugins)
          row.push_back(p.skipped ? "skipped"
                                  : std::to_string(p.normalized) + "x" + std::to_string(p.weight) + " (raw " +
                                        std::to_string(p.raw) + ")");
        rows.push_back(row);
      }
      out += Table(rows);
    }
    if (!c.chosen.empty()) {
      out += "  chosen: " + c.chosen;
      if (c.tied.size() > 1) {
        out += " (tied with";
        for (const auto& t : c.tied)
          if (t != c.chosen) out += " " + t;
        out += "; seeded tie-break, seed " + std::to_string(result.seed) + ")";
      }
      out += "\n";
    }
    if (!c.message.empty()) out += "  FailedScheduling: " + c.message + "\n";
    if (c.preemption_ran) out += RenderPreemption(c.preemption);
  }
  if (!result.rounds.empty()) out += RenderClusterExplanation(pod, result);
  return out;
}

namespace {

const karpenter::PodOutcome* FindOutcome(const karpenter::Result& k, const std::string& key) {
  for (const auto& o : k.pods)
    if (o.key == key) return &o;
  return nullptr;
}

std::string Price(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "$%.4f/h", p);
  return buf;
}

// A number as %g prints it (a disruption cost: 2, 1.5).
std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// One disruption command: its text, savings, replacements and where each pod goes.
std::string RenderCommand(const karpenter::disruption::Command& c) {
  char monthly[48];
  std::snprintf(monthly, sizeof monthly, "$%.2f/month", c.savings * 730);
  std::string out = c.method + " " + c.text + (c.reason.empty() ? "" : " (reason " + c.reason + ")") + ", saving " +
                    Price(c.savings) + " (" + monthly + ")\n";
  for (std::size_t i = 0; i < c.replacements.size(); ++i) {
    const auto& rep = c.replacements[i];
    std::string types;
    for (std::size_t t = 0; t < rep.instance_types.size() && t < 5; ++t)
      types += (t ? ", " : "") + rep.instance_types[t];
    if (rep.instance_types.size() > 5) types += " and " + std::to_string(rep.instance_types.size() - 5) + " other(s)";
    out += "    replacement " + std::to_string(i + 1) + ": NodePool " + rep.node_pool + ", " + rep.instance_type +
           (rep.zone.empty() ? "" : " in " + rep.zone) +
           (rep.capacity_type.empty() ? "" : " (" + rep.capacity_type + ")") + " at " + Price(rep.price) +
           "; options " + types + "\n";
  }
  for (const auto& m : c.pods)
    out += "    " + m.pod + ": " + m.from + " -> " +
           (m.to.empty() ? (m.error.rfind("stays", 0) == 0 ? m.error : "would not schedule: " + m.error) : m.to) +
           (m.to.empty() || m.error.empty() ? "" : " (" + m.error + ")") + "\n";
  return out;
}

// spec.karpenter.applyDisruption: each command applied, where kube-scheduler put the evicted pods, the cost.
std::string RenderDisruptionApplied(const sim::DisruptionApplied& a) {
  char monthly[96];
  std::snprintf(monthly, sizeof monthly, "$%.2f/month -> $%.2f/month", a.hourly_before * 730, a.hourly_after * 730);
  std::string out = "\nAfter disruption (the commands applied in turn, kube-scheduler placing the evicted pods): " +
                    Price(a.hourly_before) + " -> " + Price(a.hourly_after) + " (" + monthly + ")\n";
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    const auto& s = a.steps[i];
    out += "  " + std::to_string(i + 1) + ". " + s.command.method + " " + s.command.text + ", saving " +
           Price(s.command.savings) + "; cluster then " + Price(s.hourly) + "\n";
    if (!s.launched.empty()) out += "     launched " + Join(s.launched) + "\n";
    for (const auto& p : s.pods)
      out += "     " + p.pod + ": " + p.from + " -> " + (p.node.empty() ? "(none)" : p.node) +
             (p.disagreement.empty()
                  ? " (as Karpenter planned)"
                  : "; Karpenter planned " + (p.planned.empty() ? "(none)" : p.planned) + ": " + p.disagreement) +
             "\n";
    if (!s.provisioned.empty()) out += "     Karpenter provisioned " + Join(s.provisioned) + "\n";
    for (const auto& e : s.events) out += "     " + e.object + " " + e.reason + ": " + e.message + "\n";
  }
  out += "  Stopped: " + a.stopped + "\n";
  return out;
}

// Karpenter's disruption dry run: each node's candidacy and each method's verdict, the budgets, the command.
std::string RenderDisruption(const karpenter::disruption::Report& r) {
  std::string out = "\nDisruption (Karpenter's disruption controller, dry run at " +
                    karpenter::disruption::FormatRfc3339(r.now) + "):\n";
  std::vector<std::vector<std::string>> rows = {
      {"  NODE", "NODEPOOL", "CANDIDATE", "EMPTINESS", "DRIFT", "CONSOLIDATION"}};
  auto verdict = [](const karpenter::disruption::NodeReport& n, const char* method) -> std::string {
    for (const auto& m : n.methods)
      if (m.method == method) {
        std::string v = !m.considered ? m.why : m.outcome.empty() ? "considered" : m.outcome;
        if (m.considered && std::string(method) == "Drift" && !n.drifted.empty()) v += " (" + n.drifted + ")";
        return v;
      }
    return "-";
  };
  for (const auto& n : r.nodes) {
    if (!n.candidate && !n.managed) continue;  // not Karpenter's
    if (!n.candidate && n.methods.empty()) {
      rows.push_back({"  " + n.name, n.node_pool.empty() ? "<none>" : n.node_pool, "no: " + n.blocked});
      continue;
    }
    rows.push_back({"  " + n.name, n.node_pool, n.candidate ? (n.empty ? "yes (empty)" : "yes") : "no: " + n.blocked,
                    verdict(n, "Emptiness"), verdict(n, "Drift"), verdict(n, "Consolidation")});
  }
  out += Table(rows);
  std::vector<std::vector<std::string>> budgets = {{"    NODEPOOL", "NODES", "EMPTY", "DRIFTED", "UNDERUTILIZED"}};
  for (const auto& [pool, reasons] : r.budgets) {
    std::vector<std::string> row = {"    " + pool, std::to_string(reasons.begin()->second.nodes)};
    for (const char* reason : {"Empty", "Drifted", "Underutilized"}) {
      auto it = reasons.find(reason);
      const auto& b = it->second;
      row.push_back(b.allowed >= 2147483647 ? "no limit"
                                            : std::to_string(b.remaining) + " of " + std::to_string(b.allowed));
    }
    budgets.push_back(row);
  }
  out += "  Budgets (disruptions allowed now):\n" + Table(budgets);
  for (const auto& [pool, reasons] : r.budgets)
    if (!reasons.begin()->second.error.empty()) out += "  " + pool + ": " + reasons.begin()->second.error + "\n";
  for (const auto& c : r.commands) out += "  Command: " + RenderCommand(c);
  if (!r.error.empty()) out += "  The reconcile failed: " + r.error + "\n";
  std::vector<std::string> held;
  for (const auto& n : r.nodes)
    if (!n.held_by_budget.empty()) held.push_back(n.name + " (" + n.node_pool + ", reason " + n.held_by_budget + ")");
  if (!held.empty()) out += "  Held back by the budgets: " + Join(held) + "\n";
  if (r.commands.empty() && r.error.empty()) out += "  Nothing to disrupt.\n";
  if (!r.events.empty()) {
    std::vector<std::vector<std::string>> ev = {{"    OBJECT", "TYPE", "REASON", "MESSAGE"}};
    for (const auto& e : r.events) ev.push_back({"    " + e.object, e.type, e.reason, e.message});
    out += "  Events:\n" + Table(ev);
  }
  return out;
}

}  // namespace

std::string RenderKarpenterTable(const sim::SimResult& result) {
  const karpenter::Result& k = *result.karpenter;
  std::vector<std::vector<std::string>> rows = {{"POD", "PLACEMENT", "STATUS"}};
  std::vector<std::vector<std::string>> failures = {{"  POD", "REASON"}};
  std::vector<std::vector<std::string>> not_provisionable = {{"  POD", "REASON"}};
  std::map<std::string, const sim::PodResult*> inputs;  // how the input left each pod (bound, terminal)
  for (const auto& p : result.pods) inputs[p.key] = &p;
  std::vector<const karpenter::PodOutcome*> pods;
  for (const auto& o : k.pods) pods.push_back(&o);
  std::sort(pods.begin(), pods.end(), [](const auto* a, const auto* b) { return a->key < b->key; });
  for (const auto* o : pods) {
    switch (o->kind) {
      case karpenter::PodOutcomeKind::Node:
        rows.push_back({o->key, o->node, "existing node"});
        break;
      case karpenter::PodOutcomeKind::Claim:
        rows.push_back({o->key, k.claims[static_cast<std::size_t>(o->claim)].name, "new NodeClaim"});
        break;
      case karpenter::PodOutcomeKind::Unschedulable:
        rows.push_back({o->key, "<none>", "could not schedule"});
        failures.push_back({"  " + o->key, o->reason});
        break;
      case karpenter::PodOutcomeKind::Ignored:
        rows.push_back({o->key, "<none>", "ignored"});
        failures.push_back({"  " + o->key, o->reason});
        break;
      case karpenter::PodOutcomeKind::NotProvisionable:
        if (!o->reason.empty()) {
          rows.push_back({o->key, "<none>", "not provisionable"});
          not_provisionable.push_back({"  " + o->key, o->reason});
        } else if (auto in = inputs.find(o->key); in != inputs.end()) {  // bound or terminal in the input
          rows.push_back({o->key, in->second->node.empty() ? "<none>" : in->second->node, InputStatus(*in->second)});
        }
        break;
    }
  }
  std::string out = Table(rows);
  if (!k.claims.empty()) {
    out += "\nNodeClaims:\n";
    std::vector<std::vector<std::string>> claims = {
        {"  NAME", "NODEPOOL", "INSTANCE TYPE", "ZONE", "CAPACITY", "PRICE", "OPTIONS", "PODS"}};
    for (const auto& c : k.claims)
      claims.push_back({"  " + c.name, c.node_pool, c.instance_type, c.zone, c.capacity_type, Price(c.price),
                        std::to_string(c.options.size()), std::to_string(c.pods.size())});
    out += Table(claims);
    out += "  new capacity: " + Price(k.hourly_price) + "\n";
  }
  if (failures.size() > 1) out += "\nFailed to schedule:\n" + Table(failures);
  if (not_provisionable.size() > 1)
    out += "\nNot provisionable (Karpenter does not simulate these pods):\n" + Table(not_provisionable);
  EventRows pool_events;
  for (const auto& e : k.events) pool_events.Add(e.object, e.type, e.reason, e.message);
  out += pool_events.Render();
  if (result.disruption) out += RenderDisruption(*result.disruption);
  for (const auto& w : result.warnings) out += "warning: " + w + "\n";
  return out;
}

namespace {

// One Karpenter provisioning record of a pod: result, relaxations, every candidate per attempt.
std::string KarpenterRecord(const karpenter::Result& k, const karpenter::PodOutcome* o) {
  std::string out;
  switch (o->kind) {
    case karpenter::PodOutcomeKind::Node:
      out += "  result: fits existing node " + o->node + "\n";
      break;
    case karpenter::PodOutcomeKind::Claim:
      out += "  result: new NodeClaim " + k.claims[static_cast<std::size_t>(o->claim)].name + "\n";
      break;
    default:
      out += "  result: " + o->reason + "\n";
  }
  for (const auto& r : o->relaxations) out += "  relaxed: " + r + "\n";
  // Where its volumes can attach: added to each node's or NodeClaim's requirements, one alternative at a time.
  for (std::size_t i = 0; i < o->volume_requirements.size(); ++i)
    out += (i ? "                   or " : "  volume topology: ") +
           (o->volume_requirements[i].empty() ? std::string("(anywhere)") : o->volume_requirements[i]) + "\n";
  for (std::size_t i = 0; i < o->attempts.size(); ++i) {
    const auto& a = o->attempts[i];
    out += "\nAttempt " + std::to_string(i + 1) + (a.fit ? " (fit)" : " (failed)") + "\n";
    for (const auto& t : a.tries) {
      if (!t.relaxation.empty()) out += "  " + t.relaxation + "\n";
      std::vector<std::vector<std::string>> rows = {{"    TRIED", "VERDICT"}};
      for (const auto& c : t.candidates) rows.push_back({"    " + c.target, c.reason.empty() ? "fits" : c.reason});
      out += Table(rows);
      if (!t.error.empty()) out += "    -> " + t.error + "\n";
    }
  }
  return out;
}

}  // namespace

std::string RenderKarpenterExplanation(const std::string& pod_key, const sim::SimResult& result) {
  const karpenter::PodOutcome* o = FindOutcome(*result.karpenter, pod_key);
  if (!o) return "";
  return "Pod " + pod_key + " (Karpenter provisioning)\n" + KarpenterRecord(*result.karpenter, o);
}

std::string RenderClusterLoop(const sim::SimResult& result) {
  std::string out;
  if (!result.node_claims.empty()) {
    out += "\nNodeClaims launched:\n";
    std::vector<std::vector<std::string>> rows = {
        {"  NAME", "ROUND", "NODEPOOL", "INSTANCE TYPE", "ZONE", "CAPACITY", "PRICE", "PODS"}};
    for (const auto& l : result.node_claims)
      rows.push_back({"  " + l.node, std::to_string(l.round), l.claim.node_pool, l.claim.instance_type, l.claim.zone,
                      l.claim.capacity_type, Price(l.claim.price), std::to_string(l.pods.size())});
    out += Table(rows);
    out += "  new capacity: " + Price(result.hourly_price) + "\n";
  }
  std::vector<std::vector<std::string>> rounds = {{"  ROUND", "KUBE-SCHEDULER BOUND", "PENDING", "LAUNCHED"}};
  for (const auto& r : result.rounds)
    rounds.push_back({"  " + std::to_string(r.round), std::to_string(r.scheduled.size()),
                      std::to_string(r.unschedulable.size()), r.launched.empty() ? "-" : Join(r.launched)});
  out += "\nRounds (kube-scheduler, then Karpenter):\n" + Table(rounds);
  std::vector<std::vector<std::string>> dis = {{"  POD", "KARPENTER vs KUBE-SCHEDULER"}};
  for (const auto& p : result.pods)
    if (!p.disagreement.empty()) dis.push_back({"  " + p.key, p.disagreement});
  if (dis.size() > 1) out += "\nDisagreements:\n" + Table(dis);
  return out;
}

std::string RenderClusterExplanation(const sim::PodResult& pod, const sim::SimResult& result) {
  std::string out;
  for (const auto& r : result.rounds) {
    if (!r.provision) continue;
    const karpenter::PodOutcome* o = FindOutcome(*r.provision, pod.key);
    if (!o || (o->kind == karpenter::PodOutcomeKind::NotProvisionable && o->reason.empty())) continue;
    out += "\nKarpenter, round " + std::to_string(r.round) + ":\n" + KarpenterRecord(*r.provision, o);
  }
  if (!pod.disagreement.empty()) out += "\nDisagreement: " + pod.disagreement + "\n";
  return out;
}

}  // namespace kplace::cli

namespace kplace::cli {

std::string RenderNodeExplanation(const std::string& node, const sim::SimResult& result) {
  const karpenter::disruption::NodeExplanation* x = nullptr;
  for (const auto& e : result.disruption->explained)
    if (e.node == node) x = &e;
  const karpenter::disruption::NodeReport* n = nullptr;
  for (const auto& r : result.disruption->nodes)
    if (r.name == node) n = &r;
  std::string out = "node/" + node + " (Karpenter's disruption controller, dry run at " +
                    karpenter::disruption::FormatRfc3339(result.disruption->now) + ")\n";
  out += "  Candidate checks:\n";
  for (const auto& c : x->checks)
    out += std::string("    ") + (c.passed ? "pass  " : "FAIL  ") + c.check + (c.error.empty() ? "" : ": " + c.error) +
           "\n";
  if (n && n->candidate) {
    out += "  " + n->instance_type + " " + n->capacity_type + " in " + n->zone + ", " + Price(n->price) +
           ", disruption cost " + Number(n->disruption_cost) + (n->empty ? " (empty)" : "") + "\n";
    out += std::string("  Consolidatable: ") + (n->consolidatable ? "yes" : "no: " + n->not_consolidatable) + "\n";
    if (!n->drifted.empty()) out += "  Drifted: " + n->drifted + "\n";
  }
  if (n && !n->methods.empty()) {
    out += "  Methods (in the controller's order):\n";
    for (const auto& m : n->methods) {
      out += "    " + m.method + ": ";
      if (!m.considered)
        out += "not considered: " + m.why;
      else if (!m.outcome.empty())
        out += m.outcome;
      else
        out += "considered, not reached (an earlier method or candidate acted)";
      out += "\n";
    }
    if (!n->held_by_budget.empty()) out += "    held back by the " + n->held_by_budget + " budget\n";
  }
  if (x->balanced_totals && x->balanced_best) {
    const auto& s = *x->balanced_best;
    out += "  Balanced (k " + std::to_string(s.k) + "): NodePool cost " + Price(x->balanced_totals->total_cost) +
           ", disruption cost " + Number(x->balanced_totals->total_disruption_cost) + "; deleting this node alone " +
           "saves " + karpenter::disruption::GoFixed(s.savings_fraction * 100, 1) + "% for " +
           karpenter::disruption::GoFixed(s.disruption_fraction * 100, 1) + "% of the disruption: score " +
           karpenter::disruption::GoFixed(s.Score(), 2) + (s.Approved() ? " >= " : " < ") + "threshold " +
           karpenter::disruption::GoFixed(s.Threshold(), 2) + "\n";
  }
  if (!x->consolidation.empty()) {
    out += "  Single-node consolidation of this node alone: " + x->consolidation + "\n";
    if (x->consolidation_command) out += "    " + RenderCommand(*x->consolidation_command);
  }
  if (!x->drain_error.empty())
    out += "  If drained: " + x->drain_error + "\n";
  else if (x->drain)
    out += "  If drained (its NodeClaim deleted): " + RenderCommand(*x->drain).substr(std::string("Drain ").size());
  return out;
}

namespace {

std::string SideLine(const char* name, const io::DiffSide& s) {
  std::string line = std::string(name) + ": " + (s.source.empty() ? "(unnamed)" : s.source);
  if (!s.settings.empty()) line += " with " + s.settings;
  if (s.ran)
    line += " (" + s.mode + " mode, Kubernetes " + s.kubernetes_version + ", seed " + std::to_string(s.seed) + ")";
  return line + "\n";
}

std::string ClaimLine(const sim::NodeClaimSummary& c) {
  return c.node_pool + ", " + c.instance_type + ", " + c.zone + ", " + c.capacity_type + ", " + Price(c.price) + ", " +
         std::to_string(c.pods.size()) + " pod(s)";
}

}  // namespace

std::string RenderDiff(const sim::ResultDiff& diff, const io::DiffSide& a, const io::DiffSide& b) {
  using Change = sim::PodChange::Kind;
  std::string out = SideLine("A", a) + SideLine("B", b) + "\n";
  if (diff.changes.empty()) {
    out += diff.pods == 1 ? std::string("The one pod has the same answer in both.\n")
                          : "All " + std::to_string(diff.pods) + " pods have the same answer in both.\n";
  } else {
    std::vector<std::string> counts;
    for (Change k : {Change::Moved, Change::Placed, Change::Unplaced, Change::Changed, Change::Added, Change::Removed})
      if (std::size_t n = diff.Count(k)) counts.push_back(std::to_string(n) + " " + sim::ChangeName(k));
    out += std::to_string(diff.changes.size()) + " of " + std::to_string(diff.pods) + " pods differ: " + Join(counts) +
           ".\n";
    for (const auto& c : diff.changes) {
      out += "\n" + c.pod + ": " + sim::ChangeName(c.kind) + "\n";
      out += "  A: " + (c.kind == Change::Added ? std::string("(not in A)") : sim::Describe(c.a)) + "\n";
      out += "  B: " + (c.kind == Change::Removed ? std::string("(not in B)") : sim::Describe(c.b)) + "\n";
    }
  }
  if (!diff.node_claims.empty()) {
    out += "\nNodeClaims:\n";
    for (const auto& c : diff.node_claims) {
      switch (c.kind) {
        case sim::NodeClaimChange::Kind::Added:
          out += "  + " + c.name + " (only in B): " + ClaimLine(c.b) + "\n";
          break;
        case sim::NodeClaimChange::Kind::Removed:
          out += "  - " + c.name + " (only in A): " + ClaimLine(c.a) + "\n";
          break;
        case sim::NodeClaimChange::Kind::Changed:
          out += "  ~ " + c.name + " (" + Join(c.fields) + "):\n    A: " + ClaimLine(c.a) +
                 "\n    B: " + ClaimLine(c.b) + "\n";
          break;
      }
    }
  }
  if (diff.hourly_a != 0 || diff.hourly_b != 0) {
    char monthly[96];
    std::snprintf(monthly, sizeof monthly, "$%.2f/month -> $%.2f/month", diff.hourly_a * 730, diff.hourly_b * 730);
    out += "\nNew capacity: " + Price(diff.hourly_a) + " -> " + Price(diff.hourly_b) + " (" + monthly + ")\n";
  }
  return out;
}

namespace {

std::string QueueLine(const sim::QueuedPod& q) {
  std::string line = "  " + std::string(sim::QueueName(q.queue)) + "  " + q.pod;
  std::vector<std::string> why;
  switch (q.queue) {
    case sim::QueuedPod::Queue::Active:
    case sim::QueuedPod::Queue::Backoff:
      if (!q.events.empty()) why.push_back("woken by " + Join(q.events));
      if (!q.moved.empty()) why.push_back(q.moved);
      if (why.empty()) why.push_back("new");
      break;
    case sim::QueuedPod::Queue::Unschedulable:
      why.push_back("waits for " + Join(q.events) + ": " + q.message);
      break;
    case sim::QueuedPod::Queue::Gated:
      why.push_back("schedulingGates " + Join(q.gates));
      break;
  }
  return line + " (" + Join(why) + ")\n";
}

}  // namespace

std::string RenderTimeline(const sim::Timeline& timeline) {
  std::string out = "\nTimeline (" + std::to_string(timeline.steps.size()) + " steps):\n";
  for (std::size_t i = 0; i < timeline.steps.size(); ++i)
    out += "  " + std::to_string(i + 1) + ". " + sim::DescribeStep(timeline.steps[i]) + "\n";
  return out;
}

std::string RenderTimelineState(const sim::Timeline& timeline, const sim::TimelineState& state) {
  std::string out = "\nAt step " + std::to_string(state.step) + " of " + std::to_string(timeline.steps.size());
  if (state.step > 0) out += ": " + sim::DescribeStep(timeline.steps[state.step - 1]);
  out += "\n";
  if (!state.nominated.empty()) {
    out += "Nominated:\n";
    for (const auto& [pod, node] : state.nominated) out += "  " + pod + " -> " + node + "\n";
  }
  out += "Queue:" + std::string(state.queue.empty() ? " empty\n" : "\n");
  for (const auto& q : state.queue) out += QueueLine(q);
  return out;
}

}  // namespace kplace::cli
