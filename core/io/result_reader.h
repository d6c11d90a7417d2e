// The result JSON -> SimResult: the inverse of result_writer.h. For every result r the core produces,
// ResultToJson(ResultFromJson(ResultToJson(r))) == ResultToJson(r) (tests/io/result_reader_test.cpp, over every
// preset in every mode it runs in).
//
// Only what the writer writes comes back. Not written, so left empty or default:
//   - SimResult: seed, kubernetes_minor (the scenario's), nodes (pods per node), bind_order, explanations; the mode
//     only as far as the document's shape tells (Karpenter for karpenter mode's, else left Cluster: scheduler mode
//     and cluster mode without NodePools write the same shape);
//   - pods the writer leaves out: bound in the input (bound_at_start) and terminal pods; each pod's priority and
//     generated_from (the scenario's); its attempts: a pod the JSON shows scheduled or unschedulable gets one
//     PodAttempt with its last outcome (node or message), nothing more;
//   - karpenter mode: each pod's index (the JSON is keyed by pod, so outcomes come back in key order), attempts and
//     tries; pods Karpenter did not consider (NotProvisionable without a reason); Result::hostname_seq; result.pods
//     (the writer reads only result.karpenter);
//   - cluster mode: each round's provisioning run except its events (ClusterRound::provision holds only events,
//     and only when there were some); each pod's Karpenter nominations except the last;
//   - prices: as written, rounded to 1/10000 (cost).
#pragma once

#include "core/io/json_reader.h"
#include "core/sim/simulation.h"

namespace kplace::io {

// Reads `kplace run --format json`'s document. Fields of the wrong type read as absent; never throws.
sim::SimResult ResultFromJson(const Json& result);

}  // namespace kplace::io
