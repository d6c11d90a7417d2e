// InterPodAffinity's IncomingCounts keeps the incoming pod's affinity and anti-affinity counts across cycles and
// recounts only nodes whose pods changed. Whatever the sequence of pods (terms that differ reset it) and of binds and
// evictions, the counts it gives must be those a walk over every bound pod gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "core/io/scenario_parser.h"
#include "core/scheduler/cluster_state.h"
#include "core/scheduler/plugins/interpodaffinity/filtering.h"
#include "core/scheduler/plugins/interpodaffinity/scoring.h"

namespace kplace {
namespace {

using plugins::interpodaffinity::ComputePreFilterState;
using plugins::interpodaffinity::ComputePreScoreState;
using plugins::interpodaffinity::IncomingCounts;
using plugins::interpodaffinity::ScoreCounts;

std::string ScenarioText(int nodes, int pods) {
  std::string items = R"({"kind":"Namespace","metadata":{"name":"team-a","labels":{"team":"a"}}},)"
                      R"({"kind":"Namespace","metadata":{"name":"team-b","labels":{"team":"b"}}},)";
  for (int i = 0; i < nodes; ++i) {
    items += R"({"kind":"Node","metadata":{"name":"n)" + std::to_string(i) +
             R"(","labels":{"kubernetes.io/hostname":"n)" + std::to_string(i) +
             R"(","topology.kubernetes.io/zone":"z)" + std::to_string(i % 3) + R"(")" +
             // Some nodes lack the rack key: their pods count for no rack term.
             (i % 4 ? R"(,"rack":"r)" + std::to_string(i % 5) + R"(")" : std::string()) +
             R"(}},"status":{"allocatable":{"cpu":"100","memory":"100Gi","pods":"500"}}},)";
  }
  const char* keys[] = {"topology.kubernetes.io/zone", "rack", "kubernetes.io/hostname"};
  for (int i = 0; i < pods; ++i) {
    const std::string app = "a" + std::to_string(i % 3);
    const std::string ns = i % 2 ? "team-a" : "team-b";
    const std::string key = keys[i % 3];
    std::string affinity;
    // Four shapes of terms, so the cache both reuses and resets: affinity to the pod's own app, anti-affinity to
    // another app (with a namespaceSelector), both, or none.
    switch (i % 4) {
      case 0:
        affinity = R"("podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":")" + key +
                   R"(","labelSelector":{"matchLabels":{"app":")" + app + R"("}}}]})";
        break;
      case 1:
        affinity = R"("podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":")" + key +
                   R"(","namespaceSelector":{"matchLabels":{"team":"a"}},"labelSelector":{"matchExpressions":)"
                   R"([{"key":"app","operator":"In","values":["a0","a1"]}]}}]})";
        break;
      case 2:
        affinity =
            R"("podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"rack",)"
            R"("namespaceSelector":{},"labelSelector":{"matchLabels":{"app":"a1"}}}]},)"
            R"("podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":")" +
            key + R"(","labelSelector":{"matchLabels":{"app":")" + app +
            R"("}}},{"topologyKey":"topology.kubernetes.io/zone","labelSelector":{"matchLabels":{"app":"a2"}}}]})";
        break;
      default:
        // Preferred terms of both kinds (the pod's own side of scoring); weights differ by app.
        affinity = R"("podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":)" +
                   std::to_string(1 + i % 3) + R"(,"podAffinityTerm":{"topologyKey":")" + key +
                   R"(","labelSelector":{"matchLabels":{"app":"a0"}}}}]},)"
                   R"("podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":5,)"
                   R"("podAffinityTerm":{"topologyKey":"rack","labelSelector":{"matchLabels":{"app":")" +
                   app + R"("}}}}]})";
        break;
    }
    items += R"({"kind":"Pod","metadata":{"name":"p)" + std::to_string(i) + R"(","namespace":")" + ns +
             R"(","labels":{"app":")" + app + R"("}},"spec":{"containers":[{"name":"c","image":"x"}])" +
             (affinity.empty() ? std::string() : R"(,"affinity":{)" + affinity + "}") + "}},";
  }
  items.pop_back();
  return R"({"kind":"List","items":[)" + items + "]}";
}

// Changes the cluster between two checks: binds a pod somewhere, or evicts a bound one (one in four).
void ChangeCluster(ClusterState& cluster, std::mt19937& rng, std::vector<std::size_t>& bound) {
  const std::size_t q = rng() % cluster.NumPods();
  if (!bound.empty() && rng() % 4 == 0) {
    const std::size_t k = rng() % bound.size();
    EXPECT_TRUE(cluster.Evict(bound[k]));
    bound.erase(bound.begin() + static_cast<std::ptrdiff_t>(k));
  } else if (!cluster.NodeOf(q)) {
    cluster.Bind(q, cluster.snapshot.nodes[rng() % cluster.snapshot.nodes.size()]);
    bound.push_back(q);
  }
}

TEST(InterPodAffinityCache, LongLivedCountsEqualAWalkOverEveryPodThroughBindsAndEvictions) {
  const int kNodes = 30, kPods = 160;
  Scenario sc = io::ParseScenario(ScenarioText(kNodes, kPods));
  std::vector<std::int32_t> priorities(sc.pods.size(), 0);
  ClusterState cluster(sc, priorities);
  ASSERT_NE(cluster.snapshot.layout_generation, 0u);
  IncomingCounts kept;
  std::mt19937 rng(11);
  std::vector<std::size_t> bound;
  int checks = 0, nonempty = 0;
  for (int step = 0; step < 600; ++step) {
    // Runs of the same pod shape (as replicas come one after another), then another shape.
    const std::size_t p = (step / 5 * 4 + rng() % 3) % sc.pods.size();
    const framework::PodInfo& pod = cluster.Info(p);
    auto with_kept = ComputePreFilterState(pod, cluster.snapshot, &kept);
    auto walked = ComputePreFilterState(pod, cluster.snapshot);
    const std::string where = "step " + std::to_string(step) + " pod " + sc.pods[p].meta.name;
    ASSERT_EQ(with_kept == nullptr, walked == nullptr) << where;
    if (walked) {
      EXPECT_TRUE(with_kept->affinity_counts.SameCounts(walked->affinity_counts)) << where;
      EXPECT_TRUE(with_kept->anti_affinity_counts.SameCounts(walked->anti_affinity_counts)) << where;
      EXPECT_TRUE(with_kept->existing_anti_affinity.SameCounts(walked->existing_anti_affinity)) << where;
      nonempty += !walked->affinity_counts.empty() || !walked->anti_affinity_counts.empty();
      ++checks;
    }
    ChangeCluster(cluster, rng, bound);
  }
  EXPECT_GT(checks, 300);
  EXPECT_GT(nonempty, 200);
  EXPECT_GT(bound.size(), 40u);
  // The same cache on another snapshot (nothing bound there) starts over rather than keeping this one's parts.
  ClusterState other(sc, priorities);
  for (std::size_t p = 0; p < 8; ++p) {
    auto with_kept = ComputePreFilterState(other.Info(p), other.snapshot, &kept);
    auto walked = ComputePreFilterState(other.Info(p), other.snapshot);
    ASSERT_EQ(with_kept == nullptr, walked == nullptr) << p;
    if (walked) {
      EXPECT_TRUE(with_kept->affinity_counts.SameCounts(walked->affinity_counts)) << p;
      EXPECT_TRUE(with_kept->anti_affinity_counts.SameCounts(walked->anti_affinity_counts)) << p;
    }
  }
}

// PreScore's topology scores (the pod's preferred terms over every bound pod, and the bound pods' required affinity
// and preferred terms selecting the pod) from a long-lived cache equal a walk over every pod, Skip included.
TEST(InterPodAffinityCache, LongLivedScoresEqualAWalkOverEveryPodThroughBindsAndEvictions) {
  const int kNodes = 30, kPods = 160;
  Scenario sc = io::ParseScenario(ScenarioText(kNodes, kPods));
  std::vector<std::int32_t> priorities(sc.pods.size(), 0);
  ClusterState cluster(sc, priorities);
  InterPodAffinityArgs args;
  args.hard_pod_affinity_weight = 3;
  ScoreCounts kept;
  std::vector<const framework::NodeInfo*> nodes;
  for (const auto& n : cluster.snapshot.nodes) nodes.push_back(&n);
  std::mt19937 rng(5);
  std::vector<std::size_t> bound;
  int scored = 0, skipped = 0;
  for (int step = 0; step < 600; ++step) {
    const std::size_t p = (step / 5 * 4 + rng() % 4) % sc.pods.size();
    const framework::PodInfo& pod = cluster.Info(p);
    auto with_kept = ComputePreScoreState(args, pod, nodes, cluster.snapshot, &kept);
    auto walked = ComputePreScoreState(args, pod, nodes, cluster.snapshot);
    const std::string where = "step " + std::to_string(step) + " pod " + sc.pods[p].meta.name;
    ASSERT_EQ(with_kept == nullptr, walked == nullptr) << where;
    if (walked) {
      EXPECT_TRUE(with_kept->topology_score.SameCounts(walked->topology_score)) << where;
      auto sorted = walked->topology_score.keys();
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(with_kept->topology_score.keys(), sorted) << where;
      for (const auto* n : nodes)
        EXPECT_EQ(plugins::interpodaffinity::ScoreNode(*with_kept, *n),
                  plugins::interpodaffinity::ScoreNode(*walked, *n))
            << where << " " << n->Name();
      ++scored;
    } else {
      ++skipped;
    }
    ChangeCluster(cluster, rng, bound);
  }
  EXPECT_GT(scored, 300);
  EXPECT_GT(skipped, 0);
  EXPECT_GT(bound.size(), 40u);
}

}  // namespace
}  // namespace kplace
