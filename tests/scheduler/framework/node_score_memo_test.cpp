// NodeScoreMemo: per-node scores remembered per NodeInfo generation, and the score plugins that use it
// (NodeResourcesFit, NodeResourcesBalancedAllocation) scoring exactly as a fresh plugin would after nodes change.
#include "core/scheduler/framework/node_score_memo.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/io/scenario_parser.h"
#include "core/model/objects.h"
#include "core/scheduler/framework/framework.h"

namespace kplace {
namespace {

using framework::NodeInfo;
using framework::NodeScoreMemo;

Node MakeNode(const std::string& name, std::int64_t milli_cpu, std::int64_t memory) {
  Node n;
  n.meta.name = name;
  n.allocatable.milli_cpu = milli_cpu;
  n.allocatable.memory = memory;
  n.allocatable.allowed_pod_number = 110;
  return n;
}

Pod MakePod(const std::string& name, std::int64_t milli_cpu, std::int64_t memory) {
  Pod p;
  p.meta.name = name;
  p.meta.namespace_ = "default";
  Container c;
  c.name = "c";
  c.requests.milli_cpu = milli_cpu;
  c.requests.memory = memory;
  c.has_cpu_request = milli_cpu > 0;
  c.has_memory_request = memory > 0;
  p.containers.push_back(c);
  return p;
}

TEST(NodeScoreMemo, ComputesOncePerGenerationAndKey) {
  std::vector<Node> nodes = {MakeNode("a", 1000, 1 << 30), MakeNode("b", 2000, 1 << 30)};
  std::vector<const Node*> list = {&nodes[0], &nodes[1]};
  framework::Snapshot snapshot;
  framework::BuildNodeOrder(list, snapshot);
  // Every NodeInfo of a new node list has a generation of its own.
  EXPECT_NE(snapshot.nodes[0].generation, 0u);
  EXPECT_NE(snapshot.nodes[0].generation, snapshot.nodes[1].generation);

  NodeScoreMemo memo;
  int computed = 0;
  auto score = [&](const NodeInfo& n, std::int64_t value) {
    return memo.Score(n, [&] {
      ++computed;
      return value;
    });
  };
  memo.Begin({100});
  EXPECT_EQ(score(snapshot.nodes[0], 7), 7);
  EXPECT_EQ(score(snapshot.nodes[1], 8), 8);
  EXPECT_EQ(computed, 2);
  // Same key, same generations: remembered (the value passed is not used).
  memo.Begin({100});
  EXPECT_EQ(score(snapshot.nodes[0], 70), 7);
  EXPECT_EQ(computed, 2);
  // A pod added: a new generation, computed again.
  const Pod pod = MakePod("p", 100, 0);
  auto info = framework::NewPodInfo(pod, 0);
  snapshot.nodes[0].AddPod(info.get());
  EXPECT_EQ(score(snapshot.nodes[0], 70), 70);
  EXPECT_EQ(score(snapshot.nodes[1], 80), 8);
  EXPECT_EQ(computed, 3);
  // Another key has its own table; the first key's is kept.
  memo.Begin({200});
  EXPECT_EQ(score(snapshot.nodes[0], 5), 5);
  memo.Begin({100});
  EXPECT_EQ(score(snapshot.nodes[0], 0), 70);
  EXPECT_EQ(computed, 4);
  // Four keys are kept; a fifth drops the least recently used ({200}).
  for (std::int64_t k : {300, 400, 500}) {
    memo.Begin({k});
    score(snapshot.nodes[0], k);
  }
  EXPECT_EQ(computed, 7);
  memo.Begin({100});
  EXPECT_EQ(score(snapshot.nodes[0], 0), 70);
  memo.Begin({200});
  EXPECT_EQ(score(snapshot.nodes[0], 6), 6);
  EXPECT_EQ(computed, 8);
}

TEST(NodeScoreMemo, NeverCachesANodeInfoBuiltByHand) {
  Node node = MakeNode("a", 1000, 1 << 30);
  NodeInfo ni;
  ni.node = &node;
  ASSERT_EQ(ni.generation, 0u);
  NodeScoreMemo memo;
  memo.Begin({1});
  EXPECT_EQ(memo.Score(ni, [] { return std::int64_t{1}; }), 1);
  EXPECT_EQ(memo.Score(ni, [] { return std::int64_t{2}; }), 2);
}

// One framework scoring cycle after cycle while pods are bound (its plugins remember scores) gives every node the
// score a framework that never scored before gives it.
TEST(NodeScoreMemo, ResourceScoresEqualAFreshFrameworksAsNodesFill) {
  for (const char* strategy : {"LeastAllocated", "MostAllocated"}) {
    SCOPED_TRACE(strategy);
    const std::string text = std::string(R"({"kind":"List","items":[{"kind":"KubeSchedulerConfiguration",
      "profiles":[{"schedulerName":"default-scheduler","pluginConfig":[{"name":"NodeResourcesFit",
      "args":{"scoringStrategy":{"type":")") +
                             strategy + R"("}}}]}]}]})";
    const Scenario sc = io::ParseScenario(text);
    std::string error;
    auto kept = framework::Framework::Create(sc.scheduler_config, Features(), &error);
    ASSERT_TRUE(kept) << error;

    std::vector<Node> nodes = {MakeNode("a", 4000, 8LL << 30), MakeNode("b", 2000, 16LL << 30),
                               MakeNode("c", 8000, 4LL << 30)};
    std::vector<const Node*> list;
    for (const auto& n : nodes) list.push_back(&n);
    framework::Snapshot snapshot;
    framework::BuildNodeOrder(list, snapshot);
    std::vector<const NodeInfo*> infos;
    for (const auto& ni : snapshot.nodes) infos.push_back(&ni);

    // Two workloads of different requests, alternating (two keys), each bound to the node the step names.
    std::vector<Pod> pods;
    for (int i = 0; i < 12; ++i)
      pods.push_back(MakePod("p" + std::to_string(i), i % 2 ? 250 : 500, i % 2 ? 1LL << 30 : 1LL << 28));
    std::vector<std::unique_ptr<framework::PodInfo>> bound;
    std::set<std::int64_t> totals;
    for (std::size_t i = 0; i < pods.size(); ++i) {
      auto info = framework::NewPodInfo(pods[i], 0);
      auto scores_of = [&](framework::Framework& fw) {
        framework::CycleState state;
        fw.ResetState(state);
        EXPECT_TRUE(fw.RunPreScore(state, *info, infos, snapshot).IsSuccess());
        std::vector<framework::NodeScores> scores;
        EXPECT_TRUE(fw.RunScore(state, *info, infos, scores, /*detail=*/true).IsSuccess());
        std::vector<std::vector<std::int64_t>> out;
        for (const auto& s : scores) {
          std::vector<std::int64_t> parts;
          for (const auto& p : s.plugins) parts.push_back(p.raw);
          out.push_back(parts);
          totals.insert(s.total);
        }
        return out;
      };
      auto fresh = framework::Framework::Create(sc.scheduler_config, Features(), &error);
      ASSERT_TRUE(fresh) << error;
      EXPECT_EQ(scores_of(*kept), scores_of(*fresh)) << "pod " << i;
      snapshot.nodes[i % 3].AddPod(info.get());
      bound.push_back(std::move(info));
    }
    EXPECT_GT(totals.size(), 3u);  // the scores did move as the nodes filled
  }
}

}  // namespace
}  // namespace kplace
