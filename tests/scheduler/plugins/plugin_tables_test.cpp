// Runs every upstream plugin table under tests/data/plugins through the real parser, framework and plugin.
// One GoogleTest test per case: PluginTables/<file>/<case index>.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/io/scenario_parser.h"
#include "core/scheduler/cluster_state.h"
#include "core/scheduler/framework/framework.h"
#include "core/scheduler/plugins/registry.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using framework::Code;
using framework::Status;
using io::Json;

std::string StatusText(const Status& s) {
  std::string out = framework::CodeName(s.code());
  for (const auto& r : s.reasons()) out += " | " + r;
  return out;
}

Status WantStatus(const Json& j) {
  std::string code = j.value("code", "Success");
  Code c = Code::Success;
  for (std::size_t i = 0; i < framework::kCodeNames.size(); ++i)
    if (code == framework::kCodeNames[i]) c = static_cast<Code>(i);
  std::vector<std::string> reasons;
  if (j.contains("reasons"))
    for (const auto& r : j["reasons"]) reasons.push_back(r.get<std::string>());
  return Status(c, reasons);
}

// shared: the table's "objects", given to every case before its own (fixtures many cases use).
void RunCase(const std::string& plugin, const Json& c, const Json* shared) {
  // Build a scenario List from the case's objects.
  Json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", Json::array()}};
  if (shared)
    for (const Json& item : *shared) list["items"].push_back(item);
  auto add = [&](const char* field, const char* kind) {
    if (!c.contains(field)) return;
    for (Json item : c[field]) {
      if (kind) item["kind"] = kind;
      list["items"].push_back(item);
    }
  };
  add("nodes", "Node");
  add("pods", "Pod");
  add("objects", nullptr);
  // Upstream's plugin tests hand their pods to the scheduler directly, never through the API server (many have no
  // containers): no API validation here.
  Scenario sc = io::ParseScenarioJson(list, {.api_validation = false, .overrides = {}});
  int minor = c.contains("kubernetesVersion")
                  ? io::ParseKubernetesVersion(c["kubernetesVersion"].get<std::string>(), io::Reader("case", ""))
                  : testing::kTableDefaultMinor;
  sc.simulation.kubernetes_minor = minor;
  Pod incoming = io::ParsePod(c.at("pod"), io::Reader("pod", ""));
  if (incoming.meta.name.empty()) incoming.meta.name = "incoming";
  sc.pods.push_back(incoming);
  std::vector<std::int32_t> priorities;
  for (const auto& p : sc.pods) priorities.push_back(p.priority.value_or(0));
  ClusterState cluster(sc, priorities);
  const framework::PodInfo& pod = cluster.Info(sc.pods.size() - 1);

  SchedulerConfig cfg;
  cfg.profiles[0].plugins["multiPoint"] = PluginSet{{{plugin, 0}}, {"*"}};
  if (c.contains("args")) io::ParsePluginArgs(plugin, c["args"], io::Reader("args", ""), cfg.profiles[0].args);
  std::string error;
  auto fw = framework::Framework::Create(cfg, Features(minor), &error);
  ASSERT_TRUE(fw) << error;
  ASSERT_TRUE(fw->Find(plugin)) << "plugin " << plugin << " is not implemented";

  framework::CycleState state;
  fw->ResetState(state);
  framework::PreFilterResult pre_result;
  Status pre = fw->RunPreFilter(state, pod, cluster.snapshot, pre_result);
  bool prefilter_skipped = !fw->pre_filter().empty() && state.skip_filter[fw->pre_filter()[0]->prefilter_slot / 2];
  if (c.contains("wantPreFilter")) {
    EXPECT_EQ(StatusText(pre), StatusText(WantStatus(c["wantPreFilter"]))) << "PreFilter";
  } else if (c.contains("wantFilter") || c.contains("wantPreFilterResult")) {
    EXPECT_TRUE(pre.IsSuccess()) << "PreFilter: " << StatusText(pre);
  }
  if (c.value("wantPreFilterSkip", false)) {
    EXPECT_TRUE(prefilter_skipped) << "PreFilter should Skip";
  }
  if (c.contains("wantPreFilterResult")) {
    ASSERT_TRUE(pre_result.has_value()) << "PreFilterResult: want a node set, got all nodes";
    std::set<std::string> want;
    for (const auto& n : c["wantPreFilterResult"]) want.insert(n.get<std::string>());
    EXPECT_EQ(*pre_result, want);
  }
  // The cycle's filter pass runs the plugins over runs of nodes (RunFilterNodes): each node's Status and plugin are
  // those of one RunFilter call, before any verdict is cached and after.
  std::vector<const framework::NodeInfo*> all_nodes;
  for (const auto& ni : cluster.snapshot.nodes) all_nodes.push_back(&ni);
  auto check_batch = [&](const framework::CycleState& st, const Json& wf, const char* when) {
    std::vector<Status> batch(all_nodes.size());
    fw->RunFilterNodes(st, pod, all_nodes.data(), all_nodes.size(), batch.data(), cluster.snapshot, nullptr);
    for (std::size_t i = 0; i < all_nodes.size(); ++i) {
      const std::string& name = all_nodes[i]->Name();
      Status want = wf.contains(name) ? WantStatus(wf[name]) : Status();
      EXPECT_EQ(StatusText(batch[i]), StatusText(want)) << "batch Filter " << when << " on node " << name;
      EXPECT_EQ(std::string(batch[i].plugin()), batch[i].IsSuccess() ? "" : plugin)
          << "batch Filter " << when << " on node " << name;
    }
  };
  if (c.contains("wantFilter") && pre.IsSuccess()) check_batch(state, c["wantFilter"], "before any verdict");
  if (c.contains("wantFilter")) {
    const Json& wf = c["wantFilter"];
    for (const auto& ni : cluster.snapshot.nodes) {
      Status got = fw->RunFilter(state, pod, ni);
      Status want = wf.contains(ni.Name()) ? WantStatus(wf[ni.Name()]) : Status();
      EXPECT_EQ(StatusText(got), StatusText(want)) << "Filter on node " << ni.Name();
    }
    // Again: where a plugin cached a pass the framework now skips its call; the verdicts may not change.
    for (const auto& ni : cluster.snapshot.nodes) {
      Status want = wf.contains(ni.Name()) ? WantStatus(wf[ni.Name()]) : Status();
      EXPECT_EQ(StatusText(fw->RunFilter(state, pod, ni)), StatusText(want)) << "second Filter on node " << ni.Name();
    }
    if (pre.IsSuccess()) check_batch(state, wf, "with cached verdicts");
    // A what-if that adds a bound pod to its node and removes it again (as preemption does) leaves every verdict as
    // it was, through the plugins' what-if paths (PodTopologySpread's counts with deltas, for one).
    const framework::NodeInfo* holder = nullptr;
    for (const auto& ni : cluster.snapshot.nodes)
      if (!holder && !ni.pods.empty()) holder = &ni;
    if (holder && pre.IsSuccess()) {
      framework::CycleState what_if = state.Clone();
      const framework::PodInfo& bound = *holder->pods.front();
      framework::NodeInfo without = *holder;
      ASSERT_TRUE(without.RemovePod(&bound));
      ASSERT_TRUE(fw->RunRemovePod(what_if, pod, bound, without, cluster.snapshot).IsSuccess());
      ASSERT_TRUE(fw->RunAddPod(what_if, pod, bound, *holder, cluster.snapshot).IsSuccess());
      for (const auto& ni : cluster.snapshot.nodes) {
        Status want = wf.contains(ni.Name()) ? WantStatus(wf[ni.Name()]) : Status();
        EXPECT_EQ(StatusText(fw->RunFilter(what_if, pod, ni)), StatusText(want))
            << "Filter after removing and re-adding " << bound.pod->Key() << " on node " << ni.Name();
      }
      check_batch(what_if, wf, "after a what-if");
    }
  }
  // "wantPreScore": "Skip" is the same as "wantPreScoreSkip": true (scores are still checked).
  const bool want_prescore_skip =
      c.value("wantPreScoreSkip", false) || (c.contains("wantPreScore") && c["wantPreScore"] == "Skip");
  const bool want_prescore_status = c.contains("wantPreScore") && c["wantPreScore"].is_object();
  if (c.contains("wantScores") || want_prescore_skip || want_prescore_status) {
    std::vector<const framework::NodeInfo*> nodes;
    if (c.contains("scoreNodes")) {
      for (const auto& n : c["scoreNodes"]) {
        auto* ni = cluster.snapshot.Get(n.get<std::string>());
        ASSERT_TRUE(ni) << "scoreNodes names unknown node " << n;
        nodes.push_back(ni);
      }
    } else {
      for (const auto& ni : cluster.snapshot.nodes) nodes.push_back(&ni);
    }
    // "scoreWithFilterState": PreScore and Score run on the state PreFilter wrote (VolumeBinding scores what its
    // PreFilter classified), as the scheduler runs them; otherwise on a fresh state, as upstream's score tests do.
    framework::CycleState score_state;
    if (c.value("scoreWithFilterState", false)) {
      score_state = state.Clone();
    } else {
      fw->ResetState(score_state);
    }
    Status ps = fw->RunPreScore(score_state, pod, nodes, cluster.snapshot);
    if (want_prescore_status) {
      EXPECT_EQ(StatusText(ps), StatusText(WantStatus(c["wantPreScore"]))) << "PreScore";
      return;
    }
    ASSERT_TRUE(ps.IsSuccess()) << "PreScore: " << StatusText(ps);
    if (want_prescore_skip && !fw->score().empty()) {
      EXPECT_TRUE(score_state.skip_score[fw->score()[0].plugin->prescore_slot / 2]) << "PreScore should Skip";
    }
    if (c.contains("wantPreScoreSkip") && !c["wantPreScoreSkip"].get<bool>()) {
      ASSERT_FALSE(fw->score().empty());
      EXPECT_FALSE(score_state.skip_score[fw->score()[0].plugin->prescore_slot / 2]) << "PreScore should not Skip";
    }
    if (c.contains("wantScores")) {
      std::vector<framework::NodeScores> scores;
      Status ss = fw->RunScore(score_state, pod, nodes, scores);
      ASSERT_TRUE(ss.IsSuccess()) << "Score: " << StatusText(ss);
      std::map<std::string, std::int64_t> got, want;
      for (const auto& s : scores) got[s.node->Name()] = s.plugins.empty() ? 0 : s.plugins[0].normalized;
      for (auto it = c["wantScores"].begin(); it != c["wantScores"].end(); ++it) want[it.key()] = it.value();
      EXPECT_EQ(got, want);
    }
  }
}

class PluginTable : public ::testing::TestWithParam<testing::TableCase> {};
TEST_P(PluginTable, Case) {
  testing::RunTableCase(GetParam(), [](const Json& table, const Json& c) {
    RunCase(table.at("plugin"), c, table.contains("objects") ? &table["objects"] : nullptr);
  });
}
// Case names carry the plugin folder: "<folder>_<table>_<index>" (e.g. tainttoleration_filter_3).
INSTANTIATE_TEST_SUITE_P(PluginTables, PluginTable, ::testing::ValuesIn(testing::ListTableCases("plugins")),
                         [](const ::testing::TestParamInfo<testing::TableCase>& i) {
                           const std::string& f = i.param.file;  // plugins/<folder>/<table>.json
                           return testing::TestName(f.substr(8, f.size() - 8 - 5) + "_" +
                                                    std::to_string(i.param.index));
                         });

}  // namespace
}  // namespace kplace
