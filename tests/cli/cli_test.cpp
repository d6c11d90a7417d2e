// The kplace binary end to end: exit codes, stdout/stderr separation, flags.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace {

struct Output {
  int code = -1;
  std::string out;
  std::string err;
};

Output RunCli(const std::string& args, const std::string& stdin_text = "") {
  // Unique per process and call: ctest runs tests in parallel processes that share TempDir().
  static int calls = 0;
  std::string dir = ::testing::TempDir();
  std::string tag = std::to_string(getpid()) + "_" + std::to_string(++calls);
  std::string in = dir + "/kplace_in_" + tag + ".json", err = dir + "/kplace_err_" + tag + ".txt";
  std::ofstream(in) << stdin_text;
  std::string cmd = std::string(KPLACE_CLI) + " " + args + " < " + in + " 2> " + err;
  Output o;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) o.out.append(buf.data(), n);
  int status = pclose(p);
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err);
  o.err.assign(std::istreambuf_iterator<char>(e), std::istreambuf_iterator<char>());
  std::remove(in.c_str());
  std::remove(err.c_str());
  return o;
}

const std::string kPreset = std::string(KPLACE_SOURCE_DIR) + "/presets/quickstart.json";

TEST(Cli, RunPrintsTableAndEvents) {
  Output o = RunCli("run " + kPreset);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out.rfind("POD ", 0), 0u) << o.out;
  EXPECT_NE(o.out.find("default/big       <none>   Pending"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("FailedScheduling   0/3 nodes are available:"), std::string::npos) << o.out;
}

// karpenter mode's text lists every pod with its outcome (not only those Karpenter placed or failed), and the events
// Karpenter publishes on NodePools.
TEST(Cli, KarpenterTableListsEveryPodAndNodePoolEvents) {
  const std::string marked =
      R"("status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable"}]})";
  const std::string text = R"({"apiVersion":"v1","kind":"List","items":[
    {"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},"spec":{"mode":"karpenter"}},
    {"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"empty"},
     "spec":{"template":{"spec":{"requirements":[
       {"key":"node.kubernetes.io/instance-type","operator":"In","values":["nope"]}]}}}},
    {"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},
     "spec":{"template":{"spec":{"requirements":[]}}}},
    {"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"small"},
     "spec":{"capacity":{"cpu":"2","memory":"4Gi","pods":"10"},
             "offerings":[{"zone":"zone-a","capacityType":"on-demand","price":1}]}},
    {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},
     "status":{"allocatable":{"cpu":"1","memory":"1Gi","pods":"110"}}},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"default"},
     "spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"900m"}}}]}},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},
     "spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"500m"}}}]},)" +
                           marked + R"(},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"ign","namespace":"default"},
     "spec":{"nodeSelector":{"karpenter.sh/foo":"x"},"containers":[{"name":"c"}]},)" +
                           marked + R"(},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"np","namespace":"default"},
     "spec":{"containers":[{"name":"c"}]}},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"done","namespace":"default"},
     "spec":{"containers":[{"name":"c"}]},"status":{"phase":"Succeeded"}}]})";
  Output o = RunCli("run -", text);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("default/done   <none>      Succeeded (not scheduled)\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("default/ign    <none>      ignored\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("default/np     <none>      not provisionable\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("default/p      default-0   new NodeClaim\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("default/web    n1          Running (bound in the input)\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("  default/np   pod is not marked unschedulable by kube-scheduler\n"), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("\nNodePool events:\n  OBJECT           TYPE      REASON                      MESSAGE\n"
                       "  NodePool/empty   Warning   NoCompatibleInstanceTypes   NodePool requirements filtered out "
                       "all compatible available instance types\n"),
            std::string::npos)
      << o.out;
}

TEST(Cli, JsonFromStdinEqualsJsonFromFile) {
  std::ifstream f(kPreset);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  Output a = RunCli("run --format json " + kPreset);
  Output b = RunCli("run --format=json -", text);
  EXPECT_EQ(a.code, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.out.front(), '{');
}

TEST(Cli, ExplainShowsFilterAndScores) {
  Output o = RunCli("run --explain default/web-0 " + kPreset);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("TaintToleration   node(s) had untolerated taint(s)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("chosen: node-b"), std::string::npos) << o.out;
  Output j = RunCli("run --format json --explain default/web-0 " + kPreset);
  EXPECT_NE(j.out.find("\"chosen\": \"node-b\""), std::string::npos) << j.out;
}

TEST(Cli, ExplainShowsPreemption) {
  const std::string preset = std::string(KPLACE_SOURCE_DIR) + "/presets/preemption-pdb.json";
  Output o = RunCli("run --explain default/payments " + preset);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("potential nodes (plain Unschedulable): node-a, node-b"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("default/db-0 (100), default/db-1 (100)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("chosen: node-a (fewest PDB violations)"), std::string::npos) << o.out;
  Output table = RunCli("run " + preset);
  EXPECT_NE(table.out.find("default/batch-1     node-a   Preempted by default/payments"), std::string::npos)
      << table.out;
  Output victim = RunCli("run --explain default/batch-2 " + preset);
  EXPECT_NE(victim.out.find("preempted: deleted from node-a to make room for default/payments"), std::string::npos)
      << victim.out;
}

// --explain node/NAME: the disruption dry run's checks, verdicts and what-ifs for one node.
TEST(Cli, ExplainNodeShowsChecksVerdictsAndWhatIfs) {
  const std::string preset = std::string(KPLACE_SOURCE_DIR) + "/presets/consolidation-delete.json";
  Output o = RunCli("run --explain node/node-3 " + preset);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("pass  its pods may be evicted"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("Consolidation: considered, not reached"), std::string::npos) << o.out;
  // node-3 alone: its worker (1500m) fits on node-1 (1920m free).
  EXPECT_NE(o.out.find("Single-node consolidation of this node alone: delete"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("default/worker-5c7d8f-j7k8l: node-3 -> node-1"), std::string::npos) << o.out;
  Output j = RunCli("run --format json --explain node/node-2 " + preset);
  EXPECT_EQ(j.code, 0) << j.err;
  EXPECT_NE(j.out.find("\"outcome\": \"delete\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"to\": \"node-1\""), std::string::npos) << j.out;
  const std::string blockers = std::string(KPLACE_SOURCE_DIR) + "/presets/disruption-blockers.json";
  Output pdb = RunCli("run --explain node/gen-pdb " + blockers);
  EXPECT_NE(pdb.out.find("FAIL  its pods may be evicted (do-not-disrupt, PodDisruptionBudgets): pdb prevents pod "
                         "evictions (PodDisruptionBudget=[default/db])"),
            std::string::npos)
      << pdb.out;
  EXPECT_NE(pdb.out.find("default/db-0: gen-pdb -> stays: not evictable now"), std::string::npos) << pdb.out;
  Output missing = RunCli("run --explain node/nope " + preset);
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err, "kplace: --explain: no node nope in the cluster\n");
  Output unmanaged = RunCli("run --explain node/node-a " + kPreset);
  EXPECT_EQ(unmanaged.code, 2);
  EXPECT_NE(unmanaged.err.find("no disruption dry run"), std::string::npos) << unmanaged.err;
}

// A Balanced NodePool: the explanation shows the NodePool's totals and the best-case score, and the verdict says why
// a cheap but busy node is not worth consolidating (under WhenEmptyOrUnderutilized its pods would move to node-b).
TEST(Cli, ExplainNodeShowsTheBalancedScore) {
  std::string items = R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},"spec":{
      "disruption":{"consolidationPolicy":"Balanced","consolidateAfter":"0s"},"template":{"spec":{"requirements":[
      {"key":"karpenter.sh/capacity-type","operator":"In","values":["on-demand"]}]}}}},
    {"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"big"},"spec":{
      "capacity":{"cpu":"8","memory":"32Gi","pods":"110"},
      "offerings":[{"zone":"z1","capacityType":"on-demand","price":1.0}]}},
    {"apiVersion":"kplace.dev/v1alpha1","kind":"InstanceType","metadata":{"name":"tiny"},"spec":{
      "capacity":{"cpu":"1","memory":"2Gi","pods":"110"},
      "offerings":[{"zone":"z1","capacityType":"on-demand","price":0.05}]}})";
  auto node = [&](const std::string& name, const std::string& type, const std::string& cpu) {
    items += R"(,{"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name +
             R"(","labels":{"karpenter.sh/nodepool":"default","node.kubernetes.io/instance-type":")" + type +
             R"(","topology.kubernetes.io/zone":"z1","karpenter.sh/capacity-type":"on-demand"}},"status":{
             "allocatable":{"cpu":")" +
             cpu + R"(","memory":"30Gi","pods":"110"}}})";
  };
  auto pods = [&](const std::string& node, int n, const std::string& cpu) {
    for (int i = 0; i < n; ++i)
      items += R"(,{"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + node + "-" + std::to_string(i) +
               R"(","namespace":"default"},"spec":{"nodeName":")" + node +
               R"(","containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu + R"("}}}]},
               "status":{"phase":"Running"}})";
  };
  node("node-a", "tiny", "1");
  node("node-b", "big", "8");
  node("node-c", "big", "8");
  pods("node-a", 5, "10m");
  pods("node-b", 6, "1200m");
  pods("node-c", 6, "1200m");
  const std::string text = R"({"apiVersion":"v1","kind":"List","items":[
    {"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},"spec":{"mode":"karpenter",
     "now":"2026-11-26T12:00:00Z"}},)" +
                           items + "]}";
  Output o = RunCli("run --explain node/node-a -", text);
  EXPECT_EQ(o.code, 0) << o.err;
  // Deleting node-a saves 0.05 of 2.05 (2.4%) for 6 of 20 of the disruption (30%): 0.08.
  EXPECT_NE(o.out.find("Balanced (k 2): NodePool cost $2.0500/h, disruption cost 20; deleting this node alone saves "
                       "2.4% for 30.0% of the disruption: score 0.08 < threshold 0.50"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("Consolidation: Balanced: even deleting it scores 0.08 < threshold 0.50 (savings 2.4%, "
                       "disruption 30.0% of NodePool default)"),
            std::string::npos)
      << o.out;
  Output j = RunCli("run --format json --explain node/node-a -", text);
  EXPECT_EQ(j.code, 0) << j.err;
  EXPECT_NE(j.out.find("\"totalDisruptionCost\": 20.0"), std::string::npos) << j.out;
}

// Several scheduler profiles: the table gets a PROFILE column and the explanation names the pod's profile; with
// one profile neither appears (the quickstart table above has three columns).
TEST(Cli, ProfilesAreNamedOnlyWhenThereAreSeveral) {
  const std::string text = R"({"apiVersion":"v1","kind":"List","items":[
    {"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},"spec":{"mode":"scheduler"}},
    {"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration",
     "profiles":[{"schedulerName":"default-scheduler"},{"schedulerName":"batch"}]},
    {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"1","pods":"110"}}},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"schedulerName":"batch","containers":[{"name":"c"}]}},
    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"b"},"spec":{"schedulerName":"volcano","containers":[{"name":"c"}]}}]})";
  Output o = RunCli("run -", text);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("\nPOD         NODE     STATUS"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("   PROFILE\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("default/a   n1       Scheduled"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("batch\n"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("warning"), std::string::npos) << o.out;  // no "only profiles[0]" warning any more
  Output e = RunCli("run --explain default/a -", text);
  EXPECT_NE(e.out.find("  profile: batch (spec.schedulerName)\n"), std::string::npos) << e.out;
  Output j = RunCli("run --format json -", text);
  nlohmann::json r = nlohmann::json::parse(j.out);
  EXPECT_EQ(r["pods"]["default/a"], nlohmann::json({{"node", "n1"}, {"profile", "batch"}}));
  EXPECT_EQ(r["pods"]["default/b"], nlohmann::json({{"otherScheduler", "volcano"}}));
  Output one = RunCli("run " + kPreset);
  EXPECT_EQ(one.out.find("PROFILE"), std::string::npos) << one.out;
}

TEST(Cli, BadInputExitsTwoWithPathAndNoStdout) {
  Output o = RunCli("run -", R"({"kind":"List","items":[{"kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[)"
                             R"({"name":"c","resources":{"requests":{"cpu":"abc"}}}]}}]})");
  EXPECT_EQ(o.code, 2);
  EXPECT_EQ(o.out, "");
  EXPECT_EQ(o.err,
            "kplace: items[0] (Pod default/web): spec.containers[0].resources.requests.cpu: \"abc\" is not a "
            "quantity\n");
}

TEST(Cli, MalformedJsonReportsLineAndColumn) {
  Output o = RunCli("validate -", "{\n  \"kind\": \"List\",\n  \"items\": [ }\n");
  EXPECT_EQ(o.code, 2);
  EXPECT_EQ(o.out, "");
  EXPECT_NE(o.err.find("invalid JSON at line 3, column 14"), std::string::npos) << o.err;
}

TEST(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(RunCli("").code, 2);
  EXPECT_EQ(RunCli("frobnicate x").code, 2);
  EXPECT_EQ(RunCli("run --format yaml " + kPreset).code, 2);
  EXPECT_EQ(RunCli("run /nonexistent/file.json").code, 2);
  for (const char* command : {"run ", "validate ", "convert kubectl "}) {  // a directory for a file: no crash
    const Output dir = RunCli(command + std::string(KPLACE_SOURCE_DIR "/presets"));
    EXPECT_EQ(dir.code, 2) << command;
    EXPECT_NE(dir.err.find("presets: it is a directory"), std::string::npos) << command << dir.err;
  }
  EXPECT_EQ(RunCli("run --explain nobody/here " + kPreset).code, 2);
}

TEST(Cli, ValidateAcceptsPreset) {
  Output o = RunCli("validate " + kPreset);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("valid"), std::string::npos);
}

// Karpenter's kwok instance_types.json: converted to InstanceType items, or added to a scenario's catalogue.
const std::string kKwokFixture = std::string(KPLACE_SOURCE_DIR) + "/tests/data/io/kwok_instance_types.json";
const std::string kKarpenterScenario =
    R"({"apiVersion":"v1","kind":"List","items":[)"
    R"({"apiVersion":"kplace.dev/v1alpha1","kind":"Simulation","metadata":{"name":"s"},"spec":{"mode":"karpenter"}},)"
    R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"default"},)"
    R"("spec":{"template":{"spec":{"requirements":[]}}}},)"
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"web"},"spec":{"containers":[{"name":"c",)"
    R"("resources":{"requests":{"cpu":"500m"}}}]},"status":{"conditions":[{"type":"PodScheduled","status":"False",)"
    R"("reason":"Unschedulable"}]}}]})";

TEST(Cli, ConvertKwokPrintsInstanceTypeItems) {
  Output o = RunCli("convert kwok " + kKwokFixture);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out.front(), '[');
  EXPECT_NE(o.out.find("\"kind\": \"InstanceType\""), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("\"name\": \"m-256x-arm64-windows\""), std::string::npos) << o.out;
  Output bad = RunCli("convert kwok -", R"([{"name":"a","offerings":[{"Price":"x"}]}])");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err, "kplace: -: [0] (a): offerings[0].Price: expected number, got string\n");
  EXPECT_EQ(RunCli("convert yaml " + kKwokFixture).code, 2);
  EXPECT_EQ(RunCli("convert kwok").code, 2);
}

TEST(Cli, RunWithKwokInstanceTypes) {
  Output o = RunCli("run --format json --instance-types " + kKwokFixture + " -", kKarpenterScenario);
  EXPECT_EQ(o.code, 0) << o.err;
  // The cheapest type that fits 500m: c-1x-amd64-linux (1 cpu less 100m kubeReserved).
  EXPECT_NE(o.out.find("c-1x-amd64-linux"), std::string::npos) << o.out;
  std::string bad_file = ::testing::TempDir() + "/kplace_kwok_bad_" + std::to_string(getpid()) + ".json";
  std::ofstream(bad_file) << R"([{"name":"a","resources":{"cpu":"lots"},"offerings":[]}])";
  Output bad = RunCli("run --instance-types " + bad_file + " -", kKarpenterScenario);
  std::remove(bad_file.c_str());
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_EQ(bad.err, "kplace: " + bad_file + ": [0] (a): resources.cpu: \"lots\" is not a quantity\n");
  EXPECT_EQ(RunCli("run --instance-types /nonexistent.json -", kKarpenterScenario).code, 2);
}

// A dump as kubectl prints it: a typed list without kinds, a settled Deployment pod, a pending pod of another
// scheduler. run says what it made of it; convert kubectl prints the List it reads (exit 2 on bad input).
TEST(Cli, YamlRunsAsItsJsonTwin) {
  const std::string dir = std::string(KPLACE_SOURCE_DIR) + "/tests/data/io/";
  Output y = RunCli("run --format json " + dir + "kubectl-get-pods.yaml");
  Output j = RunCli("run --format json " + dir + "kubectl-get-pods.json");
  EXPECT_EQ(y.code, 0) << y.err;
  EXPECT_EQ(y.out, j.out);
  Output bad = RunCli("run -", "kind: List\nitems:\n- kind: Pod\n  metadata: {name: [}\n");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err.rfind("kplace: invalid YAML at line 4, column ", 0), 0u) << bad.err;
}

TEST(Cli, ImportedDumpIsSummarisedAndConverts) {
  const std::string dump = R"({"kind":"NodeList","apiVersion":"v1","items":[
    {"metadata":{"name":"n1","managedFields":[{"manager":"kubelet"}]},"status":{"allocatable":{"cpu":"2","memory":"4Gi","pods":"110"}}}]}
  {"kind":"PodList","apiVersion":"v1","items":[
    {"metadata":{"name":"web-5f7c-abcde","namespace":"shop","labels":{"app":"web","pod-template-hash":"5f7c"},
      "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-5f7c","controller":true}]},
     "spec":{"nodeName":"n1","containers":[{"name":"c","resources":{"requests":{"cpu":"100m"}}}]},"status":{"phase":"Running"}},
    {"metadata":{"name":"job-x","namespace":"shop"},"spec":{"schedulerName":"volcano","containers":[{"name":"c"}]},
     "status":{"phase":"Pending"}},
    {"metadata":{"name":"old","namespace":"shop"},"spec":{"nodeName":"n1","containers":[{"name":"c"}]},
     "status":{"phase":"Succeeded"}}]})";
  Output o = RunCli("run -", dump);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out.rfind("Imported 2 documents: 1 node, 1 pod bound, 1 pending (1 left to another scheduler); 1 "
                        "finished pod (Succeeded/Failed) left out: they hold nothing.\n",
                        0),
            0u)
      << o.out;
  EXPECT_NE(o.out.find("shop/job-x"), std::string::npos);
  Output c = RunCli("convert kubectl -", dump);
  EXPECT_EQ(c.code, 0) << c.err;
  // The sentence the playground shows after the same import.
  EXPECT_EQ(
      c.err,
      "kplace: Imported 2 documents: 1 node, 1 pod bound, 1 pending (1 left to another scheduler); 1 finished pod "
      "(Succeeded/Failed) left out: they hold nothing; a Simulation added (mode cluster).\n");
  EXPECT_NE(c.out.find(R"({"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"app":"web")"), std::string::npos)
      << c.out;
  EXPECT_EQ(c.out.find("managedFields"), std::string::npos);
  Output j = RunCli("run --format json -", c.out);
  Output k = RunCli("run --format json -", dump);
  EXPECT_EQ(nlohmann::json::parse(j.out)["pods"], nlohmann::json::parse(k.out)["pods"]);
  Output bad = RunCli(
      "convert kubectl -",
      R"({"kind":"PodList","items":[{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}],"priority":"x"}}]})");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err, "kplace: -: items[0] (Pod default/p): spec.priority: expected integer, got string\n");
}

}  // namespace

namespace {

const std::string kStepByStep = std::string(KPLACE_SOURCE_DIR) + "/presets/preemption-step-by-step.json";

// run --timings: the same answer on stdout, and on stderr one line with the seconds of each phase.
TEST(Cli, TimingsGoToStandardErrorAndLeaveTheAnswerAlone) {
  const Output plain = RunCli("run --format json " + kPreset);
  const Output timed = RunCli("run --timings --format json " + kPreset);
  EXPECT_EQ(timed.code, 0) << timed.err;
  EXPECT_EQ(timed.out, plain.out);
  EXPECT_TRUE(plain.err.empty()) << plain.err;
  const std::regex line(
      R"(kplace: timings: read \d+\.\d{3} s, parse \d+\.\d{3} s, run \d+\.\d{3} s, output \d+\.\d{3} s\n)");
  EXPECT_TRUE(std::regex_match(timed.err, line)) << timed.err;
  const Output text = RunCli("run --timings " + kPreset);
  EXPECT_EQ(text.out, RunCli("run " + kPreset).out);
  EXPECT_TRUE(std::regex_match(text.err, line)) << text.err;
  // A bad file fails as without the flag: no timings.
  const Output bad = RunCli("run --timings -", "{");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err.find("timings"), std::string::npos) << bad.err;
}

// run --timeline: the result, then every step numbered; in JSON the result's "timeline".
TEST(CliTimeline, ListsEveryStep) {
  Output o = RunCli("run --timeline " + kStepByStep);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("Timeline (9 steps):"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("  3. default/batch-0 deleted from node-a (preempted by default/web)"), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("  8. attempt 2 of default/web: bound to node-a"), std::string::npos) << o.out;
  Output j = RunCli("run --timeline --format json " + kStepByStep);
  EXPECT_EQ(j.code, 0) << j.err;
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc.at("timeline").at("steps").size(), 9u);
  // Without the flag the document has no timeline: the result is what it was.
  const nlohmann::json plain = nlohmann::json::parse(RunCli("run --format json " + kStepByStep).out);
  EXPECT_FALSE(plain.contains("timeline"));
  nlohmann::json without = doc;
  without.erase("timeline");
  EXPECT_EQ(without, plain);
}

// run --at N: the cluster as it stood after N steps, and kube-scheduler's queue then.
TEST(CliTimeline, AtAStep) {
  Output o = RunCli("run --at 5 " + kStepByStep);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_NE(o.out.find("default/web         <none>   Pending (nominated to node-a)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("default/gpu-job     <none>   Pending (not tried yet)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("At step 5 of 9: attempt 1 of default/cache"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("  backoffQ  default/web (woken by AssignedPodDelete, it preempted"), std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("  gated  default/migration (schedulingGates example.com/approval)"), std::string::npos)
      << o.out;
  Output j = RunCli("run --at=8 --format json " + kStepByStep);
  EXPECT_EQ(j.code, 0) << j.err;
  const nlohmann::json doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc.at("at").at("step"), 8);
  EXPECT_EQ(doc.at("at").at("of"), 9);
  EXPECT_EQ(doc.at("pods").at("default/web").at("node"), "node-a");
  EXPECT_FALSE(doc.contains("timeline"));
  // At the last step, the whole run.
  nlohmann::json end = nlohmann::json::parse(RunCli("run --at 9 --format json " + kStepByStep).out);
  end.erase("at");
  EXPECT_EQ(end, nlohmann::json::parse(RunCli("run --format json " + kStepByStep).out));
}

TEST(CliTimeline, BadStepsAndModesExitTwo) {
  Output past = RunCli("run --at 10 " + kStepByStep);
  EXPECT_EQ(past.code, 2);
  EXPECT_NE(past.err.find("--at 10: the run has 9 steps"), std::string::npos) << past.err;
  EXPECT_TRUE(past.out.empty());
  EXPECT_EQ(RunCli("run --at -1 " + kStepByStep).code, 2);
  EXPECT_EQ(RunCli("run --at 2x " + kStepByStep).code, 2);
  EXPECT_EQ(RunCli("run --at " + kStepByStep).code, 2);
  Output karpenter = RunCli("run --timeline " + std::string(KPLACE_SOURCE_DIR) + "/presets/consolidation-delete.json");
  EXPECT_EQ(karpenter.code, 2);
  EXPECT_NE(karpenter.err.find("needs scheduler or cluster mode"), std::string::npos) << karpenter.err;
  EXPECT_EQ(RunCli("run --timeline --explain default/web " + kStepByStep).code, 2);
}

const std::string kPreferNoSchedule = std::string(KPLACE_SOURCE_DIR) + "/presets/prefer-no-schedule.json";

std::string FileText(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// kplace diff: both answers of each pod that differs; exit 1 when something differs, 0 when nothing does.
TEST(CliDiff, ComparesTwoModesOfOneScenario) {
  const Output o = RunCli("diff --a mode=scheduler --b mode=karpenter " + kPreferNoSchedule);
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_EQ(o.err, "");
  EXPECT_NE(o.out.find("B: " + kPreferNoSchedule + " with mode=karpenter (karpenter mode, Kubernetes 1.37, seed 0)"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find("default/web-2: moved\n  A: batch-node\n  B: nodeclaim/default-0 (default, c5.large)\n"),
            std::string::npos)
      << o.out;
  const Output same = RunCli("diff " + kPreset);  // quickstart names no settings to compare under
  EXPECT_EQ(same.code, 0) << same.err;
  EXPECT_NE(same.out.find("pods have the same answer in both."), std::string::npos) << same.out;
  // prefer-no-schedule does (kplace.dev/compare: mode=karpenter): one FILE and no settings compares under them.
  const Output annotated = RunCli("diff " + kPreferNoSchedule);
  EXPECT_EQ(annotated.code, 1) << annotated.err;
  EXPECT_NE(annotated.out.find("B: " + kPreferNoSchedule + " with mode=karpenter (karpenter mode"), std::string::npos)
      << annotated.out;
  EXPECT_EQ(RunCli("diff --format json " + kPreferNoSchedule).out,
            RunCli("diff --format json --b mode=karpenter " + kPreferNoSchedule).out);
}

// run --compare SETTINGS FILE is diff --b SETTINGS FILE; JSON is the same document either way.
TEST(CliDiff, RunCompareIsDiffWithB) {
  const Output run = RunCli("run --compare mode=karpenter --format json " + kPreferNoSchedule);
  const Output diff = RunCli("diff --format=json --b=mode=karpenter " + kPreferNoSchedule);
  EXPECT_EQ(run.code, 1) << run.err;
  EXPECT_EQ(run.out, diff.out);
  const auto doc = nlohmann::json::parse(run.out);
  EXPECT_EQ(doc["a"]["mode"], "cluster");
  EXPECT_EQ(doc["b"]["mode"], "karpenter");
  EXPECT_EQ(doc["summary"]["differ"], doc["pods"].size());
}

// A side can be a result document (kplace run --format json): a saved run against a scenario, or two saved runs.
TEST(CliDiff, ResultFilesAreSidesToo) {
  const Output saved = RunCli("run --format json " + kPreferNoSchedule);
  ASSERT_EQ(saved.code, 0);
  const std::string path = ::testing::TempDir() + "/kplace_diff_" + std::to_string(getpid()) + ".json";
  std::ofstream(path) << saved.out;
  const Output same = RunCli("diff " + path + " " + kPreferNoSchedule);
  EXPECT_EQ(same.code, 0) << same.out << same.err;
  const Output differs = RunCli("diff " + path + " - --b mode=karpenter", FileText(kPreferNoSchedule));
  EXPECT_EQ(differs.code, 1) << differs.err;
  EXPECT_NE(differs.out.find("A: " + path + "\n"), std::string::npos) << differs.out;
  // Settings cannot apply to a result.
  const Output bad = RunCli("diff --a mode=karpenter " + path + " " + kPreferNoSchedule);
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.out, "");
  EXPECT_NE(bad.err.find("a result (kplace run --format json), not a scenario: settings (mode=karpenter)"),
            std::string::npos)
      << bad.err;
  std::remove(path.c_str());
}

// One scenario on standard input is read once and run twice.
TEST(CliDiff, StandardInputIsReadOnce) {
  const Output o = RunCli("diff --b mode=karpenter -", FileText(kPreferNoSchedule));
  EXPECT_EQ(o.code, 1) << o.err;
  EXPECT_NE(o.out.find("default/web-2: moved"), std::string::npos) << o.out;
  EXPECT_EQ(RunCli("diff - -").code, 2);
}

TEST(CliDiff, BadInputExitsTwo) {
  const Output setting = RunCli("diff --b mode=batch " + kPreferNoSchedule);
  EXPECT_EQ(setting.code, 2);
  EXPECT_EQ(setting.out, "");
  EXPECT_NE(setting.err.find("kplace: setting \"mode=batch\": unsupported mode \"batch\""), std::string::npos)
      << setting.err;
  EXPECT_EQ(RunCli("diff").code, 2);
  EXPECT_EQ(RunCli("diff a b c").code, 2);
  EXPECT_EQ(RunCli("diff --b " + kPreferNoSchedule).code, 2);  // the file taken as settings: no FILE left
  EXPECT_EQ(RunCli("diff --frob " + kPreferNoSchedule).code, 2);
  // A scenario that does not parse names the file and the item.
  const Output bad =
      RunCli("diff -", R"({"kind":"List","items":[{"kind":"Pod","metadata":{"name":"web"},"spec":{}}]})");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err.rfind("kplace: -: items[0] (Pod default/web): ", 0), 0u) << bad.err;
}

}  // namespace
