// Scheduling throughput on generated clusters. Reports pods/s; no thresholds (figures, not tests).
//   BM_Schedule/5000/10000: 5,000 nodes in 3 zones, 10,000 pending pods with requests, tolerations,
//   required node affinity and a zone topology spread constraint.
//   BM_PreemptionAsync/5000/20000/100/5000: upstream scheduler_perf's PreemptionAsync workload
//   (test/integration/scheduler_perf/misc/performance-config.yaml): 5,000 nodes of 4 cpu, each running 4
//   low-priority pods of 900m; high-priority pods of 3 cpu that must preempt 3 of them; then pods of 100m that always
//   fit. Upstream injects the high-priority pods at 5/s while it measures; here they are a fixed number in the queue.
#include <benchmark/benchmark.h>

#include <string>

#include "core/io/scenario_parser.h"
#include "core/sim/simulation.h"

namespace {

using kplace::io::Json;

Json GenerateCluster(int num_nodes, int num_pods) {
  Json items = Json::array();
  items.push_back({{"apiVersion", "kplace.dev/v1alpha1"},
                   {"kind", "Simulation"},
                   {"metadata", {{"name", "bench"}}},
                   {"spec", {{"mode", "scheduler"}, {"seed", 1}}}});
  const char* zones[] = {"zone-a", "zone-b", "zone-c"};
  for (int i = 0; i < num_nodes; ++i) {
    std::string name = "node-" + std::to_string(i);
    Json node = {{"apiVersion", "v1"},
                 {"kind", "Node"},
                 {"metadata",
                  {{"name", name},
                   {"labels",
                    {{"kubernetes.io/hostname", name},
                     {"topology.kubernetes.io/zone", zones[i % 3]},
                     {"node.kubernetes.io/instance-type", i % 2 ? "m5.large" : "m5.xlarge"}}}}},
                 {"status", {{"allocatable", {{"cpu", i % 2 ? "2" : "4"}, {"memory", "16Gi"}, {"pods", "110"}}}}}};
    if (i % 10 == 0)
      node["spec"] = {{"taints", {{{"key", "dedicated"}, {"value", "batch"}, {"effect", "NoSchedule"}}}}};
    items.push_back(node);
  }
  for (int i = 0; i < num_pods; ++i) {
    std::string app = "app-" + std::to_string(i % 20);
    Json pod = {
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", {{"name", "pod-" + std::to_string(i)}, {"namespace", "default"}, {"labels", {{"app", app}}}}},
        {"spec",
         {{"containers",
           {{{"name", "c"},
             {"image", "nginx"},
             {"resources", {{"requests", {{"cpu", "100m"}, {"memory", "256Mi"}}}}}}}},
          {"tolerations",
           {{{"key", "dedicated"}, {"operator", "Equal"}, {"value", "batch"}, {"effect", "NoSchedule"}}}},
          {"affinity",
           {{"nodeAffinity",
             {{"requiredDuringSchedulingIgnoredDuringExecution",
               {{"nodeSelectorTerms",
                 {{{"matchExpressions",
                    {{{"key", "topology.kubernetes.io/zone"},
                      {"operator", "In"},
                      {"values", {"zone-a", "zone-b", "zone-c"}}}}}}}}}}}}}},
          {"topologySpreadConstraints",
           {{{"maxSkew", 1},
             {"topologyKey", "topology.kubernetes.io/zone"},
             {"whenUnsatisfiable", "DoNotSchedule"},
             {"labelSelector", {{"matchLabels", {{"app", app}}}}}}}}}}};
    items.push_back(pod);
  }
  return {{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}};
}

void BM_Schedule(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const int pods = static_cast<int>(state.range(1));
  kplace::Scenario scenario = kplace::io::ParseScenarioJson(GenerateCluster(nodes, pods));
  std::size_t placed = 0;
  for (auto _ : state) {
    auto result = kplace::sim::Run(scenario);
    placed = result.bind_order.size();
    benchmark::DoNotOptimize(placed);
  }
  state.counters["pods/s"] =
      benchmark::Counter(static_cast<double>(pods), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["placed"] = static_cast<double>(placed);
}
BENCHMARK(BM_Schedule)->Args({500, 1000})->Args({5000, 10000})->Unit(benchmark::kMillisecond)->Iterations(1);

Json GeneratePreemption(int num_nodes, int init_pods, int high_pods, int measure_pods) {
  Json items = Json::array();
  items.push_back({{"apiVersion", "kplace.dev/v1alpha1"},
                   {"kind", "Simulation"},
                   {"metadata", {{"name", "bench-preemption"}}},
                   {"spec", {{"mode", "scheduler"}, {"seed", 1}}}});
  for (int i = 0; i < num_nodes; ++i) {
    std::string name = "node-" + std::to_string(i);
    items.push_back({{"apiVersion", "v1"},
                     {"kind", "Node"},
                     {"metadata", {{"name", name}, {"labels", {{"kubernetes.io/hostname", name}}}}},
                     {"status", {{"allocatable", {{"cpu", "4"}, {"memory", "32Gi"}, {"pods", "110"}}}}}});
  }
  auto pod = [](const std::string& name, const char* cpu, const char* memory, int priority) {
    return Json{{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec",
                 {{"priority", priority},
                  {"containers",
                   {{{"name", "c"},
                     {"image", "registry.k8s.io/pause:3.10"},
                     {"resources", {{"requests", {{"cpu", cpu}, {"memory", memory}}}}}}}}}}};
  };
  for (int i = 0; i < init_pods; ++i) {
    Json p = pod("low-" + std::to_string(i), "900m", "500Mi", 1);
    p["spec"]["nodeName"] = "node-" + std::to_string(i % num_nodes);
    p["status"] = {{"startTime", "2026-01-01T00:00:00Z"}};
    items.push_back(p);
  }
  for (int i = 0; i < high_pods; ++i) items.push_back(pod("high-" + std::to_string(i), "3", "500Mi", 10));
  for (int i = 0; i < measure_pods; ++i) items.push_back(pod("pod-" + std::to_string(i), "100m", "500Mi", 0));
  return {{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}};
}

void BM_PreemptionAsync(benchmark::State& state) {
  const int high = static_cast<int>(state.range(2));
  const int measure = static_cast<int>(state.range(3));
  kplace::Scenario scenario = kplace::io::ParseScenarioJson(
      GeneratePreemption(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), high, measure));
  std::size_t placed = 0, preempted = 0;
  for (auto _ : state) {
    auto result = kplace::sim::Run(scenario);
    placed = result.bind_order.size();
    preempted = result.preempted.size();
    benchmark::DoNotOptimize(placed);
  }
  state.counters["pods/s"] =
      benchmark::Counter(static_cast<double>(high + measure), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["placed"] = static_cast<double>(placed);
  state.counters["preempted"] = static_cast<double>(preempted);
}
BENCHMARK(BM_PreemptionAsync)
    ->Args({500, 2000, 10, 500})
    ->Args({5000, 20000, 100, 5000})
    ->Args({5000, 20000, 1000, 0})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void BM_ParseScenario(benchmark::State& state) {
  std::string text = GenerateCluster(static_cast<int>(state.range(0)), static_cast<int>(state.range(1))).dump();
  for (auto _ : state) {
    auto sc = kplace::io::ParseScenario(text);
    benchmark::DoNotOptimize(sc.pods.size());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseScenario)->Args({5000, 10000})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
