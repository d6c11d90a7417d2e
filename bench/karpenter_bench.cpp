// Karpenter provisioning throughput, in the shape of upstream's scheduling benchmark
// (kubernetes-sigs/karpenter pkg/controllers/provisioning/scheduling/scheduling_benchmark_test.go): one NodePool with
// huge limits, 400 generated instance types (type i: i+1 cpu, 2(i+1) GiB, 10(i+1) pods, the fake provider's five
// offerings and requirements), and "diverse" pending pods in equal fifths (generic, zone topology spread, hostname
// topology spread, zone self-affinity, hostname anti-affinity; the remainder generic) with requests drawn from
// cpu {100m,250m,500m,1,1.5} and memory {100,256,512,1024,2048,4096}Mi. Only the provisioning round is timed
// (upstream times Scheduler.Solve). Reports pods/s and the NodeClaims count; no thresholds (figures, not tests).
//   BM_KarpenterProvision/N: the scenario built in memory.
//   BM_KarpenterProvisionJson/N: the same scenario as a JSON document through the scenario parser (parse untimed;
//     must give the same NodeClaims as the in-memory one). bench/wasm_bench.mjs builds the same document.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "core/io/scenario_parser.h"
#include "core/karpenter/scheduler.h"

namespace {

using kplace::Intern;
using kplace::Symbol;
using kplace::io::Json;

// A 32-bit LCG (Numerical Recipes constants) so bench/wasm_bench.mjs draws the same numbers in JavaScript.
class Lcg {
 public:
  std::uint32_t Next(std::uint32_t n) {
    state_ = state_ * 1664525u + 1013904223u;
    return (state_ >> 16) % n;
  }

 private:
  std::uint32_t state_ = 42;
};

enum class Kind { Generic, ZoneSpread, HostnameSpread, ZoneAffinity, HostnameAnti };

struct PodSpec {
  std::string name;
  Kind kind = Kind::Generic;
  std::string label_key, label_value;  // the pod's one label
  std::string selector_value;          // topology spread: the selector's my-label value
  int milli_cpu = 0;
  int memory_mi = 0;
};

constexpr int kInstanceTypes = 400;
const char* const kZoneKey = "topology.kubernetes.io/zone";
const char* const kHostnameKey = "kubernetes.io/hostname";

// makeDiversePods: equal fifths, the remainder generic; random draws in upstream's call order.
std::vector<PodSpec> DiversePods(int count) {
  static const int kCpu[] = {100, 250, 500, 1000, 1500};
  static const int kMem[] = {100, 256, 512, 1024, 2048, 4096};
  static const char* const kValues[] = {"a", "b", "c", "d", "e", "f", "g"};
  Lcg rng;
  std::vector<PodSpec> pods;
  auto value = [&] { return std::string(kValues[rng.Next(7)]); };
  auto add = [&](Kind kind, int n) {
    for (int i = 0; i < n; ++i) {
      PodSpec p;
      p.kind = kind;
      switch (kind) {
        case Kind::Generic:
          p.label_key = "my-label";
          p.label_value = value();
          break;
        case Kind::ZoneSpread:
        case Kind::HostnameSpread:
          p.label_key = "my-label";
          p.label_value = value();
          p.selector_value = value();
          break;
        case Kind::ZoneAffinity:
          p.label_key = "my-affininity";
          p.label_value = value();
          break;
        case Kind::HostnameAnti:
          p.label_key = "app";
          p.label_value = "nginx";
          break;
      }
      p.milli_cpu = kCpu[rng.Next(5)];
      p.memory_mi = kMem[rng.Next(6)];
      char name[32];
      std::snprintf(name, sizeof name, "pod-%05d", static_cast<int>(pods.size()));
      p.name = name;
      pods.push_back(std::move(p));
    }
  };
  const int fifth = count / 5;
  add(Kind::Generic, fifth);
  add(Kind::ZoneSpread, fifth);
  add(Kind::HostnameSpread, fifth);
  add(Kind::ZoneAffinity, fifth);
  add(Kind::HostnameAnti, fifth);
  add(Kind::Generic, count - 5 * fifth);
  return pods;
}

double FakePrice(int cpu, std::int64_t memory_bytes) {
  return 0.1 * cpu + 0.1 * static_cast<double>(memory_bytes) / 1e9;
}

const char* const kOfferings[][2] = {{"test-zone-1", "spot"},
                                     {"test-zone-2", "spot"},
                                     {"test-zone-1", "on-demand"},
                                     {"test-zone-2", "on-demand"},
                                     {"test-zone-3", "on-demand"}};

kplace::LabelSelector MatchLabel(const std::string& key, const std::string& value) {
  kplace::LabelSelector s;
  s.nil = false;
  s.requirements.push_back({Intern(key), kplace::SelectorOp::Equals, {Intern(value)}, 0});
  return s;
}

// The scenario built directly as kplace objects.
kplace::Scenario InMemoryScenario(int count) {
  kplace::Scenario sc;
  sc.simulation.mode = kplace::Mode::Karpenter;
  kplace::NodePool pool;
  pool.meta.name = "default";
  kplace::Resource limits;
  limits.milli_cpu = std::int64_t{10000000} * 1000;
  limits.memory = std::int64_t{10000000} << 30;
  pool.limits = limits;
  pool.limit_keys = {Intern("cpu"), Intern("memory")};
  sc.node_pools.push_back(std::move(pool));
  for (int i = 0; i < kInstanceTypes; ++i) {
    const int cpu = i + 1;
    const std::int64_t memory = std::int64_t{2 * cpu} << 30;
    kplace::InstanceType it;
    it.meta.name = "fake-it-" + std::to_string(i);
    const bool large = cpu > 4 && memory > (std::int64_t{8} << 30);
    it.meta.labels.Set(Intern("kubernetes.io/arch"), Intern("amd64"));
    it.meta.labels.Set(Intern("size"), Intern(large ? "large" : "small"));
    it.meta.labels.Set(Intern("integer"), Intern(std::to_string(cpu)));
    if (large) it.meta.labels.Set(Intern("special"), Intern("optional"));
    it.requirements.push_back({Intern("kubernetes.io/os"),
                               kplace::SelectorOp::In,
                               {Intern("darwin"), Intern("linux"), Intern("windows")},
                               0});
    if (!large) it.requirements.push_back({Intern("special"), kplace::SelectorOp::DoesNotExist, {}, 0});
    it.capacity.milli_cpu = std::int64_t{cpu} * 1000;
    it.capacity.memory = memory;
    it.capacity.allowed_pod_number = 10 * cpu;
    it.overhead.milli_cpu = 100;
    it.overhead.memory = std::int64_t{10} << 20;
    for (const auto& o : kOfferings) it.offerings.push_back({o[0], o[1], FakePrice(cpu, memory), true});
    sc.instance_types.push_back(std::move(it));
  }
  for (const PodSpec& s : DiversePods(count)) {
    kplace::Pod p;
    p.meta.name = s.name;
    p.meta.namespace_ = "default";
    p.meta.labels.Set(Intern(s.label_key), Intern(s.label_value));
    kplace::Container c;
    c.name = "c";
    c.image = "registry.k8s.io/pause:3.10";
    c.requests.milli_cpu = s.milli_cpu;
    c.requests.memory = std::int64_t{s.memory_mi} << 20;
    c.has_cpu_request = c.has_memory_request = true;
    p.containers.push_back(std::move(c));
    p.marked_unschedulable = true;
    if (s.kind == Kind::ZoneSpread || s.kind == Kind::HostnameSpread) {
      kplace::TopologySpreadConstraint tsc;
      tsc.max_skew = 1;
      tsc.topology_key = Intern(s.kind == Kind::ZoneSpread ? kZoneKey : kHostnameKey);
      tsc.label_selector = MatchLabel("my-label", s.selector_value);
      p.topology_spread_constraints.push_back(std::move(tsc));
    } else if (s.kind == Kind::ZoneAffinity || s.kind == Kind::HostnameAnti) {
      kplace::PodAffinityTerm term;
      term.label_selector = MatchLabel(s.label_key, s.label_value);
      term.topology_key = Intern(s.kind == Kind::ZoneAffinity ? kZoneKey : kHostnameKey);
      (s.kind == Kind::ZoneAffinity ? p.affinity.pod_affinity : p.affinity.pod_anti_affinity)
          .required.push_back(std::move(term));
    }
    p.item_index = static_cast<int>(sc.pods.size());
    sc.pods.push_back(std::move(p));
  }
  return sc;
}

// The same scenario as a kplace JSON document (bench/wasm_bench.mjs karpenterScenario builds it byte for byte).
Json JsonScenario(int count) {
  Json items = Json::array();
  items.push_back({{"apiVersion", "kplace.dev/v1alpha1"},
                   {"kind", "Simulation"},
                   {"metadata", {{"name", "bench-karpenter"}}},
                   {"spec", {{"mode", "karpenter"}}}});
  items.push_back({{"apiVersion", "karpenter.sh/v1"},
                   {"kind", "NodePool"},
                   {"metadata", {{"name", "default"}}},
                   {"spec",
                    {{"limits", {{"cpu", "10000000"}, {"memory", "10000000Gi"}}},
                     {"template", {{"spec", {{"requirements", Json::array()}}}}}}}});
  for (int i = 0; i < kInstanceTypes; ++i) {
    const int cpu = i + 1;
    const std::int64_t memory = std::int64_t{2 * cpu} << 30;
    const bool large = cpu > 4 && memory > (std::int64_t{8} << 30);
    Json labels = {
        {"kubernetes.io/arch", "amd64"}, {"size", large ? "large" : "small"}, {"integer", std::to_string(cpu)}};
    Json reqs = Json::array();
    reqs.push_back({{"key", "kubernetes.io/os"}, {"operator", "In"}, {"values", {"darwin", "linux", "windows"}}});
    if (large)
      labels["special"] = "optional";
    else
      reqs.push_back({{"key", "special"}, {"operator", "DoesNotExist"}});
    Json offerings = Json::array();
    for (const auto& o : kOfferings)
      offerings.push_back({{"zone", o[0]}, {"capacityType", o[1]}, {"price", FakePrice(cpu, memory)}});
    items.push_back({{"apiVersion", "kplace.dev/v1alpha1"},
                     {"kind", "InstanceType"},
                     {"metadata", {{"name", "fake-it-" + std::to_string(i)}, {"labels", labels}}},
                     {"spec",
                      {{"capacity",
                        {{"cpu", std::to_string(cpu)},
                         {"memory", std::to_string(2 * cpu) + "Gi"},
                         {"pods", std::to_string(10 * cpu)}}},
                       {"overhead", {{"cpu", "100m"}, {"memory", "10Mi"}}},
                       {"requirements", reqs},
                       {"offerings", offerings}}}});
  }
  for (const PodSpec& s : DiversePods(count)) {
    Json spec = {
        {"containers",
         {{{"name", "c"},
           {"image", "registry.k8s.io/pause:3.10"},
           {"resources",
            {{"requests",
              {{"cpu", std::to_string(s.milli_cpu) + "m"}, {"memory", std::to_string(s.memory_mi) + "Mi"}}}}}}}}};
    if (s.kind == Kind::ZoneSpread || s.kind == Kind::HostnameSpread) {
      spec["topologySpreadConstraints"] = {{{"maxSkew", 1},
                                            {"topologyKey", s.kind == Kind::ZoneSpread ? kZoneKey : kHostnameKey},
                                            {"whenUnsatisfiable", "DoNotSchedule"},
                                            {"labelSelector", {{"matchLabels", {{"my-label", s.selector_value}}}}}}};
    } else if (s.kind == Kind::ZoneAffinity || s.kind == Kind::HostnameAnti) {
      Json term = {{"labelSelector", {{"matchLabels", {{s.label_key, s.label_value}}}}},
                   {"topologyKey", s.kind == Kind::ZoneAffinity ? kZoneKey : kHostnameKey}};
      spec["affinity"] = {{s.kind == Kind::ZoneAffinity ? "podAffinity" : "podAntiAffinity",
                           {{"requiredDuringSchedulingIgnoredDuringExecution", Json::array({term})}}}};
    }
    items.push_back(
        {{"apiVersion", "v1"},
         {"kind", "Pod"},
         {"metadata", {{"name", s.name}, {"namespace", "default"}, {"labels", {{s.label_key, s.label_value}}}}},
         {"spec", spec},
         {"status",
          {{"phase", "Pending"},
           {"conditions", {{{"type", "PodScheduled"}, {"status", "False"}, {"reason", "Unschedulable"}}}}}}});
  }
  return {{"apiVersion", "v1"}, {"kind", "List"}, {"items", items}};
}

void RunProvision(benchmark::State& state, const kplace::Scenario& sc) {
  const auto pods = static_cast<std::size_t>(state.range(0));
  std::size_t claims = 0, scheduled = 0;
  for (auto _ : state) {
    kplace::karpenter::Result r = kplace::karpenter::Provision(sc);
    claims = r.claims.size();
    scheduled = 0;
    for (const auto& o : r.pods)
      if (o.kind == kplace::karpenter::PodOutcomeKind::Claim || o.kind == kplace::karpenter::PodOutcomeKind::Node)
        ++scheduled;
    benchmark::DoNotOptimize(claims);
  }
  if (scheduled != pods) {
    state.SkipWithError(("scheduled " + std::to_string(scheduled) + " of " + std::to_string(pods) + " pods").c_str());
    return;
  }
  state.counters["pods/s"] =
      benchmark::Counter(static_cast<double>(pods), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["nodeclaims"] = static_cast<double>(claims);
}

void BM_KarpenterProvision(benchmark::State& state) {
  RunProvision(state, InMemoryScenario(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_KarpenterProvision)->Arg(1000)->Arg(5000)->Arg(20000)->Unit(benchmark::kMillisecond);

void BM_KarpenterProvisionJson(benchmark::State& state) {
  RunProvision(state, kplace::io::ParseScenarioJson(JsonScenario(static_cast<int>(state.range(0)))));
}
BENCHMARK(BM_KarpenterProvisionJson)->Arg(1000)->Arg(5000)->Unit(benchmark::kMillisecond);

}  // namespace
