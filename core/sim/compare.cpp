#include "core/sim/compare.h"

#include <algorithm>
#include <map>

namespace kplace::sim {
namespace {

std::string Joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// karpenter mode: Karpenter's outcome for each pod it lists (result_writer.cpp's KarpenterPodJson).
std::vector<Placement> KarpenterPlacements(const karpenter::Result& k) {
  std::vector<Placement> out;
  out.reserve(k.pods.size());
  for (const auto& o : k.pods) {
    Placement p;
    p.pod = o.key;
    switch (o.kind) {
      case karpenter::PodOutcomeKind::Node:
        p.kind = Placement::Kind::Node;
        p.node = o.node;
        break;
      case karpenter::PodOutcomeKind::Claim: {
        const auto& c = k.claims[static_cast<std::size_t>(o.claim)];
        p.kind = Placement::Kind::NodeClaim;
        p.node_claim = c.name;
        p.node_pool = c.node_pool;
        p.instance_type = c.instance_type;
        break;
      }
      case karpenter::PodOutcomeKind::Unschedulable:
        p.kind = Placement::Kind::Unschedulable;
        p.message = o.reason;
        break;
      case karpenter::PodOutcomeKind::Ignored:
        p.kind = Placement::Kind::Ignored;
        p.message = o.reason;
        break;
      case karpenter::PodOutcomeKind::NotProvisionable:
        if (o.reason.empty()) continue;  // bound in the input, or finished: not listed
        p.kind = Placement::Kind::NotProvisionable;
        p.message = o.reason;
        break;
    }
    out.push_back(std::move(p));
  }
  return out;
}

// The NodeClaims a result launched (cluster mode) or would launch (karpenter mode), by name.
std::map<std::string, NodeClaimSummary> ClaimsByName(const SimResult& r) {
  std::map<std::string, NodeClaimSummary> out;
  auto add = [&out](const karpenter::ClaimOutcome& c, const std::vector<std::string>& pods) {
    NodeClaimSummary& s = out[c.name];
    s = {c.name, c.node_pool, c.instance_type, c.zone, c.capacity_type, c.price, pods};
    std::sort(s.pods.begin(), s.pods.end());
  };
  if (r.karpenter)
    for (const auto& c : r.karpenter->claims) add(c, c.pods);
  for (const auto& l : r.node_claims) add(l.claim, l.pods);
  return out;
}

std::vector<std::string> ClaimFields(const NodeClaimSummary& a, const NodeClaimSummary& b) {
  std::vector<std::string> out;
  if (a.node_pool != b.node_pool) out.emplace_back("nodePool");
  if (a.instance_type != b.instance_type) out.emplace_back("instanceType");
  if (a.zone != b.zone) out.emplace_back("zone");
  if (a.capacity_type != b.capacity_type) out.emplace_back("capacityType");
  if (a.price != b.price) out.emplace_back("price");
  if (a.pods != b.pods) out.emplace_back("pods");
  return out;
}

}  // namespace

std::string Placement::Where() const {
  if (kind == Kind::Node) return node;
  if (kind == Kind::NodeClaim) return "nodeclaim/" + node_claim;
  return "";
}

bool Placement::Same(const Placement& o) const {
  if (Placed() != o.Placed()) return false;
  // Placed: a NodeClaim is the same place whether Karpenter planned it (karpenter mode) or it launched and the pod
  // was bound to its Node (cluster mode).
  if (Placed()) return !node_claim.empty() || !o.node_claim.empty() ? node_claim == o.node_claim : node == o.node;
  return kind == o.kind && message == o.message && nominated_node == o.nominated_node &&
         scheduling_gates == o.scheduling_gates;
}

const char* KindName(Placement::Kind kind) {
  switch (kind) {
    case Placement::Kind::Node:
      return "node";
    case Placement::Kind::NodeClaim:
      return "nodeClaim";
    case Placement::Kind::Unschedulable:
      return "unschedulable";
    case Placement::Kind::SchedulingGated:
      return "schedulingGated";
    case Placement::Kind::OtherScheduler:
      return "otherScheduler";
    case Placement::Kind::Ignored:
      return "ignored";
    case Placement::Kind::NotProvisionable:
      return "notProvisionable";
    case Placement::Kind::Preempted:
      return "preempted";
  }
  return "";
}

const char* ChangeName(PodChange::Kind kind) {
  switch (kind) {
    case PodChange::Kind::Moved:
      return "moved";
    case PodChange::Kind::Placed:
      return "placed";
    case PodChange::Kind::Unplaced:
      return "unplaced";
    case PodChange::Kind::Changed:
      return "changed";
    case PodChange::Kind::Added:
      return "added";
    case PodChange::Kind::Removed:
      return "removed";
  }
  return "";
}

const char* ClaimChangeName(NodeClaimChange::Kind kind) {
  switch (kind) {
    case NodeClaimChange::Kind::Added:
      return "added";
    case NodeClaimChange::Kind::Removed:
      return "removed";
    case NodeClaimChange::Kind::Changed:
      return "changed";
  }
  return "";
}

bool Listed(const PodResult& r) {
  return !r.preempted_by.empty() ||
         (!r.bound_at_start && (!r.other_scheduler.empty() || !r.scheduling_gates.empty() || !r.node.empty() ||
                                !r.attempts.empty() || !r.unschedulable.empty()));
}

std::vector<Placement> Placements(const SimResult& result) {
  std::vector<Placement> out;
  if (result.karpenter) {
    out = KarpenterPlacements(*result.karpenter);
  } else {
    // The pods the result document lists (Listed): placed, pending, preempted or left to
    // others; not those bound from the start or terminal.
    std::map<std::string, std::size_t> launched;  // Node name -> index in node_claims (the last of a name)
    for (std::size_t i = 0; i < result.node_claims.size(); ++i) launched[result.node_claims[i].node] = i;
    for (const auto& r : result.pods) {
      if (!Listed(r)) continue;
      Placement p;
      p.pod = r.key;
      if (!r.preempted_by.empty()) {
        p.kind = Placement::Kind::Preempted;
        p.message = r.preempted_by;
        p.node = r.preempted_from;
      } else if (!r.other_scheduler.empty()) {
        p.kind = Placement::Kind::OtherScheduler;
        p.message = r.other_scheduler;
      } else if (!r.scheduling_gates.empty()) {
        p.kind = Placement::Kind::SchedulingGated;
        p.scheduling_gates = r.scheduling_gates;
      } else if (!r.node.empty()) {
        p.kind = Placement::Kind::Node;
        p.node = r.node;
        if (!r.node_claim.empty())
          if (auto it = launched.find(r.node); it != launched.end()) {
            const karpenter::ClaimOutcome& c = result.node_claims[it->second].claim;
            p.node_claim = c.name;
            p.node_pool = c.node_pool;
            p.instance_type = c.instance_type;
          }
      } else {
        p.kind = Placement::Kind::Unschedulable;
        p.message = r.unschedulable;
        p.nominated_node = r.nominated_node;
      }
      out.push_back(std::move(p));
    }
  }
  // Keys are unique; result.pods is sorted already, Karpenter's outcomes are in scenario order.
  if (result.karpenter)
    std::sort(out.begin(), out.end(), [](const Placement& x, const Placement& y) { return x.pod < y.pod; });
  return out;
}

std::string Describe(const Placement& p) {
  using Kind = Placement::Kind;
  switch (p.kind) {
    case Kind::Node:
      return p.node_claim.empty()
                 ? p.node
                 : p.node + " (NodeClaim " + p.node_claim + ", " + p.node_pool + ", " + p.instance_type + ")";
    case Kind::NodeClaim:
      return "nodeclaim/" + p.node_claim + " (" + p.node_pool + ", " + p.instance_type + ")";
    case Kind::Unschedulable:
      return "pending: " + p.message + (p.nominated_node.empty() ? "" : " (nominated to " + p.nominated_node + ")");
    case Kind::SchedulingGated:
      return "scheduling gated: " + Joined(p.scheduling_gates);
    case Kind::OtherScheduler:
      return "left to scheduler " + p.message;
    case Kind::Ignored:
      return "ignored by Karpenter: " + p.message;
    case Kind::NotProvisionable:
      return "not provisionable: " + p.message;
    case Kind::Preempted:
      return "preempted by " + p.message + " on " + p.node;
  }
  return "";
}

std::size_t ResultDiff::Count(PodChange::Kind kind) const {
  return static_cast<std::size_t>(
      std::count_if(changes.begin(), changes.end(), [kind](const PodChange& c) { return c.kind == kind; }));
}

ResultDiff Compare(const SimResult& a, const SimResult& b) {
  ResultDiff d;
  const std::vector<Placement> pa = Placements(a), pb = Placements(b);
  // A merge of the two key-sorted lists.
  std::size_t i = 0, j = 0;
  while (i < pa.size() || j < pb.size()) {
    ++d.pods;
    PodChange c;
    if (j == pb.size() || (i < pa.size() && pa[i].pod < pb[j].pod)) {
      c.kind = PodChange::Kind::Removed;
      c.pod = pa[i].pod;
      c.a = pa[i++];
    } else if (i == pa.size() || pb[j].pod < pa[i].pod) {
      c.kind = PodChange::Kind::Added;
      c.pod = pb[j].pod;
      c.b = pb[j++];
    } else {
      const Placement& x = pa[i++];
      const Placement& y = pb[j++];
      if (x.Same(y)) {
        ++d.pods_same;
        continue;
      }
      c.pod = x.pod;
      c.a = x;
      c.b = y;
      if (x.Placed() && y.Placed())
        c.kind = PodChange::Kind::Moved;
      else if (y.Placed())
        c.kind = PodChange::Kind::Placed;
      else if (x.Placed())
        c.kind = PodChange::Kind::Unplaced;
      else
        c.kind = PodChange::Kind::Changed;
    }
    d.changes.push_back(std::move(c));
  }

  // The two name-ordered maps merged.
  const auto ca = ClaimsByName(a), cb = ClaimsByName(b);
  auto x = ca.begin(), y = cb.begin();
  while (x != ca.end() || y != cb.end()) {
    NodeClaimChange c;
    if (y == cb.end() || (x != ca.end() && x->first < y->first)) {
      c.kind = NodeClaimChange::Kind::Removed;
      c.name = x->first;
      c.a = (x++)->second;
    } else if (x == ca.end() || y->first < x->first) {
      c.kind = NodeClaimChange::Kind::Added;
      c.name = y->first;
      c.b = (y++)->second;
    } else {
      c.fields = ClaimFields(x->second, y->second);
      if (c.fields.empty()) {
        ++x, ++y;
        continue;
      }
      c.kind = NodeClaimChange::Kind::Changed;
      c.name = x->first;
      c.a = (x++)->second;
      c.b = (y++)->second;
    }
    d.node_claims.push_back(std::move(c));
  }
  // karpenter mode keeps its price in its own result (a result read back has it only there).
  d.hourly_a = a.karpenter ? a.karpenter->hourly_price : a.hourly_price;
  d.hourly_b = b.karpenter ? b.karpenter->hourly_price : b.hourly_price;
  return d;
}

}  // namespace kplace::sim
