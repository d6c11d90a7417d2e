// Scenario text -> Scenario: reads the shapes kubectl and client-go print (a List, typed lists such as PodList whose
// items carry no kind, single objects, arrays, several documents one after another), dispatches each object to its
// parser (object_parsers.h), and expands workloads into the pods their controllers would still create: a settled
// dump's pods are not created again. Every error is an InputError whose message names the item and the JSON path.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/io/json_reader.h"
#include "core/io/json_text.h"
#include "core/io/object_keys.h"
#include "core/io/object_parsers.h"
#include "core/model/scenario.h"

namespace kplace::io {

struct ParseOptions {
  // Check Pods and workload templates as the API server would (validate_pod.h). Only the test harnesses that port
  // upstream's scheduler unit tests turn it off: those tests hand pods straight to the scheduler, never through the
  // API server, and many of their pods would not pass it (no containers, hostPort without containerPort, ...).
  bool api_validation = true;
  // Replace the Simulation item's settings (a side of a comparison); applied by Finish.
  SimulationOverrides overrides;
};

// The documents of a scenario's text: JSON when it starts with `{` or `[` (one value or several one after another),
// otherwise YAML (kubectl -o yaml, multi-document manifests), as kubectl's YAMLOrJSONDecoder reads them. numbers:
// each document's number as the user counts them (YAML skips empty documents).
std::vector<Json> ReadDocuments(std::string_view text, std::vector<std::size_t>* numbers = nullptr);

// Parses a whole scenario. Expands workloads into pods, resolves nothing else.
Scenario ParseScenario(std::string_view text);
Scenario ParseScenario(std::string_view text, const ParseOptions& options);
// One document (a List, a typed list, one object or an array of them).
Scenario ParseScenarioJson(const Json& doc, ParseOptions options = {});
Scenario ParseScenarioDocuments(const std::vector<Json>& docs, const std::vector<std::size_t>& numbers = {});

// What ParseScenarioDocuments does, an item at a time (IncrementalScenarioParser feeds it a List's items parsed one
// by one).
class ScenarioBuilder {
 public:
  explicit ScenarioBuilder(ParseOptions options = {}) : options_(options) {}
  // Adds every object of one document (prefix: how errors name the document when there are several, "" otherwise).
  void AddDocument(const Json& doc, const std::string& prefix);
  // Starts a List whose items are then given one by one to Add: checks the list (its items emptied) and notes the
  // kind its items imply (PodList: Pod). Returns false when the document is not a list (then use AddDocument).
  bool BeginList(const Json& list, const std::string& prefix = "");
  // Adds items[index] of the List begun; throws InputError naming it.
  void Add(const Json& item, std::size_t index);
  // Expands workloads into pods; the builder is spent afterwards.
  Scenario Finish();
  // Keeps a copy of every object added, as the parser read it (kind and apiVersion from its typed list, a name for
  // generateName), in the order read.
  void KeepItems(std::vector<Json>* out) { keep_ = out; }

 private:
  void Flatten(const Json& v, const std::string& path, const std::string& kind, const std::string& api_version);
  // Adds one object; label names it in errors, implied_kind is the kind of a typed list's items.
  void AddObject(const Json& item, const std::string& label, const std::string& implied_kind,
                 const std::string& implied_api_version);
  // metadata.generateName -> a name the API server could have given, unique among this kind's objects.
  std::string GenerateName(const std::string& kind, const std::string& ns, const std::string& base);
  void ExpandWorkloads();
  void AddInFlightNodeClaims();
  // The claims the StatefulSet and ephemeral volume controllers would create, and the default StorageClass for
  // unbound claims without one.
  void AddVolumeClaims();

  ParseOptions options_;
  Scenario sc_;
  std::vector<ReleaseDependentPodCheck> deferred_checks_;  // run by Finish, once the release is known
  ObjectKeys seen_;                                        // "Kind ns/name" -> item label
  std::string key_;                                        // AddObject's key, built in place
  std::size_t next_index_ = 0;                             // items added so far (the next item_index)
  std::string list_kind_, list_api_version_;               // BeginList: the kind its items imply
  std::string list_prefix_;                                // ... and how errors name its document
  bool plain_ = true;                                      // every label so far is items[i]
  std::map<std::string, std::size_t> ignored_;             // kinds not simulated -> count
  std::map<std::string, std::string> ignored_first_;       // ... and the first such item's label
  bool have_config_ = false;
  bool have_sim_ = false;
  std::vector<Json>* keep_ = nullptr;
};

// Adds every document of a scenario's text (JSON or YAML, as ReadDocuments reads it) to builder, with the names
// ParseScenario gives them in errors ("document 2, items[0]" when there are several). A JSON List's items are read
// one at a time, without what kplace never reads (json_text.h, Unread). Returns the number of documents.
// hooks (optional): document sees each document before it is added (a List read an item at a time: its shell, the
// List with its items emptied), and may replace it; added runs after each item or whole document is added.
struct ReadHooks {
  std::function<void(Json& doc, const std::string& prefix)> document;
  std::function<void()> added;
};
std::size_t AddScenarioText(ScenarioBuilder& builder, std::string_view text, const ReadHooks& hooks = {});

// A karpenter.sh/v1alpha5 Provisioner as the karpenter.sh/v1 NodePool the parser reads it as (the fields kplace
// reads moved to their NodePool places).
Json NodePoolFromProvisioner(const Json& provisioner);

}  // namespace kplace::io
