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

// One NodePool "default" (no requirements; template_spec is merge-patched into its spec.template.spec) and one instance
// type c5.large (2 cpu, 4Gi, 29 pods; on-demand in us-east-1a at $0.085): what Karpenter needs to place a pending pod.
inline nlohmann::json KarpenterItems(nlohmann::json template_spec = nlohmann::json::object()) {
  nlohmann::json pool = {{"apiVersion", "karpenter.sh/v1"},
                         {"kind", "NodePool"},
                         {"metadata", {{"name", "default"}}},
                         {"spec", {{"template", {{"spec", {{"requirements", nlohmann::json::array()}}}}}}}};
  pool["spec"]["template"]["spec"].merge_patch(template_spec);
  nlohmann::json type = {
      {"apiVersion", "kplace.dev/v1alpha1"},
      {"kind", "InstanceType"},
      {"metadata", {{"name", "c5.large"}}},
      {"spec",
       {{"capacity", {{"cpu", "2"}, {"memory", "4Gi"}, {"pods", "29"}}},
        {"offerings",
         {{{"zone", "us-east-1a"}, {"capacityType", "on-demand"}, {"price", 0.085}, {"available", true}}}}}}};
  return {pool, type};
}

}  // namespace kplace::testing
