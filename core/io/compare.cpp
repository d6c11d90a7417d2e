#include "core/io/compare.h"

#include <limits>

#include "core/io/result_writer.h"
#include "core/model/input_error.h"

namespace kplace::io {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

[[noreturn]] void Bad(std::string_view setting, const std::string& what) {
  throw InputError("\"" + std::string(setting) + "\": " + what);
}

void ParseOne(std::string_view setting, SimulationOverrides& out) {
  const auto eq = setting.find('=');
  if (eq == std::string_view::npos)
    Bad(setting, "expected NAME=VALUE (mode, kubernetesVersion, seed or scoringStrategy)");
  const std::string_view name = Trim(setting.substr(0, eq));
  const std::string value(Trim(setting.substr(eq + 1)));
  if (name == "mode") {
    out.mode = ModeFromName(value);
    if (!out.mode) Bad(setting, "unsupported mode \"" + value + "\" (scheduler, karpenter or cluster)");
  } else if (name == "kubernetesVersion") {
    const auto minor = ParseKubernetesVersion(value);
    if (!minor) Bad(setting, "unsupported kubernetesVersion \"" + value + "\" (" + SupportedVersionsText() + ")");
    out.kubernetes_minor = *minor;
  } else if (name == "seed") {
    // A decimal integer 0 .. 2^64-1, as spec.seed.
    std::uint64_t v = 0;
    bool ok = !value.empty() && value.size() <= 20;
    for (char c : value) {
      if (c < '0' || c > '9') ok = false;
      if (!ok) break;
      const auto digit = static_cast<std::uint64_t>(c - '0');
      if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) ok = false;
      v = v * 10 + digit;
    }
    if (!ok) Bad(setting, "seed must be an integer between 0 and 18446744073709551615");
    out.seed = v;
  } else if (name == "scoringStrategy") {
    out.scoring_strategy = StrategyFromName(value);
    if (!out.scoring_strategy)
      Bad(setting,
          "unsupported scoringStrategy \"" + value + "\" (LeastAllocated, MostAllocated or RequestedToCapacityRatio)");
  } else {
    Bad(setting, "unknown setting \"" + std::string(name) + "\" (mode, kubernetesVersion, seed or scoringStrategy)");
  }
}

void WriteSide(JsonWriter& w, const DiffSide& s) {
  w.BeginObject();
  if (s.ran) {
    w.Member("kubernetesVersion", s.kubernetes_version);
    w.Member("mode", s.mode);
    w.Key("seed").Unsigned(s.seed);
  }
  if (!s.settings.empty()) w.Member("settings", s.settings);
  if (!s.source.empty()) w.Member("source", s.source);
  w.EndObject();
}

// A pod's answer in the words of the result document's pod entry.
void WritePlacement(JsonWriter& w, const sim::Placement& p) {
  using Kind = sim::Placement::Kind;
  w.BeginObject();
  switch (p.kind) {
    case Kind::Node:
    case Kind::NodeClaim:
      if (!p.instance_type.empty()) w.Member("instanceType", p.instance_type);
      if (p.kind == Kind::Node) w.Member("node", p.node);
      if (!p.node_claim.empty()) w.Member("nodeClaim", p.node_claim);
      if (!p.node_pool.empty()) w.Member("nodePool", p.node_pool);
      break;
    case Kind::Unschedulable:
      if (!p.nominated_node.empty()) w.Member("nominatedNode", p.nominated_node);
      w.Member("unschedulable", p.message);
      break;
    case Kind::SchedulingGated:
      w.Member("schedulingGated", p.scheduling_gates);
      break;
    case Kind::OtherScheduler:
      w.Member("otherScheduler", p.message);
      break;
    case Kind::Ignored:
      w.Member("ignored", p.message);
      break;
    case Kind::NotProvisionable:
      w.Member("notProvisionable", p.message);
      break;
    case Kind::Preempted:
      w.Key("preempted").BeginObject();
      w.Member("by", p.message);
      w.Member("node", p.node);
      w.EndObject();
      break;
  }
  w.EndObject();
}

void WriteClaim(JsonWriter& w, const sim::NodeClaimSummary& c) {
  w.BeginObject();
  w.Member("capacityType", c.capacity_type);
  w.Member("instanceType", c.instance_type);
  w.Member("nodePool", c.node_pool);
  w.Member("pods", c.pods);
  w.Member("price", c.price);
  w.Member("zone", c.zone);
  w.EndObject();
}

}  // namespace

void ParseOverrides(std::string_view settings, SimulationOverrides& out) {
  while (true) {
    const auto comma = settings.find(',');
    const std::string_view one = Trim(settings.substr(0, comma));
    if (one.empty()) Bad(settings, "empty setting (NAME=VALUE, several separated by commas)");
    ParseOne(one, out);
    if (comma == std::string_view::npos) return;
    settings.remove_prefix(comma + 1);
  }
}

const char* ModeName(Mode mode) {
  switch (mode) {
    case Mode::Scheduler:
      return "scheduler";
    case Mode::Karpenter:
      return "karpenter";
    case Mode::Cluster:
      return "cluster";
  }
  return "";
}

const char* StrategyName(ScoringStrategyType type) {
  switch (type) {
    case ScoringStrategyType::LeastAllocated:
      return "LeastAllocated";
    case ScoringStrategyType::MostAllocated:
      return "MostAllocated";
    case ScoringStrategyType::RequestedToCapacityRatio:
      return "RequestedToCapacityRatio";
  }
  return "";
}

std::optional<Mode> ModeFromName(std::string_view name) {
  for (Mode m : {Mode::Scheduler, Mode::Karpenter, Mode::Cluster})
    if (name == ModeName(m)) return m;
  return std::nullopt;
}

std::optional<ScoringStrategyType> StrategyFromName(std::string_view name) {
  for (ScoringStrategyType t : {ScoringStrategyType::LeastAllocated, ScoringStrategyType::MostAllocated,
                                ScoringStrategyType::RequestedToCapacityRatio})
    if (name == StrategyName(t)) return t;
  return std::nullopt;
}

std::string OverridesText(const SimulationOverrides& o) {
  std::string out;
  auto add = [&out](const std::string& s) { out += (out.empty() ? "" : ",") + s; };
  if (o.mode) add(std::string("mode=") + ModeName(*o.mode));
  if (o.kubernetes_minor) add("kubernetesVersion=" + VersionText(*o.kubernetes_minor));
  if (o.seed) add("seed=" + std::to_string(*o.seed));
  if (o.scoring_strategy) add(std::string("scoringStrategy=") + StrategyName(*o.scoring_strategy));
  return out;
}

DiffSide SideOf(const sim::SimResult& result, std::string source, const SimulationOverrides& overrides) {
  DiffSide s;
  s.source = std::move(source);
  s.settings = OverridesText(overrides);
  s.mode = ModeName(result.mode);
  s.kubernetes_version = VersionText(result.kubernetes_minor);
  s.seed = result.seed;
  s.ran = true;
  return s;
}

void WriteDiff(const sim::ResultDiff& diff, const DiffSide& a, const DiffSide& b, JsonWriter& w) {
  using Change = sim::PodChange::Kind;
  w.BeginObject();
  WriteSide(w.Key("a"), a);
  WriteSide(w.Key("b"), b);
  w.Key("cost").BeginObject();
  WriteCost(w.Key("a"), diff.hourly_a);
  WriteCost(w.Key("b"), diff.hourly_b);
  w.Member("hourlyChange", Dollars(diff.hourly_b - diff.hourly_a));
  w.EndObject();
  w.Key("nodeClaims").BeginArray();
  for (const auto& c : diff.node_claims) {
    w.BeginObject();
    if (c.kind != sim::NodeClaimChange::Kind::Added) WriteClaim(w.Key("a"), c.a);
    if (c.kind != sim::NodeClaimChange::Kind::Removed) WriteClaim(w.Key("b"), c.b);
    w.Member("change", sim::ClaimChangeName(c.kind));
    if (!c.fields.empty()) w.Member("fields", c.fields);
    w.Member("name", c.name);
    w.EndObject();
  }
  w.EndArray();
  w.Key("pods").BeginArray();
  for (const auto& c : diff.changes) {
    w.BeginObject();
    if (c.kind != Change::Added) WritePlacement(w.Key("a"), c.a);
    if (c.kind != Change::Removed) WritePlacement(w.Key("b"), c.b);
    w.Member("change", sim::ChangeName(c.kind));
    w.Member("pod", c.pod);
    w.EndObject();
  }
  w.EndArray();
  w.Key("summary").BeginObject();
  w.Member("added", diff.Count(Change::Added));
  w.Member("changed", diff.Count(Change::Changed));
  w.Member("differ", diff.changes.size());
  w.Member("moved", diff.Count(Change::Moved));
  w.Member("placed", diff.Count(Change::Placed));
  w.Member("pods", diff.pods);
  w.Member("removed", diff.Count(Change::Removed));
  w.Member("same", diff.pods_same);
  w.Member("unplaced", diff.Count(Change::Unplaced));
  w.EndObject();
  w.EndObject();
}

std::string DiffText(const sim::ResultDiff& diff, const DiffSide& a, const DiffSide& b) {
  std::string out;
  JsonWriter w(out, 2);
  WriteDiff(diff, a, b, w);
  out += '\n';
  return out;
}

}  // namespace kplace::io
