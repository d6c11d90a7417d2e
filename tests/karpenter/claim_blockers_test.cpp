// Solver::Add passes over the in-flight NodeClaims whose hostname the pod's hostname topology rules out (its own
// hostname spread and anti-affinity, others' anti-affinity selecting it), and those whose requirement for a pod
// affinity's key allows none of the domains holding its pods, without trying them, unless it records the attempt.
// Whether it records must never change where a pod goes: every pod, every NodeClaim and its pods, the messages and
// the hostname counter come out the same with every attempt recorded as with none.
#include <gtest/gtest.h>

#include <map>
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

// Provisions sc with no attempt recorded and with every one; expects the same answers.
void ExpectSameRecordedOrNot(const Scenario& sc, karpenter::Result& fast) {
  fast = karpenter::Provision(sc);
  karpenter::ProvisionOptions all;
  all.explain_all = true;
  const karpenter::Result recorded = karpenter::Provision(sc, all);
  ASSERT_EQ(fast.pods.size(), recorded.pods.size());
  for (std::size_t i = 0; i < fast.pods.size(); ++i) {
    const auto& a = fast.pods[i];
    const auto& b = recorded.pods[i];
    EXPECT_EQ(a.kind, b.kind) << a.key;
    EXPECT_EQ(a.claim, b.claim) << a.key;
    EXPECT_EQ(a.node, b.node) << a.key;
    EXPECT_EQ(a.reason, b.reason) << a.key;
    EXPECT_EQ(a.relaxations, b.relaxations) << a.key;
    EXPECT_FALSE(b.attempts.empty()) << a.key;
  }
  ASSERT_EQ(fast.claims.size(), recorded.claims.size());
  for (std::size_t c = 0; c < fast.claims.size(); ++c) {
    EXPECT_EQ(fast.claims[c].name, recorded.claims[c].name);
    EXPECT_EQ(fast.claims[c].instance_type, recorded.claims[c].instance_type);
    EXPECT_EQ(fast.claims[c].zone, recorded.claims[c].zone);
    EXPECT_EQ(fast.claims[c].pods, recorded.claims[c].pods);
    EXPECT_EQ(fast.claims[c].requirements, recorded.claims[c].requirements);
  }
  EXPECT_EQ(fast.hostname_seq, recorded.hostname_seq);
}

std::string ZoneAffinity(const char* kind, const std::string& key, const std::string& value) {
  return std::string(R"("affinity":{")") + kind + R"(":{"requiredDuringSchedulingIgnoredDuringExecution":[)" +
         R"({"labelSelector":{"matchLabels":{")" + key + R"(":")" + value +
         R"("}},"topologyKey":"topology.kubernetes.io/zone"}]}})";
}

std::string ZonePreferred(const std::string& value) {
  return R"("affinity":{"podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":10,)"
         R"("podAffinityTerm":{"labelSelector":{"matchLabels":{"grp":")" +
         value + R"("}},"topologyKey":"topology.kubernetes.io/zone"}}]}})";
}

std::string ZoneIn(const char* op, const std::string& zones) {
  return R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[)"
         R"({"matchExpressions":[{"key":"topology.kubernetes.io/zone","operator":")" +
         std::string(op) + R"(","values":[)" + zones + "]}]}]}}}";
}

// Pods with zone pod affinity: to their own group (one of them only in zone-b, so its first pod bootstraps there), to
// another workload's group, to a group no pod has (not selecting itself: pending), preferred only; with pods that
// leave NodeClaims free of zone (plain), narrow them to zones (In, spreads) or keep them off one (NotIn).
std::string ZoneMixed() {
  std::string items =
      R"({"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},"spec":{"mode":"karpenter"}},)"
      R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},)"
      R"("spec":{"template":{"spec":{"requirements":[]}}}})";
  for (const char* size : {"small", "large"}) {
    const bool large = std::string(size) == "large";
    items += std::string(R"(,{"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":")") + size +
             R"("},"spec":{"capacity":{"cpu":")" + (large ? "8" : "2") + R"(","memory":"16Gi","pods":"20"},)" +
             R"("offerings":[)";
    const char* zones[] = {"zone-a", "zone-b", "zone-c"};
    for (int z = 0; z < 3; ++z)
      items += std::string(z ? "," : "") + R"({"zone":")" + zones[z] + R"(","capacityType":"on-demand","price":)" +
               (large ? "3." : "1.") + std::to_string(z) + "}";
    items += "]}}";
  }
  const char* cpus[] = {"100m", "250m", "500m", "1"};
  for (int i = 0; i < 160; ++i) {
    const std::string cpu = cpus[(i / 8) % 4];
    std::string labels = R"({"app":"plain"})", extra;
    switch (i % 8) {
      case 0:
        labels = R"({"grp":"a"})";
        extra = "," + ZoneAffinity("podAffinity", "grp", "a");
        break;
      case 1:
        labels = R"({"grp":"b"})";
        extra =
            ",\"nodeSelector\":{\"topology.kubernetes.io/zone\":\"zone-b\"}," + ZoneAffinity("podAffinity", "grp", "b");
        break;
      case 2:
        labels = R"({"app":"follower"})";
        extra = "," + ZoneAffinity("podAffinity", "grp", "a");
        break;
      case 3:
        labels = R"({"app":"lonely"})";
        extra = "," + ZoneAffinity("podAffinity", "grp", "nobody");
        break;
      case 4:
        if (i % 16 == 4) {
          labels = R"({"app":"pref"})";
          extra = "," + ZonePreferred("b");
        }
        break;
      case 5:
        extra = "," + ZoneIn("NotIn", R"("zone-c")");
        break;
      case 6:
        labels = R"({"app":"spread"})";
        extra = R"(,"topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone",)"
                R"("whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"spread"}}}])";
        break;
      default:
        extra = "," + ZoneIn("In", R"("zone-a","zone-c")");
        break;
    }
    items += "," + PodItem(i, labels, cpu, extra);
  }
  return R"({"apiVersion":"v1","kind":"List","items":[)" + items + "]}";
}

TEST(KarpenterClaimBlockers, ZoneAffinityRecordingEveryAttemptPlacesTheSame) {
  const Scenario sc = io::ParseScenario(ZoneMixed());
  karpenter::Result fast;
  ExpectSameRecordedOrNot(sc, fast);
  // Each group's pods share one zone: grp=a's (and its followers') wherever the first went, grp=b's zone-b.
  std::set<std::string> zone_a, zone_b;
  std::size_t pending = 0;
  for (std::size_t i = 0; i < fast.pods.size(); ++i) {
    const auto& p = fast.pods[i];
    if (i % 8 == 3) {
      EXPECT_EQ(p.kind, karpenter::PodOutcomeKind::Unschedulable) << p.key;
      ++pending;
      continue;
    }
    ASSERT_EQ(p.kind, karpenter::PodOutcomeKind::Claim) << p.key;
    const std::string& zone = fast.claims[static_cast<std::size_t>(p.claim)].zone;
    if (i % 8 == 0 || i % 8 == 2) zone_a.insert(zone);
    if (i % 8 == 1) zone_b.insert(zone);
    if (i % 8 == 5) {
      EXPECT_NE(zone, "zone-c") << p.key;
    }
  }
  EXPECT_EQ(pending, 20u);
  EXPECT_EQ(zone_a.size(), 1u);
  EXPECT_EQ(zone_b, std::set<std::string>{"zone-b"});
}

TEST(KarpenterClaimBlockers, HostnameRecordingEveryAttemptPlacesTheSame) {
  const Scenario sc = io::ParseScenario(Mixed());
  karpenter::Result fast;
  ExpectSameRecordedOrNot(sc, fast);
  std::size_t on_claims = 0;
  for (const auto& p : fast.pods)
    if (p.kind == karpenter::PodOutcomeKind::Claim) ++on_claims;
  EXPECT_EQ(on_claims, fast.pods.size());
  // The anti-affinity pods (every sixth) each have a NodeClaim without another nginx pod.
  std::set<int> nginx_claims;
  for (std::size_t i = 0; i < fast.pods.size(); i += 6) nginx_claims.insert(fast.pods[i].claim);
  EXPECT_EQ(nginx_claims.size(), (fast.pods.size() + 5) / 6);
  for (std::size_t i = 1; i < fast.pods.size(); i += 6) EXPECT_EQ(nginx_claims.count(fast.pods[i].claim), 0u);
}

// Many in-flight NodeClaims of room for two pods, and pods that may share one only with a pod of another kind
// (required hostname anti-affinity to their own app; a hostname spread of skew 1 over theirs): 200 anti-affinity pods
// on 200 NodeClaims, 220 spread pods filling them and then 20 NodeClaims of their own, 20 anti-affinity pods again,
// which only those 20 admit (Add visits only them, in the order of all, and must take the first); with pods whose
// preferred node affinity names no zone, relaxed on the way (Topology::Update: what Add remembered is dropped).
std::string ManyClaims() {
  std::string items =
      R"({"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},"spec":{"mode":"karpenter"}},)"
      R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},)"
      R"("spec":{"template":{"spec":{"requirements":[]}}}},)"
      R"({"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"two-pods"},)"
      R"("spec":{"capacity":{"cpu":"2","memory":"4Gi","pods":"2"},)"
      R"("offerings":[{"zone":"zone-a","capacityType":"on-demand","price":1}]}})";
  const std::string nowhere =
      R"(,"affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,)"
      R"("preference":{"matchExpressions":[{"key":"topology.kubernetes.io/zone","operator":"In",)"
      R"("values":["nowhere"]}]}}]}})";
  for (int i = 0; i < 440; ++i) {
    std::string pod;
    if (i % 110 == 55)
      pod = PodItem(i, R"({"app":"relaxed"})", "100m", nowhere);
    else if (i >= 200 && i < 420)
      pod = PodItem(i, R"({"app":"web"})", "100m", HostSpread(1, "web"));
    else
      pod = PodItem(i, R"({"app":"nginx"})", "100m", Anti("nginx"));
    items += "," + pod;
  }
  return R"({"apiVersion":"v1","kind":"List","items":[)" + items + "]}";
}

TEST(KarpenterClaimBlockers, ManyNodeClaimsRecordingEveryAttemptPlacesTheSame) {
  const Scenario sc = io::ParseScenario(ManyClaims());
  karpenter::Result fast;
  ExpectSameRecordedOrNot(sc, fast);
  std::map<int, std::string> app_of_claim;  // "nginx", "web", or both
  std::size_t relaxed = 0;
  for (std::size_t i = 0; i < fast.pods.size(); ++i) {
    const auto& p = fast.pods[i];
    ASSERT_EQ(p.kind, karpenter::PodOutcomeKind::Claim) << p.key;
    if (i % 110 == 55) {
      EXPECT_EQ(p.relaxations.size(), 1u) << p.key;
      ++relaxed;
      continue;
    }
    std::string& apps = app_of_claim[p.claim];
    const std::string app = i >= 200 && i < 420 ? "web" : "nginx";
    EXPECT_EQ(apps.find(app), std::string::npos) << p.key << " shares " << fast.claims[p.claim].name;
    apps += app;
  }
  EXPECT_EQ(relaxed, 4u);
  // The last anti-affinity pods joined the spread pods' own NodeClaims, the first of them first.
  const int first_late = fast.pods[420].claim;
  EXPECT_EQ(app_of_claim[first_late], "webnginx");
  for (std::size_t i = 421; i < 440; ++i) EXPECT_GT(fast.pods[i].claim, first_late) << fast.pods[i].key;
}

}  // namespace
}  // namespace kplace
