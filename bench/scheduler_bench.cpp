// Scheduling throughput on generated clusters. Reports pods/s; no thresholds (figures, not tests).
//   BM_Schedule/5000/10000: 5,000 nodes in 3 zones, 10,000 pending pods with requests, tolerations,
//   required node affinity and a zone topology spread constraint.
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
