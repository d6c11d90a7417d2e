// ObjectMeta: the metadata every object of a scenario carries (metav1.ObjectMeta, the fields kplace reads).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/model/labels.h"

namespace kplace {

struct OwnerReference {
  std::string api_version, kind, name;
  bool controller = false;
};

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
  // The ownerReference marked controller: true, if any.
  const OwnerReference* Controller() const {
    for (const auto& o : owner_references)
      if (o.controller) return &o;
    return nullptr;
  }
};

}  // namespace kplace
