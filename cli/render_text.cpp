#include "cli/render_text.h"

#include <algorithm>

#include "core/scheduler/framework/status.h"

namespace kplace::cli {
namespace {

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

}  // namespace

std::string RenderTable(const sim::SimResult& result) {
  std::vector<std::vector<std::string>> rows = {{"POD", "NODE", "STATUS"}};
  std::vector<const sim::PodResult*> failed;
  for (const auto& p : result.pods) {
    if (p.bound_at_start) continue;
    std::string status;
    if (!p.scheduling_gates.empty()) {
      status = "SchedulingGated";
    } else if (!p.node.empty()) {
      status = "Scheduled";
    } else if (!p.attempts.empty()) {
      status = "Pending";
      failed.push_back(&p);
    } else {
      continue;
    }
    rows.push_back({p.key, p.node.empty() ? "<none>" : p.node, status});
  }
  std::string out = Table(rows);
  if (!failed.empty()) {
    out += "\nEvents:\n";
    std::vector<std::vector<std::string>> ev = {{"  POD", "REASON", "MESSAGE"}};
    for (const auto* p : failed) ev.push_back({"  " + p->key, "FailedScheduling", p->unschedulable});
    out += Table(ev);
  }
  for (const auto& w : result.warnings) out += "warning: " + w + "\n";
  return out;
}

std::string RenderExplanation(const sim::PodResult& pod, const sim::SimResult& result) {
  std::string out = "Pod " + pod.key + " (priority " + std::to_string(pod.priority) + ")";
  if (!pod.generated_from.empty()) out += " from " + pod.generated_from;
  out += "\n";
  if (pod.bound_at_start) return out + "  already bound to " + pod.node + " in the input (spec.nodeName)\n";
  if (!pod.scheduling_gates.empty()) {
    out += "  not scheduled: spec.schedulingGates holds it out of the queue:";
    for (const auto& g : pod.scheduling_gates) out += " " + g;
    return out + "\n";
  }
  if (pod.attempts.empty()) return out + "  not scheduled (phase Succeeded/Failed)\n";
  out += "  result: " + (pod.node.empty() ? "Pending: " + pod.unschedulable : "scheduled on " + pod.node) + "\n";
  for (const auto& c : pod.explanations) {
    out += "\nAttempt " + std::to_string(c.attempt) + " of " + std::to_string(pod.attempts.size()) + "\n";
    if (!c.prefilter_message.empty()) {
      out += "  PreFilter rejected the pod (" + c.prefilter_plugin + "): " + c.prefilter_message + "\n";
    }
    if (!c.nominated_node.empty())
      out += "  nominated node " + c.nominated_node +
             (c.nominated_node_fit ? " fits: taken without scoring\n" : " does not fit\n");
    if (!c.nodes.empty()) {
      out += "  Filter";
      if (c.num_nodes_to_find < c.num_all_nodes)
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
  }
  return out;
}

}  // namespace kplace::cli
