// Admission-time behaviour: priorities, default tolerations, DaemonSet pods, and the run loop's queue order.
#include "core/sim/admission.h"

#include <gtest/gtest.h>

#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"
#include "tests/testing/items.h"

namespace kplace {
namespace {

using io::Json;

Json Node(const std::string& name, Json extra = Json::object()) { return testing::NodeItem(name, std::move(extra)); }
Json Pod(const std::string& name, Json spec = Json::object()) { return testing::PodItem(name, std::move(spec)); }

Scenario Parse(Json items) {
  items.insert(items.begin(),
               Json{{"kind", "Simulation"}, {"metadata", {{"name", "s"}}}, {"spec", {{"mode", "scheduler"}}}});
  return io::ParseScenarioJson(Json{{"kind", "List"}, {"items", items}});
}
// Items in braces are an array even when there is one (clang would take {item} for a copy of the item).
Scenario Parse(std::initializer_list<Json> items) {
  Json array = Json::array();
  for (const Json& item : items) array.push_back(item);
  return Parse(std::move(array));
}

TEST(Admission, PriorityFromClassAndGlobalDefault) {
  Scenario sc = Parse({Json{{"kind", "PriorityClass"}, {"metadata", {{"name", "hi"}}}, {"value", 100}},
                       Json{{"kind", "PriorityClass"},
                            {"metadata", {{"name", "dflt"}}},
                            {"value", 7},
                            {"globalDefault", true},
                            {"preemptionPolicy", "Never"}},
                       Pod("a", {{"priorityClassName", "hi"}}), Pod("b"), Pod("c", {{"priority", 3}}),
                       Pod("d", {{"priorityClassName", "system-node-critical"}})});
  auto prio = sim::ResolvePriorities(sc);
  EXPECT_EQ(prio, (std::vector<std::int32_t>{100, 7, 3, 2000001000}));
  EXPECT_EQ(sc.pods[1].preemption_policy, PreemptionPolicy::Never);
}

TEST(Admission, MissingPriorityClassNamesThePod) {
  Scenario sc = Parse({Pod("a", {{"priorityClassName", "nope"}})});
  try {
    sim::ResolvePriorities(sc);
    FAIL() << "expected an error";
  } catch (const io::InputError& e) {
    EXPECT_STREQ(e.what(),
                 "items[1] (Pod default/a): spec.priorityClassName: no PriorityClass with name nope was found");
  }
}

TEST(Admission, DefaultTolerationSecondsAddsOnlyMissing) {
  Scenario sc = Parse({Pod("a"), Pod("b", {{"tolerations", {{{"operator", "Exists"}}}}})});
  sim::AddDefaultTolerations(sc.pods[0]);
  sim::AddDefaultTolerations(sc.pods[1]);
  ASSERT_EQ(sc.pods[0].tolerations.size(), 2u);
  EXPECT_EQ(Text(sc.pods[0].tolerations[0].key), "node.kubernetes.io/not-ready");
  EXPECT_EQ(sc.pods[0].tolerations[0].toleration_seconds, 300);
  EXPECT_EQ(sc.pods[1].tolerations.size(), 1u);  // Exists with empty key already tolerates both
}

TEST(Admission, DaemonSetPodsOnEligibleNodesOnly) {
  Json ds = {{"apiVersion", "apps/v1"},
             {"kind", "DaemonSet"},
             {"metadata", {{"name", "agent"}, {"namespace", "kube-system"}}},
             {"spec",
              {{"selector", {{"matchLabels", {{"app", "agent"}}}}},
               {"template",
                {{"metadata", {{"labels", {{"app", "agent"}}}}},
                 {"spec",
                  {{"nodeSelector", {{"role", "worker"}}},
                   {"containers", {{{"name", "c"}, {"resources", {{"requests", {{"cpu", "100m"}}}}}}}}}}}}}}};
  Json worker = {{"metadata", {{"labels", {{"role", "worker"}}}}}};
  Json tainted = worker;
  tainted["spec"] = {{"taints", {{{"key", "gpu"}, {"effect", "NoSchedule"}}}}};
  Json cordoned = worker;
  cordoned["spec"] = {{"unschedulable", true}};
  Scenario sc = Parse({ds, Node("w1", worker), Node("w2", tainted), Node("w3", cordoned), Node("other")});
  auto result = sim::Run(std::move(sc));
  std::map<std::string, std::string> placed;
  for (const auto& p : result.pods)
    if (p.generated_from == "DaemonSet/agent") placed[p.key] = p.node;
  // w2's taint is not tolerated; w3 is cordoned but daemon pods tolerate node.kubernetes.io/unschedulable;
  // "other" lacks the label.
  EXPECT_EQ(placed,
            (std::map<std::string, std::string>{{"kube-system/agent-w1", "w1"}, {"kube-system/agent-w3", "w3"}}));
}

TEST(Simulation, PriorityThenCreationThenInputOrder) {
  Scenario sc = Parse({Node("n", {{"status", {{"allocatable", {{"cpu", "2"}}}}}}), Pod("late", {{"priority", 5}}),
                       Pod("early", {{"priority", 5}}), Pod("first", {{"priority", 10}})});
  sc.pods[0].meta.creation_unix = 200;  // late
  sc.pods[1].meta.creation_unix = 100;  // early
  auto result = sim::Run(std::move(sc));
  EXPECT_EQ(result.bind_order, (std::vector<std::string>{"default/first", "default/early"}));
}

TEST(Simulation, PodAffinityRetriedAfterItsTargetBinds) {
  // "follower" comes first in the queue (higher priority) but requires a pod that has not been scheduled yet;
  // once "leader" binds, the queueing hint of InterPodAffinity sends it back and it lands next to the leader.
  Json follower_spec = {{"priority", 10},
                        {"affinity",
                         {{"podAffinity",
                           {{"requiredDuringSchedulingIgnoredDuringExecution",
                             {{{"labelSelector", {{"matchLabels", {{"app", "leader"}}}}},
                               {"topologyKey", "kubernetes.io/hostname"}}}}}}}}};
  Json leader = Pod("leader", {{"nodeSelector", {{"kubernetes.io/hostname", "n2"}}}});
  leader["metadata"]["labels"] = {{"app", "leader"}};
  Scenario sc = Parse({Node("n1"), Node("n2"), Pod("follower", follower_spec), leader});
  auto result = sim::Run(std::move(sc));
  const sim::PodResult* f = nullptr;
  for (const auto& p : result.pods)
    if (p.key == "default/follower") f = &p;
  ASSERT_TRUE(f);
  EXPECT_EQ(f->node, "n2");
  ASSERT_EQ(f->attempts.size(), 2u);
  EXPECT_EQ(f->attempts[0].message,
            "0/2 nodes are available: 2 node(s) didn't match pod affinity rules. "
            "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
}

TEST(Simulation, SeedDecidesTiesButOutputIsStable) {
  auto run = [](std::uint64_t seed) {
    Scenario sc = Parse({Node("n1"), Node("n2"), Node("n3"), Pod("p")});
    sc.simulation.seed = seed;
    return io::Dump(io::ResultToJson(sim::Run(std::move(sc))));
  };
  std::set<std::string> outcomes;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    EXPECT_EQ(run(seed), run(seed));
    outcomes.insert(run(seed));
  }
  EXPECT_GT(outcomes.size(), 1u) << "three identical nodes: different seeds should pick different nodes";
}

}  // namespace
}  // namespace kplace
