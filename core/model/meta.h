// ObjectMeta: the metadata every object of a scenario carries (metav1.ObjectMeta, the fields kplace reads).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/labels.h"

namespace kplace {

struct OwnerReference {
  std::string api_version, kind, name;
  bool controller = false;
};

// Annotations kept in ObjectMeta::annotations: Karpenter's disruption controls and the pod deletion cost.
inline constexpr std::string_view kKeptAnnotations[] = {"karpenter.sh/do-not-disrupt", "karpenter.sh/nodepool-hash",
                                                        "karpenter.sh/nodepool-hash-version",
                                                        "controller.kubernetes.io/pod-deletion-cost"};

struct ObjectMeta {
  std::string name;
  std::string namespace_;  // empty for cluster-scoped objects
  Labels labels;
  std::map<std::string, std::string> label_text;  // for display, in key order
  std::string creation_timestamp;                 // RFC 3339 as given ("" if absent)
  std::int64_t creation_unix = 0;
  std::vector<OwnerReference> owner_references;
  bool deleting = false;  // deletionTimestamp set
  std::string uid;        // metadata.uid ("" when absent)
  // metadata.generateName when the object has no name: the scenario parser gives it a name as the API server would
  // (the prefix plus a 5-character suffix).
  std::string generate_name;
  // The annotations kplace reads (kKeptAnnotations), in input order; the rest are dropped.
  std::vector<std::pair<std::string, std::string>> annotations;
  const std::string* Annotation(std::string_view key) const {
    for (const auto& [k, v] : annotations)
      if (k == key) return &v;
    return nullptr;
  }
  // The ownerReference marked controller: true, if any.
  const OwnerReference* Controller() const {
    for (const auto& o : owner_references)
      if (o.controller) return &o;
    return nullptr;
  }
};

}  // namespace kplace
