// Human-readable renderings of simulation records (kubectl-like table, events, explanations).
#pragma once

#include <string>

#include "core/io/compare.h"
#include "core/sim/simulation.h"

namespace kplace::cli {

std::string RenderTable(const sim::SimResult& result);
std::string RenderExplanation(const sim::PodResult& pod, const sim::SimResult& result);
// karpenter mode: the NodeClaims to launch and each pod's outcome.
std::string RenderKarpenterTable(const sim::SimResult& result);
// karpenter mode: every existing node, NodeClaim and NodePool tried for the pod, per relaxation step.
std::string RenderKarpenterExplanation(const std::string& pod_key, const sim::SimResult& result);
// `--explain node/NAME`: the disruption dry run's checks, verdicts and what-ifs for one node (it must be explained).
std::string RenderNodeExplanation(const std::string& node, const sim::SimResult& result);
// cluster mode: the NodeClaims launched, the rounds of the loop and the disagreements.
std::string RenderClusterLoop(const sim::SimResult& result);
// cluster mode: Karpenter's record of the pod in every round, and its disagreement.
std::string RenderClusterExplanation(const sim::PodResult& pod, const sim::SimResult& result);

// `kplace diff`: the two sides, the pods whose answer differs (each with both answers), the NodeClaims only one
// side has or that differ, and the cost.
std::string RenderDiff(const sim::ResultDiff& diff, const io::DiffSide& a, const io::DiffSide& b);

// `kplace run --timeline`: every step of the run, numbered from 1 (passes with the queue's counts).
std::string RenderTimeline(const sim::Timeline& timeline);
// `kplace run --at N`: which step the cluster stands after, and kube-scheduler's queue then.
std::string RenderTimelineState(const sim::Timeline& timeline, const sim::TimelineState& state);

}  // namespace kplace::cli
