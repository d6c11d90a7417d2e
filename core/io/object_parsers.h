// Parsers of single scenario items, one file per API group (parse_core_v1.cpp, parse_scheduler_config.cpp,
// parse_apps_policy.cpp, parse_karpenter.cpp); the scenario parser (scenario_parser.cpp) dispatches to them.
// r names the item for errors; every failure is an InputError naming the JSON path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/io/json_reader.h"
#include "core/io/pod_release_checks.h"
#include "core/model/scenario.h"

namespace kplace::io {

// Limits that keep hostile input from exhausting memory or time (and kMaxInputBytes, kMaxJsonDepth in json_text.h).
inline constexpr std::int64_t kMaxPods = 200000;
inline constexpr std::int64_t kMaxNodes = 50000;

// core/v1 (parse_core_v1.cpp)
// "Pod default/web", "Node n1", "object" when the kind is unknown: how errors name an item.
std::string Describe(const std::string& kind, const std::string& ns, const std::string& name);
// RFC 3339 (metav1.Time): 2024-01-02T03:04:05Z, optional fraction, Z or +hh:mm. Returns unix seconds.
std::optional<std::int64_t> ParseRfc3339(const std::string& s);
ObjectMeta ParseMeta(const Json& obj, const Reader& r, bool namespaced, bool name_required);
std::vector<Taint> ParseTaints(const Json* arr, const Reader& r);
// lazy: see Reader::AsNodeSelectorTerm.
NodeAffinity ParseNodeAffinity(const Json& v, const Reader& r, bool lazy);
TopologySpreadConstraint ParseSpreadConstraint(const Json& v, const Reader& r);
Pod ParsePod(const Json& v, const Reader& r);
Node ParseNode(const Json& v, const Reader& r);
Namespace ParseNamespace(const Json& v, const Reader& r);

// core/v1 and storage.k8s.io/v1 storage (parse_storage.cpp)
VolumeSource ParseVolumeSource(const Json& v, const Reader& r);
// spec.volumes of a pod (r at spec.volumes): the entries that name a claim or a source the volume plugins compare.
std::vector<PodVolume> ParsePodVolumes(const Json& vols, const Reader& r);
// A claim template (ephemeral volumeClaimTemplate, a StatefulSet's volumeClaimTemplates entry): metadata and spec.
PersistentVolumeClaim ParseClaimTemplate(const Json& v, const Reader& r);
PersistentVolumeClaim ParsePersistentVolumeClaim(const Json& v, const Reader& r);
PersistentVolume ParsePersistentVolume(const Json& v, const Reader& r);
StorageClass ParseStorageClass(const Json& v, const Reader& r);
CSINode ParseCSINode(const Json& v, const Reader& r);
CSIDriver ParseCSIDriver(const Json& v, const Reader& r);
CSIStorageCapacity ParseCSIStorageCapacity(const Json& v, const Reader& r);

// kubescheduler.config.k8s.io/v1 (parse_scheduler_config.cpp)
// Applies one pluginConfig entry's args to the profile's PluginArgs.
void ParsePluginArgs(const std::string& plugin, const Json& args, const Reader& r, PluginArgs& out);
SchedulerConfig ParseSchedulerConfig(const Json& v, const Reader& r);
// "1.33" -> 33; errors for unsupported versions (core/model/features.h lists them).
int ParseKubernetesVersion(const std::string& v, const Reader& r);

// scheduling.k8s.io, policy, apps (parse_apps_policy.cpp)
PriorityClass ParsePriorityClass(const Json& v, const Reader& r);
PodDisruptionBudget ParsePdb(const Json& v, const Reader& r);
// api_validation: check spec.template as the API server would (validate_pod.h) before reading it.
Workload ParseWorkload(const std::string& kind, const Json& v, const Reader& r, bool api_validation = true,
                       std::vector<ReleaseDependentPodCheck>* deferred = nullptr);

// karpenter.sh (parse_karpenter.cpp)
NodePool ParseNodePool(const Json& v, const Reader& r);
// A karpenter.sh/v1alpha5 Provisioner, read as the NodePool it became; errors name the Provisioner's paths.
NodePool ParseProvisioner(const Json& v, const Reader& r);
InstanceType ParseInstanceType(const Json& v, const Reader& r);
NodeClaim ParseNodeClaim(const Json& v, const Reader& r);

// kplace.dev (parse_simulation.cpp)
Simulation ParseSimulation(const Json& v, const Reader& r);

}  // namespace kplace::io
