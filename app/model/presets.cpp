#include "app/model/presets.h"

#include <nlohmann/json.hpp>

namespace kplace::app {
namespace {

std::string Annotation(const nlohmann::json& item, const char* key) {
  const auto* meta = item.is_object() && item.contains("metadata") ? &item["metadata"] : nullptr;
  if (!meta || !meta->is_object() || !meta->contains("annotations")) return "";
  const auto& ann = (*meta)["annotations"];
  if (!ann.is_object() || !ann.contains(key) || !ann[key].is_string()) return "";
  return ann[key].get<std::string>();
}

Preset Describe(const EmbeddedPreset& e) {
  Preset p{e.name, e.name, "", e.text};
  auto doc = nlohmann::json::parse(e.text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("items") || !doc["items"].is_array()) return p;
  for (const auto& item : doc["items"]) {
    if (!item.is_object() || item.value("kind", "") != "Simulation") continue;
    if (auto t = Annotation(item, "kplace.dev/title"); !t.empty()) p.title = t;
    p.description = Annotation(item, "kplace.dev/description");
  }
  return p;
}

}  // namespace

const std::vector<Preset>& Presets() {
  static const std::vector<Preset> presets = [] {
    std::vector<Preset> out;
    for (const auto& e : EmbeddedPresets()) out.push_back(Describe(e));
    return out;
  }();
  return presets;
}

int DefaultPreset() {
  const auto& all = Presets();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].name == "quickstart") return static_cast<int>(i);
  return all.empty() ? -1 : 0;
}

}  // namespace kplace::app
