// Per-node data PodTopologySpread reads for every node of the snapshot in every cycle, kept across cycles.
// kube-scheduler recounts the matching pods of all nodes for each pod (16 goroutines); re-reading every pod of a
// 5,000-node cluster costs milliseconds here. The cache keeps, per (namespace, selector), each node's count and
// recounts only nodes whose NodeInfo changed since (Node pointer, generation or pod count differ). Per topology key
// it keeps each node's domain id, and per node-affinity terms / tolerations each node's inclusion policy result
// (pods of one workload share them). Results are identical to recomputing.
//
// Assumptions: within one Snapshot (same object, same node array) a NodeInfo's generation or pod count changes
// whenever its pod list changes; bound pods' labels, namespace and deletionTimestamp are not mutated in place; Node
// objects are immutable (a changed node is a new Node object).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/scheduler/plugins/podtopologyspread/common.h"

namespace kplace::plugins::podtopologyspread {

// The topology domains of one label key over the snapshot's nodes: every distinct value gets a dense id.
// Immutable once built (a change of nodes builds a new one), so states share it.
struct KeyDomains {
  std::vector<std::int32_t> of_node;  // per snapshot node: id of its value, -1 when the node lacks the label
  std::vector<Symbol> values;         // id -> value
  std::int32_t empty_id = -1;         // id of the value "" if some node has it, else -1
};

class SnapshotCache {
 public:
  // Brings the per-node stamps up to date with the snapshot. Call at the start of PreFilter / PreScore; the
  // vectors returned below are valid until the next Sync.
  void Sync(const framework::Snapshot& snapshot);
  // The domains of label key over the snapshot's nodes.
  std::shared_ptr<const KeyDomains> Domains(Symbol key);
  // Per snapshot node: CountMatchingPods(node, c, ns). nullptr when the constraint never counts (nil or {} selector).
  const std::vector<std::int32_t>* Counts(const Constraint& c, Symbol ns);
  // Sync, then per constraint i: domains[i] = Domains(cs[i].key) and matching[i] = the data of Counts(cs[i], ns)
  // (nullptr when it counts nothing). Both vectors must already hold cs.size() entries.
  void Lookup(const framework::Snapshot& snapshot, const std::vector<Constraint>& cs, Symbol ns,
              std::vector<std::shared_ptr<const KeyDomains>>& domains, std::vector<const std::int32_t*>& matching);
  // Per snapshot node: 1 when the node matches the pod's nodeSelector and required node affinity
  // (nodeAffinityPolicy Honor). Shared by pods with the same terms.
  // serial (when given) identifies the content: it changes whenever the vector is recomputed.
  const std::vector<char>& AffinityMatches(const Pod& pod, std::uint64_t* serial = nullptr);
  // Per snapshot node: 1 when the pod tolerates every NoSchedule / NoExecute taint of the node (nodeTaintsPolicy
  // Honor). Shared by pods with the same tolerations.
  const std::vector<char>& TaintsTolerated(const Pod& pod, std::uint64_t* serial = nullptr);
  // Per domain of kd: the sum of Counts(c, ns) over the nodes that have the key and pass the masks (per node,
  // nullptr: not applied; a mask's serial from AffinityMatches / TaintsTolerated), and whether any such node is
  // there. Kept across cycles and moved by Counts' recounts, so a replica of the last pod's workload costs the
  // nodes that changed, not every node. Call after Counts(c, ns) in the same cycle (else nullptr); nullptr when the
  // constraint counts nothing.
  struct DomainTotals {
    std::vector<int> counts;
    std::vector<char> exists;
  };
  const DomainTotals* Totals(const Constraint& c, Symbol ns, const std::shared_ptr<const KeyDomains>& kd,
                             const char* aff, std::uint64_t aff_serial, const char* tnt, std::uint64_t tnt_serial);

 private:
  struct KeyEntry {
    Symbol key = kEmptySymbol;
    std::uint64_t layout = 0;
    std::uint64_t last_used = 0;
    std::shared_ptr<const KeyDomains> domains;
  };
  struct CountEntry {
    Symbol ns = kEmptySymbol;
    std::uint64_t hash = 0;
    Constraint constraint;  // only the selector matters
    std::vector<std::int32_t> counts;
    std::vector<std::uint64_t> stamps;  // stamp_ of the node when counted
    std::uint64_t synced = 0;           // next_stamp_ when every node was last counted up to date
    std::uint64_t last_used = 0;
    struct TotalsEntry {
      std::shared_ptr<const KeyDomains> domains;
      std::uint64_t aff = 0, tnt = 0;       // mask serials, 0: not applied
      std::vector<std::int32_t> domain_of;  // per node: its domain id when it counts toward the totals, else -1
      DomainTotals totals;
      std::uint64_t last_used = 0;
    };
    std::vector<TotalsEntry> totals;
  };
  struct AffinityEntry {
    std::vector<std::pair<Symbol, Symbol>> node_selector;
    std::optional<NodeSelector> required;
    std::uint64_t layout = 0;
    std::uint64_t last_used = 0;
    std::uint64_t serial = 0;
    std::vector<char> ok;
  };
  struct TaintEntry {
    std::vector<Toleration> tolerations;
    std::uint64_t layout = 0;
    std::uint64_t last_used = 0;
    std::uint64_t serial = 0;
    std::vector<char> ok;
  };
  static constexpr std::size_t kMaxKeys = 32;
  static constexpr std::size_t kMaxPolicyEntries = 32;
  static constexpr std::size_t kMaxCountEntries = 128;
  static constexpr std::size_t kMaxTotalsPerCount = 4;
  CountEntry* FindCount(const Constraint& c, Symbol ns);
  std::uint64_t next_serial_ = 0;

  const framework::Snapshot* snapshot_ = nullptr;
  const framework::NodeInfo* nodes_data_ = nullptr;
  std::vector<const Node*> node_;
  std::vector<std::uint64_t> generation_;
  std::vector<std::size_t> num_pods_;
  std::vector<std::uint64_t> stamp_;  // changes whenever the node's pods may have changed; never reused
  std::uint64_t next_stamp_ = 0;
  // The node of every stamp after stamp_log_base_ (stamp_log_[k] got stamp stamp_log_base_ + k + 1): a count entry
  // synced at stamp s recounts only the nodes stamped after s, not all of them. Cut when it outgrows the nodes.
  std::vector<std::uint32_t> stamp_log_;
  std::uint64_t stamp_log_base_ = 0;
  void Stamp(std::size_t i) {
    stamp_[i] = ++next_stamp_;
    stamp_log_.push_back(static_cast<std::uint32_t>(i));
  }
  // Position in snapshot.changed_nodes up to which changes were applied, valid for log_layout_ (see Sync).
  std::size_t log_pos_ = 0;
  std::uint64_t log_layout_ = 0;
  std::uint64_t layout_ = 1;  // changes when any index holds a different Node
  std::uint64_t tick_ = 0;
  SymbolIndex index_;
  std::vector<KeyEntry> keys_;
  std::vector<std::unique_ptr<CountEntry>> counts_;
  std::vector<std::unique_ptr<AffinityEntry>> affinity_;
  std::vector<std::unique_ptr<TaintEntry>> taints_;
};

// Per-plugin state reused across cycles (PreFilter / PreScore run one at a time; Filter / Score never touch it).
struct Scratch {
  SnapshotCache cache;
  std::vector<std::int64_t> slots;  // PreScore: snapshot position of each feasible node
  std::vector<char> eligible;       // per node: holds every topology key
  std::vector<char> flags;          // per domain
};

}  // namespace kplace::plugins::podtopologyspread
