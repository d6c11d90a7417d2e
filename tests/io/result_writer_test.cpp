// The result's NodeClaims print their options lists as the Karpenter result holds them, compact and indented alike,
// also when more different lists come than WriteResult keeps the text of (each different list is written once and
// placed as text where it repeats).
#include "core/io/result_writer.h"

#include <gtest/gtest.h>

#include <string>

#include "core/io/json_writer.h"
#include "core/io/scenario_parser.h"
#include "core/model/symbol.h"
#include "core/sim/simulation.h"

namespace kplace {
namespace {

// Instance types of 1..types cpus; per size two pods that must not share a host, so each pod gets its own NodeClaim
// and the NodeClaims of a size list the types from that size up: `sizes` different lists, each twice.
std::string Scenario(int types, int sizes) {
  std::string items = R"({"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"options"},)"
                      R"("spec":{"mode":"karpenter"}},)"
                      R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},)"
                      R"("spec":{"template":{"spec":{"requirements":[]}}}})";
  for (int i = 1; i <= types; ++i) {
    const std::string cpu = std::to_string(i);
    items += R"(,{"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"it-)" + cpu +
             R"("},"spec":{"capacity":{"cpu":")" + cpu + R"(","memory":")" + std::to_string(4 * i) +
             R"(Gi","pods":"110"},"offerings":[{"zone":"z1","capacityType":"on-demand","price":)" + std::to_string(i) +
             R"(.25}]}})";
  }
  for (int size = 1; size <= sizes; ++size) {
    for (int copy = 0; copy < 2; ++copy) {
      items += R"(,{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p-)" + std::to_string(size) + "-" +
               std::to_string(copy) +
               R"(","namespace":"default","labels":{"app":"x"}},"spec":{"containers":[{"name":"c",)"
               R"("resources":{"requests":{"cpu":")" +
               std::to_string(size * 1000 - 500) +
               R"(m"}}}],"affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
               R"({"labelSelector":{"matchLabels":{"app":"x"}},"topologyKey":"kubernetes.io/hostname"}]}}},)"
               R"("status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]}})";
    }
  }
  return R"({"apiVersion":"v1","kind":"List","items":[)" + items + "]}";
}

TEST(ResultWriterTest, RepeatedOptionsListsPrintAsTheResultHoldsThem) {
  for (int sizes : {3, 100}) {  // 100 different lists: more than the writer keeps
    const sim::SimResult r = sim::Run(io::ParseScenario(Scenario(120, sizes)));
    ASSERT_TRUE(r.karpenter);
    const auto& claims = r.karpenter->claims;
    ASSERT_EQ(claims.size(), static_cast<std::size_t>(2 * sizes));
    std::string compact, indented;
    io::JsonWriter c(compact);
    io::WriteResult(r, c);
    io::JsonWriter i(indented, 2);
    io::WriteResult(r, i);
    const io::Json doc = io::Json::parse(compact);
    EXPECT_EQ(indented, doc.dump(2));
    EXPECT_EQ(compact, doc.dump());
    const auto& printed = doc.at("nodeClaims");
    ASSERT_EQ(printed.size(), claims.size());
    std::size_t different = 0;
    for (std::size_t k = 0; k < claims.size(); ++k) {
      const auto& options = printed[k].at("options");
      ASSERT_EQ(options.size(), claims[k].options.size()) << k;
      for (std::size_t o = 0; o < options.size(); ++o) {
        EXPECT_EQ(options[o].at("instanceType"), Text(claims[k].options[o].instance_type)) << k << " " << o;
        EXPECT_EQ(options[o].at("price"), claims[k].options[o].price) << k << " " << o;
      }
      different += k == 0 || options != printed[k - 1].at("options");
    }
    EXPECT_EQ(different, static_cast<std::size_t>(sizes));
  }
}

}  // namespace
}  // namespace kplace
