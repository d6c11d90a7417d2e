// Karpenter tries in-flight NodeClaims fewest pods first: upstream stable-sorts them by pod count before every pod
// (scheduling/scheduler.go add). kplace keeps that order incrementally; a claim that gains a pod moves after the
// claims that now hold fewer, a new claim goes after those holding as few.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/io/scenario_parser.h"
#include "core/karpenter/scheduler.h"

namespace kplace {
namespace {

std::string Pod(const std::string& name, const std::string& cpu, const std::string& zones) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu +
         R"("}}}],"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":)"
         R"([{"matchExpressions":[{"key":"topology.kubernetes.io/zone","operator":"In","values":[)" +
         zones +
         R"(]}]}]}}}},"status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]}})";
}

TEST(KarpenterInFlightOrder, AClaimThatGrewIsTriedAfterThoseWithFewerPods) {
  // Largest pods first: a (zone-a), b (zone-b), c (zone-c) each open a NodeClaim; p joins b's claim (2 pods), so
  // the order becomes a's, c's, b's; q fits b's and c's claims and must land on c's, which now has fewer pods.
  const std::string text =
      R"({"apiVersion":"v1","kind":"List","items":[)"
      R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},)"
      R"("spec":{"template":{"spec":{"requirements":[]}}}},)"
      R"({"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"big"},)"
      R"("spec":{"capacity":{"cpu":"16","memory":"64Gi","pods":"110"},"offerings":[)"
      R"({"zone":"zone-a","capacityType":"on-demand","price":1},{"zone":"zone-b","capacityType":"on-demand","price":1},)"
      R"({"zone":"zone-c","capacityType":"on-demand","price":1}]}},)" +
      Pod("a", "900m", R"("zone-a")") + "," + Pod("b", "800m", R"("zone-b")") + "," + Pod("c", "700m", R"("zone-c")") +
      "," + Pod("p", "600m", R"("zone-b")") + "," + Pod("q", "500m", R"("zone-b","zone-c")") + "]}";
  karpenter::Result r = karpenter::Provision(io::ParseScenario(text));
  std::map<std::string, const karpenter::PodOutcome*> by;
  for (const auto& o : r.pods) by[o.key] = &o;
  for (const char* k : {"default/a", "default/b", "default/c", "default/p", "default/q"})
    ASSERT_EQ(by.at(k)->kind, karpenter::PodOutcomeKind::Claim) << k;
  ASSERT_EQ(r.claims.size(), 3u);
  EXPECT_EQ(by.at("default/p")->claim, by.at("default/b")->claim);
  EXPECT_EQ(by.at("default/q")->claim, by.at("default/c")->claim);
  EXPECT_NE(by.at("default/q")->claim, by.at("default/b")->claim);
}

}  // namespace
}  // namespace kplace
