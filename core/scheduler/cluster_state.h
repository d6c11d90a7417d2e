// The cluster as kube-scheduler's cache sees it: a Snapshot of nodes with their bound pods, and a PodInfo for every
// pod of the scenario. Binding a pod updates its node's aggregates, so the next pod sees it (assume).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/model/scenario.h"
#include "core/scheduler/framework/nominator.h"
#include "core/scheduler/framework/types.h"
#include "core/scheduler/preemption/default_preemption.h"

namespace kplace {

class ClusterState {
 public:
  // Builds the snapshot from sc.nodes and binds every pod with spec.nodeName (Succeeded/Failed pods and pods
  // naming an unknown node hold nothing). priorities[i] is the resolved priority of sc.pods[i].
  // volumes: the claims and PVs as a run left them (kept across rebuilds of the state); a new VolumeCache of sc when
  // null.
  ClusterState(const Scenario& sc, const std::vector<std::int32_t>& priorities,
               std::shared_ptr<framework::VolumeCache> volumes = nullptr);

  framework::Snapshot snapshot;
  // Pending pods nominated to a node (input status.nominatedNodeName, or set by preemption).
  framework::Nominator nominator;
  // PodDisruptionBudgets with their current disruptionsAllowed (RefreshPdbs).
  std::vector<preemption::PdbBudget> pdbs;

  framework::PodInfo& Info(std::size_t pod_index) { return *infos_[pod_index]; }
  const framework::PodInfo& Info(std::size_t pod_index) const { return *infos_[pod_index]; }
  std::size_t NumPods() const { return infos_.size(); }
  // Binds pod (by index) to node; returns the node.
  void Bind(std::size_t pod_index, framework::NodeInfo& node);
  // Deletes a bound pod from its node (preemption). Returns false when it was not bound.
  bool Evict(std::size_t pod_index);
  // Recomputes pdbs: status.disruptionsAllowed when given (less the matching pods evicted since), else derived
  // from minAvailable / maxUnavailable over the pods as they are now.
  void RefreshPdbs();
  // The node a pod is bound to, or nullptr.
  framework::NodeInfo* NodeOf(std::size_t pod_index) const { return bound_[pod_index]; }

  const std::shared_ptr<framework::VolumeCache>& volumes() const { return volumes_; }

 private:
  std::shared_ptr<framework::VolumeCache> volumes_;
  std::vector<std::unique_ptr<framework::PodInfo>> infos_;
  std::vector<framework::NodeInfo*> bound_;
  std::vector<bool> evicted_;
  const Scenario* scenario_ = nullptr;
  // Per sc.pdbs entry, the pods of its namespace its selector picks (pod order); and per (namespace, controller
  // kind, controller name) the pods it controls. Pods, labels and owners do not change while a ClusterState lives,
  // so both are worked out once and RefreshPdbs visits only the pods that matter.
  void IndexPdbPods();
  std::vector<std::vector<std::size_t>> pdb_pods_;
  std::map<std::tuple<std::string, std::string, std::string>, std::int64_t> controlled_;
};

// Namespace labels: Namespace objects, plus an implicit namespace (labelled kubernetes.io/metadata.name) for
// "default" and every namespace a pod uses.
framework::NamespaceLabels BuildNamespaceLabels(const Scenario& sc);

}  // namespace kplace
