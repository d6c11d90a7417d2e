// Solver::Add passes over the in-flight NodeClaims whose hostname the pod's hostname topology rules out (its own
// hostname spread and anti-affinity, others' anti-affinity selecting it) without trying them, unless it records the
// attempt. Whether it records must never change where a pod goes: every pod, every NodeClaim and its pods, the
// messages and the hostname counter come out the same with every attempt recorded as with none.
#include <gtest/gtest.h>

#include <set>

#include "core/io/scenario_parser.h"
#include "core/karpenter/scheduler.h"

namespace kplace {
namespace {

std::string PodItem(int n, const std::string& labels, const std::string& cpu, const std::string& extra) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p)" + std::to_string(n) +
         R"(","namespace":"default","labels":)" + labels +
         R"(},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu + R"("}}}])" + extra +
         R"(},"status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]}})";
}

std::string Anti(const std::string& app) {
  return R"(,"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
         R"({"labelSelector":{"matchLabels":{"app":")" +
         app + R"("}},"topologyKey":"kubernetes.io/hostname"}]}})";
}

std::string HostSpread(int skew, const std::string& app) {
  return R"(,"topologySpreadConstraints":[{"maxSkew":)" + std::to_string(skew) +
         R"(,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"DoNotSchedule",)"
         R"("labelSelector":{"matchLabels":{"app":")" +
         app + R"("}}}])";
}

// Anti-affinity pods (selecting themselves, and others' pods that do not select back), hostname spreads of skew 1
// and 2 selecting their own pods or another workload's, pods with no topology: in an order that leaves in-flight
// NodeClaims of every kind for each.
std::string Mixed() {
  std::string items =
      R"({"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},"spec":{"mode":"karpenter"}},)"
      R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},)"
      R"("spec":{"template":{"spec":{"requirements":[]}}}},)"
      R"({"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"small"},)"
      R"("spec":{"capacity":{"cpu":"2","memory":"4Gi","pods":"10"},)"
      R"("offerings":[{"zone":"zone-a","capacityType":"on-demand","price":1}]}},)"
      R"({"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"large"},)"
      R"("spec":{"capacity":{"cpu":"8","memory":"16Gi","pods":"40"},)"
      R"("offerings":[{"zone":"zone-a","capacityType":"on-demand","price":3.5}]}})";
  const char* cpus[] = {"100m", "250m", "500m", "1"};
  for (int i = 0; i < 120; ++i) {
    const std::string cpu = cpus[i % 4];
    std::string pod;
    switch (i % 6) {
      case 0:
        pod = PodItem(i, R"({"app":"nginx"})", cpu, Anti("nginx"));
        break;
      case 1:
        pod = PodItem(i, R"({"app":"nginx"})", cpu, "");
        break;  // selected by nginx's anti-affinity only
      case 2:
        pod = PodItem(i, R"({"app":"web"})", cpu, HostSpread(1, "web"));
        break;
      case 3:
        pod = PodItem(i, R"({"app":"api"})", cpu, HostSpread(2, "api"));
        break;
      case 4:
        pod = PodItem(i, R"({"app":"job"})", cpu, HostSpread(1, "web") + Anti("api"));
        break;
      default:
        pod = PodItem(i, R"({"app":"plain"})", cpu, "");
        break;
    }
    items += "," + pod;
  }
  return R"({"apiVersion":"v1","kind":"List","items":[)" + items + "]}";
}

TEST(KarpenterHostBlockers, RecordingEveryAttemptPlacesTheSame) {
  const Scenario sc = io::ParseScenario(Mixed());
  const karpenter::Result fast = karpenter::Provision(sc);
  karpenter::ProvisionOptions all;
  all.explain_all = true;
  const karpenter::Result recorded = karpenter::Provision(sc, all);
  ASSERT_EQ(fast.pods.size(), recorded.pods.size());
  std::size_t on_claims = 0;
  for (std::size_t i = 0; i < fast.pods.size(); ++i) {
    const auto& a = fast.pods[i];
    const auto& b = recorded.pods[i];
    EXPECT_EQ(a.kind, b.kind) << a.key;
    EXPECT_EQ(a.claim, b.claim) << a.key;
    EXPECT_EQ(a.node, b.node) << a.key;
    EXPECT_EQ(a.reason, b.reason) << a.key;
    EXPECT_EQ(a.relaxations, b.relaxations) << a.key;
    EXPECT_FALSE(b.attempts.empty()) << a.key;
    if (a.kind == karpenter::PodOutcomeKind::Claim) ++on_claims;
  }
  EXPECT_EQ(on_claims, fast.pods.size());
  ASSERT_EQ(fast.claims.size(), recorded.claims.size());
  for (std::size_t c = 0; c < fast.claims.size(); ++c) {
    EXPECT_EQ(fast.claims[c].name, recorded.claims[c].name);
    EXPECT_EQ(fast.claims[c].instance_type, recorded.claims[c].instance_type);
    EXPECT_EQ(fast.claims[c].pods, recorded.claims[c].pods);
    EXPECT_EQ(fast.claims[c].requirements, recorded.claims[c].requirements);
  }
  EXPECT_EQ(fast.hostname_seq, recorded.hostname_seq);
  // The anti-affinity pods (every sixth) each have a NodeClaim without another nginx pod.
  std::set<int> nginx_claims;
  for (std::size_t i = 0; i < fast.pods.size(); i += 6) nginx_claims.insert(fast.pods[i].claim);
  EXPECT_EQ(nginx_claims.size(), (fast.pods.size() + 5) / 6);
  for (std::size_t i = 1; i < fast.pods.size(); i += 6) EXPECT_EQ(nginx_claims.count(fast.pods[i].claim), 0u);
}

}  // namespace
}  // namespace kplace
