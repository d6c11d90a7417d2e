// Comparing two runs (core/sim/compare.h) and the settings a side runs under (core/io/compare.h).
#include "core/sim/compare.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/io/compare.h"
#include "core/io/result_reader.h"
#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/model/input_error.h"
#include "tests/testing/items.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using nlohmann::json;
using sim::Placement;
using sim::PodChange;
using testing::NodeItem;
using testing::PodItem;

json Simulation(const std::string& mode, const std::string& version = "1.37") {
  return {{"apiVersion", "kplace.dev/v1alpha1"},
          {"kind", "Simulation"},
          {"metadata", {{"name", "s"}}},
          {"spec", {{"mode", mode}, {"kubernetesVersion", version}}}};
}

json List(json items) { return {{"apiVersion", "v1"}, {"kind", "List"}, {"items", std::move(items)}}; }
// Items in braces are an array even when there is one (clang would take {item} for a copy of the item).
json List(std::initializer_list<json> items) {
  json array = json::array();
  for (const json& item : items) array.push_back(item);
  return List(std::move(array));
}

sim::SimResult RunWith(const json& list, SimulationOverrides overrides = {}) {
  io::ParseOptions options;
  options.overrides = overrides;
  return sim::Run(io::ParseScenario(list.dump(), options));
}

SimulationOverrides Settings(const std::string& text) {
  SimulationOverrides o;
  io::ParseOverrides(text, o);
  return o;
}

using testing::KarpenterItems;

// A pending pod kube-scheduler has marked Unschedulable: karpenter mode provisions only such pods.
json MarkedPod(const std::string& name, json spec = json::object()) {
  json p = PodItem(name, std::move(spec));
  p["status"] = {{"conditions", {{{"type", "PodScheduled"}, {"status", "False"}, {"reason", "Unschedulable"}}}}};
  return p;
}

const PodChange* Find(const sim::ResultDiff& d, const std::string& pod) {
  for (const auto& c : d.changes)
    if (c.pod == pod) return &c;
  return nullptr;
}

TEST(Compare, ScoringStrategyMovesAPodToTheBusierNode) {
  // busy runs a 2-cpu pod; LeastAllocated sends the new pod to the empty node, MostAllocated to the busy one.
  json items = {Simulation("scheduler"), NodeItem("busy"), NodeItem("empty"),
                PodItem("bound", {{"nodeName", "busy"},
                                  {"containers", {{{"name", "c"}, {"resources", {{"requests", {{"cpu", "2"}}}}}}}}}),
                PodItem("web")};
  const sim::SimResult a = RunWith(List(items));
  const sim::SimResult b = RunWith(List(items), Settings("scoringStrategy=MostAllocated"));
  const sim::ResultDiff d = sim::Compare(a, b);
  ASSERT_EQ(d.changes.size(), 1u);
  const PodChange& c = d.changes[0];
  EXPECT_EQ(c.pod, "default/web");
  EXPECT_EQ(c.kind, PodChange::Kind::Moved);
  EXPECT_EQ(c.a.Where(), "empty");
  EXPECT_EQ(c.b.Where(), "busy");
  EXPECT_EQ(d.pods, 1u);  // the bound pod is not listed by either result
  EXPECT_EQ(d.pods_same, 0u);
  EXPECT_TRUE(d.node_claims.empty());
}

TEST(Compare, KarpenterPlacesWhatKubeSchedulerLeavesPending) {
  json items = {Simulation("scheduler"), MarkedPod("web")};
  for (auto& i : KarpenterItems()) items.push_back(i);
  const sim::SimResult scheduler = RunWith(List(items));
  const sim::SimResult karpenter = RunWith(List(items), Settings("mode=karpenter"));
  const sim::ResultDiff d = sim::Compare(scheduler, karpenter);
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].kind, PodChange::Kind::Placed);
  EXPECT_EQ(d.changes[0].a.kind, Placement::Kind::Unschedulable);
  EXPECT_EQ(d.changes[0].a.message, "no nodes available to schedule pods");
  EXPECT_EQ(d.changes[0].b.kind, Placement::Kind::NodeClaim);
  EXPECT_EQ(d.changes[0].b.Where(), "nodeclaim/default-0");
  EXPECT_EQ(d.changes[0].b.instance_type, "c5.large");
  ASSERT_EQ(d.node_claims.size(), 1u);
  EXPECT_EQ(d.node_claims[0].kind, sim::NodeClaimChange::Kind::Added);
  EXPECT_EQ(d.node_claims[0].b.pods, std::vector<std::string>{"default/web"});
  EXPECT_EQ(d.hourly_a, 0);
  EXPECT_DOUBLE_EQ(d.hourly_b, 0.085);

  // The other way round: placed in A, pending in B; the NodeClaim only A has.
  const sim::ResultDiff r = sim::Compare(karpenter, scheduler);
  ASSERT_EQ(r.changes.size(), 1u);
  EXPECT_EQ(r.changes[0].kind, PodChange::Kind::Unplaced);
  ASSERT_EQ(r.node_claims.size(), 1u);
  EXPECT_EQ(r.node_claims[0].kind, sim::NodeClaimChange::Kind::Removed);
}

// A pod on NodeClaim default-0 in karpenter mode and on the Node default-0 it became in cluster mode is in the same
// place.
TEST(Compare, ANodeClaimIsTheSamePlaceLaunchedOrNot) {
  json items = {Simulation("cluster"), MarkedPod("web")};
  for (auto& i : KarpenterItems()) items.push_back(i);
  const sim::SimResult cluster = RunWith(List(items));
  const sim::SimResult karpenter = RunWith(List(items), Settings("mode=karpenter"));
  const std::vector<Placement> pc = sim::Placements(cluster), pk = sim::Placements(karpenter);
  ASSERT_EQ(pc.size(), 1u);
  ASSERT_EQ(pk.size(), 1u);
  EXPECT_EQ(pc[0].kind, Placement::Kind::Node);
  EXPECT_EQ(pc[0].node_claim, "default-0");
  EXPECT_EQ(pk[0].kind, Placement::Kind::NodeClaim);
  const sim::ResultDiff d = sim::Compare(karpenter, cluster);
  EXPECT_TRUE(d.changes.empty());
  EXPECT_EQ(d.pods_same, 1u);
  // The NodeClaim is the same but for its pods' source: cluster mode lists what kube-scheduler bound there.
  EXPECT_TRUE(d.node_claims.empty());
}

// 1.35 made TaintToleration's reason generic: a pod pending in both releases, with another message.
TEST(Compare, AReleaseChangesTheMessageOfAPendingPod) {
  json node =
      NodeItem("gpu", {{"spec", {{"taints", {{{"key", "dedicated"}, {"value", "gpu"}, {"effect", "NoSchedule"}}}}}}});
  json items = {Simulation("scheduler", "1.34"), node, PodItem("web")};
  const sim::ResultDiff d =
      sim::Compare(RunWith(List(items)), RunWith(List(items), Settings("kubernetesVersion=1.35")));
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].kind, PodChange::Kind::Changed);
  EXPECT_NE(d.changes[0].a.message.find("untolerated taint {dedicated: gpu}"), std::string::npos)
      << d.changes[0].a.message;
  EXPECT_NE(d.changes[0].b.message.find("untolerated taint(s)"), std::string::npos) << d.changes[0].b.message;
}

TEST(Compare, PodsOnlyOneSideHasAreAddedOrRemoved) {
  const json a = List({Simulation("scheduler"), NodeItem("n"), PodItem("old"), PodItem("kept")});
  const json b = List({Simulation("scheduler"), NodeItem("n"), PodItem("kept"), PodItem("new")});
  const sim::ResultDiff d = sim::Compare(RunWith(a), RunWith(b));
  EXPECT_EQ(d.pods, 3u);
  EXPECT_EQ(d.pods_same, 1u);
  ASSERT_EQ(d.changes.size(), 2u);
  EXPECT_EQ(d.changes[0].pod, "default/new");  // by key
  EXPECT_EQ(d.changes[0].kind, PodChange::Kind::Added);
  EXPECT_EQ(d.changes[1].pod, "default/old");
  EXPECT_EQ(d.changes[1].kind, PodChange::Kind::Removed);
}

TEST(Compare, GatesAndOtherSchedulersAreAnswersToo) {
  const json a =
      List({Simulation("scheduler"), NodeItem("n"), PodItem("gated", {{"schedulingGates", {{{"name", "wait"}}}}}),
            PodItem("other", {{"schedulerName", "custom"}})});
  const json b = List({Simulation("scheduler"), NodeItem("n"), PodItem("gated"), PodItem("other")});
  const sim::ResultDiff d = sim::Compare(RunWith(a), RunWith(b));
  ASSERT_EQ(d.changes.size(), 2u);
  const PodChange* gated = Find(d, "default/gated");
  ASSERT_NE(gated, nullptr);
  EXPECT_EQ(gated->kind, PodChange::Kind::Placed);
  EXPECT_EQ(gated->a.kind, Placement::Kind::SchedulingGated);
  EXPECT_EQ(gated->a.scheduling_gates, std::vector<std::string>{"wait"});
  const PodChange* other = Find(d, "default/other");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->a.kind, Placement::Kind::OtherScheduler);
  EXPECT_EQ(other->a.message, "custom");
}

TEST(Compare, ANodeClaimOfAnotherTypeIsChanged) {
  json big = KarpenterItems()[1];
  big["metadata"]["name"] = "c5.xlarge";
  big["spec"]["capacity"]["cpu"] = "4";
  big["spec"]["offerings"][0]["price"] = 0.17;
  auto items = [&](const std::string& cpu) {
    json i = {Simulation("karpenter"),
              MarkedPod("web", {{"containers", {{{"name", "c"}, {"resources", {{"requests", {{"cpu", cpu}}}}}}}}})};
    for (auto& k : KarpenterItems()) i.push_back(k);
    i.push_back(big);
    return List(i);
  };
  const sim::ResultDiff d = sim::Compare(RunWith(items("1")), RunWith(items("3")));
  EXPECT_TRUE(d.changes.empty());  // nodeclaim/default-0 both times
  ASSERT_EQ(d.node_claims.size(), 1u);
  EXPECT_EQ(d.node_claims[0].kind, sim::NodeClaimChange::Kind::Changed);
  EXPECT_EQ(d.node_claims[0].fields, (std::vector<std::string>{"instanceType", "price"}));
  EXPECT_EQ(d.node_claims[0].a.instance_type, "c5.large");
  EXPECT_EQ(d.node_claims[0].b.instance_type, "c5.xlarge");
}

// Every preset against itself, and against its own result read back (`kplace diff` of a result file): no difference.
TEST(Compare, EveryPresetEqualsItselfAndItsResultReadBack) {
  for (const auto& name : testing::PresetNames()) {
    const std::string text = testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/presets/" + name + ".json");
    for (const char* mode : {"mode=scheduler", "mode=karpenter", "mode=cluster"}) {
      sim::SimResult r;
      try {
        io::ParseOptions options;
        io::ParseOverrides(mode, options.overrides);
        r = sim::Run(io::ParseScenario(text, options));
      } catch (const InputError&) {
        continue;  // a preset that cannot run in that mode
      }
      const sim::ResultDiff self = sim::Compare(r, r);
      EXPECT_TRUE(self.Empty()) << name << " " << mode;
      EXPECT_EQ(self.pods, self.pods_same) << name << " " << mode;
      EXPECT_EQ(self.pods, sim::Placements(r).size()) << name << " " << mode;
      const sim::SimResult back = io::ResultFromJson(io::ResultToJson(r));
      const sim::ResultDiff d = sim::Compare(r, back);
      EXPECT_TRUE(d.Empty()) << name << " " << mode << "\n" << io::DiffText(d, {}, {});
      EXPECT_EQ(d.hourly_a, d.hourly_b) << name << " " << mode;
    }
  }
}

TEST(Compare, DiffDocumentCountsWhatItLists) {
  json items = {Simulation("scheduler"), MarkedPod("web"), MarkedPod("api")};
  for (auto& i : KarpenterItems()) items.push_back(i);
  const SimulationOverrides b = Settings("mode=karpenter");
  const sim::SimResult ra = RunWith(List(items)), rb = RunWith(List(items), b);
  const json doc =
      json::parse(io::DiffText(sim::Compare(ra, rb), io::SideOf(ra, "x.json", {}), io::SideOf(rb, "x.json", b)));
  EXPECT_EQ(doc["a"]["mode"], "scheduler");
  EXPECT_EQ(doc["b"]["mode"], "karpenter");
  EXPECT_EQ(doc["b"]["settings"], "mode=karpenter");
  EXPECT_FALSE(doc["a"].contains("settings"));
  EXPECT_EQ(doc["summary"]["differ"], doc["pods"].size());
  EXPECT_EQ(doc["summary"]["placed"], 2);
  EXPECT_EQ(doc["summary"]["pods"], 2);
  ASSERT_EQ(doc["pods"].size(), 2u);
  EXPECT_EQ(doc["pods"][0]["pod"], "default/api");
  EXPECT_EQ(doc["pods"][0]["a"]["unschedulable"], "no nodes available to schedule pods");
  EXPECT_EQ(doc["pods"][0]["b"]["nodeClaim"], "default-0");
  EXPECT_EQ(doc["cost"]["b"]["hourly"], 0.085);
  EXPECT_EQ(doc["cost"]["hourlyChange"], 0.085);
  EXPECT_EQ(doc["nodeClaims"][0]["change"], "added");
}

TEST(Overrides, ParseAndPrintBack) {
  SimulationOverrides o;
  io::ParseOverrides(" mode = karpenter , kubernetesVersion=v1.33", o);
  io::ParseOverrides("seed=18446744073709551615,scoringStrategy=RequestedToCapacityRatio", o);
  EXPECT_EQ(o.mode, Mode::Karpenter);
  EXPECT_EQ(o.kubernetes_minor, 33);
  EXPECT_EQ(o.seed, 18446744073709551615ULL);
  EXPECT_EQ(o.scoring_strategy, ScoringStrategyType::RequestedToCapacityRatio);
  EXPECT_EQ(io::OverridesText(o),
            "mode=karpenter,kubernetesVersion=1.33,seed=18446744073709551615,scoringStrategy=RequestedToCapacityRatio");
  EXPECT_EQ(io::OverridesText({}), "");
  EXPECT_TRUE(SimulationOverrides{}.Empty());
}

TEST(Overrides, BadSettingsNameTheSetting) {
  auto error = [](const std::string& text) {
    try {
      SimulationOverrides o;
      io::ParseOverrides(text, o);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("mode=batch"), "\"mode=batch\": unsupported mode \"batch\" (scheduler, karpenter or cluster)");
  EXPECT_EQ(error("seed=18446744073709551616"),
            "\"seed=18446744073709551616\": seed must be an integer between 0 and 18446744073709551615");
  EXPECT_EQ(error("seed=-1"), "\"seed=-1\": seed must be an integer between 0 and 18446744073709551615");
  EXPECT_EQ(error("zone=a"), "\"zone=a\": unknown setting \"zone\" (mode, kubernetesVersion, seed or scoringStrategy)");
  EXPECT_EQ(error("karpenter"),
            "\"karpenter\": expected NAME=VALUE (mode, kubernetesVersion, seed or scoringStrategy)");
  EXPECT_EQ(error("mode=scheduler,"), "\"\": empty setting (NAME=VALUE, several separated by commas)");
  EXPECT_NE(error("kubernetesVersion=1.20").find("unsupported kubernetesVersion \"1.20\""), std::string::npos);
  EXPECT_NE(error("scoringStrategy=Least").find("unsupported scoringStrategy"), std::string::npos);
}

// The release a side runs under decides what the API server accepts: the check runs after the override.
TEST(Overrides, TheReleaseOverrideAppliesToValidation) {
  // A regular container's restartPolicy: rejected by 1.33, dropped by 1.34, validated from 1.35.
  json pod = PodItem("web");
  pod["spec"]["containers"][0]["restartPolicy"] = "Always";
  const json list = List({Simulation("scheduler", "1.37"), NodeItem("n"), pod});
  io::ParseOptions options;
  EXPECT_NO_THROW(io::ParseScenario(list.dump(), options));
  io::ParseOverrides("kubernetesVersion=1.33", options.overrides);
  EXPECT_THROW(io::ParseScenario(list.dump(), options), InputError);
  const Scenario sc = io::ParseScenario(
      List({NodeItem("n")}).dump(),
      {.api_validation = true, .overrides = Settings("mode=karpenter,seed=9,scoringStrategy=MostAllocated")});
  EXPECT_EQ(sc.simulation.mode, Mode::Karpenter);
  EXPECT_EQ(sc.simulation.seed, 9u);
  EXPECT_EQ(sc.scheduler_config.profiles[0].args.fit.strategy, ScoringStrategyType::MostAllocated);
}

// The Simulation's kplace.dev/compare annotation: kept as given, checked as settings.
TEST(Overrides, TheScenarioNamesSettingsToCompareUnder) {
  json sim = Simulation("cluster");
  sim["metadata"]["annotations"] = {{"kplace.dev/compare", "mode=karpenter, seed=3"}};
  EXPECT_EQ(io::ParseScenario(List({sim}).dump()).simulation.compare, "mode=karpenter, seed=3");
  EXPECT_EQ(io::ParseScenario(List({Simulation("cluster")}).dump()).simulation.compare, "");
  sim["metadata"]["annotations"]["kplace.dev/compare"] = "mode=fast";
  try {
    io::ParseScenario(List({sim}).dump());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "items[0] (Simulation s): metadata.annotations[\"kplace.dev/compare\"]: \"mode=fast\": unsupported mode "
              "\"fast\" (scheduler, karpenter or cluster)");
  }
}

}  // namespace
}  // namespace kplace
