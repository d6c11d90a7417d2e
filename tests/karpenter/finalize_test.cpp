// FinalizeClaims (scheduling/nodeclaim.go FinalizeScheduling, cloudprovider/types.go OrderByPrice): each NodeClaim's
// options are priced by the cheapest offering its own zone and capacity-type requirements allow, and its
// capacity-type requirement lists what its options' compatible offerings give. kplace keeps those prices per
// distinct pair of requirements across claims and stops scanning offerings once every capacity type is found; these
// cases would catch a price or a capacity type carried over from another claim.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/io/scenario_parser.h"
#include "core/karpenter/scheduler.h"
#include "core/model/symbol.h"

namespace kplace {
namespace {

// A pending pod that requires one of zones (JSON strings) and, if set, that capacity type and not that instance type.
std::string Pod(const std::string& name, const std::string& zones, const std::string& capacity_type = "",
                const std::string& not_type = "") {
  std::string expressions = R"({"key":"topology.kubernetes.io/zone","operator":"In","values":[)" + zones + "]}";
  if (!capacity_type.empty())
    expressions += R"(,{"key":"karpenter.sh/capacity-type","operator":"In","values":[")" + capacity_type + R"("]})";
  if (!not_type.empty())
    expressions += R"(,{"key":"node.kubernetes.io/instance-type","operator":"NotIn","values":[")" + not_type + R"("]})";
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"default"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"3"}}}],)"
         R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":)"
         R"([{"matchExpressions":[)" +
         expressions +
         R"(]}]}}}},"status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]}})";
}

std::string Type(const std::string& name, const std::string& offerings) {
  return R"({"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":")" + name +
         R"("},"spec":{"capacity":{"cpu":"4","memory":"16Gi","pods":"110"},"offerings":[)" + offerings + "]}}";
}

std::string Offer(const std::string& zone, const std::string& capacity_type, const std::string& price) {
  return R"({"zone":")" + zone + R"(","capacityType":")" + capacity_type + R"(","price":)" + price + "}";
}

// Each pod needs a node of its own (3 of 4 CPUs), so each opens its own NodeClaim. x is cheap in zone-a, dear in
// zone-b; y the reverse, and in zone-a cheaper as spot; z and w offer spot only, in zone-b, z the cheapest of all and w
// the dearest.
std::string Scenario(const std::vector<std::string>& pods) {
  std::string text = R"({"apiVersion":"v1","kind":"List","items":[)";
  text += R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},)";
  text += R"("spec":{"template":{"spec":{"requirements":[]}}}})";
  text += "," + Type("x", Offer("zone-a", "on-demand", "0.1") + "," + Offer("zone-b", "on-demand", "0.5"));
  const std::string y = Offer("zone-a", "on-demand", "0.4") + "," + Offer("zone-a", "spot", "0.3") + "," +
                        Offer("zone-b", "on-demand", "0.2");
  text += "," + Type("y", y);
  text += "," + Type("z", Offer("zone-b", "spot", "0.05"));
  text += "," + Type("w", Offer("zone-b", "spot", "0.9"));
  for (const auto& p : pods) text += "," + p;
  return text + "]}";
}

struct Option {
  std::string type;
  double price;
  bool operator==(const Option&) const = default;
};

struct Claims {
  karpenter::Result result;
  std::map<std::string, const karpenter::ClaimOutcome*> of_pod;

  explicit Claims(const std::string& text) : result(karpenter::Provision(io::ParseScenario(text))) {
    for (const auto& p : result.pods) {
      EXPECT_EQ(p.kind, karpenter::PodOutcomeKind::Claim) << p.key << ": " << p.reason;
      if (p.kind == karpenter::PodOutcomeKind::Claim)
        of_pod[p.key] = &result.claims.at(static_cast<std::size_t>(p.claim));
    }
  }
  std::vector<Option> Options(const std::string& pod) const {
    std::vector<Option> out;
    for (const auto& o : of_pod.at(pod)->options) out.push_back({Text(o.instance_type), o.price});
    return out;
  }
  std::string Requirement(const std::string& pod, const std::string& key) const {
    for (const auto& r : of_pod.at(pod)->requirements)
      if (r.rfind(key + " ", 0) == 0) return r;
    return "";
  }
};

TEST(KarpenterFinalize, EachClaimIsPricedByItsOwnZoneAndCapacityType) {
  // a and c share a pair of requirements (zone-a); b's differs by zone; d's from b's and g's from a's only by the
  // capacity type.
  const Claims c(Scenario({Pod("a", R"("zone-a")"), Pod("b", R"("zone-b")"), Pod("c", R"("zone-a")"),
                           Pod("d", R"("zone-b")", "on-demand"), Pod("g", R"("zone-a")", "on-demand")}));
  ASSERT_EQ(c.result.claims.size(), 5u);
  const std::vector<Option> zone_a = {{"x", 0.1}, {"y", 0.3}};
  EXPECT_EQ(c.Options("default/a"), zone_a);
  EXPECT_EQ(c.Options("default/c"), zone_a);
  EXPECT_EQ(c.Options("default/b"), (std::vector<Option>{{"z", 0.05}, {"y", 0.2}, {"x", 0.5}, {"w", 0.9}}));
  EXPECT_EQ(c.Options("default/d"), (std::vector<Option>{{"y", 0.2}, {"x", 0.5}}));
  EXPECT_EQ(c.Options("default/g"), (std::vector<Option>{{"x", 0.1}, {"y", 0.4}}));
  // The launch: the cheapest option's cheapest offering under the claim's own requirements.
  EXPECT_EQ(c.of_pod.at("default/a")->instance_type, "x");
  EXPECT_EQ(c.of_pod.at("default/a")->zone, "zone-a");
  EXPECT_DOUBLE_EQ(c.of_pod.at("default/a")->price, 0.1);
  EXPECT_EQ(c.of_pod.at("default/b")->instance_type, "z");
  EXPECT_EQ(c.of_pod.at("default/b")->capacity_type, "spot");
  EXPECT_EQ(c.of_pod.at("default/d")->instance_type, "y");
  EXPECT_EQ(c.of_pod.at("default/d")->capacity_type, "on-demand");
  EXPECT_DOUBLE_EQ(c.result.hourly_price, 0.1 + 0.05 + 0.1 + 0.2 + 0.1);
}

TEST(KarpenterFinalize, CapacityTypesComeFromEveryOptionUpToTheLast) {
  // g (zone-a, on-demand): on-demand alone, although its options offer spot too. b (zone-b): spot from its first
  // option (z), on-demand from the next. f (zone-b, not z): on-demand from its first options, spot only from its
  // last (w). e (zone-b, spot): spot alone.
  const Claims c(Scenario({Pod("g", R"("zone-a")", "on-demand"), Pod("b", R"("zone-b")"),
                           Pod("f", R"("zone-b")", "", "z"), Pod("e", R"("zone-b")", "spot")}));
  const std::string key = "karpenter.sh/capacity-type";
  EXPECT_EQ(c.Requirement("default/g", key), key + " In [on-demand]");
  EXPECT_EQ(c.Requirement("default/b", key), key + " In [on-demand spot]");
  EXPECT_EQ(c.Options("default/f"), (std::vector<Option>{{"y", 0.2}, {"x", 0.5}, {"w", 0.9}}));
  EXPECT_EQ(c.Requirement("default/f", key), key + " In [on-demand spot]");
  EXPECT_EQ(c.Requirement("default/e", key), key + " In [spot]");
  EXPECT_EQ(c.Requirement("default/b", "node.kubernetes.io/instance-type"),
            "node.kubernetes.io/instance-type In [w x y z]");
  EXPECT_EQ(c.Requirement("default/e", "node.kubernetes.io/instance-type"),
            "node.kubernetes.io/instance-type In [w z]");
}

}  // namespace
}  // namespace kplace
