// PodInfo, NodeInfo and the Snapshot the plugins read (upstream framework/types.go, backend/cache/snapshot.go).
// PodInfo precomputes what every cycle needs once per pod (requests, ports, parsed affinity terms).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/model/features.h"
#include "core/model/objects.h"
#include "core/model/pod_requests.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/cycle_state.h"
#include "core/scheduler/framework/status.h"
#include "core/scheduler/framework/volume_cache.h"

namespace kplace::framework {

// One pod (anti-)affinity term with its namespaces resolved (framework.AffinityTerm).
struct AffinityTerm {
  std::vector<Symbol> namespaces;                   // explicit namespaces, or the pod's own when both fields are unset
  std::optional<LabelSelector> namespace_selector;  // {} selects every namespace
  LabelSelector selector;  // labelSelector plus matchLabelKeys / mismatchLabelKeys requirements
  Symbol topology_key = kEmptySymbol;
  std::int32_t weight = 0;  // preferred terms only

  // AffinityTerm.Matches: the pod's namespace is selected and its labels match the selector.
  bool Matches(Symbol pod_namespace, const Labels& pod_labels, const Labels* namespace_labels) const;
};

struct PodInfo {
  const Pod* pod = nullptr;
  std::size_t index = 0;  // position in the simulation's pod list (set by ClusterState)
  Symbol namespace_ = kEmptySymbol;
  std::int32_t priority = 0;
  // PodRequests: what the pod occupies, as a framework.Resource (scalar entries only for scalar resource names;
  // a listed scalar keeps its key even at 0).
  Resource requests;
  // NodeInfo.NonZeroRequested contribution (PodInfo.calculateResource): PodRequests with the 100m / 200Mi
  // defaults for containers that omit cpu / memory.
  std::int64_t non_zero_milli_cpu = 0;
  std::int64_t non_zero_memory = 0;
  // Pod-level requests are in effect (PodLevelResources on and spec.resources requests a supported resource).
  bool pod_level_requests = false;
  std::vector<ContainerPort> host_ports;  // only ports with hostPort > 0
  std::vector<AffinityTerm> required_affinity;
  std::vector<AffinityTerm> required_anti_affinity;
  std::vector<AffinityTerm> preferred_affinity;
  std::vector<AffinityTerm> preferred_anti_affinity;
  // Normalized image names of all containers (init then regular).
  std::vector<std::string> images;
  // Normalized image names of the pod's image volumes (spec.volumes[].image.reference), in order.
  std::vector<std::string> image_volumes;

  const Labels& labels() const { return pod->meta.labels; }
  bool HasAffinity() const {
    return !required_affinity.empty() || !required_anti_affinity.empty() || !preferred_affinity.empty() ||
           !preferred_anti_affinity.empty();
  }
};

// Builds a PodInfo. features decides whether pod-level resources count (PodLevelResources, v1.34+).
std::unique_ptr<PodInfo> NewPodInfo(const Pod& pod, std::int32_t priority, const Features& features = {});
// namespace_labels maps namespace symbol -> labels (Namespace objects).
using NamespaceLabels = std::unordered_map<Symbol, Labels>;

struct HostPortInfo {
  Symbol protocol;
  Symbol ip;
  std::int32_t port;
};

std::uint64_t NextGeneration();

class alignas(64) NodeInfo {
 public:
  // Members in the order the filter and score passes read them (they visit thousands of NodeInfos a cycle): what
  // NodeResourcesFit's Filter reads sits in the first two cache lines.
  const Node* node = nullptr;
  int index = 0;  // position in the snapshot's node list
  // Position of the node's name among the snapshot's node names (BuildNodeOrder): orders ties by name with an
  // integer compare.
  int name_rank = 0;
  std::uint64_t generation = 0;
  std::vector<const PodInfo*> pods;
  // node->allocatable, copied beside requested by BuildNodeOrder: the filter and score passes read it for every
  // node of every cycle, and the Node object is a cache miss away (half of NodeResourcesFit's Filter time).
  Resource allocatable;
  Resource requested;
  std::int64_t non_zero_milli_cpu = 0;
  std::int64_t non_zero_memory = 0;
  std::vector<const PodInfo*> pods_with_affinity;
  std::vector<const PodInfo*> pods_with_required_anti_affinity;
  std::vector<HostPortInfo> used_ports;

  const std::string& Name() const { return node->meta.name; }
  const Resource& Allocatable() const { return allocatable; }
  void AddPod(const PodInfo* p);
  // Removes a pod previously added; returns false if it was not there.
  bool RemovePod(const PodInfo* p);
};

// Per image name: size on each node is on the Node; here the count of nodes that have it.
struct ImageStateSummary {
  std::int64_t size = 0;
  int num_nodes = 0;
};

// All nodes, in the node tree order kube-scheduler iterates (zones interleaved), with their pods.
class Snapshot {
 public:
  std::vector<NodeInfo> nodes;
  std::unordered_map<std::string, int> node_index;                  // by name
  std::unordered_map<std::string, ImageStateSummary> image_states;  // by image name as on the node
  // Per node: image name -> size, for ImageLocality.
  std::vector<std::unordered_map<std::string, std::int64_t>> node_images;
  NamespaceLabels namespace_labels;
  // Services, ReplicaSets, StatefulSets (and Deployments): PodTopologySpread's system default constraints select
  // with them. May be null.
  const std::vector<Workload>* workloads = nullptr;
  // Claims, volumes, StorageClasses, CSINodes and CSIDrivers (the volume plugins). Never null in a ClusterState.
  VolumeCache* volumes = nullptr;
  std::vector<const NodeInfo*> have_pods_with_affinity;
  std::vector<const NodeInfo*> have_pods_with_required_anti_affinity;
  // Unique nonzero id of the node list, set by BuildNodeOrder (0: built by hand, per-node caches stay off).
  std::uint64_t layout_generation = 0;
  // Optional change log: when tracks_changes is set, the owner appends a node's index every time that node's pods
  // change (ClusterState::Bind), so per-node caches can visit only those. Never truncated. An owner that sets it
  // must log every change to a NodeInfo in nodes and never replace a NodeInfo's Node without BuildNodeOrder.
  bool tracks_changes = false;
  std::vector<int> changed_nodes;

  NodeInfo* Get(const std::string& name) {
    auto it = node_index.find(name);
    return it == node_index.end() ? nullptr : &nodes[static_cast<std::size_t>(it->second)];
  }
  const Labels* NamespaceLabelsOf(Symbol ns) const {
    auto it = namespace_labels.find(ns);
    return it == namespace_labels.end() ? nullptr : &it->second;
  }
  // Recomputes the affinity node lists after pods were added or removed.
  void RefreshAffinityLists();
};

// Builds a snapshot with nodes in node-tree order (upstream backend/cache/node_tree.go).
void BuildNodeOrder(const std::vector<const Node*>& nodes, Snapshot& out);

// Filter verdicts that depend only on pod spec fields a plugin reads and on the Node object (never on pods), kept
// across cycles: one row per distinct signature of those fields, one byte per snapshot node (unknown/pass/fail).
// A row is used only for a NodeInfo whose Node is the one at its index when the row's layout was taken, so what-if
// copies of NodeInfos share it. Invariants: BuildNodeOrder gives every node list a new layout_generation; Node
// objects are not mutated in place while a snapshot refers to them (a changed node is a new Node object).
class NodeVerdictCache {
 public:
  enum : std::uint8_t { kUnknown = 0, kPass = 1, kFail = 2 };
  struct Row {
    std::shared_ptr<const std::vector<const Node*>> nodes;  // layout: Node per snapshot index
    std::vector<std::uint64_t> key;                         // exact signature (not a hash)
    std::vector<std::uint8_t> verdict;                      // per snapshot index
    std::uint64_t last_used = 0;
  };
  // The row of key for the snapshot's current layout (new rows are all kUnknown); nullptr when the snapshot has no
  // layout_generation.
  std::shared_ptr<Row> Get(const Snapshot& snapshot, const std::vector<std::uint64_t>& key);

 private:
  static constexpr std::size_t kMaxRows = 32;
  const Snapshot* snapshot_ = nullptr;
  std::uint64_t layout_ = 0;
  std::uint64_t tick_ = 0;
  std::shared_ptr<const std::vector<const Node*>> nodes_;
  std::vector<std::shared_ptr<Row>> rows_;
};

// CycleState data of a plugin using a NodeVerdictCache: the current pod's row. Kept in a Filter plugin's prefilter
// slot, it promises that the plugin's Filter returns Success wherever the row holds kPass for the node (as
// FilterWithVerdicts does): Framework::RunFilter then skips the call.
struct VerdictState : StateData {
  std::shared_ptr<NodeVerdictCache::Row> row;
  // The verdict byte of node, or nullptr when the row does not cover it (then compute directly).
  std::uint8_t* Slot(const NodeInfo& node) const {
    const auto i = static_cast<std::size_t>(node.index);
    if (!row || i >= row->verdict.size() || (*row->nodes)[i] != node.node) return nullptr;
    return &row->verdict[i];
  }
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<VerdictState>(*this); }
};

// Filter through the VerdictState in slot (if any): a cached pass returns at once; otherwise compute() decides and
// its verdict is recorded. A failure is always recomputed so its Status (reasons) is exact.
template <typename Compute>
Status FilterWithVerdicts(const CycleState& state, std::size_t slot, const NodeInfo& node, Compute&& compute) {
  const auto* vs = state.Read<VerdictState>(slot);
  std::uint8_t* v = vs ? vs->Slot(node) : nullptr;
  if (v && *v == NodeVerdictCache::kPass) return {};
  Status s = compute();
  if (v) *v = s.IsSuccess() ? NodeVerdictCache::kPass : NodeVerdictCache::kFail;
  return s;
}

// Image names as ImageLocality normalizes them: a name without a tag or digest gets ":latest".
std::string NormalizedImageName(const std::string& name);

}  // namespace kplace::framework
