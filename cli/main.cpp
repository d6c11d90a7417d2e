// kplace: place pods as kube-scheduler would.
//   kplace run [--format text|json] [--explain NS/POD|node/NAME] [--instance-types KWOK_FILE] FILE   (FILE "-" = stdin)
//   kplace run [--format text|json] --timeline FILE   (the run step by step)
//   kplace run [--format text|json] --at N FILE       (the cluster and the queue after N steps)
//   kplace run --timings ...                          (also the seconds each phase took, on standard error)
//   kplace diff [--format text|json] [--a SETTINGS]... [--b SETTINGS]... A [B]   (two runs, what differs)
//   kplace run --compare SETTINGS FILE   (= kplace diff --b SETTINGS FILE)
//   kplace validate FILE
//   kplace convert kubectl FILE     (a cluster dump -> the scenario List kplace reads from it)
//   kplace convert kwok KWOK_FILE   (Karpenter kwok instance_types.json -> kplace InstanceType items)
//   kplace releases                 (the Kubernetes releases kplace reproduces and what differs between them)
// Exit codes: 0 success, 2 bad input or usage; kplace diff: 0 the same, 1 different, 2 bad input or usage.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "cli/heap.h"
#include "cli/render_text.h"
#include "core/io/cluster_import.h"
#include "core/io/compare.h"
#include "core/io/kwok_instance_types.h"
#include "core/io/result_reader.h"
#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/model/features.h"
#include "core/sim/simulation.h"

namespace {

std::string UsageText() {
  return "usage:\n"
         "  kplace run [--format text|json] [--explain NAMESPACE/POD|node/NAME] [--instance-types KWOK_FILE] FILE\n"
         "  kplace run --compare SETTINGS [--format text|json] FILE\n"
         "  kplace run [--format text|json] (--timeline | --at STEP) FILE\n"
         "  kplace run --timings ...\n"
         "  kplace diff [--format text|json] [--a SETTINGS]... [--b SETTINGS]... A [B]\n"
         "  kplace validate FILE\n"
         "  kplace convert kubectl FILE\n"
         "  kplace convert kwok KWOK_FILE\n"
         "  kplace releases\n"
         "  kplace version\n"
         "FILE is a scenario: a Kubernetes List in JSON, or what kubectl prints (typed lists, single objects, arrays,\n"
         "several documents, YAML); \"-\" reads standard input. A settled cluster dump keeps its state: controllers "
         "create\n"
         "only the pods they miss. convert kubectl prints the scenario kplace reads from such a dump. Its "
         "Simulation's\n"
         "spec.kubernetesVersion picks the release to reproduce: " +
         kplace::SupportedVersionsText() + " (default \"" + kplace::VersionText(kplace::kDefaultMinor) +
         "\");\n`kplace releases` lists what differs between them.\n"
         "KWOK_FILE is a Karpenter kwok provider instance_types.json: --instance-types adds its types to the "
         "scenario's\n"
         "InstanceTypes; convert kwok prints them as InstanceType items.\n"
         "kplace diff runs A and B (B defaults to A) and prints the pods whose answer differs, the NodeClaims and the "
         "cost;\n"
         "A or B may also be a result (kplace run --format json). SETTINGS replace the scenario's: mode=scheduler|"
         "karpenter|cluster,\n"
         "kubernetesVersion=1.3x, seed=N, scoringStrategy=LeastAllocated|MostAllocated|RequestedToCapacityRatio "
         "(comma separated).\n"
         "kplace run --compare SETTINGS FILE compares FILE as it is with FILE under SETTINGS. Exit code 1: they "
         "differ.\n"
         "With one FILE and no SETTINGS, B runs under its Simulation's kplace.dev/compare annotation, if any.\n"
         "--timeline adds every step of the run (attempts, binds, preemptions, nominations, NodeClaims launched, "
         "queue\n"
         "passes, rounds); --at STEP shows the result as it stood after that many steps and kube-scheduler's queue "
         "then\n(scheduler and cluster modes).\n"
         "--timings also prints, on standard error, the seconds spent reading FILE, parsing it, running the scenario "
         "and\nwriting the answer.\n";
}

int Usage(const std::string& error) {
  std::cerr << "kplace: " << error << "\n" << UsageText();
  return 2;
}

bool ReadInput(const std::string& path, std::string& out, std::string& error) {
  if (path == "-") {
    out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return true;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {  // opens on Linux, and reports an absurd size
    error = "cannot read " + path + ": it is a directory";
    return false;
  }
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) {
    error = "cannot read " + path;
    return false;
  }
  // One read into a string of the file's size: a dump of hundreds of MB is in memory once.
  const std::streamoff size = in.tellg();
  if (size < 0) {  // not seekable (a pipe): read as it comes
    in.close();
    in.open(path, std::ios::binary);
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
  }
  kplace::cli::PrepareHeap(static_cast<std::size_t>(size));
  out.resize(static_cast<std::size_t>(size));
  in.seekg(0);
  in.read(out.data(), size);
  if (in.gcount() != size) {
    error = "cannot read " + path;
    return false;
  }
  return true;
}

// Appends the kwok file's instance types; false (after printing the error) on bad input or a name clash.
bool AddInstanceTypes(kplace::Scenario& scenario, const std::string& path, const std::string& text) {
  std::vector<kplace::InstanceType> types;
  try {
    types = kplace::io::ParseKwokInstanceTypes(text);
  } catch (const kplace::io::InputError& e) {
    std::cerr << "kplace: " << path << ": " << e.what() << "\n";
    return false;
  }
  for (std::size_t i = 0; i < types.size(); ++i)
    for (const auto& existing : scenario.instance_types)
      if (existing.meta.name == types[i].meta.name) {
        std::cerr << "kplace: " << path << ": [" << i << "] (" << types[i].meta.name
                  << "): the scenario already has InstanceType " << types[i].meta.name << "\n";
        return false;
      }
  for (auto& t : types) scenario.instance_types.push_back(std::move(t));
  return true;
}

// kplace convert kwok FILE | kplace convert kubectl FILE
int Convert(const std::vector<std::string>& args) {
  if (args.size() < 2) return Usage("convert needs a format (kubectl or kwok)");
  if (args[1] != "kwok" && args[1] != "kubectl")
    return Usage("convert: unknown format \"" + args[1] + "\" (kubectl or kwok)");
  if (args.size() < 3) return Usage("missing FILE");
  if (args.size() > 3) return Usage("more than one FILE");
  std::string text, error;
  if (!ReadInput(args[2], text, error)) {
    std::cerr << "kplace: " << error << "\n";
    return 2;
  }
  try {
    if (args[1] == "kwok") {
      std::cout << kplace::io::KwokInstanceTypesToItems(text);
    } else {
      const kplace::io::ClusterImport im = kplace::io::ImportClusterDump(text);
      std::cout << im.scenario;
      // What was read goes to stderr, so the scenario on stdout stays a clean List; the page says the same words.
      std::cerr << "kplace: " << kplace::io::ImportMessage(im) << "\n";
    }
  } catch (const kplace::io::InputError& e) {
    std::cerr << "kplace: " << args[2] << ": " << e.what() << "\n";
    return 2;
  }
  std::cout.flush();
  return std::cout ? 0 : 1;
}

// A result document (`kplace run --format json`): an object with pods and events and neither items nor kind.
bool IsResultDocument(const kplace::io::Json& doc) {
  if (!doc.is_object() || doc.contains("items") || doc.contains("kind")) return false;
  auto pods = doc.find("pods");
  auto events = doc.find("events");
  return pods != doc.end() && pods->is_object() && events != doc.end() && events->is_array();
}

// One side of a comparison: the result of running a scenario under the overrides, or a result read back.
// compare (optional): the scenario's kplace.dev/compare settings.
bool LoadSide(const std::string& path, const std::string& text, const kplace::SimulationOverrides& overrides,
              kplace::sim::SimResult& result, kplace::io::DiffSide& side, std::string* compare = nullptr) {
  try {
    const auto start = text.find_first_not_of(" \t\r\n");
    if (start != std::string::npos && text[start] == '{') {
      std::vector<kplace::io::Json> docs = kplace::io::ReadDocuments(text);
      if (docs.size() == 1 && IsResultDocument(docs[0])) {
        if (!overrides.Empty()) {
          std::cerr << "kplace: " << path << ": a result (kplace run --format json), not a scenario: settings ("
                    << kplace::io::OverridesText(overrides) << ") cannot apply to it\n";
          return false;
        }
        result = kplace::io::ResultFromJson(docs[0]);
        side.source = path;
        return true;
      }
    }
    kplace::io::ParseOptions options;
    options.overrides = overrides;
    kplace::Scenario scenario = kplace::io::ParseScenario(text, options);
    if (compare) *compare = scenario.simulation.compare;
    kplace::sim::RunOptions run;
    run.disruption = &kplace::karpenter::disruption::DryRun;
    run.apply_disruption = &kplace::sim::ApplyDisruption;
    result = kplace::sim::Run(std::move(scenario), run);
    side = kplace::io::SideOf(result, path, overrides);
    return true;
  } catch (const kplace::io::InputError& e) {
    std::cerr << "kplace: " << path << ": " << e.what() << "\n";
    return false;
  }
}

// kplace diff [--format text|json] [--a SETTINGS]... [--b SETTINGS]... A [B]
int Diff(const std::vector<std::string>& args, std::size_t first) {
  std::string format = "text";
  std::vector<std::string> files;
  kplace::SimulationOverrides a, b;
  for (std::size_t i = first; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&](const std::string& flag) -> std::string {
      if (arg.rfind(flag + "=", 0) == 0) return arg.substr(flag.size() + 1);
      if (i + 1 >= args.size()) throw std::invalid_argument(flag + " needs a value");
      return args[++i];
    };
    try {
      if (arg == "--format" || arg.rfind("--format=", 0) == 0) {
        format = value("--format");
        if (format != "text" && format != "json") return Usage("--format must be text or json");
      } else if (arg == "--a" || arg.rfind("--a=", 0) == 0) {
        kplace::io::ParseOverrides(value("--a"), a);
      } else if (arg == "--b" || arg.rfind("--b=", 0) == 0 || arg == "--compare" || arg.rfind("--compare=", 0) == 0) {
        kplace::io::ParseOverrides(value(arg.rfind("--compare", 0) == 0 ? "--compare" : "--b"), b);
      } else if (arg.size() > 1 && arg[0] == '-') {
        return Usage("unknown flag " + arg);
      } else {
        files.push_back(arg);
      }
    } catch (const std::invalid_argument& e) {
      return Usage(e.what());
    } catch (const kplace::io::InputError& e) {
      return Usage(std::string("setting ") + e.what());
    }
  }
  if (files.empty()) return Usage("missing FILE");
  if (files.size() > 2) return Usage("more than two FILEs");
  if (files.size() == 2 && files[0] == "-" && files[1] == "-") return Usage("standard input can be read once");
  // Each file read once (one FILE, standard input included, is run twice).
  std::string text_a, text_b, error;
  if (!ReadInput(files[0], text_a, error) || (files.size() == 2 && !ReadInput(files[1], text_b, error))) {
    std::cerr << "kplace: " << error << "\n";
    return 2;
  }
  const std::string& file_b = files.size() == 2 ? files[1] : files[0];
  kplace::sim::SimResult ra, rb;
  kplace::io::DiffSide sa, sb;
  // One scenario and no settings: B is the scenario under its own kplace.dev/compare settings, when it has them.
  const bool annotated = files.size() == 1 && a.Empty() && b.Empty();
  std::string compare;
  if (!LoadSide(files[0], text_a, a, ra, sa, annotated ? &compare : nullptr)) return 2;
  if (!compare.empty()) kplace::io::ParseOverrides(compare, b);
  if (!LoadSide(file_b, files.size() == 2 ? text_b : text_a, b, rb, sb)) return 2;
  const kplace::sim::ResultDiff diff = kplace::sim::Compare(ra, rb);
  if (format == "json")
    std::cout << kplace::io::DiffText(diff, sa, sb);
  else
    std::cout << kplace::cli::RenderDiff(diff, sa, sb);
  std::cout.flush();
  if (!std::cout) return 2;
  return diff.Empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return Usage("missing command");
  const std::string cmd = args[0];
  if (cmd == "version" || cmd == "--version") {
    std::cout << "kplace 0.1.0 (kube-scheduler " << kplace::VersionRangeText() << " semantics)\n";
    return 0;
  }
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    std::cout << UsageText();
    return 0;
  }
  if (cmd == "releases") {
    std::cout << kplace::FeatureTableMarkdown();
    return 0;
  }
  if (cmd == "convert") return Convert(args);
  if (cmd == "diff") return Diff(args, 1);
  // kplace run --compare SETTINGS FILE: the same as kplace diff --b SETTINGS FILE.
  if (cmd == "run")
    for (const auto& a : args)
      if (a == "--compare" || a.rfind("--compare=", 0) == 0) return Diff(args, 1);
  if (cmd != "run" && cmd != "validate") return Usage("unknown command \"" + cmd + "\"");

  std::string format = "text", explain, file, instance_types_file;
  bool timeline = false, timings = false;
  long long at = -1;  // --at
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* flag) -> std::string {
      std::string prefix = std::string(flag) + "=";
      if (a.rfind(prefix, 0) == 0) return a.substr(prefix.size());
      if (i + 1 >= args.size()) throw std::invalid_argument(std::string(flag) + " needs a value");
      return args[++i];
    };
    try {
      if (cmd == "run" && (a == "--format" || a.rfind("--format=", 0) == 0)) {
        format = value("--format");
        if (format != "text" && format != "json") return Usage("--format must be text or json");
      } else if (cmd == "run" && (a == "--explain" || a.rfind("--explain=", 0) == 0)) {
        explain = value("--explain");
        if (explain.find('/') == std::string::npos) return Usage("--explain takes NAMESPACE/POD or node/NAME");
      } else if (cmd == "run" && (a == "--instance-types" || a.rfind("--instance-types=", 0) == 0)) {
        instance_types_file = value("--instance-types");
        if (instance_types_file.empty()) return Usage("--instance-types needs a file");
      } else if (cmd == "run" && a == "--timeline") {
        timeline = true;
      } else if (cmd == "run" && a == "--timings") {
        timings = true;
      } else if (cmd == "run" && (a == "--at" || a.rfind("--at=", 0) == 0)) {
        const std::string v = value("--at");
        std::size_t used = 0;
        try {
          at = std::stoll(v, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used != v.size() || v.empty() || at < 0) return Usage("--at takes a step number (0 or more)");
      } else if (a.size() > 1 && a[0] == '-') {
        return Usage("unknown flag " + a);
      } else if (file.empty()) {
        file = a;
      } else {
        return Usage("more than one FILE");
      }
    } catch (const std::invalid_argument& e) {
      return Usage(e.what());
    }
  }
  if (file.empty()) return Usage("missing FILE");

  // --timings: the phases' seconds, each from the end of the one before.
  using Clock = std::chrono::steady_clock;
  Clock::time_point phase_start = Clock::now();
  std::vector<std::pair<const char*, double>> phases;
  auto phase_done = [&](const char* name) {
    const Clock::time_point now = Clock::now();
    phases.emplace_back(name, std::chrono::duration<double>(now - phase_start).count());
    phase_start = now;
  };
  auto print_timings = [&] {
    if (!timings) return;
    std::string line = "kplace: timings:";
    char piece[64];
    for (std::size_t i = 0; i < phases.size(); ++i) {
      std::snprintf(piece, sizeof piece, "%s %s %.3f s", i ? "," : "", phases[i].first, phases[i].second);
      line += piece;
    }
    std::cerr << line << "\n";
  };
  std::string text, error, kwok_text;
  if (!ReadInput(file, text, error) ||
      (!instance_types_file.empty() && !ReadInput(instance_types_file, kwok_text, error))) {
    std::cerr << "kplace: " << error << "\n";
    return 2;
  }
  phase_done("read");
  try {
    kplace::Scenario scenario = kplace::io::ParseScenario(text);
    if (!instance_types_file.empty()) {
      if (!AddInstanceTypes(scenario, instance_types_file, kwok_text)) return 2;
    }
    // The scenario holds what it needs of the text: its memory goes back to the heap for the run's own use (the
    // peak is at the end of the run; 8.4 MB of 66 for 5,000 nodes / 10,000 pods, each first touch of it a fault).
    std::string().swap(text);
    std::string().swap(kwok_text);
    phase_done("parse");
    if (cmd == "validate") {
      for (const auto& w : scenario.warnings) std::cerr << "warning: " << w << "\n";
      std::cout << file << ": valid (" << scenario.nodes.size() << " nodes, " << scenario.pods.size() << " pods)\n";
      return 0;
    }
    kplace::sim::RunOptions options;
    // node/NAME: Karpenter's disruption verdicts for a node (kubectl's type/name form; a pod in a namespace called
    // "node" cannot be explained).
    const std::string explain_node = explain.rfind("node/", 0) == 0 ? explain.substr(5) : "";
    if (!explain_node.empty())
      options.explain_nodes.push_back(explain_node);
    else if (!explain.empty())
      options.explain.insert(explain);
    options.disruption = &kplace::karpenter::disruption::DryRun;
    options.apply_disruption = &kplace::sim::ApplyDisruption;
    options.record_timeline = timeline || at >= 0;
    if (options.record_timeline && !explain.empty()) return Usage("--timeline and --at do not go with --explain");
    if (options.record_timeline && scenario.simulation.mode == kplace::Mode::Karpenter) {
      std::cerr << "kplace: the timeline records kube-scheduler's queue: it needs scheduler or cluster mode (this "
                   "scenario runs in karpenter mode)\n";
      return 2;
    }
    kplace::sim::SimResult result = kplace::sim::Run(std::move(scenario), options);
    phase_done("run");
    if (at >= 0) {
      const kplace::sim::Timeline full = *result.timeline;
      if (static_cast<std::size_t>(at) > full.steps.size()) {
        std::cerr << "kplace: --at " << at << ": the run has " << full.steps.size() << " steps\n";
        return 2;
      }
      const kplace::sim::TimelineState state = kplace::sim::StateAt(result, static_cast<std::size_t>(at));
      result = kplace::sim::ResultAt(result, state.step);
      result.timeline.reset();
      if (format == "json") {
        kplace::io::Json doc = kplace::io::ResultToJson(result);
        std::string queue;
        kplace::io::JsonWriter w(queue);
        kplace::io::WriteQueue(w, state.queue);
        doc["at"] = {{"of", full.steps.size()},
                     {"pass", state.pass},
                     {"queue", kplace::io::Json::parse(queue)},
                     {"round", state.round},
                     {"step", state.step}};
        std::cout << kplace::io::Dump(doc);
      } else {
        std::cout << kplace::io::ImportSummaryText(result.import) << kplace::cli::RenderTable(result)
                  << kplace::cli::RenderTimelineState(full, state);
      }
      std::cout.flush();
      phase_done("output");
      print_timings();
      return std::cout ? 0 : 1;
    }
    std::string out;
    bool result_json = false;  // the result document, written to stdout as it is produced
    if (!explain_node.empty()) {
      if (!result.disruption) {
        std::cerr << "kplace: --explain: node/" << explain_node
                  << ": no disruption dry run (it needs karpenter or cluster mode and nodes Karpenter manages)\n";
        return 2;
      }
      kplace::io::Json j = kplace::io::NodeExplanationToJson(result, explain_node);
      if (j.is_null()) {
        std::cerr << "kplace: --explain: no node " << explain_node << " in the cluster\n";
        return 2;
      }
      out = format == "json" ? kplace::io::Dump(j) : kplace::cli::RenderNodeExplanation(explain_node, result);
    } else if (result.karpenter) {
      // karpenter mode: Karpenter's own records (no kube-scheduler cycles ran).
      if (!explain.empty()) {
        kplace::io::Json j = kplace::io::KarpenterExplanationToJson(result, explain);
        if (j.is_null() || j.empty()) {
          std::cerr << "kplace: --explain: no pod " << explain << " in the scenario\n";
          return 2;
        }
        out = format == "json" ? kplace::io::Dump(j) : kplace::cli::RenderKarpenterExplanation(explain, result);
      } else {
        if (format == "json")
          result_json = true;
        else
          out = kplace::cli::RenderKarpenterTable(result);
      }
    } else if (!explain.empty()) {
      const kplace::sim::PodResult* pod = nullptr;
      for (const auto& p : result.pods)
        if (p.key == explain) pod = &p;
      if (!pod) {
        std::cerr << "kplace: --explain: no pod " << explain << " in the scenario\n";
        return 2;
      }
      out = format == "json"
                ? kplace::io::Dump(result.rounds.empty() ? kplace::io::ExplanationToJson(*pod)
                                                         : kplace::io::ClusterExplanationToJson(result, *pod))
                : kplace::cli::RenderExplanation(*pod, result);
    } else {
      if (format == "json")
        result_json = true;
      else
        out = kplace::cli::RenderTable(result);
      if (format != "json" && result.timeline) out += kplace::cli::RenderTimeline(*result.timeline);
    }
    if (format != "json" && explain.empty()) out = kplace::io::ImportSummaryText(result.import) + out;
    if (result_json)
      kplace::io::ResultText(result, [](std::string_view piece) {
        std::cout.write(piece.data(), static_cast<std::streamsize>(piece.size()));
      });
    std::cout << out;
    std::cout.flush();
    phase_done("output");
    print_timings();
    return std::cout ? 0 : 1;
  } catch (const kplace::io::InputError& e) {
    std::cerr << "kplace: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kplace: internal error: " << e.what() << "\n";
    return 3;
  }
}
