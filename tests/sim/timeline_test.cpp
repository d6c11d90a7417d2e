// The run step by step (core/sim/timeline.h): what the steps record, and that the cluster and the queue rebuilt from
// them after any number of steps are what a run stopped there holds (RunOptions::stop_after_attempts).
#include "core/sim/timeline.h"

#include <gtest/gtest.h>

#include "core/io/compare.h"
#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/model/input_error.h"
#include "core/sim/simulation.h"
#include "tests/testing/items.h"
#include "tests/testing/table.h"

namespace kplace {
namespace {

using nlohmann::json;
using sim::QueuedPod;
using sim::TimelineStep;
using Kind = sim::TimelineStep::Kind;

sim::SimResult RunText(const std::string& text, const std::string& settings = "", std::size_t stop_after = 0) {
  io::ParseOptions parse;
  if (!settings.empty()) io::ParseOverrides(settings, parse.overrides);
  sim::RunOptions options;
  options.record_timeline = true;
  options.stop_after_attempts = stop_after;
  return sim::Run(io::ParseScenario(text, parse), options);
}

std::string Preset(const std::string& name) {
  return testing::ReadFile(std::string(KPLACE_SOURCE_DIR) + "/presets/" + name + ".json");
}

std::string StepsText(const sim::Timeline& t, std::size_t end) {
  sim::Timeline copy;
  copy.bound_at_start = t.bound_at_start;
  copy.nominated_at_start = t.nominated_at_start;
  copy.steps.assign(t.steps.begin(), t.steps.begin() + static_cast<std::ptrdiff_t>(std::min(end, t.steps.size())));
  std::string out;
  io::JsonWriter w(out, 1);
  io::WriteTimeline(w, copy);
  return out;
}

std::string QueueText(const std::vector<QueuedPod>& queue) {
  std::string out;
  io::JsonWriter w(out, 1);
  io::WriteQueue(w, queue);
  return out;
}

// The result document plus what it does not print (each node's pods), without the timeline.
std::string Document(sim::SimResult r) {
  r.timeline.reset();
  std::string out = io::ResultText(r);
  for (const auto& n : r.nodes) {
    out += n.name + ":";
    for (const auto& p : n.pods) out += " " + p;
    out += "\n";
  }
  for (const auto& l : r.node_claims) out += l.node + (l.initialized ? " initialized" : " launching") + "\n";
  return out;
}

// Index of the step of attempt number k (1-based, counting every pod's attempts), or the number of steps.
std::size_t StepOfAttempt(const sim::Timeline& t, std::size_t k) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < t.steps.size(); ++i)
    if (t.steps[i].kind == Kind::Attempt && ++seen == k) return i;
  return t.steps.size();
}

std::size_t Attempts(const sim::Timeline& t) {
  std::size_t n = 0;
  for (const auto& s : t.steps) n += s.kind == Kind::Attempt;
  return n;
}

// The state after the steps before attempt k+1 of a whole run is the run stopped after k attempts: the same result
// document (but what only the end decides: disagreements, the disruption dry run), the same steps so far, and the
// queue rebuilt from the steps is the stopped run's own.
void ExpectTruncatedRunsMatch(const std::string& text, const std::string& settings, const std::string& label) {
  const sim::SimResult full = RunText(text, settings);
  ASSERT_TRUE(full.timeline) << label;
  const sim::Timeline& t = *full.timeline;
  EXPECT_FALSE(t.stopped) << label;
  EXPECT_EQ(Document(sim::ResultAt(full, t.steps.size())),
            [&] {
              sim::SimResult copy = full;
              return Document(copy);
            }())
      << label << ": the last step is the whole run";
  const std::size_t attempts = Attempts(t);
  // Every attempt of small runs; a sample of large ones.
  const std::size_t stride = attempts > 60 ? attempts / 30 : 1;
  for (std::size_t k = 1; k <= attempts; k += stride) {
    SCOPED_TRACE(label + ", stopped after " + std::to_string(k) + " attempts");
    sim::SimResult cut = RunText(text, settings, k);
    ASSERT_TRUE(cut.timeline);
    const std::size_t n = StepOfAttempt(t, k + 1);
    EXPECT_EQ(cut.timeline->stopped, k < attempts);
    EXPECT_EQ(StepsText(*cut.timeline, cut.timeline->steps.size()), StepsText(t, n));
    if (cut.timeline->stopped) {
      EXPECT_EQ(QueueText(cut.timeline->stopped_queue), QueueText(sim::StateAt(full, n).queue));
    }
    if (cut.timeline->stopped) {
      for (auto& p : cut.pods) {
        p.disagreement.clear();
        p.interchangeable = false;
      }
    }
    EXPECT_EQ(Document(sim::ResultAt(full, n)), Document(cut));
  }
}

TEST(Timeline, EveryPresetAtEveryAttemptIsTheRunStoppedThere) {
  for (const auto& name : testing::PresetNames()) {
    const std::string text = Preset(name);
    for (const char* mode : {"mode=scheduler", "mode=cluster"}) {
      try {
        io::ParseOptions parse;
        io::ParseOverrides(mode, parse.overrides);
        io::ParseScenario(text, parse);
      } catch (const InputError&) {
        continue;  // a preset that cannot run in that mode
      }
      ExpectTruncatedRunsMatch(text, mode, name + " " + mode);
    }
  }
}

json List(json items) { return {{"apiVersion", "v1"}, {"kind", "List"}, {"items", std::move(items)}}; }

json Simulation(const std::string& mode) {
  return {{"apiVersion", "kplace.dev/v1alpha1"},
          {"kind", "Simulation"},
          {"metadata", {{"name", "s"}}},
          {"spec", {{"mode", mode}, {"kubernetesVersion", "1.37"}}}};
}

json Priority(const std::string& name, int value) {
  return {{"apiVersion", "scheduling.k8s.io/v1"},
          {"kind", "PriorityClass"},
          {"metadata", {{"name", name}}},
          {"value", value}};
}

json CpuPod(const std::string& name, const std::string& cpu, const std::string& priority_class,
            const std::string& node = "") {
  json p = testing::PodItem(name);
  p["spec"]["containers"][0]["resources"]["requests"]["cpu"] = cpu;
  if (!priority_class.empty()) p["spec"]["priorityClassName"] = priority_class;
  if (!node.empty()) p["spec"]["nodeName"] = node;
  return p;
}

std::vector<std::string> Kinds(const sim::Timeline& t) {
  std::vector<std::string> out;
  for (const auto& s : t.steps) out.emplace_back(sim::StepKindName(s.kind));
  return out;
}

const QueuedPod* Find(const std::vector<QueuedPod>& queue, const std::string& pod) {
  for (const auto& q : queue)
    if (q.pod == pod) return &q;
  return nullptr;
}

// A preemption: the failed attempt, the victim's deletion, the nomination; the deletion wakes the preemptor and the
// pod that waits for one; the next pass binds the preemptor.
TEST(Timeline, PreemptionStepByStep) {
  json items = {Simulation("scheduler"),
                Priority("low", 10),
                Priority("high", 1000),
                testing::NodeItem("n1"),
                CpuPod("low-a", "3", "low", "n1"),
                CpuPod("high", "2", "high"),
                CpuPod("other", "3", "low"),
                CpuPod("gated", "1", "")};
  items.back()["spec"]["schedulingGates"] = {{{"name", "example.com/wait"}}};
  const sim::SimResult r = RunText(List(items).dump());
  ASSERT_TRUE(r.timeline);
  const sim::Timeline& t = *r.timeline;
  EXPECT_EQ(Kinds(t), (std::vector<std::string>{"pass", "attempt", "preempt", "nominate", "attempt", "pass", "attempt",
                                                "attempt"}));
  EXPECT_EQ(t.bound_at_start, (std::vector<std::pair<std::string, std::string>>{{"n1", "default/low-a"}}));
  // Pass 1: both pending pods active (high first: PrioritySort), the gated one gated.
  const auto& q1 = t.steps[0].queue;
  ASSERT_EQ(q1.size(), 3u);
  EXPECT_EQ(q1[0].pod, "default/high");
  EXPECT_EQ(q1[0].queue, QueuedPod::Queue::Active);
  EXPECT_EQ(q1[1].pod, "default/other");
  EXPECT_EQ(q1[2].queue, QueuedPod::Queue::Gated);
  EXPECT_EQ(q1[2].gates, (std::vector<std::string>{"example.com/wait"}));
  EXPECT_EQ(t.steps[1].pod, "default/high");
  EXPECT_TRUE(t.steps[1].node.empty());
  EXPECT_EQ(t.steps[1].events, (std::vector<std::string>{"AssignedPodDelete", "NodeAdd"}));
  EXPECT_EQ(t.steps[2].pod, "default/low-a");
  EXPECT_EQ(t.steps[2].by, "default/high");
  EXPECT_EQ(t.steps[3].node, "n1");

  // After the deletion: high in backoffQ (its victim went, and it preempted), other still active, low-a gone.
  sim::TimelineState s = sim::StateAt(r, 3);
  ASSERT_EQ(s.queue.size(), 3u);
  EXPECT_EQ(s.queue[0].pod, "default/other");
  EXPECT_EQ(s.queue[0].queue, QueuedPod::Queue::Active);
  EXPECT_EQ(Find(s.queue, "default/high")->queue, QueuedPod::Queue::Backoff);
  EXPECT_EQ(Find(s.queue, "default/high")->events, (std::vector<std::string>{"AssignedPodDelete"}));
  EXPECT_TRUE(s.bound.empty());
  EXPECT_EQ(s.deleted, (std::vector<std::string>{"default/low-a"}));
  s = sim::StateAt(r, 4);
  EXPECT_EQ(s.nominated, (std::vector<std::pair<std::string, std::string>>{{"default/high", "n1"}}));
  EXPECT_EQ(Find(s.queue, "default/high")->moved, sim::MoveReason(sim::kMovePreempted));
  // other fails (the room is held for high) after the deletion: it is woken for the next pass at once.
  s = sim::StateAt(r, 5);
  EXPECT_EQ(Find(s.queue, "default/other")->queue, QueuedPod::Queue::Backoff);
  // Pass 2 binds high; other fails again and waits: nothing it registered for happens.
  s = sim::StateAt(r, 8);
  EXPECT_EQ(s.bound, (std::vector<std::pair<std::string, std::string>>{{"default/high", "n1"}}));
  EXPECT_TRUE(s.nominated.empty());
  const QueuedPod* other = Find(s.queue, "default/other");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->queue, QueuedPod::Queue::Unschedulable);
  for (const auto& p : r.pods) {
    if (p.key == "default/other") {
      EXPECT_EQ(other->message, p.unschedulable);
    }
  }
  EXPECT_EQ(s.pass, 2);

  // The result after 4 steps: the victim deleted, high nominated and pending with its first message.
  const sim::SimResult at4 = sim::ResultAt(r, 4);
  EXPECT_EQ(at4.events.size(), 3u);  // FailedScheduling, Preempted, Nominated
  EXPECT_TRUE(at4.bind_order.empty());
  EXPECT_EQ(at4.preempted, (std::vector<std::string>{"default/low-a"}));
  for (const auto& p : at4.pods) {
    if (p.key == "default/high") {
      EXPECT_EQ(p.nominated_node, "n1");
      EXPECT_EQ(p.attempts.size(), 1u);
      EXPECT_FALSE(p.unschedulable.empty());
    }
    if (p.key == "default/low-a") {
      EXPECT_EQ(p.preempted_by, "default/high");
    }
  }
  EXPECT_EQ(sim::DescribeStep(t.steps[2]), "default/low-a deleted from n1 (preempted by default/high)");
}

// cluster mode: Karpenter's turn and the NodeClaims it launches are steps; a NodeClaim launched and not yet
// initialised is shown so, and the DaemonSet pods of a launch do not exist before it.
TEST(Timeline, ClusterModeRoundsAndLaunches) {
  const json karpenter =
      testing::KarpenterItems({{"startupTaints", {{{"key", "example.com/init"}, {"effect", "NoSchedule"}}}}});
  json ds = {{"apiVersion", "apps/v1"},
             {"kind", "DaemonSet"},
             {"metadata", {{"name", "agent"}, {"namespace", "default"}}},
             {"spec",
              {{"selector", {{"matchLabels", {{"app", "agent"}}}}},
               {"template",
                {{"metadata", {{"labels", {{"app", "agent"}}}}},
                 {"spec",
                  {{"tolerations", {{{"operator", "Exists"}}}},
                   {"containers", {{{"name", "a"}, {"resources", {{"requests", {{"cpu", "100m"}}}}}}}}}}}}}}};
  json items = {Simulation("cluster"), karpenter[0], karpenter[1], ds, CpuPod("web", "1", "")};
  const sim::SimResult r = RunText(List(items).dump());
  ASSERT_TRUE(r.timeline);
  const sim::Timeline& t = *r.timeline;
  EXPECT_EQ(Kinds(t), (std::vector<std::string>{"round", "pass", "attempt", "provision", "launch", "initialize",
                                                "round", "pass", "attempt", "attempt"}));
  const std::size_t launch = 4;
  EXPECT_EQ(t.steps[launch].round, 1);
  ASSERT_EQ(t.steps[launch].pods.size(), 1u);
  const std::string daemon = t.steps[launch].pods[0];
  EXPECT_EQ(t.steps[3].pods, (std::vector<std::string>{"default/web"}));
  // Before the launch: no NodeClaim, no DaemonSet pod.
  sim::SimResult at = sim::ResultAt(r, launch);
  EXPECT_TRUE(at.node_claims.empty());
  for (const auto& p : at.pods) EXPECT_NE(p.key, daemon);
  // Launched, not initialised: on the cluster, its startupTaints still on.
  at = sim::ResultAt(r, launch + 1);
  ASSERT_EQ(at.node_claims.size(), 1u);
  EXPECT_FALSE(at.node_claims[0].initialized);
  EXPECT_EQ(at.hourly_price, 0.085);
  at = sim::ResultAt(r, launch + 2);
  EXPECT_TRUE(at.node_claims[0].initialized);
  EXPECT_EQ(at.rounds.size(), 1u);
  EXPECT_EQ(at.rounds[0].launched.size(), 1u);
  // The new round's pass: web woken by the Node, the DaemonSet pod new.
  const auto& q = t.steps[7].queue;
  ASSERT_EQ(q.size(), 2u);
  EXPECT_EQ(Find(q, "default/web")->events, (std::vector<std::string>{"NodeAdd"}));
  EXPECT_TRUE(Find(q, daemon)->events.empty());
  EXPECT_EQ(t.steps[7].round, 2);
  EXPECT_EQ(sim::DescribeStep(t.steps[5]),
            "NodeClaim " + t.steps[5].node + " initialized: startupTaints removed: example.com/init:NoSchedule");
}

TEST(Timeline, RecordedOnlyWhenAskedAndNotInKarpenterMode) {
  json items = {Simulation("scheduler"), testing::NodeItem("n1"), CpuPod("web", "1", "")};
  EXPECT_FALSE(sim::Run(io::ParseScenario(List(items).dump())).timeline);
  items[0]["spec"]["mode"] = "karpenter";
  EXPECT_FALSE(RunText(List(items).dump()).timeline);
}

// The step limit stops a run even inside its first pass, and the result is a valid document.
TEST(Timeline, StopAfterAttemptsWithoutTimeline) {
  json items = {Simulation("scheduler"), testing::NodeItem("n1"), CpuPod("a", "1", ""), CpuPod("b", "1", ""),
                CpuPod("c", "1", "")};
  sim::RunOptions options;
  options.stop_after_attempts = 2;
  const sim::SimResult r = sim::Run(io::ParseScenario(List(items).dump()), options);
  EXPECT_FALSE(r.timeline);
  EXPECT_EQ(r.bind_order.size(), 2u);
  std::size_t pending = 0;
  for (const auto& p : r.pods) pending += p.node.empty();
  EXPECT_EQ(pending, 1u);
}

TEST(Timeline, JsonNumbersStepsAndNamesQueues) {
  json items = {Simulation("scheduler"), testing::NodeItem("n1"), CpuPod("a", "1", ""), CpuPod("big", "9", "")};
  const json doc = io::ResultToJson(RunText(List(items).dump()));
  const json& steps = doc.at("timeline").at("steps");
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].at("kind"), "pass");
  EXPECT_EQ(steps[0].at("step"), 1);
  EXPECT_EQ(steps[0].at("queue")[0].at("queue"), "activeQ");
  EXPECT_EQ(steps[1].at("node"), "n1");
  EXPECT_EQ(steps[1].at("clusterEvents"), json({"AssignedPodAdd"}));
  EXPECT_EQ(steps[2].at("pod"), "default/big");
  EXPECT_EQ(steps[2].at("attempt"), 1);
  EXPECT_TRUE(steps[2].contains("message"));
  EXPECT_FALSE(doc.at("timeline").contains("stoppedQueue"));
}

}  // namespace
}  // namespace kplace
