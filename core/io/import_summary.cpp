// What kplace made of an imported dump, as the result's "import" object and as a sentence (declared in
// result_writer.h). Once per run: compiled for size in the page (CMakeLists.txt).
#include "core/io/result_writer.h"

namespace kplace::io {

Json ImportJson(const ImportSummary& in) {
  Json j = {{"nodes", in.nodes},
            {"podsBound", in.pods_bound},
            {"podsPending", in.pods_pending},
            {"otherScheduler", in.other_scheduler},
            {"finishedPods", in.finished_pods},
            {"terminatingPods", in.terminating_pods},
            {"controllerPodsKept", in.controller_pods_kept},
            {"deploymentsRepresentedByReplicaSets", in.workloads_represented},
            {"generatedNames", in.generated_names},
            {"volumeClaims", in.volume_claims},
            {"missingClaims", in.missing_claims},
            {"documents", in.documents}};
  if (!in.shape.empty()) j["shape"] = in.shape;
  Json kinds = Json::object();
  for (const auto& [kind, n] : in.ignored_kinds) kinds[kind] = n;
  j["notSimulated"] = std::move(kinds);
  return j;
}

std::string ImportSummarySentence(const ImportSummary& in) {
  auto n = [](std::size_t count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
  };
  std::string out = "Imported " + (in.shape.empty() ? std::string("a List") : in.shape) + ": " +
                    n(in.nodes, "node", "nodes") + ", " + n(in.pods_bound, "pod", "pods") + " bound, " +
                    std::to_string(in.pods_pending) + " pending";
  if (in.other_scheduler) out += " (" + std::to_string(in.other_scheduler) + " left to another scheduler)";
  if (in.finished_pods)
    out +=
        "; " + n(in.finished_pods, "finished pod", "finished pods") + " (Succeeded/Failed) left out: they hold nothing";
  if (in.terminating_pods)
    out += "; " +
           n(in.terminating_pods, "terminating pod still holds its node", "terminating pods still hold their nodes");
  if (in.controller_pods_kept)
    out += "; " + n(in.controller_pods_kept, "pod", "pods") + " of listed controllers not created again";
  if (in.workloads_represented)
    out += "; " + n(in.workloads_represented, "Deployment represented by its ReplicaSets",
                    "Deployments represented by their ReplicaSets");
  if (in.generated_names) out += "; " + n(in.generated_names, "name", "names") + " generated from generateName";
  if (in.volume_claims) out += "; " + n(in.volume_claims, "object uses", "objects use") + " PersistentVolumeClaims";
  if (in.missing_claims)
    out += "; " + n(in.missing_claims, "pod names", "pods name") +
           " PersistentVolumeClaims missing from the input (kubectl get pvc,pv,storageclass,csinode -A -o json adds "
           "them)";
  if (!in.ignored_kinds.empty()) {
    out += "; not simulated:";
    for (std::size_t i = 0; i < in.ignored_kinds.size(); ++i)
      out += (i ? ", " : " ") + in.ignored_kinds[i].first + " " + std::to_string(in.ignored_kinds[i].second);
  }
  return out;
}

std::string ImportSummaryText(const ImportSummary& in) {
  return in.Noteworthy() ? ImportSummarySentence(in) + ".\n" : "";
}

}  // namespace kplace::io
