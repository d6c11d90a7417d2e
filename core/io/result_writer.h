// SimResult -> the contract's result JSON, and explanations -> JSON. Output is deterministic: same result, same bytes.
#pragma once

#include <string>

#include "core/io/json_reader.h"
#include "core/io/json_writer.h"
#include "core/sim/simulation.h"

namespace kplace::io {

// The result document, written as it is produced (JsonWriter): ResultText is Dump(ResultToJson(result)) without
// the tree. ResultToJson parses the text back for callers that want a tree (tests, small documents).
void WriteResult(const sim::SimResult& result, JsonWriter& w);
std::string ResultText(const sim::SimResult& result);
// ResultText handed to sink in pieces of about JsonWriter::kChunk bytes (the CLI writes them as they come).
void ResultText(const sim::SimResult& result, const JsonWriter::Sink& sink);
Json ResultToJson(const sim::SimResult& result);
// One pod's Karpenter outcome as the result prints it (node or NodeClaim, relaxations...); null for a pod Karpenter
// has nothing to say about. Shared by the result and the explanations (explanation_writer.cpp).
Json KarpenterPodJson(const karpenter::Result& k, const karpenter::PodOutcome& o);
// The explanation record of one pod: every attempt with filter verdicts, scores, choice and message.
Json ExplanationToJson(const sim::PodResult& pod);
// karpenter mode: one pod's record (candidates tried per attempt, relaxations, outcome); null when the pod is not
// in the result.
Json KarpenterExplanationToJson(const sim::SimResult& result, const std::string& pod_key);
// cluster mode: ExplanationToJson plus Karpenter's record of the pod in every round ("karpenter") and its
// disagreement.
Json ClusterExplanationToJson(const sim::SimResult& result, const sim::PodResult& pod);
// The explanation the mode records: Karpenter's (karpenter mode), kube-scheduler's plus Karpenter's rounds
// (cluster mode with NodePools) or kube-scheduler's.
Json PodExplanationToJson(const sim::SimResult& result, const sim::PodResult& pod);
// `kplace run --explain node/NAME`: what Karpenter's disruption dry run says about the node (its record in the
// dry run, NewCandidate's checks, single-node consolidation of it alone, the drain what-if); null when the run has
// no dry run or the dry run did not explain that node (RunOptions::explain_nodes).
Json NodeExplanationToJson(const sim::SimResult& result, const std::string& node);
// One paragraph saying what kplace made of an imported dump (the result's "import"): nodes, pods bound and pending,
// pods left to another scheduler, finished and terminating pods, controller pods not created again, kinds not
// simulated. Empty when there is nothing to say (a hand-written List).
std::string ImportSummaryText(const ImportSummary& in);
// The same paragraph whatever the input, without its final period and newline (the cluster import adds its own
// clauses: io/cluster_import.h).
std::string ImportSummarySentence(const ImportSummary& in);
// The result's "import" object.
Json ImportJson(const ImportSummary& in);
// Prices in dollars rounded to 1/10000 (a sum of prices, or x 730, would otherwise print binary noise such as
// 124.10000000000001).
double Dollars(double v);
// {"hourly", "monthly" (x 730)}: the cost of new capacity.
void WriteCost(JsonWriter& w, double hourly);
// SimResult::timeline: {"boundAtStart", "nominatedAtStart", "steps" (each numbered from 1), "stoppedQueue"}; with
// step >= 0 also "step" (the page: the step on screen).
void WriteTimeline(JsonWriter& w, const sim::Timeline& timeline, long step = -1);
// Queued pods: [{"clusterEvents", "gates", "message", "moved", "pod", "queue"}].
void WriteQueue(JsonWriter& w, const std::vector<sim::QueuedPod>& queue);
// Pretty JSON text with a trailing newline.
std::string Dump(const Json& j);

}  // namespace kplace::io
