// The hostname placeholder of a NodeClaim under construction shows in hostname topology messages. Upstream
// (sched/nodeclaim.go NewNodeClaim) numbers it from a counter advanced for every NodeClaim it builds, i.e. every
// NodePool template tried for every pod attempt, successful or not, starting at 1 ("hostname-placeholder-0001").
#include <gtest/gtest.h>

#include "core/io/scenario_parser.h"
#include "core/karpenter/scheduler.h"

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

TEST(KarpenterHostnamePlaceholder, AdvancesForEveryNodeClaimBuilt) {
  // Queue: big (fits no type: its attempts build claims 0001 and 0004), a (claim 0002), b (cannot join a's claim
  // for cpu; the new claim 0003 has no pod matching its hostname affinity).
  const std::string text =
      R"({"apiVersion":"v1","kind":"List","items":[)"
      R"({"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},"spec":{"mode":"karpenter"}},)"
      R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},)"
      R"("spec":{"template":{"spec":{"requirements":[]}}}},)"
      R"({"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"small"},)"
      R"("spec":{"capacity":{"cpu":"1","memory":"4Gi","pods":"10"},)"
      R"("offerings":[{"zone":"zone-a","capacityType":"on-demand","price":1}]}},)" +
      Pod("big", "2", false) + "," + Pod("a", "600m", true) + "," + Pod("b", "600m", true) + "]}";
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
}

}  // namespace
}  // namespace kplace
