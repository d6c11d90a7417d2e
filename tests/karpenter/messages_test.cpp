// Karpenter's messages byte for byte, where they come from errors wrapped with structured values. Upstream wraps them
// with github.com/awslabs/operatorpkg serrors, whose Error() prints "<message> (key=value, ...)", keys sorted (serrors
// since its second commit, a0c5d2f of 2025-04-15; Karpenter's own suite asserts err.Error() == "nodepool not found
// (NodePool=<name>)" in pkg/controllers/disruption/suite_test.go). And the events Karpenter publishes for them
// (pkg/controllers/provisioning/scheduling/events.go): FailedScheduling on pods, NoCompatibleInstanceTypes on
// NodePools.
#include <gtest/gtest.h>

#include <map>

#include "core/io/scenario_parser.h"
#include "core/karpenter/existing_node.h"
#include "core/karpenter/scheduler.h"
#include "core/sim/simulation.h"

namespace kplace {
namespace {

constexpr const char* kMarked =
    R"("status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]})";

// Node n1 runs web (hostPort 8080). NodePools: np-a (no nodes left), gpu (tainted), empty (no instance type meets its
// requirements). Pending: p (hostPort 8080), ign (a karpenter.sh label), opt-out (also karpenter.sh/nodepool
// DoesNotExist), np (not marked unschedulable), done (Succeeded).
std::string Scenario(const std::string& mode) {
  return std::string(R"({"apiVersion":"v1","kind":"List","items":[
    {"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},"spec":{"mode":")") +
         mode + R"("}},
    {"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"np-a"},
     "spec":{"limits":{"nodes":"0"},"template":{"spec":{"requirements":[]}}}},
    {"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"gpu"},
     "spec":{"template":{"spec":{"requirements":[],
       "taints":[{"key":"nvidia.com/gpu","value":"true","effect":"NoSchedule"}]}}}},
    {"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"empty"},
     "spec":{"template":{"spec":{"requirements":[
       {"key":"node.kubernetes.io/instance-type","operator":"In","values":["nope"]}]}}}},
    {"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"small"},
     "spec":{"capacity":{"cpu":"2","memory":"4Gi","pods":"10"},
             "offerings":[{"zone":"zone-a","capacityType":"on-demand","price":1}]}},
    {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},
     "status":{"allocatable":{"cpu":"4","memory":"16Gi","pods":"110"}}},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"default"},
     "spec":{"nodeName":"n1","containers":[{"name":"c","ports":[{"containerPort":80,"hostPort":8080}]}]}},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},
     "spec":{"containers":[{"name":"c","ports":[{"containerPort":80,"hostPort":8080}],
                            "resources":{"requests":{"cpu":"100m"}}}]},)" +
         kMarked + R"(},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"ign","namespace":"default"},
     "spec":{"nodeSelector":{"karpenter.sh/foo":"x"},"containers":[{"name":"c"}]},)" +
         kMarked + R"(},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"opt-out","namespace":"default"},
     "spec":{"nodeSelector":{"karpenter.sh/foo":"x"},"containers":[{"name":"c"}],
             "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
               {"matchExpressions":[{"key":"karpenter.sh/nodepool","operator":"DoesNotExist"}]}]}}}},)" +
         kMarked + R"(},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"np","namespace":"default"},
     "spec":{"containers":[{"name":"c"}]}},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"done","namespace":"default"},
     "spec":{"containers":[{"name":"c"}]},"status":{"phase":"Succeeded"}}
  ]})";
}

constexpr const char* kHostPortConflict =
    "checking host port usage, pod hostport conflicts with existing hostport configuration "
    "(existing-hostport-ip=0.0.0.0, "
    "existing-hostport-port=8080, existing-hostport-protocol=TCP, pod-hostport-ip=0.0.0.0, pod-hostport-port=8080, "
    "pod-hostport-protocol=TCP)";
constexpr const char* kRestricted = "using label karpenter.sh/foo is not allowed";

std::map<std::string, const karpenter::PodOutcome*> ByKey(const karpenter::Result& r) {
  std::map<std::string, const karpenter::PodOutcome*> out;
  for (const auto& o : r.pods) out[o.key] = &o;
  return out;
}

TEST(KarpenterMessages, WrappedValuesFollowTheMessage) {
  karpenter::ProvisionOptions opts;
  opts.explain_all = true;
  const karpenter::Result r = karpenter::Provision(io::ParseScenario(Scenario("karpenter")), opts);
  auto pods = ByKey(r);
  const karpenter::PodOutcome& p = *pods.at("default/p");
  ASSERT_EQ(p.kind, karpenter::PodOutcomeKind::Unschedulable);
  // scheduler.go addToNewNodeClaim: one error per NodePool (weight, then name descending), joined by multierr.
  EXPECT_EQ(p.reason,
            "node limits have been exhausted for nodepool (NodePool=np-a); "
            "did not tolerate taint (taint=nvidia.com/gpu=true:NoSchedule)");
  // existingnode.go CanAdd: the host port conflict, with the ports HostPortUsage.Conflicts wrapped.
  ASSERT_FALSE(p.attempts.empty());
  ASSERT_FALSE(p.attempts[0].tries.empty());
  const auto& candidates = p.attempts[0].tries[0].candidates;
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates[0].target, "node/n1");
  EXPECT_EQ(candidates[0].reason, kHostPortConflict);
}

TEST(KarpenterMessages, NodePoolEventIsAnObjectOnTheNodePool) {
  const karpenter::Result r = karpenter::Provision(io::ParseScenario(Scenario("karpenter")));
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].type, "Warning");
  EXPECT_EQ(r.events[0].reason, "NoCompatibleInstanceTypes");
  EXPECT_EQ(r.events[0].object, "NodePool/empty");
  EXPECT_EQ(r.events[0].message, "NodePool requirements filtered out all compatible available instance types");
}

TEST(KarpenterMessages, WhichPodsGetAFailedSchedulingEvent) {
  const karpenter::Result r = karpenter::Provision(io::ParseScenario(Scenario("karpenter")));
  auto pods = ByKey(r);
  ASSERT_EQ(pods.at("default/ign")->kind, karpenter::PodOutcomeKind::Ignored);
  ASSERT_EQ(pods.at("default/opt-out")->kind, karpenter::PodOutcomeKind::Ignored);
  EXPECT_TRUE(karpenter::PublishesFailedScheduling(*pods.at("default/p")));
  EXPECT_TRUE(karpenter::PublishesFailedScheduling(*pods.at("default/ign")));
  // provisioner.go GetPendingPods: errors.Is(err, KarpenterManagedLabelDoesNotExistError) over the combined errors.
  EXPECT_EQ(pods.at("default/opt-out")->reason.rfind(karpenter::kManagedLabelDoesNotExist, 0), 0u);
  EXPECT_FALSE(karpenter::PublishesFailedScheduling(*pods.at("default/opt-out")));
  EXPECT_FALSE(karpenter::PublishesFailedScheduling(*pods.at("default/np")));

  karpenter::PodOutcome none;  // provisioner.go Schedule: no NodePool, the pods are only marked
  none.kind = karpenter::PodOutcomeKind::Unschedulable;
  none.reason = "no dynamic nodepools found";
  EXPECT_FALSE(karpenter::PublishesFailedScheduling(none));
}

TEST(KarpenterMessages, ClusterModeEventsMirrorWhatKarpenterPublishes) {
  const sim::SimResult r = sim::Run(io::ParseScenario(Scenario("cluster")));
  std::vector<const sim::Event*> karpenter;
  for (const auto& e : r.events)
    if (e.source == "karpenter") karpenter.push_back(&e);
  // GetPendingPods' event on ign (none on opt-out), NewScheduler's on NodePool empty, Results.Record's on p.
  ASSERT_EQ(karpenter.size(), 3u);
  EXPECT_EQ(karpenter[0]->reason, "FailedScheduling");
  EXPECT_EQ(karpenter[0]->pod, "default/ign");
  EXPECT_EQ(karpenter[0]->message.rfind(std::string("Failed to schedule pod, ") + kRestricted, 0), 0u)
      << karpenter[0]->message;
  EXPECT_EQ(karpenter[1]->type, "Warning");
  EXPECT_EQ(karpenter[1]->reason, "NoCompatibleInstanceTypes");
  EXPECT_EQ(karpenter[1]->pod, "");
  EXPECT_EQ(karpenter[1]->object, "NodePool/empty");
  EXPECT_EQ(karpenter[1]->message, "NodePool requirements filtered out all compatible available instance types");
  EXPECT_EQ(karpenter[2]->reason, "FailedScheduling");
  EXPECT_EQ(karpenter[2]->pod, "default/p");
  EXPECT_EQ(karpenter[2]->message,
            "Failed to schedule pod, node limits have been exhausted for nodepool (NodePool=np-a); "
            "did not tolerate taint (taint=nvidia.com/gpu=true:NoSchedule)");
}

TEST(KarpenterMessages, HostPortIPsPrintAsGoPrintsThem) {
  EXPECT_EQ(karpenter::GoIPString("0.0.0.0"), "0.0.0.0");
  EXPECT_EQ(karpenter::GoIPString("10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(karpenter::GoIPString("010.1.2.3"), "<nil>");  // netip rejects leading zeros
  EXPECT_EQ(karpenter::GoIPString("1.2.3"), "<nil>");
  EXPECT_EQ(karpenter::GoIPString("256.1.1.1"), "<nil>");
  EXPECT_EQ(karpenter::GoIPString("::"), "::");
  EXPECT_EQ(karpenter::GoIPString("::1"), "::1");
  EXPECT_EQ(karpenter::GoIPString("::ffff:10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(karpenter::GoIPString("2001:DB8:0:0:0:0:0:1"), "2001:db8::1");
  EXPECT_EQ(karpenter::GoIPString("1:0:0:2:0:0:3:4"), "1::2:0:0:3:4");  // the first of equal zero runs
  EXPECT_EQ(karpenter::GoIPString("1:0:2:0:3:0:4:0"), "1:0:2:0:3:0:4:0");
  EXPECT_EQ(karpenter::GoIPString("fe80::1%eth0"), "<nil>");  // net.ParseIP rejects zones
  EXPECT_EQ(karpenter::GoIPString("1::2::3"), "<nil>");
  EXPECT_EQ(karpenter::GoIPString("::1.2.3.4"), "::102:304");
}

TEST(KarpenterMessages, HostPortMatchingFollowsTheParsedAddresses) {
  auto port = [](const char* ip) {
    ContainerPort p;
    p.host_port = 8080;
    p.protocol = Intern("TCP");
    p.host_ip = Intern(ip);
    return p;
  };
  // HostPort.Matches: equal addresses, or either unspecified (0.0.0.0 or ::).
  EXPECT_TRUE(karpenter::PortsConflict({port("10.0.0.1")}, {port("::ffff:10.0.0.1")}));
  EXPECT_TRUE(karpenter::PortsConflict({port("::")}, {port("10.0.0.1")}));
  EXPECT_FALSE(karpenter::PortsConflict({port("10.0.0.1")}, {port("10.0.0.2")}));
  EXPECT_EQ(karpenter::HostPortConflict({port("10.0.0.1")}, {port("0.0.0.0")}),
            "pod hostport conflicts with existing hostport configuration (existing-hostport-ip=10.0.0.1, "
            "existing-hostport-port=8080, existing-hostport-protocol=TCP, pod-hostport-ip=0.0.0.0, "
            "pod-hostport-port=8080, pod-hostport-protocol=TCP)");
}

}  // namespace
}  // namespace kplace
