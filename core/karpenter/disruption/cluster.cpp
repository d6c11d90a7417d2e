#include "core/karpenter/disruption/cluster.h"

#include <algorithm>

#include "core/karpenter/disruption/budgets.h"
#include "core/karpenter/pod.h"
#include "core/karpenter/requirements.h"

namespace kplace::karpenter::disruption {
namespace {

std::optional<std::string> LabelOf(const Labels& labels, std::string_view key) {
  if (auto v = labels.Get(Intern(key))) return std::string(Text(*v));
  return std::nullopt;
}

}  // namespace

bool StateNode::Initialized() const {
  if (inferred_claim) return true;
  if (!claim) return node != nullptr;  // an unmanaged Node is initialized once it exists
  return node && LabelOf(node->meta.labels, "karpenter.sh/initialized") == std::optional<std::string>("true");
}

bool StateNode::MarkedForDeletion() const {
  if (claim) return claim->meta.deleting || claim->ConditionTrue("InstanceTerminating");
  return node && node->meta.deleting;
}

bool StateNode::Registered() const {
  if (inferred_claim || !claim) return node != nullptr;
  return node && LabelOf(node->meta.labels, "karpenter.sh/registered") == std::optional<std::string>("true");
}

const Labels& StateNode::LabelSet() const { return Registered() || !claim ? node->meta.labels : claim->meta.labels; }

std::optional<std::string> StateNode::Label(std::string_view key) const { return LabelOf(LabelSet(), key); }

const std::string* StateNode::Annotation(std::string_view key) const {
  if (Registered() || !claim) return node ? node->meta.Annotation(key) : nullptr;
  return claim->meta.Annotation(key);
}

bool HasManagedNodes(const Scenario& sc) {
  if (!sc.node_claims.empty()) return true;
  const Symbol key = Intern("karpenter.sh/nodepool");
  for (const auto& n : sc.nodes)
    if (n.meta.labels.Get(key)) return true;
  return false;
}

std::vector<StateNode> BuildStateNodes(const Scenario& sc, const std::set<std::string>& nominated) {
  std::map<std::string, StateNode> by_name;
  for (const auto& n : sc.nodes) {
    StateNode s;
    s.node = &n;
    s.name = n.meta.name;
    by_name.emplace(n.meta.name, std::move(s));
  }
  for (const auto& c : sc.node_claims) {
    if (!c.node_name.empty()) {
      auto it = by_name.find(c.node_name);
      if (it != by_name.end() && !it->second.claim) {
        it->second.claim = &c;
        continue;
      }
    }
    if (!c.launched && c.node_name.empty()) continue;  // not launched: no instance yet
    StateNode s;
    s.claim = &c;
    s.name = c.node_name.empty() ? c.meta.name : c.node_name;
    by_name.emplace(s.name, std::move(s));
  }
  std::map<std::string, std::size_t> index;
  std::vector<StateNode> out;
  for (auto& [name, s] : by_name) {
    if (!s.claim && s.node && s.node->meta.labels.Get(Intern("karpenter.sh/nodepool"))) s.inferred_claim = true;
    s.nominated = nominated.count(name) > 0;
    index[name] = out.size();
    out.push_back(std::move(s));
  }
  for (std::size_t i = 0; i < sc.pods.size(); ++i) {
    const Pod& p = sc.pods[i];
    if (p.node_name.empty()) continue;
    auto it = index.find(p.node_name);
    if (it != index.end() && out[it->second].node) out[it->second].pods.push_back(i);
  }
  return out;
}

std::int64_t EvaluationTime(const Scenario& sc) {
  if (sc.simulation.now) return *sc.simulation.now;
  std::int64_t latest = 0;
  auto see = [&](std::int64_t t) { latest = std::max(latest, t); };
  for (const auto& n : sc.nodes) see(n.meta.creation_unix);
  for (const auto& p : sc.pods) {
    see(p.meta.creation_unix);
    if (p.start_unix) see(*p.start_unix);
  }
  for (const auto& c : sc.node_claims) {
    see(c.meta.creation_unix);
    if (c.last_pod_event) see(*c.last_pod_event);
    for (const auto& cond : c.conditions)
      if (cond.last_transition) see(*cond.last_transition);
  }
  return latest;
}

std::optional<std::int64_t> LastPodEventTime(const StateNode& n, const Scenario& sc) {
  if (n.claim) {
    if (n.claim->last_pod_event && *n.claim->last_pod_event != 0) return n.claim->last_pod_event;
    if (const auto* init = n.claim->FindCondition("Initialized")) return init->last_transition;
    return std::nullopt;
  }
  if (!n.node) return std::nullopt;
  std::int64_t latest = n.node->meta.creation_unix;
  for (std::size_t i : n.pods) {
    const Pod& p = sc.pods[i];
    // The pod-events controller ignores DaemonSet pods.
    bool daemon = false;
    for (const auto& o : p.meta.owner_references)
      daemon = daemon || (o.api_version == "apps/v1" && o.kind == "DaemonSet");
    if (daemon) continue;
    latest = std::max(latest, p.meta.creation_unix);
    if (p.start_unix) latest = std::max(latest, *p.start_unix);
  }
  return latest;
}

namespace {

bool ClaimInitialized(const StateNode& n) {
  return n.inferred_claim || (n.claim && n.claim->ConditionTrue("Initialized"));
}

}  // namespace

bool IsUnderConsolidateAfter(const StateNode& n, const NodePool& pool, const Scenario& sc, std::int64_t now) {
  if (!pool.disruption.consolidate_after || *pool.disruption.consolidate_after == 0 || !ClaimInitialized(n))
    return false;
  const std::optional<std::int64_t> since = LastPodEventTime(n, sc);
  // clk.Since(zero time) is huge: a claim without any time is past its window.
  return since && now - *since < *pool.disruption.consolidate_after;
}

bool Consolidatable(const StateNode& n, const NodePool& pool, const Scenario& sc, std::int64_t now, std::string* why) {
  auto no = [&](std::string reason) {
    if (why) *why = std::move(reason);
    return false;
  };
  if (!pool.disruption.consolidate_after) return no("consolidateAfter is Never");
  if (!ClaimInitialized(n)) return no("the NodeClaim is not initialized");
  if (IsUnderConsolidateAfter(n, pool, sc, now))
    return no("consolidateAfter (" + pool.disruption.consolidate_after_text +
              ") has not passed since the last pod event");
  return true;
}

std::string DriftReason(const StateNode& n, const NodePool& pool) {
  if (n.claim)
    if (const auto* c = n.claim->FindCondition("Drifted"))
      return c->status == "True" ? (c->reason.empty() ? "Drifted" : c->reason) : "";
  if (n.claim && !n.claim->launched) return "";
  const ObjectMeta& claim_meta = n.claim ? n.claim->meta : n.node->meta;
  const std::string* pool_hash = pool.meta.Annotation("karpenter.sh/nodepool-hash");
  const std::string* pool_version = pool.meta.Annotation("karpenter.sh/nodepool-hash-version");
  const std::string* claim_hash = claim_meta.Annotation("karpenter.sh/nodepool-hash");
  const std::string* claim_version = claim_meta.Annotation("karpenter.sh/nodepool-hash-version");
  if (pool_hash && pool_version && claim_hash && claim_version && *pool_version == *claim_version &&
      *pool_hash != *claim_hash)
    return "NodePoolDrifted";
  // Every NodePool requirement is compatible with the NodeClaim's labels.
  Requirements pool_reqs;
  for (const auto& r : pool.requirements) {
    LabelRequirement lr = r.requirement;
    lr.key = NormalizeKey(lr.key);
    pool_reqs.Add(Requirement::FromSelector(lr, r.min_values));
  }
  // The NodeClaim's labels; a hand-written NodeClaim often lists only its NodePool, so its Node's labels complete
  // them (a registered NodeClaim's labels are on its Node too).
  Labels labels = n.claim ? n.claim->meta.labels : n.node->meta.labels;
  if (n.claim && n.node)
    for (auto [key, value] : n.node->meta.labels.entries())
      if (!labels.Has(key)) labels.Set(key, value);
  if (!IsCompatible(FromLabels(labels), pool_reqs, nullptr)) return "RequirementsDrifted";
  return "";
}

std::map<std::string, NodePoolBudget> BuildBudgetMapping(const Scenario& sc, const std::vector<StateNode>& nodes,
                                                         std::int64_t now, const std::string& reason,
                                                         std::vector<Event>* events) {
  std::map<std::string, NodePoolBudget> out;
  for (const auto& n : nodes) {
    if (!n.Managed() || !n.Initialized()) continue;
    if (n.claim && n.claim->ConditionTrue("InstanceTerminating")) continue;
    NodePoolBudget& b = out[n.NodePoolName()];
    ++b.nodes;
    if (!n.Ready() || n.MarkedForDeletion()) ++b.disrupting;
  }
  std::map<std::string, NodePoolBudget> mapping;
  for (const auto& pool : sc.node_pools) {
    NodePoolBudget b = out[pool.meta.name];
    b.allowed = AllowedByReason(pool.disruption, now, b.nodes, reason, &b.error);
    if (!b.error.empty()) b.allowed = 0;
    b.remaining = std::max<std::int64_t>(b.allowed - b.disrupting, 0);
    if (events && b.nodes != 0 && b.allowed == 0)
      events->push_back({"Normal", "DisruptionBlocked", "NodePool/" + pool.meta.name,
                         "No allowed disruptions for disruption reason " + reason + " due to blocking budget"});
    mapping[pool.meta.name] = b;
  }
  return mapping;
}

}  // namespace kplace::karpenter::disruption
