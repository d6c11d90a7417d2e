#include "core/karpenter/scheduler.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "core/karpenter/catalogue.h"
#include "core/karpenter/existing_node.h"
#include "core/karpenter/finalize.h"
#include "core/karpenter/limits.h"
#include "core/karpenter/nodeclaim.h"
#include "core/karpenter/pod.h"
#include "core/karpenter/topology.h"

namespace kplace::karpenter {
namespace {

constexpr const char* kNoNodePools = "no dynamic nodepools found";

bool OwnedBy(const Pod& p, const char* kind) {
  return std::any_of(p.meta.owner_references.begin(), p.meta.owner_references.end(),
                     [&](const OwnerReference& o) { return o.kind == kind; });
}

// IsProvisionable (pkg/utils/pod/scheduling.go); upstream filters silently, kplace reports why.
std::string NotProvisionableReason(const Pod& p, bool only_marked) {
  if (OwnedBy(p, "DaemonSet")) return "pod is owned by a DaemonSet";
  if (OwnedBy(p, "Node")) return "pod is a mirror pod";
  if (!p.nominated_node_name.empty()) return "pod is nominated to node " + p.nominated_node_name + " (preempting)";
  if (!p.scheduling_gates.empty()) return "pod has scheduling gates";
  if (!p.marked_unschedulable && (only_marked || p.generated_from.empty()))
    return "pod is not marked unschedulable by kube-scheduler";
  return "";
}

bool HasPreferNoSchedule(const NodePool& p) {
  return std::any_of(p.taints.begin(), p.taints.end(),
                     [](const Taint& t) { return t.effect == TaintEffect::PreferNoSchedule; });
}

class Solver {
 public:
  Solver(const Scenario& sc, const ProvisionOptions& opts, Result& result)
      : sc_(sc), opts_(opts), result_(result), hostname_seq_(opts.hostname_seq) {
    if (!opts.storage) own_storage_ = std::make_unique<framework::VolumeCache>(sc);
    storage_ = opts.storage ? opts.storage : own_storage_.get();
  }

  void Run();
  int HostnameSeq() const { return hostname_seq_; }
  // A simulation's existing nodes and the catalogue its claims' options index (after Run).
  void Keep(Simulation& out);
  void KeepClaims(std::vector<SimulatedClaim>* out) { simulated_claims_ = out; }

 private:
  // Scheduler.add: "" on success.
  std::string Add(PodData& pod, AddTry* record);
  std::string AddToNewClaim(PodData& pod, AddTry* record);
  // A stable sort by pod count after one claim grew by a pod: it moves past the claims that now hold fewer. The
  // order is sorted by count (order_count_, kept beside it), so those are the run of claims holding one pod less
  // than it now does: found by binary search, moved by one rotation.
  void BubbleRight(std::size_t pos) {
    const std::uint32_t count = ++order_count_[pos];
    const auto end =
        std::lower_bound(order_count_.begin() + static_cast<std::ptrdiff_t>(pos) + 1, order_count_.end(), count);
    const auto to = static_cast<std::size_t>(end - order_count_.begin());
    std::rotate(order_count_.begin() + static_cast<std::ptrdiff_t>(pos),
                order_count_.begin() + static_cast<std::ptrdiff_t>(pos) + 1, end);
    std::rotate(claim_order_.begin() + static_cast<std::ptrdiff_t>(pos),
                claim_order_.begin() + static_cast<std::ptrdiff_t>(pos) + 1,
                claim_order_.begin() + static_cast<std::ptrdiff_t>(to));
    order_key_[static_cast<std::size_t>(claim_order_[to - 1])] = OrderKey(count);
  }
  // ... and a new claim (appended last, with its first pod) moves before the claims holding more pods.
  void AppendNewClaim(int ci) {
    const auto at = std::upper_bound(order_count_.begin(), order_count_.end(), 1u);
    const auto pos = at - order_count_.begin();
    order_count_.insert(at, 1u);
    claim_order_.insert(claim_order_.begin() + pos, ci);
    order_key_.push_back(OrderKey(1));
  }
  // A key that sorts claims as claim_order_ does: by pod count, then, among claims of one count, new ones (one pod)
  // last as they come and grown ones first as they grow.
  std::uint64_t OrderKey(std::uint32_t count) {
    const std::uint32_t stamp = ++order_stamp_;
    return std::uint64_t{count} << 32 | (count == 1 ? stamp : UINT32_MAX - stamp);
  }
  // Claim ci's position in claim_order_: found among the claims of its count.
  std::size_t PositionOf(int ci) const {
    const auto count = static_cast<std::uint32_t>(order_key_[static_cast<std::size_t>(ci)] >> 32);
    auto p = static_cast<std::size_t>(std::lower_bound(order_count_.begin(), order_count_.end(), count) -
                                      order_count_.begin());
    while (claim_order_[p] != ci) ++p;
    return p;
  }
  std::string NextClaimName(const std::string& pool) {
    for (;;) {
      std::string name = pool + "-" + std::to_string(per_pool_count_[pool]++);
      if (!opts_.taken_names.count(name)) return name;
    }
  }
  std::string ClaimName(int claim) const { return claim_names_[static_cast<std::size_t>(claim)]; }

  const Scenario& sc_;
  const ProvisionOptions& opts_;
  Result& result_;
  std::unique_ptr<framework::VolumeCache> own_storage_;
  const framework::VolumeCache* storage_ = nullptr;
  KeySet well_known_;
  std::vector<KType> catalogue_;
  std::vector<DaemonPod> daemons_;
  std::vector<Template> templates_;
  // The existing nodes, in order: those a simulation was given (opts_.existing_nodes, shared by every simulation of
  // a dry run) are read in place until a pod lands on one, which then gets a copy of its own (a simulation places a
  // few pods among thousands of nodes); those the solver built are its own from the start.
  std::vector<const ExistingNode*> nodes_;
  std::vector<std::unique_ptr<ExistingNode>> mutable_nodes_;  // by nodes_ entry: its own copy, or null
  ExistingNode& MutableNode(std::size_t ni) {
    if (!mutable_nodes_[ni]) {
      mutable_nodes_[ni] = std::make_unique<ExistingNode>(*nodes_[ni]);
      nodes_[ni] = mutable_nodes_[ni].get();
    }
    return *mutable_nodes_[ni];
  }
  std::vector<Claim> claims_;  // creation order
  // By claim: its hostname when its requirements hold exactly that one (always, unless a NodePool constrains the
  // hostname), else kNoSymbol; dense, for Add's pass over every in-flight claim.
  std::vector<Symbol> claim_hosts_;
  std::vector<Topology::HostBlocker> blockers_;  // Add's, for the pod being added
  std::vector<Topology::DomainBlocker> domain_blockers_;
  // By key a DomainBlocker named, by claim: its requirement for the key as Rejects reads it (a dense column: a pod
  // with a zone pod affinity passes over most in-flight claims, each otherwise a lookup in scattered memory).
  static constexpr std::int64_t kKeyAbsent = -1, kKeyOther = -2;  // else the Symbol of a plain In of one value
  static std::int64_t KeyValue(const Requirements& reqs, Symbol key) {
    const Requirement* r = reqs.Find(key);
    if (!r) return kKeyAbsent;
    if (!r->complement && r->values.size() == 1 && !r->gte && !r->lte) return r->values[0];
    return kKeyOther;
  }
  struct KeyColumn {
    Symbol key;
    std::vector<std::int64_t> value;  // by claim
  };
  std::vector<KeyColumn> claim_keys_;
  std::vector<std::size_t> blocker_columns_;  // by domain_blockers_ entry, its claim_keys_ column
  // The claims a HostBlocker (its counts and threshold) has rejected, a bit each by claim: rejected for good until
  // the topology's next Update (Topology::version), so Add tests a bit where it would look the hostname up again.
  // The others are listed (open): when they are few, Add visits only them. A claim without its bit is looked up.
  struct RejectedClaims {
    std::vector<std::uint64_t> bits;
    std::vector<int> open;  // every claim without its bit (and those given it since Prune), in creation order
    std::size_t seen = 0;   // claims_ taken into open
    std::size_t stale = 0;  // bits set since the last Prune (each on a claim in open)
    std::size_t Live() const { return open.size() - stale; }
    void Prune() {
      std::erase_if(open, [&](int ci) { return Has(static_cast<std::size_t>(ci)); });
      stale = 0;
    }
    bool Has(std::size_t ci) const { return ci / 64 < bits.size() && (bits[ci / 64] >> (ci % 64) & 1u); }
    void Set(std::size_t ci) {
      if (ci / 64 >= bits.size()) bits.resize(ci / 64 + 1);
      bits[ci / 64] |= std::uint64_t{1} << (ci % 64);
      ++stale;
    }
  };
  std::map<std::pair<const DomainCounts*, std::int32_t>, RejectedClaims> rejected_;
  std::uint64_t rejected_version_ = 0;
  std::vector<RejectedClaims*> blocker_rejected_;  // by blockers_ entry
  std::vector<int> visit_;                         // the claims Add visits, when not all
  // Whether a blocker rejects claim ci (recording it when one does).
  bool HostBlocked(std::size_t ci) {
    for (const RejectedClaims* r : blocker_rejected_)
      if (r->Has(ci)) return true;
    const Symbol host = claim_hosts_[ci];
    if (host == kNoSymbol) return false;
    for (std::size_t i = 0; i < blockers_.size(); ++i) {
      const std::int32_t* n = blockers_[i].counts->Find(host);
      if (n && *n >= blockers_[i].threshold) {
        blocker_rejected_[i]->Set(ci);
        return true;
      }
    }
    return false;
  }
  std::size_t ColumnOf(Symbol key) {
    for (std::size_t i = 0; i < claim_keys_.size(); ++i)
      if (claim_keys_[i].key == key) return i;
    KeyColumn& c = claim_keys_.emplace_back(KeyColumn{key, {}});
    c.value.reserve(claims_.size());
    for (const auto& claim : claims_) c.value.push_back(KeyValue(claim.requirements, key));
    return claim_keys_.size() - 1;
  }
  // After claim ci's requirements changed (or it was appended).
  void UpdateKeys(std::size_t ci) {
    for (auto& c : claim_keys_) {
      if (ci == c.value.size()) c.value.push_back(0);
      c.value[ci] = KeyValue(claims_[ci].requirements, c.key);
    }
  }
  bool DomainBlocked(std::size_t ci) const {
    for (std::size_t i = 0; i < domain_blockers_.size(); ++i) {
      const Topology::DomainBlocker& b = domain_blockers_[i];
      const std::int64_t v = claim_keys_[blocker_columns_[i]].value[ci];
      const bool rejects =
          v == kKeyAbsent  ? b.allowed.empty()
          : v == kKeyOther ? b.Rejects(claims_[ci].requirements)
                           : std::find(b.allowed.begin(), b.allowed.end(), static_cast<Symbol>(v)) == b.allowed.end();
      if (rejects) return true;
    }
    return false;
  }
  std::vector<int> claim_order_;            // the in-flight order (re-sorted by pod count before each pod)
  std::vector<std::uint32_t> order_count_;  // pods of the claim at each position of claim_order_
  std::vector<std::uint64_t> order_key_;    // by claim: OrderKey
  std::uint32_t order_stamp_ = 0;
  std::vector<std::string> claim_names_;
  std::map<std::string, int> per_pool_count_;
  Limits limits_;
  ClaimContext ctx_;
  std::unique_ptr<Topology> topology_;
  std::vector<char> closed_;  // by existing node: under consolidateAfter (a consolidation simulation)
  std::vector<char> exempt_;  // by pod: may still land on such a node
  std::vector<SimulatedClaim>* simulated_claims_ = nullptr;
  bool pns_ = false;
  bool types_constrain_hostname_ = false;
  int hostname_seq_;
};

void Solver::Run() {
  const auto& pods = sc_.pods;
  result_.pods.resize(pods.size());
  std::vector<std::size_t> queue;
  well_known_ = WellKnownKeys(sc_.instance_types);
  const SimulationOptions* sim = opts_.simulation;
  std::vector<char> moved(pods.size(), 0);  // a simulation's bound pods to place again
  if (sim)
    for (std::size_t i : sim->reschedule) moved[i] = 1;
  // The scenario's pods are a deque: walked with an iterator (an index is a division and more per pod, and a
  // disruption dry run walks every pod once per simulation).
  auto pod_it = pods.begin();
  for (std::size_t i = 0; i < pods.size(); ++i, ++pod_it) {
    const Pod& p = *pod_it;
    PodOutcome& o = result_.pods[i];
    o.index = i;
    // A simulation reads the keys of the pods it places only (thousands of bound pods stay where they are).
    if (!sim || moved[i] || p.node_name.empty()) o.key = p.Key();
    if (moved[i]) {  // not provisionable, not validated (SimulateScheduling appends them to the pending pods)
      o.kind = PodOutcomeKind::Unschedulable;
      queue.push_back(i);
      continue;
    }
    if (!p.node_name.empty() || p.Terminal()) continue;
    o.reason = NotProvisionableReason(p, opts_.only_marked_unschedulable);
    if (!o.reason.empty()) continue;
    std::string invalid = ValidatePod(p, well_known_, storage_);
    if (!invalid.empty()) {
      o.kind = PodOutcomeKind::Ignored;
      o.reason = std::move(invalid);
      continue;
    }
    o.kind = PodOutcomeKind::Unschedulable;
    queue.push_back(i);
  }
  if (sc_.node_pools.empty()) {
    for (std::size_t i : queue) result_.pods[i].reason = kNoNodePools;
    return;
  }
  // The volume topology of each pod (provisioner.go getVolumeTopologyRequirements): a pod whose claims, volumes or
  // class cannot be read is left out of the run (upstream only logs it).
  std::vector<std::vector<Requirements>> volume_requirements(pods.size());
  std::vector<std::size_t> kept;
  for (std::size_t i : queue) {
    std::string err;
    if (!VolumeTopologyRequirements(pods[i], *storage_, &volume_requirements[i], &err)) {
      // A simulation places the pods it moves all the same, without volume requirements (helpers.go hands Solve
      // every pod; only the volume topology step dropped it).
      if (moved[i]) {
        volume_requirements[i].clear();
        kept.push_back(i);
        continue;
      }
      PodOutcome& o = result_.pods[i];
      o.kind = PodOutcomeKind::NotProvisionable;
      o.reason = "failed getting volume topology requirements: " + err;
      continue;
    }
    kept.push_back(i);
  }
  queue = std::move(kept);
  // NodePools by weight desc, then name desc (pkg/utils/nodepool OrderByWeight).
  std::vector<const NodePool*> pools;
  for (const auto& p : sc_.node_pools) pools.push_back(&p);
  std::stable_sort(pools.begin(), pools.end(), [](const NodePool* a, const NodePool* b) {
    if (a->weight != b->weight) return a->weight > b->weight;
    return a->meta.name > b->meta.name;
  });
  pns_ = std::any_of(pools.begin(), pools.end(), [](const NodePool* p) { return HasPreferNoSchedule(*p); });
  catalogue_ = BuildCatalogue(sc_.instance_types);
  types_constrain_hostname_ = std::any_of(catalogue_.begin(), catalogue_.end(),
                                          [](const KType& t) { return t.requirements.Has(HostnameKey()); });
  daemons_ = BuildDaemons(sc_);
  for (const NodePool* p : pools) {
    std::string dropped;
    auto t = BuildTemplate(*p, catalogue_, daemons_, well_known_, &dropped);
    if (t)
      templates_.push_back(std::move(*t));
    else  // events.go NoCompatibleInstanceTypes: on the NodePool
      result_.events.push_back({"Warning", "NoCompatibleInstanceTypes", "NodePool/" + p->meta.name, dropped});
  }
  ctx_.catalogue = &catalogue_;
  ctx_.well_known = &well_known_;
  const std::set<std::string>* excluded = sim ? &sim->excluded_nodes : nullptr;
  if (opts_.existing_nodes) {
    nodes_.reserve(opts_.existing_nodes->size());
    for (const auto& n : *opts_.existing_nodes)
      if (!excluded || !excluded->count(n.node->meta.name)) nodes_.push_back(&n);
    mutable_nodes_.resize(nodes_.size());
  } else {
    for (auto& n : BuildExistingNodes(sc_, daemons_, *storage_, excluded)) {
      mutable_nodes_.push_back(std::make_unique<ExistingNode>(std::move(n)));
      nodes_.push_back(mutable_nodes_.back().get());
    }
  }
  limits_ = BuildLimits(sc_, excluded);
  if (sim) {
    // consolidateAfter on destinations: a pod other than a pending one or one from a deleting node passes over them.
    closed_.resize(nodes_.size(), 0);
    for (std::size_t n = 0; n < nodes_.size(); ++n)
      closed_[n] = sim->under_consolidate_after.count(nodes_[n]->node->meta.name) ? 1 : 0;
    exempt_.assign(pods.size(), 1);
    for (std::size_t i : sim->reschedule) {
      const Pod& p = pods[i];
      // pod.IsPending: phase Pending (the API server sets it on creation, so an unbound pod without one is Pending).
      const bool pending = p.phase == "Pending";
      exempt_[i] = pending || sim->deleting_nodes.count(p.node_name) ? 1 : 0;
    }
  }

  std::vector<PodData> originals;
  originals.reserve(pods.size());
  std::vector<int> data_of(pods.size(), -1);
  for (std::size_t i : queue) {
    data_of[i] = static_cast<int>(originals.size());
    originals.push_back(MakePodData(pods[i], i));
    for (const auto& alternative : volume_requirements[i])
      result_.pods[i].volume_requirements.push_back(alternative.String());
    originals.back().volume_requirements = std::move(volume_requirements[i]);
    if (!pods[i].volumes.empty()) originals.back().volumes = PodVolumes(pods[i], *storage_);
  }
  // byCPUAndMemoryDescending (sched/queue.go); last tie-break namespace/name instead of UID.
  std::stable_sort(queue.begin(), queue.end(), [&](std::size_t a, std::size_t b) {
    const PodData& x = originals[static_cast<std::size_t>(data_of[a])];
    const PodData& y = originals[static_cast<std::size_t>(data_of[b])];
    if (x.requests.milli_cpu != y.requests.milli_cpu) return x.requests.milli_cpu > y.requests.milli_cpu;
    if (x.requests.memory != y.requests.memory) return x.requests.memory > y.requests.memory;
    if (pods[a].meta.creation_unix != pods[b].meta.creation_unix)
      return pods[a].meta.creation_unix < pods[b].meta.creation_unix;
    if (pods[a].meta.namespace_ != pods[b].meta.namespace_) return pods[a].meta.namespace_ < pods[b].meta.namespace_;
    return pods[a].meta.name < pods[b].meta.name;
  });

  topology_ = std::make_unique<Topology>(sc_, pools, catalogue_, queue);
  rejected_.clear();  // keyed by the counts of the topology before
  topology_->ExcludeNodes(excluded);
  for (const auto& d : originals) topology_->Update(d);
  for (const ExistingNode* n : nodes_) {
    const Requirement* host = n->requirements.Find(HostnameKey());
    topology_->Register(HostnameKey(), host->values[0]);
  }
  ctx_.topology = topology_.get();

  std::vector<std::size_t> q(queue.begin(), queue.end());
  std::size_t head = 0;
  std::vector<std::size_t> last_len(pods.size(), SIZE_MAX);
  while (head < q.size()) {
    std::size_t idx = q[head];
    std::size_t len = q.size() - head;
    if (last_len[idx] == len) break;  // a full cycle without progress
    ++head;
    PodOutcome& o = result_.pods[idx];
    const bool explain = opts_.explain_all || opts_.explain.count(o.key) > 0;
    PodData pod = originals[static_cast<std::size_t>(data_of[idx])];
    QueueAttempt attempt;
    std::vector<std::string> relaxations;
    std::string relaxation, error;
    for (;;) {
      AddTry record;
      record.relaxation = relaxation;
      error = Add(pod, explain ? &record : nullptr);
      if (explain) {
        record.error = error;
        attempt.tries.push_back(std::move(record));
      }
      if (error.empty()) break;
      auto step = Relax(pod, pns_);
      if (!step) break;
      relaxation = *step;
      relaxations.push_back(*step);
      topology_->Update(pod);
    }
    o.relaxations = std::move(relaxations);
    attempt.fit = error.empty();
    if (explain) o.attempts.push_back(std::move(attempt));
    if (error.empty()) {
      o.reason.clear();
      continue;
    }
    o.kind = PodOutcomeKind::Unschedulable;
    o.reason = std::move(error);
    if (!relaxations.empty()) topology_->Update(originals[static_cast<std::size_t>(data_of[idx])]);
    q.push_back(idx);
    last_len[idx] = q.size() - head;
  }
  FinalizeClaims(sc_, catalogue_, templates_, claims_, claim_names_, result_, simulated_claims_);
}

void Solver::Keep(Simulation& out) {
  out.catalogue = std::move(catalogue_);
  for (const ExistingNode* n : nodes_) out.nodes.push_back({n->node->meta.name, n->initialized, n->pods});
}

std::string Solver::Add(PodData& pod, AddTry* record) {
  PodOutcome& o = result_.pods[pod.index];
  std::string err;
  for (std::size_t ni = 0; ni < nodes_.size(); ++ni) {
    const ExistingNode& n = *nodes_[ni];
    if (!closed_.empty() && closed_[ni] && !exempt_[pod.index]) {
      if (record) record->candidates.push_back({"node/" + n.node->meta.name, "node is under consolidateAfter"});
      continue;
    }
    Requirements updated;
    if (CanAddToNode(n, pod, *topology_, record ? &err : nullptr, &updated)) {
      if (record) record->candidates.push_back({"node/" + n.node->meta.name, ""});
      AddToNode(MutableNode(ni), pod, std::move(updated), *topology_);
      o.kind = PodOutcomeKind::Node;
      o.node = n.node->meta.name;
      return "";
    }
    if (record) record->candidates.push_back({"node/" + n.node->meta.name, err});
  }
  // In-flight claims, fewest pods first. Upstream stable-sorts the list before every pod; claim_order_ is kept in
  // exactly that order incrementally (see Bubble).
  // Claims whose hostname the pod's hostname topology rules out fail CanAddToClaim at its topology step, whatever
  // else they hold: without a record to write, they are passed over (the same outcome, without the work).
  // Likewise the claims whose requirement for a pod affinity's key allows none of the domains it offers.
  blockers_.clear();
  domain_blockers_.clear();
  blocker_rejected_.clear();
  if (!record && topology_ && !topology_->empty()) {
    topology_->HostBlockers(pod, blockers_);
    topology_->DomainBlockers(pod, domain_blockers_);
    blocker_columns_.clear();
    for (const auto& b : domain_blockers_) blocker_columns_.push_back(ColumnOf(b.key));
    if (rejected_version_ != topology_->version()) {
      rejected_.clear();
      rejected_version_ = topology_->version();
    }
    for (const auto& b : blockers_) blocker_rejected_.push_back(&rejected_[{b.counts, b.threshold}]);
  }
  // When a blocker rejects all but a few claims (an anti-affinity whose app has a pod on nearly every one), only
  // the claims it has not rejected are visited, in the order of claim_order_ (OrderKey): the same first fit.
  RejectedClaims* fewest = nullptr;
  for (RejectedClaims* r : blocker_rejected_) {
    for (; r->seen < claims_.size(); ++r->seen) r->open.push_back(static_cast<int>(r->seen));
    if (!fewest || r->Live() < fewest->Live()) fewest = r;
  }
  visit_.clear();
  const bool all = !fewest || fewest->Live() * 8 >= claim_order_.size();
  if (!all) {
    fewest->Prune();
    visit_ = fewest->open;
    std::sort(visit_.begin(), visit_.end(), [&](int a, int b) {
      return order_key_[static_cast<std::size_t>(a)] < order_key_[static_cast<std::size_t>(b)];
    });
  }
  const std::size_t visits = all ? claim_order_.size() : visit_.size();
  for (std::size_t v = 0; v < visits; ++v) {
    const int ci = all ? claim_order_[v] : visit_[v];
    if (!domain_blockers_.empty() && DomainBlocked(static_cast<std::size_t>(ci))) continue;
    if (!blockers_.empty() && HostBlocked(static_cast<std::size_t>(ci))) continue;
    Claim& c = claims_[static_cast<std::size_t>(ci)];
    const Template& t = templates_[static_cast<std::size_t>(c.tmpl)];
    CanAddResult r = CanAddToClaim(c, t, pod, ctx_, record ? &err : nullptr);
    if (record) record->candidates.push_back({"nodeclaim/" + ClaimName(ci), r.ok ? "" : err});
    if (r.ok) {
      AddToClaim(c, t, pod, std::move(r), ctx_);
      UpdateKeys(static_cast<std::size_t>(ci));
      BubbleRight(all ? v : PositionOf(ci));
      o.kind = PodOutcomeKind::Claim;
      o.claim = ci;
      return "";
    }
  }
  if (templates_.empty()) return "nodepool requirements filtered out all available instance types";
  return AddToNewClaim(pod, record);
}

std::string Solver::AddToNewClaim(PodData& pod, AddTry* record) {
  PodOutcome& o = result_.pods[pod.index];
  std::string joined;
  for (std::size_t ti = 0; ti < templates_.size(); ++ti) {
    const Template& t = templates_[ti];
    std::string err;
    Claim c;
    c.tmpl = static_cast<int>(ti);
    err = LimitOptions(limits_, t, catalogue_, &c.options);
    if (err.empty()) {
      // NewNodeClaim numbers every NodeClaim it builds (per template per attempt), from 1, on a counter that
      // outlives the run (ProvisionOptions::hostname_seq).
      char host[48];
      std::snprintf(host, sizeof host, "hostname-placeholder-%04d", ++hostname_seq_);
      c.hostname = Intern(host);
      c.requirements = t.requirements;
      c.requirements.Add(Requirement::Make(HostnameKey(), ReqOp::In, {c.hostname}));
      // The template's types passed its requirements and offerings; the hostname changes nothing for them unless a
      // type itself constrains the hostname.
      c.options_filtered = !types_constrain_hostname_;
      CanAddResult r = CanAddToClaim(c, t, pod, ctx_, &err);
      if (r.ok) {
        AddToClaim(c, t, pod, std::move(r), ctx_);
        ConsumeLimits(limits_, t, catalogue_, c.options);
        int ci = static_cast<int>(claims_.size());
        const Requirement* h = c.requirements.Find(HostnameKey());
        claim_hosts_.push_back(h && !h->complement && h->values.size() == 1 ? h->values[0] : kNoSymbol);
        claims_.push_back(std::move(c));
        UpdateKeys(static_cast<std::size_t>(ci));
        AppendNewClaim(ci);
        claim_names_.push_back(NextClaimName(t.name));
        if (record) record->candidates.push_back({"nodepool/" + t.name, ""});
        o.kind = PodOutcomeKind::Claim;
        o.claim = ci;
        return "";
      }
    }
    if (record) record->candidates.push_back({"nodepool/" + t.name, err});
    joined += (joined.empty() ? "" : "; ") + err;
  }
  return joined;
}

}  // namespace

Result Provision(const Scenario& sc, const ProvisionOptions& options) {
  Result result;
  Solver solver(sc, options, result);
  solver.Run();
  result.hostname_seq = solver.HostnameSeq();
  return result;
}

std::vector<ExistingNode> ExistingNodes(const Scenario& sc) {
  const framework::VolumeCache storage(sc);
  return BuildExistingNodes(sc, BuildDaemons(sc), storage);
}

Simulation Simulate(const Scenario& sc, const ProvisionOptions& options) {
  Simulation out;
  Solver solver(sc, options, out.result);
  solver.KeepClaims(&out.claims);
  solver.Run();
  out.result.hostname_seq = solver.HostnameSeq();
  solver.Keep(out);
  return out;
}

bool PublishesFailedScheduling(const PodOutcome& o) {
  if (o.kind == PodOutcomeKind::Ignored) return o.reason.find(kManagedLabelDoesNotExist) == std::string::npos;
  return o.kind == PodOutcomeKind::Unschedulable && o.reason != kNoNodePools;
}

}  // namespace kplace::karpenter
