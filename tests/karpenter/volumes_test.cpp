// Karpenter's view of volumes (core/karpenter/volumes.*): the alternatives a pod's volumes allow, crossed over its
// volumes (volumetopology.go GetRequirements), the drivers its claims count against (volumeusage.go GetVolumes) and a
// node's attach limits. The provisioning outcomes are in tests/data/karpenter/volume_topology.json.
#include "core/karpenter/volumes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/io/scenario_parser.h"

namespace kplace {
namespace {

std::string Claim(const std::string& name, const std::string& cls, const std::string& volume = "") {
  std::string spec = R"("accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}})";
  if (!cls.empty()) spec += R"(,"storageClassName":")" + cls + "\"";
  if (!volume.empty()) spec += R"(,"volumeName":")" + volume + "\"";
  std::string meta = R"("name":")" + name + R"(","namespace":"default")";
  if (!volume.empty()) meta += R"(,"annotations":{"pv.kubernetes.io/bind-completed":"yes"})";
  return R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{)" + meta + R"(},"spec":{)" + spec + "}}";
}

std::string Class(const std::string& name, const std::string& provisioner, const std::string& topologies) {
  return R"({"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"name":")" + name +
         R"("},"provisioner":")" + provisioner +
         R"(","volumeBindingMode":"WaitForFirstConsumer","allowedTopologies":[)" + topologies + "]}";
}

std::string Zones(const std::string& key, const std::string& values) {
  return R"({"matchLabelExpressions":[{"key":")" + key + R"(","values":[)" + values + "]}]}";
}

std::string PodWith(const std::vector<std::string>& claims) {
  std::string vols;
  for (std::size_t i = 0; i < claims.size(); ++i)
    vols += (i ? "," : "") + std::string(R"({"name":"v)") + std::to_string(i) +
            R"(","persistentVolumeClaim":{"claimName":")" + claims[i] + "\"}}";
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},)"
         R"("spec":{"containers":[{"name":"c"}],"volumes":[)" +
         vols + "]}}";
}

Scenario Parse(const std::vector<std::string>& items) {
  std::string text = R"({"apiVersion":"v1","kind":"List","items":[)";
  for (std::size_t i = 0; i < items.size(); ++i) text += (i ? "," : "") + items[i];
  return io::ParseScenario(text + "]}");
}

std::vector<std::string> Alternatives(const Scenario& sc) {
  framework::VolumeCache storage(sc);
  std::vector<karpenter::Requirements> alts;
  std::string err;
  EXPECT_TRUE(karpenter::VolumeTopologyRequirements(sc.pods.at(0), storage, &alts, &err)) << err;
  std::vector<std::string> out;
  for (const auto& a : alts) out.push_back(a.String());
  return out;
}

TEST(KarpenterVolumes, TermsOfEachVolumeAreCrossedAndDisjointBranchesPruned) {
  // a: zone-1 or zone-2; b: zone-2 or zone-3. Only zone-2 survives the cross product.
  const Scenario sc = Parse({Class("a", "ebs.csi.aws.com",
                                   Zones("topology.kubernetes.io/zone", R"("zone-1")") + "," +
                                       Zones("topology.kubernetes.io/zone", R"("zone-2")")),
                             Class("b", "ebs.csi.aws.com",
                                   Zones("topology.kubernetes.io/zone", R"("zone-2")") + "," +
                                       Zones("topology.kubernetes.io/zone", R"("zone-3")")),
                             Claim("ca", "a"), Claim("cb", "b"), PodWith({"ca", "cb"})});
  EXPECT_EQ(Alternatives(sc), std::vector<std::string>{"topology.kubernetes.io/zone In [zone-2]"});
}

TEST(KarpenterVolumes, WhenEveryBranchIsDisjointAllAreKept) {
  // mergeVolumeRequirementAlternatives keeps the full cross product when pruning would leave nothing: each branch
  // then fails CanAdd with its own incompatibility.
  const Scenario sc = Parse({Class("a", "ebs.csi.aws.com", Zones("topology.kubernetes.io/zone", R"("zone-1")")),
                             Class("b", "ebs.csi.aws.com",
                                   Zones("topology.kubernetes.io/zone", R"("zone-2")") + "," +
                                       Zones("topology.kubernetes.io/zone", R"("zone-3")")),
                             Claim("ca", "a"), Claim("cb", "b"), PodWith({"ca", "cb"})});
  EXPECT_EQ(Alternatives(sc).size(), 2u);
}

TEST(KarpenterVolumes, BetaZoneKeysAreNormalised) {
  const Scenario sc =
      Parse({Class("a", "ebs.csi.aws.com", Zones("failure-domain.beta.kubernetes.io/zone", R"("zone-1")")),
             Claim("ca", "a"), PodWith({"ca"})});
  EXPECT_EQ(Alternatives(sc), std::vector<std::string>{"topology.kubernetes.io/zone In [zone-1]"});
}

TEST(KarpenterVolumes, ClaimsCountAgainstTheirDriverAndLimitsComeFromTheCSINode) {
  const Scenario sc = Parse({
      Class("in-tree", "kubernetes.io/aws-ebs", ""),
      Class("csi", "ebs.csi.aws.com", ""),
      Class("other", "example.com/nfs", ""),
      Claim("a", "in-tree"),
      Claim("b", "csi"),
      Claim("c", "other"),
      R"({"apiVersion":"storage.k8s.io/v1","kind":"CSINode","metadata":{"name":"n1"},"spec":{"drivers":[)"
      R"({"name":"ebs.csi.aws.com","nodeID":"i-1","allocatable":{"count":1}},)"
      R"({"name":"example.com/nfs","nodeID":"i-1","allocatable":{}},)"
      R"({"name":"example.com/unlimited","nodeID":"i-1"}]}})",
      PodWith({"a", "b", "c", "missing"}),
  });
  framework::VolumeCache storage(sc);
  const karpenter::Volumes v = karpenter::PodVolumes(sc.pods.at(0), storage);
  ASSERT_EQ(v.size(), 2u);  // the missing claim is not counted
  EXPECT_EQ(v.at("ebs.csi.aws.com"), (std::set<std::string>{"default/a", "default/b"}));
  EXPECT_EQ(v.at("example.com/nfs"), (std::set<std::string>{"default/c"}));

  karpenter::VolumeUsage usage = karpenter::NodeVolumeLimits("n1", storage);
  EXPECT_EQ(usage.limits.size(), 2u);  // a driver without allocatable has no limit; allocatable without count: 0
  EXPECT_EQ(usage.limits.at("example.com/nfs"), 0);
  // Drivers are checked in name order: ebs.csi.aws.com (2 > 1) before example.com/nfs (1 > 0).
  EXPECT_EQ(usage.ExceedsLimits(v),
            "would exceed volume limit (provisioner=ebs.csi.aws.com, volume-count=2, "
            "volume-limit=1)");
  usage.limits["ebs.csi.aws.com"] = 2;
  EXPECT_EQ(usage.ExceedsLimits(v),
            "would exceed volume limit (provisioner=example.com/nfs, volume-count=1, volume-limit=0)");
  usage.limits.erase("example.com/nfs");
  EXPECT_EQ(usage.ExceedsLimits(v), "");
  // A claim the node already mounts counts once.
  usage.Add(v);
  EXPECT_EQ(usage.ExceedsLimits(v), "");
  EXPECT_EQ(karpenter::NodeVolumeLimits("n2", storage).limits.size(), 0u);
}

}  // namespace
}  // namespace kplace
