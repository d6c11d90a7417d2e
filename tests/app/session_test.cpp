// app/model/session and snapshot: text -> snapshot, stale on invalid text, the async runner (supersede, Complete),
// a large text read a slice per frame (Tick), undo; a background run's snapshot shows what a run in the frame shows.
#include "app/model/session.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/model/presets.h"
#include "core/io/compare.h"
#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/karpenter/disruption/dry_run.h"
#include "core/sim/compare.h"
#include "core/sim/simulation.h"
#include "tests/app/app_testing.h"
#include "tests/testing/table.h"

namespace kplace::app {
namespace {

using testing::WorkerEnvelope;

std::string PresetText(const std::string& name) {
  for (const auto& p : Presets())
    if (p.name == name) return p.text;
  ADD_FAILURE() << "no preset " << name;
  return "";
}

// A session whose background runs are recorded, never run.
struct AsyncSession {
  Session session;
  std::vector<std::pair<std::uint64_t, std::string>> runs;
  explicit AsyncSession(std::size_t threshold = 0) {
    session.SetAsyncRunner([this](std::uint64_t seq, const std::string& text) { runs.emplace_back(seq, text); },
                           threshold);
  }
};

TEST(SessionTest, TextBecomesASnapshotWithTheCliResult) {
  Session s;
  const std::string text = PresetText("quickstart");
  ASSERT_TRUE(s.SetText(text));
  ASSERT_NE(s.snapshot(), nullptr);
  EXPECT_EQ(s.error(), "");
  EXPECT_FALSE(s.stale());
  EXPECT_FALSE(s.running());
  EXPECT_TRUE(s.snapshot()->explained);
  EXPECT_EQ(s.snapshot()->result_json, io::Dump(io::ResultToJson(sim::Run(io::ParseScenario(text)))));
  const Snapshot& snap = *s.snapshot();
  ASSERT_GE(snap.FindPod("default/big"), 0);
  EXPECT_EQ(snap.pods[snap.FindPod("default/big")].status, PodStatus::Pending);
  EXPECT_EQ(snap.pods[snap.FindPod("default/trainer")].status, PodStatus::Scheduled);
  ASSERT_GE(snap.FindNode("gpu-1"), 0);
  const NodeView& gpu = snap.nodes[snap.FindNode("gpu-1")];
  ASSERT_EQ(gpu.pods.size(), 1u);
  EXPECT_EQ(snap.pods[gpu.pods[0]].key, "default/trainer");
  EXPECT_EQ(gpu.requested.milli_cpu, snap.pods[gpu.pods[0]].requests.milli_cpu);
  EXPECT_EQ(snap.FindPod("default/none"), -1);
  EXPECT_EQ(snap.unplaced.size(), 1u);
}

// Runs in the frame record the timeline (the Timeline tab); the result JSON stays what `kplace run` prints. A step's
// snapshot is the result as it stood then (sim::ResultAt), indexed like any other: the cluster view draws it.
TEST(SessionTest, RunsInTheFrameRecordTheTimelineAndShowAStep) {
  Session s;
  const std::string text = PresetText("preemption-step-by-step");
  ASSERT_TRUE(s.SetText(text));
  const Snapshot* whole = s.snapshot();
  ASSERT_NE(whole, nullptr);
  ASSERT_TRUE(whole->result.timeline);
  EXPECT_EQ(whole->result.timeline->steps.size(), 9u);
  EXPECT_EQ(whole->result_json, io::Dump(io::ResultToJson(sim::Run(io::ParseScenario(text)))));
  EXPECT_EQ(s.SnapshotAt(9), whole);  // the last step is the whole run
  EXPECT_EQ(s.SnapshotAt(99), whole);
  const Snapshot* at4 = s.SnapshotAt(4);
  ASSERT_NE(at4, whole);
  EXPECT_EQ(s.SnapshotAt(4), at4);  // built once per step
  // After step 4: batch-0 deleted, web nominated and pending; web bound in the whole run.
  const int web = at4->FindPod("default/web");
  ASSERT_GE(web, 0);
  EXPECT_EQ(at4->pods[web].status, PodStatus::Pending);
  EXPECT_EQ(at4->pods[web].result->nominated_node, "node-a");
  EXPECT_EQ(at4->pods[at4->FindPod("default/batch-0")].status, PodStatus::Preempted);
  EXPECT_EQ(whole->pods[whole->FindPod("default/web")].status, PodStatus::Scheduled);
  const NodeView& a = at4->nodes[at4->FindNode("node-a")];
  ASSERT_EQ(a.pods.size(), 1u);
  EXPECT_EQ(at4->pods[a.pods[0]].key, "default/batch-1");
  EXPECT_EQ(at4->generation, whole->generation);
  // karpenter mode has no timeline: every step is the snapshot itself.
  ASSERT_TRUE(s.SetText(PresetText("consolidation-delete")));
  EXPECT_FALSE(s.snapshot()->result.timeline);
  EXPECT_EQ(s.SnapshotAt(0), s.snapshot());
}

// Pods listed out of key order: each view still pairs with its own pod and every key is found.
TEST(SessionTest, PodsListedInAnyOrderAreFoundByKey) {
  std::string items =
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"4","pods":"10"}}})";
  const char* names[] = {"zeta", "alpha", "mid", "beta", "omega"};
  for (int i = 0; i < 5; ++i)
    items += std::string(R"(,{"apiVersion":"v1","kind":"Pod","metadata":{"name":")") + names[i] + R"(","namespace":")" +
             (i % 2 ? "b" : "a") + R"("},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":")" +
             std::to_string(100 * (i + 1)) + R"(m"}}}]}})";
  const std::string text = R"({"apiVersion":"v1","kind":"List","items":[)" + items + "]}";
  Session s;
  ASSERT_TRUE(s.SetText(text)) << s.error();
  const Snapshot& snap = *s.snapshot();
  ASSERT_EQ(snap.pods.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    const std::string key = std::string(i % 2 ? "b/" : "a/") + names[i];
    const int at = snap.FindPod(key);
    ASSERT_GE(at, 0) << key;
    ASSERT_NE(snap.pods[at].pod, nullptr);
    EXPECT_EQ(snap.pods[at].pod->meta.name, names[i]);
    EXPECT_EQ(snap.pods[at].requests.milli_cpu, 100 * (i + 1)) << key;
  }
  EXPECT_EQ(snap.FindPod("a/beta"), -1);
  EXPECT_EQ(snap.FindPod(""), -1);
  EXPECT_EQ(snap.nodes.at(0).requested.milli_cpu, 1500);
}

// A pod of another scheduler, in the frame and from a background run's result alike: not pending on kube-scheduler,
// listed among the pods not running with why.
TEST(SessionTest, PodsOfAnotherSchedulerAreShownAsSuch) {
  const std::string text = R"({"kind": "PodList", "apiVersion": "v1", "items": [
    {"metadata": {"name": "gang-0"}, "spec": {"schedulerName": "volcano", "containers": [{"name": "c"}]}}]})";
  Session s;
  ASSERT_TRUE(s.SetText(text)) << s.error();
  const Snapshot& snap = *s.snapshot();
  ASSERT_GE(snap.FindPod("default/gang-0"), 0);
  EXPECT_EQ(snap.pods[snap.FindPod("default/gang-0")].status, PodStatus::OtherScheduler);
  EXPECT_EQ(snap.unplaced.size(), 1u);
  AsyncSession a;
  a.session.SetText(text);
  ASSERT_EQ(a.runs.size(), 1u);
  ASSERT_TRUE(a.session.Complete(a.runs[0].first, testing::WorkerEnvelope(text)));
  const Snapshot& bg = *a.session.snapshot();
  EXPECT_EQ(bg.pods[bg.FindPod("default/gang-0")].status, PodStatus::OtherScheduler);
  EXPECT_EQ(bg.pods[bg.FindPod("default/gang-0")].result->other_scheduler, "volcano");
}

TEST(SessionTest, InvalidTextKeepsTheLastSnapshotStale) {
  Session s;
  ASSERT_TRUE(s.SetText(PresetText("quickstart")));
  const Snapshot* good = s.snapshot();
  EXPECT_FALSE(s.SetText("{ \"kind\": \"List\", \"items\": [ { \"kind\": \"Node\" } ] }"));
  EXPECT_NE(s.error(), "");
  EXPECT_EQ(s.snapshot(), good);
  EXPECT_TRUE(s.stale());
  EXPECT_FALSE(s.SetText("{"));
  EXPECT_TRUE(s.stale());
  // The text itself is kept as typed; fixing it runs again.
  EXPECT_EQ(s.text(), "{");
  ASSERT_TRUE(s.SetText(PresetText("taint-effects")));
  EXPECT_FALSE(s.stale());
  EXPECT_EQ(s.error(), "");
  EXPECT_NE(s.snapshot(), good);
}

TEST(SessionTest, NoSnapshotBeforeTheFirstValidText) {
  Session s;
  EXPECT_FALSE(s.SetText("not json"));
  EXPECT_EQ(s.snapshot(), nullptr);
  EXPECT_FALSE(s.stale());
  // Not JSON, so read as YAML: a document holding a string, not an object.
  EXPECT_EQ(s.error(), "expected a Kubernetes object, a List or an array of them, got string");
  EXPECT_FALSE(s.SetText("{ not json"));
  EXPECT_NE(s.error().find("invalid JSON at line 1"), std::string::npos) << s.error();
}

TEST(SessionTest, AsyncRunnerANewerEditSupersedesAnOlderRun) {
  AsyncSession a;
  const std::string first = PresetText("quickstart"), second = PresetText("taint-effects");
  ASSERT_TRUE(a.session.SetText(first));
  EXPECT_TRUE(a.session.running());
  EXPECT_EQ(a.session.snapshot(), nullptr);
  ASSERT_TRUE(a.session.SetText(second));
  ASSERT_EQ(a.runs.size(), 2u);
  EXPECT_EQ(a.runs[1].second, second);
  // The older run's answer is dropped; the newer one lands.
  EXPECT_FALSE(a.session.Complete(a.runs[0].first, WorkerEnvelope(first)));
  EXPECT_EQ(a.session.snapshot(), nullptr);
  EXPECT_TRUE(a.session.running());
  ASSERT_TRUE(a.session.Complete(a.runs[1].first, WorkerEnvelope(second)));
  EXPECT_FALSE(a.session.running());
  ASSERT_NE(a.session.snapshot(), nullptr);
  EXPECT_FALSE(a.session.snapshot()->explained);
  EXPECT_EQ(a.session.snapshot()->generation, a.runs[1].first);
  EXPECT_EQ(a.session.snapshot()->result_json, io::Dump(io::ResultToJson(sim::Run(io::ParseScenario(second)))));
  // A late answer for a run already landed changes nothing.
  EXPECT_FALSE(a.session.Complete(a.runs[1].first, WorkerEnvelope(second)));
}

TEST(SessionTest, AsyncRunnerFailureAndInputErrors) {
  AsyncSession a;
  ASSERT_TRUE(a.session.SetText(PresetText("quickstart")));
  EXPECT_FALSE(a.session.Complete(a.runs[0].first, R"({"status": "failure", "errors": [{"message": "boom"}]})"));
  EXPECT_EQ(a.session.error(), "boom");
  EXPECT_FALSE(a.session.running());
  ASSERT_TRUE(a.session.SetText(PresetText("quickstart")));
  EXPECT_FALSE(a.session.Complete(a.runs[1].first, "not json"));
  EXPECT_EQ(a.session.error(), "the background run failed");
  // A text that does not parse never reaches the runner.
  EXPECT_FALSE(a.session.SetText("{"));
  EXPECT_EQ(a.runs.size(), 2u);
}

TEST(SessionTest, SmallScenariosStayInTheFrameUnderTheThreshold) {
  AsyncSession a(/*threshold=*/1000000);
  ASSERT_TRUE(a.session.SetText(PresetText("quickstart")));
  EXPECT_TRUE(a.runs.empty());
  EXPECT_FALSE(a.session.running());
  ASSERT_NE(a.session.snapshot(), nullptr);
}

// A text of more than Session::kSlicedParseBytes: n nodes and n pods.
std::string LargeText(int n, const char* mode = "scheduler") {
  std::string s = R"({"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "kplace.dev/v1alpha1", )"
                  R"("kind": "Simulation", "spec": {"mode": ")" +
                  std::string(mode) + R"("}})";
  for (int i = 0; i < n; ++i) {
    const std::string name = "node-" + std::to_string(i);
    s += R"(, {"apiVersion": "v1", "kind": "Node", "metadata": {"name": ")" + name +
         R"(", "labels": {"kubernetes.io/hostname": ")" + name +
         R"("}}, "status": {"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}}})";
  }
  for (int i = 0; i < n; ++i)
    s += R"(, {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p-)" + std::to_string(i) +
         R"(", "namespace": "default"}, "spec": {"containers": [{"name": "c", "resources": )"
         R"({"requests": {"cpu": "100m"}}}]}})";
  return s + "]}";
}

TEST(SessionTest, LargeTextIsReadASlicePerTickWhileItRuns) {
  const std::string text = LargeText(2200);
  ASSERT_GE(text.size(), Session::kSlicedParseBytes);
  AsyncSession a(/*threshold=*/1u << 30);  // the size alone sends it to the runner
  ASSERT_TRUE(a.session.SetText(text));
  ASSERT_EQ(a.runs.size(), 1u);
  EXPECT_TRUE(a.session.running());
  EXPECT_EQ(a.session.reading_progress(), 0);
  // The runner answers before the text is read: the answer waits.
  EXPECT_FALSE(a.session.Complete(a.runs[0].first, WorkerEnvelope(text)));
  EXPECT_EQ(a.session.snapshot(), nullptr);
  int ticks = 0;
  double progress = 0;
  int landing_ticks = 0;
  while (!a.session.Tick(/*budget_ms=*/0)) {  // one clock check per tick: a few items, or one step of the landing
    ASSERT_LT(++ticks, 100000);
    EXPECT_TRUE(a.session.running());
    EXPECT_EQ(a.session.snapshot(), nullptr);
    if (a.session.reading_progress() < 0) {  // read: the answer lands over ticks of its own
      ++landing_ticks;
      continue;
    }
    EXPECT_EQ(landing_ticks, 0);
    EXPECT_GE(a.session.reading_progress(), progress);
    progress = a.session.reading_progress();
  }
  EXPECT_GE(landing_ticks, 3);  // the parser freed, the answer read, the snapshot indexed a phase at a time
  EXPECT_GT(ticks, landing_ticks + 1);
  EXPECT_FALSE(a.session.running());
  EXPECT_EQ(a.session.reading_progress(), -1);
  ASSERT_NE(a.session.snapshot(), nullptr);
  EXPECT_EQ(a.session.snapshot()->pods.size(), 2200u);
  EXPECT_EQ(a.session.snapshot()->nodes.size(), 2200u);
  EXPECT_EQ(a.session.snapshot()->result_json, io::Dump(io::ResultToJson(sim::Run(io::ParseScenario(text)))));
}

TEST(SessionTest, LargeTextLandsWhenTheRunnerAnswersAfterTheReading) {
  const std::string text = LargeText(2200);
  AsyncSession a(1u << 30);
  ASSERT_TRUE(a.session.SetText(text));
  while (a.session.reading_progress() >= 0) EXPECT_FALSE(a.session.Tick(1000));  // read, nothing to show yet
  EXPECT_TRUE(a.session.running());                                              // not answered
  EXPECT_FALSE(a.session.Tick(1000));
  EXPECT_FALSE(a.session.Tick(1000));                                       // nothing to land yet
  EXPECT_FALSE(a.session.Complete(a.runs[0].first, WorkerEnvelope(text)));  // lands in the ticks that follow
  EXPECT_FALSE(a.session.Complete(a.runs[0].first, WorkerEnvelope(text)));  // answered already
  int ticks = 0;
  while (!a.session.Tick(1000)) ASSERT_LT(++ticks, 10);
  EXPECT_FALSE(a.session.running());
  ASSERT_NE(a.session.snapshot(), nullptr);
  EXPECT_EQ(a.session.snapshot()->pods.size(), 2200u);
}

TEST(SessionTest, ALargeTextsFailedRunIsShownOnceRead) {
  const std::string text = LargeText(2200);
  AsyncSession a(1u << 30);
  ASSERT_TRUE(a.session.SetText(text));
  const std::string failure = R"({"status": "failure", "errors": [{"message": "out of memory"}]})";
  EXPECT_FALSE(a.session.Complete(a.runs[0].first, failure));
  int ticks = 0;
  while (!a.session.Tick(1000)) ASSERT_LT(++ticks, 10);
  EXPECT_FALSE(a.session.running());
  EXPECT_EQ(a.session.snapshot(), nullptr);
  EXPECT_EQ(a.session.error(), "out of memory");
}

TEST(SessionTest, ANewerEditWhileALargeAnswerLandsDropsIt) {
  const std::string text = LargeText(2200);
  AsyncSession a(1u << 30);
  ASSERT_TRUE(a.session.SetText(text));
  a.session.Complete(a.runs[0].first, WorkerEnvelope(text));
  while (a.session.reading_progress() >= 0) a.session.Tick(1000);
  EXPECT_FALSE(a.session.Tick(0));                     // the parser freed
  EXPECT_FALSE(a.session.Tick(0));                     // the landing begun
  EXPECT_FALSE(a.session.Tick(0));                     // its first phase
  const std::string small = PresetText("quickstart");  // under the threshold: runs in the frame
  ASSERT_TRUE(a.session.SetText(small));
  EXPECT_FALSE(a.session.running());
  ASSERT_NE(a.session.snapshot(), nullptr);
  const std::string shown = a.session.snapshot()->result_json;
  EXPECT_EQ(shown, io::Dump(io::ResultToJson(sim::Run(io::ParseScenario(small)))));
  EXPECT_FALSE(a.session.Tick(1000));
  EXPECT_EQ(a.session.snapshot()->result_json, shown);
}

TEST(SessionTest, InvalidLargeTextShowsTheParsersError) {
  std::string text = LargeText(2200);
  text.insert(text.rfind("\"100m\""), "\"abc\", \"x\": ");  // items[4400]: not a quantity
  AsyncSession a(1u << 30);
  ASSERT_TRUE(a.session.SetText(text));
  while (!a.session.Tick(1000)) {
  }
  EXPECT_FALSE(a.session.running());
  EXPECT_EQ(a.session.snapshot(), nullptr);
  std::string expected;
  try {
    io::ParseScenario(text);
  } catch (const InputError& e) {
    expected = e.what();
  }
  EXPECT_NE(expected, "");
  EXPECT_EQ(a.session.error(), expected);
  EXPECT_FALSE(a.session.Complete(a.runs[0].first, WorkerEnvelope(text)));  // dropped
}

TEST(SessionTest, UndoKeepsTheLastTextsUpToItsDepth) {
  Session s;
  EXPECT_FALSE(s.can_undo());
  EXPECT_FALSE(s.PopUndo());
  for (int i = 0; i < 70; ++i) {
    s.text() = "text " + std::to_string(i);
    s.PushUndo();
  }
  int popped = 0;
  std::optional<std::string> last;
  while (auto t = s.PopUndo()) {
    if (!last) {
      EXPECT_EQ(*t, "text 69");
    }
    last = t;
    ++popped;
  }
  EXPECT_EQ(popped, 64);
  EXPECT_EQ(*last, "text 6");
}

// The edit diff: each new snapshot records what changed against the one before it; the reverse edit (an undo)
// records the reverse.
TEST(SessionTest, EachResultRecordsWhatTheEditChanged) {
  Session s;
  const std::string before = PresetText("quickstart");
  std::string after = before;
  const std::string big_request = "\"cpu\": \"3500m\"";
  const auto at = after.find(big_request);
  ASSERT_NE(at, std::string::npos);
  after.replace(at, big_request.size(), "\"cpu\": \"1\"");  // big now fits somewhere
  ASSERT_TRUE(s.SetText(before));
  EXPECT_EQ(s.changes(), nullptr);  // nothing before the first result
  ASSERT_TRUE(s.SetText(after));
  ASSERT_NE(s.changes(), nullptr);
  const sim::ResultDiff expected =
      sim::Compare(sim::Run(io::ParseScenario(before)), sim::Run(io::ParseScenario(after)));
  const sim::ResultDiff& d = *s.changes();
  ASSERT_EQ(d.changes.size(), expected.changes.size());
  const sim::PodChange* big = nullptr;
  for (std::size_t i = 0; i < d.changes.size(); ++i) {
    EXPECT_EQ(d.changes[i].pod, expected.changes[i].pod);
    EXPECT_EQ(d.changes[i].kind, expected.changes[i].kind);
    if (d.changes[i].pod == "default/big") big = &d.changes[i];
  }
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->kind, sim::PodChange::Kind::Placed);
  EXPECT_EQ(big->a.kind, sim::Placement::Kind::Unschedulable);
  // Back to the text before (what an undo does): the reverse.
  ASSERT_TRUE(s.SetText(before));
  ASSERT_NE(s.changes(), nullptr);
  ASSERT_EQ(s.changes()->changes.size(), expected.changes.size());
  for (const auto& c : s.changes()->changes) {
    if (c.pod == "default/big") {
      EXPECT_EQ(c.kind, sim::PodChange::Kind::Unplaced);
    }
  }
  // An invalid text changes nothing on screen, so nothing new is recorded; the same text again: no change.
  EXPECT_FALSE(s.SetText("{"));
  ASSERT_TRUE(s.SetText(before));
  ASSERT_NE(s.changes(), nullptr);
  EXPECT_TRUE(s.changes()->Empty());
  EXPECT_EQ(s.changes()->pods, s.changes()->pods_same);
}

// A preset picked is another scenario, not an edit: its first result records no Changes; the next edit does.
TEST(SessionTest, ANewDocumentRecordsNoChanges) {
  Session s;
  ASSERT_TRUE(s.SetText(PresetText("quickstart")));
  s.NewDocument();
  ASSERT_TRUE(s.SetText(PresetText("taint-effects")));
  EXPECT_EQ(s.changes(), nullptr);
  EXPECT_FALSE(s.SetText("{"));  // a text that does not run changes nothing on screen
  ASSERT_TRUE(s.SetText(PresetText("taint-effects")));
  ASSERT_NE(s.changes(), nullptr);
  EXPECT_TRUE(s.changes()->Empty());
}

// A background run's result is compared too (read back from the worker's JSON); a text read a slice per frame (an
// imported cluster) is not compared with what was on screen before it.
TEST(SessionTest, BackgroundResultsRecordChangesButImportsDoNot) {
  AsyncSession a;
  const std::string first = PresetText("quickstart"), second = PresetText("taint-effects");
  ASSERT_TRUE(a.session.SetText(first));
  ASSERT_TRUE(a.session.Complete(a.runs.back().first, WorkerEnvelope(first)));
  EXPECT_EQ(a.session.changes(), nullptr);
  ASSERT_TRUE(a.session.SetText(second));
  ASSERT_TRUE(a.session.Complete(a.runs.back().first, WorkerEnvelope(second)));
  ASSERT_NE(a.session.changes(), nullptr);
  const sim::ResultDiff expected =
      sim::Compare(sim::Run(io::ParseScenario(first)), sim::Run(io::ParseScenario(second)));
  EXPECT_EQ(a.session.changes()->changes.size(), expected.changes.size());
  EXPECT_EQ(a.session.changes()->pods, expected.pods);

  const std::string large = LargeText(2200);
  ASSERT_TRUE(a.session.SetText(large));
  ASSERT_FALSE(a.session.Complete(a.runs.back().first, WorkerEnvelope(large)));
  int ticks = 0;
  while (!a.session.Tick(/*budget_ms=*/50)) ASSERT_LT(++ticks, 100000);
  ASSERT_NE(a.session.snapshot(), nullptr);
  EXPECT_EQ(a.session.snapshot()->pods.size(), 2200u);
  EXPECT_EQ(a.session.changes(), nullptr);
}

sim::SimResult RunUnder(const std::string& text, const std::string& settings) {
  io::ParseOptions options;
  io::ParseOverrides(settings, options.overrides);
  return sim::Run(io::ParseScenario(text, options));
}

void ExpectSameDiff(const sim::ResultDiff& got, const sim::ResultDiff& want) {
  EXPECT_EQ(io::DiffText(got, {}, {}), io::DiffText(want, {}, {}));
}

// Pin: A stays the result pinned while B follows the edits.
TEST(SessionTest, APinnedResultIsComparedWithEveryLaterOne) {
  Session s;
  const std::string before = PresetText("quickstart"), after = PresetText("taint-effects");
  EXPECT_FALSE(s.Pin());  // nothing on screen yet
  ASSERT_TRUE(s.SetText(before));
  ASSERT_TRUE(s.Pin());
  ASSERT_NE(s.comparison(), nullptr);
  EXPECT_TRUE(s.comparison()->pinned);
  ASSERT_TRUE(s.comparison()->diff);
  EXPECT_TRUE(s.comparison()->diff->Empty());
  ASSERT_TRUE(s.SetText(after));
  ASSERT_TRUE(s.comparison()->diff);
  ExpectSameDiff(*s.comparison()->diff,
                 sim::Compare(sim::Run(io::ParseScenario(before)), sim::Run(io::ParseScenario(after))));
  EXPECT_EQ(s.comparison()->a_text, before);
  s.StopComparing();
  EXPECT_EQ(s.comparison(), nullptr);
}

// Settings: B is the text on screen under them, run again at every result.
TEST(SessionTest, ComparingUnderSettingsFollowsTheText) {
  Session s;
  const std::string text = PresetText("quickstart");
  ASSERT_TRUE(s.SetText(text));
  std::string error;
  EXPECT_FALSE(s.CompareWith("mode=fast", &error));
  EXPECT_EQ(error, "\"mode=fast\": unsupported mode \"fast\" (scheduler, karpenter or cluster)");
  EXPECT_EQ(s.comparison(), nullptr);
  ASSERT_TRUE(s.CompareWith("scoringStrategy=MostAllocated"));
  ASSERT_NE(s.comparison(), nullptr);
  EXPECT_EQ(s.comparison()->settings, "scoringStrategy=MostAllocated");
  ASSERT_TRUE(s.comparison()->diff) << s.comparison()->error;
  ExpectSameDiff(*s.comparison()->diff,
                 sim::Compare(sim::Run(io::ParseScenario(text)), RunUnder(text, "scoringStrategy=MostAllocated")));
  const std::string other = PresetText("bin-packing");
  ASSERT_TRUE(s.SetText(other));
  ASSERT_TRUE(s.comparison()->diff) << s.comparison()->error;
  ExpectSameDiff(*s.comparison()->diff,
                 sim::Compare(sim::Run(io::ParseScenario(other)), RunUnder(other, "scoringStrategy=MostAllocated")));
}

// A scenario naming kplace.dev/compare opens compared under those settings; stopped, it stays stopped until another
// text no longer names them.
TEST(SessionTest, AScenarioThatNamesSettingsOpensCompared) {
  Session s;
  const std::string named = PresetText("prefer-no-schedule");
  ASSERT_TRUE(s.SetText(named));
  ASSERT_NE(s.comparison(), nullptr);
  EXPECT_TRUE(s.comparison()->from_scenario);
  EXPECT_EQ(s.comparison()->settings, "mode=karpenter");
  ASSERT_TRUE(s.comparison()->diff) << s.comparison()->error;
  ASSERT_EQ(s.comparison()->diff->changes.size(), 1u);
  EXPECT_EQ(s.comparison()->diff->changes[0].pod, "default/web-2");
  EXPECT_EQ(s.comparison()->diff->changes[0].kind, sim::PodChange::Kind::Moved);
  s.StopComparing();
  ASSERT_TRUE(s.SetText(named + " "));
  EXPECT_EQ(s.comparison(), nullptr);
  ASSERT_TRUE(s.SetText(PresetText("quickstart")));
  EXPECT_EQ(s.comparison(), nullptr);
  ASSERT_TRUE(s.SetText(named));
  ASSERT_NE(s.comparison(), nullptr);
  // A text that no longer names them ends the comparison they started; a pinned one stays.
  ASSERT_TRUE(s.SetText(PresetText("quickstart")));
  EXPECT_EQ(s.comparison(), nullptr);
  ASSERT_TRUE(s.Pin());
  ASSERT_TRUE(s.SetText(named));
  ASSERT_NE(s.comparison(), nullptr);
  EXPECT_TRUE(s.comparison()->pinned);
}

// A background run's scenario is not run a second time on the page's thread: the comparison says so.
TEST(SessionTest, ComparingABackgroundRunUnderSettingsSaysWhyNot) {
  AsyncSession a;
  const std::string text = PresetText("quickstart");
  ASSERT_TRUE(a.session.SetText(text));
  ASSERT_TRUE(a.session.Complete(a.runs.back().first, WorkerEnvelope(text)));
  ASSERT_TRUE(a.session.CompareWith("mode=karpenter"));
  EXPECT_FALSE(a.session.comparison()->diff);
  EXPECT_NE(a.session.comparison()->error.find("kplace diff --b mode=karpenter FILE"), std::string::npos)
      << a.session.comparison()->error;
}

TEST(SessionTest, ExplanationsOnDemandForBackgroundSnapshots) {
  AsyncSession a;
  std::vector<std::pair<std::uint64_t, std::string>> asked;
  a.session.SetExplainRunner(
      [&](std::uint64_t seq, const std::string&, const std::string& pod) { asked.emplace_back(seq, pod); });
  const std::string text = PresetText("quickstart");
  EXPECT_FALSE(a.session.RequestExplanation("default/big"));  // nothing on screen yet
  ASSERT_TRUE(a.session.SetText(text));
  ASSERT_TRUE(a.session.Complete(a.runs[0].first, WorkerEnvelope(text)));
  ASSERT_TRUE(a.session.RequestExplanation("default/big"));
  EXPECT_FALSE(a.session.RequestExplanation("default/big"));  // already asked
  EXPECT_TRUE(a.session.explaining("default/big"));
  EXPECT_EQ(a.session.explanation("default/big"), nullptr);
  const io::Json answer = {{"explanations", {{"default/big", {{"pod", "default/big"}}}}}};
  EXPECT_FALSE(a.session.CompleteExplanation(asked[0].first + 1, "default/big", answer.dump()));
  ASSERT_TRUE(a.session.CompleteExplanation(asked[0].first, "default/big", answer.dump()));
  ASSERT_NE(a.session.explanation("default/big"), nullptr);
  EXPECT_EQ((*a.session.explanation("default/big"))["pod"], "default/big");
  // A new text: no requests while it runs; its snapshot has none yet.
  ASSERT_TRUE(a.session.SetText(text));
  EXPECT_FALSE(a.session.RequestExplanation("default/web-0"));
  ASSERT_TRUE(a.session.Complete(a.runs[1].first, WorkerEnvelope(text)));
  EXPECT_EQ(a.session.explanation("default/big"), nullptr);
}

// What the Web Worker's kplace_disruption answers (wasm/api.cpp): the run with the dry run, and node's explanation.
std::string DisruptionEnvelope(const std::string& text, const std::string& node = "") {
  sim::RunOptions options;
  options.disruption = &karpenter::disruption::DryRun;
  options.apply_disruption = &sim::ApplyDisruption;
  if (!node.empty()) options.explain_nodes = {node};
  const sim::SimResult r = sim::Run(io::ParseScenario(text), options);
  io::Json doc = {{"status", "success"}, {"result", io::ResultToJson(r)}};
  if (!node.empty()) doc["node"] = io::NodeExplanationToJson(r, node);
  return doc.dump();
}

TEST(SessionTest, DisruptionAskedOncePerSnapshotThenPerNode) {
  Session s;
  std::vector<std::pair<std::uint64_t, std::string>> asked;
  s.SetDisruptionRunner(
      [&](std::uint64_t seq, const std::string&, const std::string& node) { asked.emplace_back(seq, node); });
  const std::string text = PresetText("consolidation-delete");
  ASSERT_TRUE(s.SetText(text));
  ASSERT_TRUE(s.HasDisruption());
  EXPECT_EQ(s.disruption(), nullptr);
  ASSERT_TRUE(s.RequestDisruption());
  EXPECT_FALSE(s.RequestDisruption());  // one question at a time
  ASSERT_NE(s.disruption_asked(), nullptr);
  EXPECT_EQ(*s.disruption_asked(), "");
  EXPECT_FALSE(s.CompleteDisruption(asked[0].first + 1, "", DisruptionEnvelope(text)));  // another snapshot's
  ASSERT_TRUE(s.CompleteDisruption(asked[0].first, "", DisruptionEnvelope(text)));
  ASSERT_NE(s.disruption(), nullptr);
  const io::Json golden = io::Json::parse(
      kplace::testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/tests/golden/consolidation-delete.json"));
  EXPECT_EQ((*s.disruption())["disruption"], golden["disruption"]);
  EXPECT_FALSE(s.RequestDisruption());  // already there
  // A node's what-if.
  ASSERT_TRUE(s.RequestDisruption("node-3"));
  EXPECT_EQ(s.node_explanation("node-3"), nullptr);
  ASSERT_TRUE(s.CompleteDisruption(asked[1].first, "node-3", DisruptionEnvelope(text, "node-3")));
  ASSERT_NE(s.node_explanation("node-3"), nullptr);
  EXPECT_EQ((*s.node_explanation("node-3"))["consolidation"], "delete");
  EXPECT_EQ(asked.size(), 2u);
  // A new snapshot forgets both; a failure is said once, not asked again.
  ASSERT_TRUE(s.SetText(text + " "));
  EXPECT_EQ(s.disruption(), nullptr);
  EXPECT_EQ(s.node_explanation("node-3"), nullptr);
  ASSERT_TRUE(s.RequestDisruption());
  ASSERT_TRUE(s.CompleteDisruption(asked[2].first, "",
                                   R"({"status":"failure","errors":[{"message":"boom","internal":true}]})"));
  ASSERT_NE(s.disruption(), nullptr);
  EXPECT_EQ((*s.disruption())["error"], "boom");
  EXPECT_FALSE(s.RequestDisruption());
}

TEST(SessionTest, NoDisruptionWithoutNodesKarpenterManages) {
  Session s;
  int asked = 0;
  s.SetDisruptionRunner([&](std::uint64_t, const std::string&, const std::string&) { ++asked; });
  ASSERT_TRUE(s.SetText(PresetText("quickstart")));
  EXPECT_FALSE(s.HasDisruption());
  EXPECT_FALSE(s.RequestDisruption());
  ASSERT_TRUE(s.SetText(*json_text::WithMode(PresetText("consolidation-delete"), "scheduler")));
  EXPECT_FALSE(s.HasDisruption());
  EXPECT_EQ(asked, 0);
}

TEST(SessionTest, ABackgroundRunBringsItsDryRun) {
  // The Web Worker's run already holds the dry run: nothing to ask.
  AsyncSession a;
  int asked = 0;
  a.session.SetDisruptionRunner([&](std::uint64_t, const std::string&, const std::string&) { ++asked; });
  const std::string text = PresetText("consolidation-delete");
  ASSERT_TRUE(a.session.SetText(text));
  ASSERT_TRUE(a.session.Complete(a.runs[0].first, DisruptionEnvelope(text)));
  ASSERT_NE(a.session.disruption(), nullptr);
  EXPECT_TRUE(a.session.disruption()->contains("disruption"));
  EXPECT_FALSE(a.session.RequestDisruption());
  EXPECT_EQ(asked, 0);
}

// A background run's snapshot (the result JSON read by core/io/result_reader and joined with the scenario) shows
// what a run in the frame shows, for every preset in every mode.
class BackgroundSnapshotTest : public ::testing::TestWithParam<testing::PresetInMode> {};

TEST_P(BackgroundSnapshotTest, ShowsWhatARunInTheFrameShows) {
  const std::string& text = GetParam().text;
  Session frame;
  if (!frame.SetText(text)) GTEST_SKIP() << "does not run in this mode: " << frame.error();
  AsyncSession background;
  ASSERT_TRUE(background.session.SetText(text));
  ASSERT_TRUE(background.session.Complete(background.runs[0].first, WorkerEnvelope(text)));
  const Snapshot& f = *frame.snapshot();
  const Snapshot& b = *background.session.snapshot();
  EXPECT_EQ(b.result_json, f.result_json);
  ASSERT_EQ(b.pods.size(), f.pods.size());
  for (std::size_t i = 0; i < f.pods.size(); ++i) {
    SCOPED_TRACE(f.pods[i].key);
    EXPECT_EQ(b.pods[i].key, f.pods[i].key);
    EXPECT_EQ(b.pods[i].owner, f.pods[i].owner);
    EXPECT_EQ(b.pods[i].status, f.pods[i].status);
    EXPECT_EQ(b.pods[i].claim, f.pods[i].claim);
    EXPECT_EQ(b.pods[i].requests.milli_cpu, f.pods[i].requests.milli_cpu);
    EXPECT_EQ(b.pods[i].result->node, f.pods[i].result->node);
    EXPECT_EQ(b.pods[i].result->unschedulable, f.pods[i].result->unschedulable);
    EXPECT_EQ(b.pods[i].karpenter != nullptr, f.pods[i].karpenter != nullptr);
  }
  EXPECT_EQ(b.unplaced, f.unplaced);
  // The top bar's counts are the statuses'.
  for (const Snapshot* snap : {&f, &b}) {
    int placed = 0, pending = 0, on_claims = 0;
    for (const PodView& v : snap->pods) {
      placed += v.status == PodStatus::Scheduled;
      pending +=
          v.status == PodStatus::Pending || v.status == PodStatus::Gated || v.status == PodStatus::OtherScheduler;
      on_claims += v.status == PodStatus::OnNewClaim;
    }
    EXPECT_EQ(snap->placed, placed);
    EXPECT_EQ(snap->pending, pending);
    EXPECT_EQ(snap->on_claims, on_claims);
  }
  EXPECT_EQ(b.placed, f.placed);
  // Every pod is found by its key and paired with its own object (the views pair them by key order).
  for (const Snapshot* snap : {&f, &b})
    for (std::size_t i = 0; i < snap->pods.size(); ++i) {
      const PodView& v = snap->pods[i];
      EXPECT_EQ(snap->FindPod(v.key), static_cast<int>(i));
      if (v.pod) {
        EXPECT_EQ(v.pod->Key(), v.key);
      }
    }
  // The nodes (in cluster mode the JSON does not say in which order kube-scheduler's snapshot listed the launched
  // ones: the background snapshot lists them in launch order).
  ASSERT_EQ(b.nodes.size(), f.nodes.size());
  for (std::size_t i = 0; i < f.nodes.size(); ++i) {
    SCOPED_TRACE(f.nodes[i].node->meta.name);
    const int j = b.FindNode(f.nodes[i].node->meta.name);
    ASSERT_GE(j, 0);
    const NodeView& bn = b.nodes[static_cast<std::size_t>(j)];
    if (!f.nodes[i].launched) {
      EXPECT_EQ(j, static_cast<int>(i));
    }
    EXPECT_EQ(bn.node->meta.LabelText(), f.nodes[i].node->meta.LabelText());
    EXPECT_EQ(bn.node->allocatable.milli_cpu, f.nodes[i].node->allocatable.milli_cpu);
    EXPECT_EQ(bn.launched != nullptr, f.nodes[i].launched != nullptr);
    std::vector<int> bp = bn.pods, fp = f.nodes[i].pods;
    std::sort(bp.begin(), bp.end());  // the JSON has no bind order per node: the Scheduled events' order instead
    std::sort(fp.begin(), fp.end());
    EXPECT_EQ(bp, fp);
    if (!b.result.karpenter) {  // in the order the joined result lists the node's pods, each view its key's
      auto summary = std::find_if(b.result.nodes.begin(), b.result.nodes.end(),
                                  [&](const sim::NodeSummary& n) { return n.name == bn.node->meta.name; });
      ASSERT_NE(summary, b.result.nodes.end());
      std::vector<std::string> keys;
      for (int p : bn.pods) keys.push_back(b.pods[static_cast<std::size_t>(p)].key);
      EXPECT_EQ(keys, summary->pods);
    }
    EXPECT_EQ(bn.requested.milli_cpu, f.nodes[i].requested.milli_cpu);
  }
  ASSERT_EQ(b.claims.size(), f.claims.size());
  for (std::size_t i = 0; i < f.claims.size(); ++i) {
    EXPECT_EQ(b.claims[i].claim->name, f.claims[i].claim->name);
    EXPECT_EQ(b.claims[i].pods, f.claims[i].pods);
    EXPECT_EQ(b.claims[i].allocatable.milli_cpu, f.claims[i].allocatable.milli_cpu);
  }
  ASSERT_EQ(b.events.size(), f.events.size());
  for (std::size_t i = 0; i < f.events.size(); ++i) {
    EXPECT_EQ(b.events[i].object, f.events[i].object);
    EXPECT_EQ(b.events[i].karpenter, f.events[i].karpenter);
    EXPECT_EQ(b.events[i].event->reason, f.events[i].event->reason);
    EXPECT_EQ(b.events[i].event->message, f.events[i].event->message);
  }
  EXPECT_EQ(b.has_karpenter(), f.has_karpenter());
  EXPECT_EQ(b.result.rounds.size(), f.result.rounds.size());
}

INSTANTIATE_TEST_SUITE_P(Presets, BackgroundSnapshotTest, ::testing::ValuesIn(testing::PresetsInEveryMode()),
                         [](const ::testing::TestParamInfo<testing::PresetInMode>& i) {
                           return kplace::testing::TestName(i.param.name);
                         });

// cluster mode: the Nodes launched NodeClaims became are the core's (sim::NodeForClaim), with the labels the
// result reports for them, registration and initialisation included.
// SnapshotIndexer builds a background run's snapshot a step per call, and then stays complete: a further Step lists no
// pod twice.
TEST(SnapshotTest, TheIndexerStaysCompleteOnceDone) {
  const std::string text = PresetText("quickstart");
  Snapshot snap;
  snap.scenario = io::ParseScenario(text);
  const io::Json result = io::Json::parse(WorkerEnvelope(text))["result"];
  SnapshotIndexer indexer(snap, &result);
  int steps = 1;
  while (!indexer.Step()) ASSERT_LT(++steps, 100);
  EXPECT_GE(steps, 9);  // a step per phase at least
  std::vector<std::vector<int>> pods;
  for (const NodeView& nv : snap.nodes) pods.push_back(nv.pods);
  const std::size_t events = snap.events.size();
  EXPECT_TRUE(indexer.Step());
  ASSERT_EQ(snap.nodes.size(), pods.size());
  for (std::size_t i = 0; i < pods.size(); ++i) EXPECT_EQ(snap.nodes[i].pods, pods[i]);
  EXPECT_EQ(snap.events.size(), events);
  EXPECT_FALSE(snap.pods.empty());
}

// Indexes text's background-run snapshot, items_per_step pods or nodes per step; the steps it took.
int IndexInSteps(const std::string& text, std::size_t items_per_step, Snapshot& snap) {
  snap.scenario = io::ParseScenario(text);
  const io::Json result = io::Json::parse(WorkerEnvelope(text))["result"];
  SnapshotIndexer indexer(snap, &result, items_per_step);
  int steps = 1;
  while (!indexer.Step()) ++steps;
  snap.result_json.clear();
  return steps;
}

std::string Res(const Resource& r) {
  std::string out = std::to_string(r.milli_cpu) + "m " + std::to_string(r.memory) + " " +
                    std::to_string(r.ephemeral_storage) + " " + std::to_string(r.allowed_pod_number);
  for (const auto& [name, v] : r.scalar) out += " " + Text(name) + "=" + std::to_string(v);
  return out;
}

// Every view field the panels read, equal in a and b.
void ExpectSameViews(const Snapshot& a, const Snapshot& b) {
  ASSERT_EQ(a.pods.size(), b.pods.size());
  for (std::size_t i = 0; i < a.pods.size(); ++i) {
    SCOPED_TRACE(a.pods[i].key);
    EXPECT_EQ(a.pods[i].key, b.pods[i].key);
    EXPECT_EQ(a.pods[i].name, b.pods[i].name);
    EXPECT_EQ(a.pods[i].owner, b.pods[i].owner);
    EXPECT_EQ(a.pods[i].status, b.pods[i].status);
    EXPECT_EQ(a.pods[i].claim, b.pods[i].claim);
    EXPECT_EQ(Res(a.pods[i].requests), Res(b.pods[i].requests));
    EXPECT_EQ(a.pods[i].pod ? a.pods[i].pod->Key() : "", b.pods[i].pod ? b.pods[i].pod->Key() : "");
    EXPECT_EQ(a.pods[i].result->node, b.pods[i].result->node);
    EXPECT_EQ(a.pods[i].result->unschedulable, b.pods[i].result->unschedulable);
    EXPECT_EQ(a.pods[i].result->bound_at_start, b.pods[i].result->bound_at_start);
    EXPECT_EQ(a.pods[i].result->priority, b.pods[i].result->priority);
    EXPECT_EQ(a.pods[i].karpenter != nullptr, b.pods[i].karpenter != nullptr);
  }
  EXPECT_EQ(a.unplaced, b.unplaced);
  EXPECT_EQ(a.placed, b.placed);
  EXPECT_EQ(a.pending, b.pending);
  EXPECT_EQ(a.on_claims, b.on_claims);
  EXPECT_EQ(a.node_index, b.node_index);
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.nodes[i].node->meta.name, b.nodes[i].node->meta.name);
    EXPECT_EQ(a.nodes[i].pods, b.nodes[i].pods);
    EXPECT_EQ(Res(a.nodes[i].requested), Res(b.nodes[i].requested));
    EXPECT_EQ(a.nodes[i].launched != nullptr, b.nodes[i].launched != nullptr);
  }
  ASSERT_EQ(a.result.nodes.size(), b.result.nodes.size());
  for (std::size_t i = 0; i < a.result.nodes.size(); ++i) EXPECT_EQ(a.result.nodes[i].pods, b.result.nodes[i].pods);
  ASSERT_EQ(a.claims.size(), b.claims.size());
  for (std::size_t i = 0; i < a.claims.size(); ++i) {
    EXPECT_EQ(a.claims[i].claim->name, b.claims[i].claim->name);
    EXPECT_EQ(a.claims[i].pods, b.claims[i].pods);
    EXPECT_EQ(Res(a.claims[i].allocatable), Res(b.claims[i].allocatable));
  }
  ASSERT_EQ(a.events.size(), b.events.size());
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    EXPECT_EQ(a.events[i].object, b.events[i].object);
    EXPECT_EQ(a.events[i].event->message, b.events[i].event->message);
  }
  EXPECT_EQ(io::ResultText(a.result), io::ResultText(b.result));
}

// A step at a time, however small the steps, the indexer builds what it builds all at once, for every preset in
// every mode.
class SlicedIndexerTest : public ::testing::TestWithParam<testing::PresetInMode> {};

TEST_P(SlicedIndexerTest, SmallStepsBuildWhatOneStepBuilds) {
  const std::string& text = GetParam().text;
  if (!io::RunText(text, false, false).ok) GTEST_SKIP() << "does not run in this mode";
  Snapshot whole;
  const int whole_steps = IndexInSteps(text, SnapshotIndexer::kAllAtOnce, whole);
  for (const std::size_t per_step : {std::size_t{1}, std::size_t{2}, std::size_t{7}}) {
    SCOPED_TRACE(per_step);
    Snapshot sliced;
    const int steps = IndexInSteps(text, per_step, sliced);
    ExpectSameViews(whole, sliced);
    if (whole.pods.size() > per_step) {
      EXPECT_GT(steps, whole_steps);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Presets, SlicedIndexerTest, ::testing::ValuesIn(testing::PresetsInEveryMode()),
                         [](const ::testing::TestParamInfo<testing::PresetInMode>& i) {
                           return kplace::testing::TestName(i.param.name);
                         });

// A cluster whose pods are not listed in key order (kubectl lists a namespace's pods together, namespaces in
// order; an edited or generated list need not): the sort runs and merges a slice per step, and its order is the one
// a sort of the whole gives (equal names in different namespaces, runs of uneven length).
TEST(SnapshotTest, PodsOutOfKeyOrderAreSortedAStepAtATime) {
  std::string text = R"({"apiVersion": "v1", "kind": "List", "items": [)";
  for (int i = 0; i < 6; ++i)
    text += R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n)" + std::to_string(i) +
            R"("}, "status": {"allocatable": {"cpu": "8", "memory": "8Gi", "pods": "110"}}}, )";
  for (int i = 0; i < 203; ++i) {
    const int j = (i * 89) % 203;  // a permutation of 0..202
    text += R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p-)" + std::to_string(j % 101) +
            R"(", "namespace": "ns-)" + std::to_string(j % 3) + R"("}, "spec": {)" +
            (j % 2 ? R"("nodeName": "n)" + std::to_string(j % 6) + R"(", )" : std::string()) +
            R"("containers": [{"name": "c", "resources": {"requests": {"cpu": ")" + std::to_string(10 + j) +
            R"(m"}}}]}})" + (i + 1 < 203 ? ", " : "");
  }
  text += "]}";
  Snapshot whole, sliced;
  IndexInSteps(text, SnapshotIndexer::kAllAtOnce, whole);
  const int steps = IndexInSteps(text, 5, sliced);
  ASSERT_EQ(whole.pods.size(), 203u);
  for (std::size_t i = 1; i < whole.pods.size(); ++i) EXPECT_LT(whole.pods[i - 1].key, whole.pods[i].key);
  ExpectSameViews(whole, sliced);
  EXPECT_GT(steps, 203 / 5 * 4);  // keys, sorted runs, joined, listed, indexed: each a slice of 5 per step
}

TEST(SnapshotTest, LaunchedNodesAreTheCoresNodes) {
  Session s;
  ASSERT_TRUE(s.SetText(PresetText("spot-vs-on-demand")));
  int launched = 0;
  for (const auto& nv : s.snapshot()->nodes) {
    if (!nv.launched) continue;
    ++launched;
    EXPECT_EQ(nv.node->meta.LabelText(), nv.launched->claim.labels);
    EXPECT_EQ(nv.node->meta.LabelText().at("karpenter.sh/initialized"), "true");
    EXPECT_EQ(nv.node->meta.LabelText().at("kubernetes.io/os"), "linux");
    EXPECT_EQ(nv.node->item_index, -1);
    EXPECT_GT(nv.node->allocatable.milli_cpu, 0);
  }
  EXPECT_GT(launched, 0);
}

}  // namespace
}  // namespace kplace::app
