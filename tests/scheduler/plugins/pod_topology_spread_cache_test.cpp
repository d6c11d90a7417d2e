// PodTopologySpread's SnapshotCache keeps per-node counts across cycles and recounts only nodes whose pods changed
// (through the snapshot's change log and its own stamp log). Whatever the sequence of binds and evictions, a
// long-lived cache must give the PreFilter state a fresh cache gives.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "core/io/scenario_parser.h"
#include "core/scheduler/cluster_state.h"
#include "core/scheduler/plugins/podtopologyspread/filtering.h"

namespace kplace {
namespace {

using plugins::podtopologyspread::BuildConstraints;
using plugins::podtopologyspread::ComputePreFilterState;
using plugins::podtopologyspread::DefaultConstraints;
using plugins::podtopologyspread::PreFilterData;
using plugins::podtopologyspread::Scratch;

std::string ScenarioText(int nodes, int pods) {
  std::string items;
  for (int i = 0; i < nodes; ++i) {
    items += R"({"kind":"Node","metadata":{"name":"n)" + std::to_string(i) +
             R"(","labels":{"topology.kubernetes.io/zone":"z)" + std::to_string(i % 3) + R"(","rack":"r)" +
             std::to_string(i % 5) + R"("}},"status":{"allocatable":{"cpu":"100","memory":"100Gi","pods":"500"}})" +
             (i % 7 == 0 ? R"(,"spec":{"taints":[{"key":"t","value":"v","effect":"NoSchedule"}]})" : "") + "},";
  }
  for (int i = 0; i < pods; ++i) {
    const std::string app = "a" + std::to_string(i % 3);
    items += R"({"kind":"Pod","metadata":{"name":"p)" + std::to_string(i) + R"(","labels":{"app":")" + app +
             R"("}},"spec":{"containers":[{"name":"c","image":"x"}],)" +
             // Pods whose node inclusion policies differ share a selector: the running totals are kept per policy.
             (i % 5 == 1 ? R"("nodeSelector":{"rack":"r1"},)" : "") +
             (i % 5 == 2 ? R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":)"
                           R"({"nodeSelectorTerms":[{"matchExpressions":[{"key":"rack","operator":"NotIn",)"
                           R"("values":["r0"]}]}]}}},)"
                         : "") +
             R"("topologySpreadConstraints":[)" +
             R"({"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"DoNotSchedule",)" +
             (i % 3 == 0 ? R"("nodeTaintsPolicy":"Honor",)" : "") +
             (i % 4 == 0 ? R"("nodeAffinityPolicy":"Ignore",)" : "") + R"("labelSelector":{"matchLabels":{"app":")" +
             app + R"("}}})" +
             (i % 2 ? R"(,{"maxSkew":2,"topologyKey":"rack","whenUnsatisfiable":"DoNotSchedule",)"
                      R"("labelSelector":{"matchLabels":{"app":")" +
                          app + R"("}}})"
                    : std::string()) +
             "]}},";
  }
  items.pop_back();
  return R"({"kind":"List","items":[)" + items + "]}";
}

void ExpectSameData(const PreFilterData& a, const PreFilterData& b, const std::string& where) {
  EXPECT_EQ(a.counts, b.counts) << where;
  EXPECT_EQ(a.exists, b.exists) << where;
  EXPECT_EQ(a.num_domains, b.num_domains) << where;
  EXPECT_EQ(a.min_match, b.min_match) << where;
  EXPECT_EQ(a.over_skew, b.over_skew) << where;
}

// The counts PreFilter must hold, worked out directly from the snapshot (calPreFilterState): per constraint and
// domain, the matching pods of the nodes that have every key and pass the constraint's inclusion policies.
void ExpectCountsFromScratch(const PreFilterData& got, const framework::PodInfo& pod,
                             const std::vector<plugins::podtopologyspread::Constraint>& cs,
                             const framework::Snapshot& snapshot, const std::string& where) {
  using plugins::podtopologyspread::CountMatchingPods;
  using plugins::podtopologyspread::NodeInclusion;
  NodeInclusion inclusion(*pod.pod, cs);
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const auto& kd = *got.domains[i];
    std::vector<int> counts(kd.values.size(), 0);
    std::vector<char> exists(kd.values.size(), 0);
    for (std::size_t n = 0; n < snapshot.nodes.size(); ++n) {
      const auto& ni = snapshot.nodes[n];
      if (!plugins::podtopologyspread::NodeHasAllKeys(ni.node->meta.labels, cs)) continue;
      if (!NodeInclusion::Included(cs[i], inclusion.Evaluate(*ni.node))) continue;
      const auto d = static_cast<std::size_t>(kd.of_node[n]);
      exists[d] = 1;
      counts[d] += CountMatchingPods(ni, cs[i], pod.namespace_);
    }
    EXPECT_EQ(got.counts[i], counts) << where << " constraint " << i;
    EXPECT_EQ(got.exists[i], exists) << where << " constraint " << i;
  }
}

TEST(PodTopologySpreadCache, LongLivedCacheEqualsFreshThroughBindsAndEvictions) {
  const int kNodes = 40, kPods = 120;
  Scenario sc = io::ParseScenario(ScenarioText(kNodes, kPods));
  std::vector<std::int32_t> priorities(sc.pods.size(), 0);
  ClusterState cluster(sc, priorities);
  ASSERT_TRUE(cluster.snapshot.tracks_changes);
  Scratch kept;
  std::shared_ptr<PreFilterData> kept_recycled, fresh_recycled;
  std::mt19937 rng(7);
  std::vector<std::size_t> bound;
  int checks = 0;
  for (int step = 0; step < 400; ++step) {
    const std::size_t p = rng() % sc.pods.size();
    const framework::PodInfo& pod = cluster.Info(p);
    auto cs = BuildConstraints(*pod.pod, DefaultConstraints{}, UnsatisfiableAction::DoNotSchedule, nullptr);
    ASSERT_FALSE(cs.empty());
    auto with_kept = ComputePreFilterState(pod, cs, cluster.snapshot, kept, kept_recycled);
    Scratch fresh;
    auto with_fresh = ComputePreFilterState(pod, cs, cluster.snapshot, fresh, fresh_recycled);
    ExpectSameData(*with_kept->data, *with_fresh->data, "step " + std::to_string(step));
    ExpectCountsFromScratch(*with_kept->data, pod, cs, cluster.snapshot, "step " + std::to_string(step));
    ++checks;
    // Change the cluster: bind a pending pod somewhere, or evict a bound one (one in four).
    if (!bound.empty() && rng() % 4 == 0) {
      const std::size_t k = rng() % bound.size();
      ASSERT_TRUE(cluster.Evict(bound[k]));
      bound.erase(bound.begin() + static_cast<std::ptrdiff_t>(k));
    } else if (!cluster.NodeOf(p)) {
      cluster.Bind(p, cluster.snapshot.nodes[rng() % cluster.snapshot.nodes.size()]);
      bound.push_back(p);
    }
  }
  EXPECT_EQ(checks, 400);
  EXPECT_GT(bound.size(), 20u);
}

}  // namespace
}  // namespace kplace
