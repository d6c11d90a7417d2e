// A cluster dump -> the one kplace scenario that runs as the dump does. `kplace convert kubectl` and the
// playground's import (wasm/api.cpp kplace_import) both call ImportClusterDump, so they print the same List and say
// the same sentence about it.
//
// Input: any shape ReadDocuments reads (a List, typed lists whose items carry no kind, single objects, arrays,
// several JSON documents one after another, YAML), plus Karpenter kwok's instance_types.json (a JSON array of
// instance types without kind, kwok_instance_types.h), whose entries become InstanceType items.
// Output: a List, one item per line: a Simulation (mode cluster) first when the dump has none; objects completed as
// the parser read them (kind and apiVersion from their typed list, a name for generateName); finished pods (they
// hold nothing), kinds kplace does not simulate and what it never reads (json_text.h: EraseUnread) left out.
// Errors are the InputErrors ParseScenario would throw for the dump.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/io/json_reader.h"
#include "core/model/scenario.h"

namespace kplace::io {

struct ClusterImport {
  std::string scenario;  // the List
  // What the parser made of the dump, with nodes and pods counted as the run counts them (pods expanded from
  // workloads included).
  ImportSummary summary;
  std::size_t items = 0;           // items in scenario
  std::size_t instance_types = 0;  // InstanceType items (a kwok instance_types.json's entries included)
  bool simulation_added = false;   // the dump had no Simulation: one (mode cluster) was put first
};

// Karpenter kwok's instance_types.json, as the page's import always recognised it: a non-empty array whose every
// element is an object with a string "name", an "offerings" array and neither "kind" nor "items" (which would make it
// a Kubernetes object or a list).
bool IsKwokInstanceTypes(const Json& doc);

// Read as ParseScenario reads it (a JSON List's items one at a time, without what kplace never reads: a
// 150,000-pod dump fits a wasm32 worker), or whole when it may hold kwok instance types. Throws InputError.
ClusterImport ImportClusterDump(std::string_view text);

// `kplace convert kubectl`: ImportClusterDump's scenario; summary: what the parser made of the dump.
std::string ConvertClusterDump(std::string_view text, ImportSummary* summary = nullptr);

// One sentence saying what the import made of the dump, always (ImportSummaryText's words, plus the instance types
// and the Simulation added): "Imported a List: 2 nodes, 3 pods bound, 1 pending; ...; a Simulation added (mode
// cluster)."
std::string ImportMessage(const ClusterImport& import);

// The playground's summary: the result's "import" object (ImportJson) plus items, instanceTypes, simulationAdded
// and message.
Json ImportToJson(const ClusterImport& import);

}  // namespace kplace::io
