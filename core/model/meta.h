// ObjectMeta: the metadata every object of a scenario carries (metav1.ObjectMeta, the fields kplace reads).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/labels.h"
#include "core/model/symbol.h"

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
  std::string creation_timestamp;  // RFC 3339 as given ("" if absent)
  std::int64_t creation_unix = 0;
  std::vector<OwnerReference> owner_references;
  bool deleting = false;  // deletionTimestamp set
  std::string uid;        // metadata.uid ("" when absent)
  // metadata.generateName when the object has no name: the scenario parser gives it a name as the API server would
  // (the prefix plus a 5-character suffix).
  std::string generate_name;
  // The annotations kplace reads (kKeptAnnotations), in input order; the rest are dropped.
  std::vector<std::pair<std::string, std::string>> annotations;
  // A label's value by its key's text, or null.
  const std::string* LabelValue(std::string_view key) const {
    const Symbol k = Lookup(key);  // a key never interned is on no object
    if (k == kNoSymbol) return nullptr;
    const std::optional<Symbol> v = labels.Get(k);
    return v ? &Text(*v) : nullptr;
  }
  // The labels by key text, in key order (for display and tests; the model reads labels).
  std::map<std::string, std::string> LabelText() const {
    std::map<std::string, std::string> out;
    for (auto [k, v] : labels.entries()) out.emplace(Text(k), Text(v));
    return out;
  }
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
