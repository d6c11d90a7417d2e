// A parsed scenario: every item of the input List, typed.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "core/model/features.h"
#include "core/model/objects.h"
#include "core/model/scheduler_config.h"

namespace kplace {

enum class Mode : std::uint8_t { Scheduler, Karpenter, Cluster };

struct Simulation {
  Mode mode = Mode::Cluster;
  std::uint64_t seed = 0;
  int kubernetes_minor = kDefaultMinor;  // one of kReleases
};

struct Scenario {
  // deques: stable addresses, PodInfo and NodeInfo point into them.
  std::deque<Node> nodes;
  std::deque<Pod> pods;  // as given, plus pods expanded from workloads (generated_from set)
  std::vector<PriorityClass> priority_classes;
  std::vector<PodDisruptionBudget> pdbs;
  std::vector<Workload> workloads;  // Deployment, ReplicaSet, StatefulSet, DaemonSet, Service
  std::vector<Namespace> namespaces;
  std::vector<NodePool> node_pools;
  std::vector<InstanceType> instance_types;
  SchedulerConfig scheduler_config;
  Simulation simulation;
  std::vector<std::string> warnings;  // e.g. ignored item kinds
};

}  // namespace kplace
