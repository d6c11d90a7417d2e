// The hostname placeholder of a NodeClaim under construction shows in hostname topology messages. Upstream
// (sched/nodeclaim.go NewNodeClaim) numbers it from a counter advanced for every NodeClaim it builds, i.e. every
// NodePool template tried for every pod attempt, successful or not, starting at 1 ("hostname-placeholder-0001"). The
// counter lives as long as the process, so in cluster mode it carries on from one round to the next.
#include <gtest/gtest.h>

#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/karpenter/scheduler.h"
#include "core/sim/simulation.h"

namespace kplace {
namespace {

std::string Pod(const std::string& name, const std::string& cpu, bool affinity) {
  std::string spec = R"({"containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu + R"("}}}])";
  if (affinity)
    spec += R"(,"affinity":{"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
            R"({"labelSelector":{"matchLabels":{"app":"x"}},"topologyKey":"kubernetes.io/hostname"}]}})";
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default","labels":{"app":"x"}},"spec":)" + spec +
         R"(},"status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]}})";
}

// The scenario of the first test, in the given mode.
std::string Scenario3(const std::string& mode) {
  return R"({"apiVersion":"v1","kind":"List","items":[)"
         R"({"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},"spec":{"mode":")" +
         mode +
         R"("}},)"
         R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},)"
         R"("spec":{"template":{"spec":{"requirements":[]}}}},)"
         R"({"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"small"},)"
         R"("spec":{"capacity":{"cpu":"1","memory":"4Gi","pods":"10"},)"
         R"("offerings":[{"zone":"zone-a","capacityType":"on-demand","price":1}]}},)" +
         Pod("big", "2", false) + "," + Pod("a", "600m", true) + "," + Pod("b", "600m", true) + "]}";
}

TEST(KarpenterHostnamePlaceholder, AdvancesForEveryNodeClaimBuilt) {
  // Queue: big (fits no type: its attempts build claims 0001 and 0004), a (claim 0002), b (cannot join a's claim
  // for cpu; the new claim 0003 has no pod matching its hostname affinity).
  const std::string text = Scenario3("karpenter");
  Scenario sc = io::ParseScenario(text);
  karpenter::Result r = karpenter::Provision(sc);
  std::map<std::string, const karpenter::PodOutcome*> by_key;
  for (const auto& o : r.pods) by_key[o.key] = &o;
  ASSERT_EQ(by_key.at("default/a")->kind, karpenter::PodOutcomeKind::Claim);
  ASSERT_EQ(by_key.at("default/b")->kind, karpenter::PodOutcomeKind::Unschedulable);
  EXPECT_EQ(by_key.at("default/b")->reason,
            "unsatisfiable topology constraint for pod affinity, key=kubernetes.io/hostname (counts = "
            "hostname-placeholder-0002: 1, podDomains = kubernetes.io/hostname Exists, nodeDomains = "
            "kubernetes.io/hostname In [hostname-placeholder-0003]");
  ASSERT_EQ(by_key.at("default/big")->kind, karpenter::PodOutcomeKind::Unschedulable);
  ASSERT_EQ(r.claims.size(), 1u);
  EXPECT_EQ(r.claims[0].name, "default-0");
  EXPECT_EQ(r.hostname_seq, 4);
}

TEST(KarpenterHostnamePlaceholder, StartsAfterTheGivenCounter) {
  Scenario sc = io::ParseScenario(Scenario3("karpenter"));
  karpenter::ProvisionOptions opts;
  opts.hostname_seq = 40;
  karpenter::Result r = karpenter::Provision(sc, opts);
  EXPECT_EQ(r.hostname_seq, 44);
  for (const auto& o : r.pods) {
    if (o.key != "default/b") continue;
    EXPECT_NE(o.reason.find("nodeDomains = kubernetes.io/hostname In [hostname-placeholder-0043]"), std::string::npos)
        << o.reason;
  }
}

TEST(KarpenterHostnamePlaceholder, CarriesOverBetweenClusterRounds) {
  // Round 1 is the karpenter-mode run above (placeholders 0001-0004; "a" launches default-0). In round 2
  // kube-scheduler binds "a" to default-0; "big" and "b" (no room beside "a") go back to Karpenter, whose
  // placeholders continue from 0005 as upstream's process-wide counter does: big builds 0005 and b's new claim 0006
  // (no pod scheduled, so no retry pass).
  const std::string text = Scenario3("cluster");
  sim::SimResult r = sim::Run(io::ParseScenario(text));
  ASSERT_GE(r.rounds.size(), 2u);
  ASSERT_TRUE(r.rounds[1].provision.has_value());
  EXPECT_EQ(r.rounds[1].provision->hostname_seq, 6);
  const sim::PodResult* b = nullptr;
  for (const auto& p : r.pods)
    if (p.key == "default/b") b = &p;
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->karpenter.size(), 2u);
  EXPECT_NE(b->karpenter[0].reason.find("In [hostname-placeholder-0003]"), std::string::npos) << b->karpenter[0].reason;
  EXPECT_NE(b->karpenter[1].reason.find("In [hostname-placeholder-0006]"), std::string::npos) << b->karpenter[1].reason;
  // Deterministic: the same input gives the same bytes.
  EXPECT_EQ(io::ResultToJson(r).dump(), io::ResultToJson(sim::Run(io::ParseScenario(text))).dump());
}

}  // namespace
}  // namespace kplace
