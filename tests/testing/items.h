// Scenario items for scenario-level tests: a small Node and a one-cpu Pod, patched per test.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace kplace::testing {

// A Node with 4 cpu, 8Gi and 10 pods, labelled with its hostname; extra is merge-patched in.
inline nlohmann::json NodeItem(const std::string& name, nlohmann::json extra = nlohmann::json::object()) {
  nlohmann::json n = {{"kind", "Node"},
                      {"metadata", {{"name", name}, {"labels", {{"kubernetes.io/hostname", name}}}}},
                      {"status", {{"allocatable", {{"cpu", "4"}, {"memory", "8Gi"}, {"pods", "10"}}}}}};
  n.merge_patch(extra);
  return n;
}

// A Pod with one container requesting 1 cpu; spec is merge-patched into its spec.
inline nlohmann::json PodItem(const std::string& name, nlohmann::json spec = nlohmann::json::object()) {
  nlohmann::json p = {{"kind", "Pod"},
                      {"metadata", {{"name", name}}},
                      {"spec", {{"containers", {{{"name", "c"}, {"resources", {{"requests", {{"cpu", "1"}}}}}}}}}}};
  p["spec"].merge_patch(spec);
  return p;
}

}  // namespace kplace::testing
