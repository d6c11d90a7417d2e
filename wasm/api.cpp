// kplace-core.wasm's C API: the narrow surface for tests, Web Workers and embedders. The exported names are listed
// in exports/core.json. Strings are UTF-8; every returned char* is owned by the caller and freed with kplace_free.
//
//   kplace_run(scenario, flags) -> {"status":"success","result":{...}}      result: `kplace run --format json`
//                                  {"status":"success","result":{...},"explanations":{"ns/pod":{...}}}
//                                                                            (flags & KPLACE_EXPLAIN_ALL)
//                                  {"status":"failure","errors":[{"message":"...","internal":false}]}
//   kplace_explain(scenario, pod) -> the success envelope with "explanations": {pod: {...}} for that pod only (what
//                                  the playground's Web Worker computes on demand for large scenarios)
//   kplace_disruption(scenario, node) -> {"status":"success","result":{...},"node":{...}}: the run with Karpenter's
//                                  disruption dry run (the result's disruption and disruptionApplied) and, for a node
//                                  name, that node's explanation (`kplace run --explain node/NAME --format json`; null
//                                  when there is no such node): what the playground's Disruption tab asks its Web
//                                  Worker for (the app does not link the dry run)
//   kplace_convert_kwok(json)   -> Karpenter's kwok provider instance_types.json as a JSON array of kplace InstanceType
//                                  items, or {"error":"..."}
//   kplace_import(dump)         -> {"import":{...},"scenarioBytes":N,"status":"success"}, its NUL, then the
//                                  scenario's N bytes of UTF-8 and a NUL: a cluster dump (kubectl's JSON or YAML in
//                                  any shape, Karpenter kwok's instance_types.json) as the scenario List `kplace
//                                  convert kubectl` prints, byte for byte, behind the envelope rather than in it (a
//                                  150,000-pod List is 67 MB: as a JSON string it was escaped here and decoded, parsed
//                                  and encoded again by the worker, a quarter of the import's time); import: the
//                                  result's "import" object plus items, instanceTypes, simulationAdded and message (the
//                                  sentence the CLI prints; io/cluster_import.h). Bad input: the failure envelope with
//                                  the core's error, and nothing behind it.
//   kplace_to_yaml(scenario)    -> {"status":"success","yaml":"..."}: the scenario's documents (any text the core
//                                  reads) as kubectl-style YAML (io::JsonToYaml, "---" between documents), or the
//                                  failure envelope
//   kplace_version()            -> the project version, e.g. "0.1.0" (static, not freed)
//
// Progress: inside a Web Worker, kplace_run and kplace_explain post {type: "progress", done, total} (the core's
// RunOptions::progress: scheduling attempts done / to do; the total can grow) to the page at most every 50 ms.
// Elsewhere (the page's main thread, node) nothing is posted.
#include <emscripten.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/io/cluster_import.h"
#include "core/io/kwok_instance_types.h"
#include "core/io/result_writer.h"
#include "core/io/run_text.h"
#include "core/io/scenario_parser.h"
#include "core/io/yaml_text.h"
#include "core/karpenter/disruption/dry_run.h"

// 1 when this module runs in a Web Worker (the only place progress messages go to).
// clang-format off
EM_JS(int, kplace_in_worker, (), {
  return typeof WorkerGlobalScope !== 'undefined' && typeof self !== 'undefined' && self instanceof WorkerGlobalScope ? 1 : 0;
});
EM_JS(void, kplace_post_progress, (double done, double total), {
  self.postMessage({type: 'progress', done: done, total: total});
});
// clang-format on

namespace {

constexpr int kExplainAll = 1;
// The answer when even the failure envelope could not be written (out of memory).
constexpr const char* kInternalFailure =
    R"({"status":"failure","errors":[{"message":"internal error","internal":true}]})";

char* Copy(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (p) std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

// An answer gathered in the pieces the writer hands over (a MB or so each) and put together once, at the end, in the
// malloc'd buffer handed to the caller. A buffer grown by doubling as the pieces came held up to twice the answer
// (and realloc moved it whenever writing had allocated behind it): Karpenter's 20,000-pod benchmark (a 91 MB answer)
// now peaks at 263 MB of wasm memory instead of 355, for one more copy of the answer (0.7% more instructions).
class MallocText {
 public:
  void Append(std::string_view s) {
    if (s.empty()) return;
    pieces_.emplace_back(s);
    size_ += s.size();
  }
  // The NUL-terminated text, now the caller's.
  char* Release() {
    char* p = static_cast<char*>(std::malloc(size_ + 1));
    if (!p) throw std::bad_alloc();
    std::size_t at = 0;
    for (std::string& piece : pieces_) {
      std::memcpy(p + at, piece.data(), piece.size());
      at += piece.size();
      std::string().swap(piece);  // freed as soon as copied
    }
    p[at] = '\0';
    pieces_.clear();
    size_ = 0;
    return p;
  }

 private:
  std::vector<std::string> pieces_;
  std::size_t size_ = 0;
};

// The core's progress callback forwarded to the page at most every 50 ms, when in a worker (elsewhere none).
kplace::io::Progress WorkerProgress() {
  if (!kplace_in_worker()) return {};
  double last = -1e9;
  return [last](std::size_t done, std::size_t total) mutable {
    const double now = emscripten_get_now();
    if (now - last < 50 && done < total) return;
    last = now;
    kplace_post_progress(static_cast<double>(done), static_cast<double>(total));
  };
}

char* Envelope(const char* scenario, int flags, const char* pod = nullptr) {
  using kplace::io::Json;
  const bool explain = (flags & kExplainAll) != 0;
  std::set<std::string> only;
  if (pod) only.insert(pod);
  kplace::io::Outcome out =
      kplace::io::RunText(scenario ? scenario : "", explain, /*keep_scenario=*/false, only, WorkerProgress(),
                          &kplace::karpenter::disruption::DryRun, &kplace::sim::ApplyDisruption);
  Json doc = Json::object();
  if (!out.ok) {
    doc["status"] = "failure";
    doc["errors"] = Json::array({{{"message", out.error}, {"internal", out.internal}}});
    return Copy(doc.dump());
  }
  // Written as it is produced (the result of a big import is too large to build as a tree first), a chunk at a
  // time into the answer; members in name order, as doc.dump() printed them.
  MallocText text;
  std::string chunk;
  kplace::io::JsonWriter w(chunk, -1, [&text](std::string_view s) { text.Append(s); });
  w.BeginObject();
  if (explain || pod) {
    std::vector<const kplace::sim::PodResult*> explained;  // result.pods is sorted by key
    for (const auto& p : out.result.pods)
      if (!pod || p.key == pod) explained.push_back(&p);
    w.Key("explanations").BeginObject();
    for (std::size_t i = 0; i < explained.size(); ++i)
      if (i + 1 == explained.size() || explained[i]->key != explained[i + 1]->key)
        w.Key(explained[i]->key).Value(kplace::io::PodExplanationToJson(out.result, *explained[i]));
    w.EndObject();
  }
  kplace::io::WriteResult(out.result, w.Key("result"));
  w.Member("status", "success");
  w.EndObject();
  w.Flush();
  return text.Release();
}

std::string Failure(const std::string& message, bool internal) {
  kplace::io::Json doc = {{"status", "failure"}, {"errors", {{{"message", message}, {"internal", internal}}}}};
  return doc.dump(-1, ' ', false, kplace::io::Json::error_handler_t::replace);
}

// body() -> the success envelope's text; an InputError becomes the failure envelope with its message, anything else
// an internal one.
template <typename Body>
char* Answer(Body&& body) {
  try {
    try {
      return Copy(body());
    } catch (const kplace::io::InputError& e) {
      return Copy(Failure(e.what(), false));
    } catch (const std::exception& e) {
      return Copy(Failure(std::string("internal error: ") + e.what(), true));
    }
  } catch (const std::exception&) {  // out of memory writing the answer
    return Copy(kInternalFailure);
  }
}

}  // namespace

extern "C" {

char* kplace_run(const char* scenario, int flags) {
  try {
    return Envelope(scenario, flags);
  } catch (const std::exception&) {  // serialisation failure or out of memory: still an answer, never a trap
    return Copy(kInternalFailure);
  }
}

char* kplace_explain(const char* scenario, const char* pod) {
  try {
    return Envelope(scenario, 0, pod ? pod : "");
  } catch (const std::exception&) {
    return Copy(kInternalFailure);
  }
}

char* kplace_disruption(const char* scenario, const char* node) {
  using kplace::io::Json;
  return Answer([&]() {
    const std::string name = node ? node : "";
    kplace::sim::RunOptions options;
    options.disruption = &kplace::karpenter::disruption::DryRun;
    options.apply_disruption = &kplace::sim::ApplyDisruption;
    if (!name.empty()) options.explain_nodes = {name};
    const kplace::sim::SimResult r = kplace::sim::Run(kplace::io::ParseScenario(scenario ? scenario : ""), options);
    std::string text;
    kplace::io::JsonWriter w(text);
    w.BeginObject();
    if (!name.empty()) w.Key("node").Value(kplace::io::NodeExplanationToJson(r, name));
    kplace::io::WriteResult(r, w.Key("result"));
    w.Member("status", "success");
    w.EndObject();
    return text;
  });
}

char* kplace_convert_kwok(const char* json) {
  using kplace::io::Json;
  try {
    return Copy(kplace::io::KwokInstanceTypesToItems(json ? json : ""));
  } catch (const std::exception& e) {
    return Copy(Json({{"error", e.what()}}).dump());
  }
}

char* kplace_import(const char* dump) {
  using kplace::io::Json;
  std::string scenario;
  bool imported = false;
  char* envelope = Answer([&]() {
    kplace::io::ClusterImport im = kplace::io::ImportClusterDump(dump ? dump : "");
    scenario = std::move(im.scenario);
    std::string out = R"({"import":)";
    out += kplace::io::ImportToJson(im).dump(-1, ' ', false, Json::error_handler_t::replace);
    out += R"(,"scenarioBytes":)" + std::to_string(scenario.size()) + R"(,"status":"success"})";
    imported = true;
    return out;
  });
  if (!imported || !envelope) return envelope;
  // The scenario behind the envelope's NUL, in the same block (kplace_free frees both).
  const std::size_t head = std::strlen(envelope) + 1;
  char* whole = static_cast<char*>(std::realloc(envelope, head + scenario.size() + 1));
  if (!whole) {
    std::free(envelope);
    return Copy(kInternalFailure);
  }
  std::memcpy(whole + head, scenario.data(), scenario.size());
  whole[head + scenario.size()] = '\0';
  return whole;
}

char* kplace_to_yaml(const char* scenario) {
  using kplace::io::Json;
  return Answer([&]() {
    std::string yaml;
    const std::vector<Json> docs = kplace::io::ReadDocuments(scenario ? scenario : "");
    for (std::size_t i = 0; i < docs.size(); ++i) yaml += (i ? "---\n" : "") + kplace::io::JsonToYaml(docs[i]);
    return Json({{"status", "success"}, {"yaml", yaml}}).dump(-1, ' ', false, Json::error_handler_t::replace);
  });
}

void kplace_free(char* p) { std::free(p); }

const char* kplace_version() { return KPLACE_VERSION; }

}  // extern "C"
