// API-server validation of the pods a scenario defines. A pod reaches kube-scheduler only after the API server
// accepted it, so a scenario Pod (and a workload's pod template) is checked first as ValidatePodCreate /
// ValidatePodTemplateSpec would (kubernetes/kubernetes pkg/apis/core/validation/validation.go), for the fields
// scheduling reads. The first failure, in upstream's order, raises InputError with the item, the JSON path and the
// API server's wording after it (k8s.io/apimachinery/pkg/util/validation/field errors.go):
// `items[3] (Pod default/web): spec.tolerations[0].operator: Unsupported value: "exists": supported values: "Equal",
// "Exists"`. JSON type errors are left to the parsers (a value of the wrong type is skipped here).
// docs/scenario-format.md lists the checks and what is not checked.
#pragma once

#include <vector>

#include "core/io/json_reader.h"
#include "core/io/pod_release_checks.h"

namespace kplace::io {

// A Pod item: metadata (name, namespace, labels) and spec. r names the item. A spec with release-dependent fields is
// appended to deferred.
void ValidatePodObject(const Json& pod, const Reader& r, std::vector<ReleaseDependentPodCheck>* deferred);
// A workload's spec.template (PodTemplateSpec): metadata.labels and spec. r is at the template.
void ValidatePodTemplate(const Json& tmpl, const Reader& r, std::vector<ReleaseDependentPodCheck>* deferred);

// ValidateNodeSelector (a required node selector: at least one term, each expression valid; label values invalid
// as label values allowed only when allow_invalid_label_values). at is at the selector. A PersistentVolume's
// spec.nodeAffinity.required is checked with it on create (validateVolumeNodeAffinity).
void ValidateNodeSelector(const Json& selector, bool allow_invalid_label_values, const Reader& at);

// Go's resource.Quantity String() of a quantity as written (number or string); "" when it does not parse.
std::string CanonicalQuantity(const Json& v);

}  // namespace kplace::io
