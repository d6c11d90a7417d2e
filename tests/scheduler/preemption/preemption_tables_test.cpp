// Runs the DefaultPreemption tables under tests/data/preemption (format: tests/data/README.md) through the real
// parser, admission, framework, scheduler and preemption evaluator. One test per case.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/io/scenario_parser.h"
#include "core/scheduler/cluster_state.h"
#include "core/scheduler/preemption/evaluator.h"
#include "core/scheduler/scheduler.h"
#include "core/sim/admission.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using framework::Code;
using io::Json;

std::vector<std::string> Strings(const Json& j) {
  std::vector<std::string> out;
  for (const auto& s : j) out.push_back(s.get<std::string>());
  return out;
}

Code CodeNamed(const std::string& name) {
  for (std::size_t i = 0; i < framework::kCodeNames.size(); ++i)
    if (name == framework::kCodeNames[i]) return static_cast<Code>(i);
  ADD_FAILURE() << "unknown code " << name;
  return Code::Success;
}

// Candidates as JSON comparable with want.candidates: sorted by node; victims sorted by name when asked.
Json CandidatesJson(const std::vector<preemption::Candidate>& candidates, bool sort_victims) {
  Json out = Json::array();
  for (const auto& c : candidates) {
    std::vector<std::string> victims;
    for (const auto* v : c.victims) victims.push_back(v->pod->Key());
    if (sort_victims) std::sort(victims.begin(), victims.end());
    out.push_back({{"node", c.node->Name()}, {"victims", victims}, {"numPDBViolations", c.num_pdb_violations}});
  }
  std::sort(out.begin(), out.end(),
            [](const Json& a, const Json& b) { return a["node"].get<std::string>() < b["node"].get<std::string>(); });
  return out;
}

Json NormalizedWantCandidates(const Json& want, bool sort_victims) {
  Json out = want;
  for (auto& c : out) {
    if (!c.contains("numPDBViolations")) c["numPDBViolations"] = 0;
    if (sort_victims) {
      auto v = Strings(c["victims"]);
      std::sort(v.begin(), v.end());
      c["victims"] = v;
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Json& a, const Json& b) { return a["node"].get<std::string>() < b["node"].get<std::string>(); });
  return out;
}

void RunCase(const Json& c) {
  Json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", Json::array()}};
  auto add = [&](const Json& item, const char* kind) {
    Json copy = item;
    if (kind) copy["kind"] = kind;
    if (!copy.contains("apiVersion")) copy["apiVersion"] = "v1";
    list["items"].push_back(copy);
  };
  for (const auto& n : c.value("nodes", Json::array())) add(n, "Node");
  for (const auto& p : c.value("pods", Json::array())) add(p, "Pod");
  for (const auto& o : c.value("objects", Json::array())) add(o, nullptr);
  Json pod_json = c.at("pod");
  if (!pod_json["metadata"].contains("namespace")) pod_json["metadata"]["namespace"] = "default";
  add(pod_json, "Pod");
  const std::string pod_key =
      pod_json["metadata"]["namespace"].get<std::string>() + "/" + pod_json["metadata"]["name"].get<std::string>();
  list["items"].push_back(
      {{"apiVersion", "kplace.dev/v1alpha1"},
       {"kind", "Simulation"},
       {"spec",
        {{"mode", "scheduler"},
         {"kubernetesVersion", c.value("kubernetesVersion", VersionText(testing::kTableDefaultMinor))}}}});

  // Upstream's preemption tests hand their pods to the scheduler directly, never through the API server (pods
  // without containers, names like p_with_preempt_never_policy): no API validation here.
  Scenario sc = io::ParseScenarioJson(list, {.api_validation = false, .overrides = {}});
  if (c.contains("args"))
    io::ParsePluginArgs("DefaultPreemption", c["args"], io::Reader("args", ""), sc.scheduler_config.profiles[0].args);
  sim::ExpandDaemonSets(sc, 0);
  for (auto& p : sc.pods) sim::AddDefaultTolerations(p);
  std::vector<std::int32_t> priorities = sim::ResolvePriorities(sc);
  Features features{sc.simulation.kubernetes_minor};
  std::string error;
  auto fw = framework::Framework::Create(sc.scheduler_config, features, &error);
  ASSERT_TRUE(fw) << error;
  ClusterState cluster(sc, priorities);
  Scheduler scheduler(*fw, cluster, features, sc.simulation.seed);
  std::size_t idx = sc.pods.size();
  for (std::size_t i = 0; i < sc.pods.size(); ++i)
    if (sc.pods[i].Key() == pod_key) idx = i;
  ASSERT_LT(idx, sc.pods.size()) << "preemptor not found";
  const framework::PodInfo& pod = cluster.Info(idx);
  const Json& want = c.at("want");
  const std::string run = c.value("run", "cycle");
  const bool sort_victims = want.value("victimsOrder", "") == "name";

  if (run == "eligibility") {
    Code code = c.contains("nominatedNodeStatus") ? CodeNamed(c["nominatedNodeStatus"].value("code", "Success"))
                                                  : Code::Success;
    std::string reason = preemption::NotEligibleReason(pod, cluster.nominator.NodeOf(&pod), code, cluster.snapshot);
    if (want.contains("eligible")) {
      EXPECT_EQ(reason.empty(), want["eligible"].get<bool>()) << reason;
    }
    if (want.contains("notEligibleReason")) {
      EXPECT_EQ(reason, want["notEligibleReason"].get<std::string>());
    }
    return;
  }

  if (run == "dryRun") {
    framework::CycleState state;
    fw->ResetState(state);
    framework::PreFilterResult pre_result;
    framework::Status pre = fw->RunPreFilter(state, pod, cluster.snapshot, pre_result);
    ASSERT_TRUE(pre.IsSuccess()) << pre.Message();
    preemption::Context ctx{*fw, cluster.snapshot, &cluster.nominator, &cluster.pdbs,
                            sc.scheduler_config.profiles[0].args.default_preemption};
    std::vector<framework::NodeInfo*> potential;
    for (auto& n : cluster.snapshot.nodes) potential.push_back(&n);
    const auto n = static_cast<std::int32_t>(potential.size());
    auto dry = preemption::DryRunPreemption(ctx, state, pod, potential, c.value("offset", 0),
                                            preemption::CalculateNumCandidates(ctx.args, n));
    if (want.contains("candidates")) {
      EXPECT_EQ(CandidatesJson(dry.candidates, sort_victims).dump(1),
                NormalizedWantCandidates(want["candidates"], sort_victims).dump(1));
    }
    if (want.contains("selected")) {
      auto selected = Strings(want["selected"]);
      if (dry.candidates.empty()) {
        EXPECT_TRUE(selected.empty()) << "no candidate, but upstream selects one";
      } else {
        auto pick = preemption::PickOneNodeForPreemption(dry.candidates, scheduler.PreemptionRandomness(pod, 1));
        const std::string& got = dry.candidates[pick.index].node->Name();
        EXPECT_NE(std::find(selected.begin(), selected.end(), got), selected.end())
            << "selected " << got << " (" << pick.decided_by << ")";
      }
    }
    return;
  }

  ASSERT_EQ(run, "cycle");
  if (c.contains("offset")) scheduler.SetPreemptionOffsetForTesting(c["offset"].get<std::int32_t>());
  CycleExplanation ex;
  CycleOutcome out = scheduler.ScheduleOne(idx, 1, &ex);
  const bool nominated = out.preemption && out.preemption->chosen;
  if (want.contains("nominatedNode")) {
    EXPECT_EQ(nominated ? out.preemption->chosen->node->Name() : "", want["nominatedNode"].get<std::string>());
  }
  if (want.contains("postFilterCode")) {
    ASSERT_TRUE(out.preemption) << "DefaultPreemption did not run: " << out.message;
    EXPECT_EQ(framework::CodeName(out.preemption->status.code()), want["postFilterCode"].get<std::string>());
  }
  if (want.contains("postFilterMessage")) {
    ASSERT_TRUE(out.preemption) << "DefaultPreemption did not run: " << out.message;
    EXPECT_EQ(out.preemption->status.Message(), want["postFilterMessage"].get<std::string>());
  }
  if (want.contains("victims")) {
    std::vector<std::string> got;
    if (nominated)
      for (const auto* v : out.preemption->chosen->victims) got.push_back(v->pod->Key());
    auto expected = Strings(want["victims"]);
    if (want.value("victimsOrder", "") == "any" || sort_victims) {
      std::sort(got.begin(), got.end());
      std::sort(expected.begin(), expected.end());
    }
    EXPECT_EQ(got, expected);
  }
  if (want.contains("clearedNominations")) {
    std::vector<std::string> got;
    if (out.preemption)
      for (const auto* p : out.preemption->cleared_nominations) got.push_back(p->pod->Key());
    EXPECT_EQ(got, Strings(want["clearedNominations"]));
  }
  if (want.contains("message")) {
    EXPECT_EQ(out.message, want["message"].get<std::string>());
  }
  if (want.contains("candidates")) {
    Json got = Json::array();
    for (const auto& rc : ex.preemption.candidates) {
      auto v = rc.victims;
      if (sort_victims) std::sort(v.begin(), v.end());
      got.push_back({{"node", rc.node}, {"victims", v}, {"numPDBViolations", rc.num_pdb_violations}});
    }
    std::sort(got.begin(), got.end(),
              [](const Json& a, const Json& b) { return a["node"].get<std::string>() < b["node"].get<std::string>(); });
    EXPECT_EQ(got.dump(1), NormalizedWantCandidates(want["candidates"], sort_victims).dump(1));
  }
}

class PreemptionTable : public ::testing::TestWithParam<testing::TableCase> {};

TEST_P(PreemptionTable, Case) { testing::RunTableCase(GetParam(), RunCase); }

INSTANTIATE_TEST_SUITE_P(PreemptionTables, PreemptionTable, ::testing::ValuesIn(testing::ListTableCases("preemption")),
                         [](const ::testing::TestParamInfo<testing::TableCase>& i) {
                           return testing::TableCaseName(i.param);
                         });

}  // namespace
}  // namespace kplace
