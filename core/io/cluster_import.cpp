#include "core/io/cluster_import.h"

#include <set>
#include <utility>
#include <vector>

#include "core/io/json_text.h"
#include "core/io/json_writer.h"
#include "core/io/kwok_instance_types.h"
#include "core/io/result_writer.h"
#include "core/io/scenario_parser.h"
#include "core/sim/runner.h"

namespace kplace::io {
namespace {

// The List, written an item at a time as the parser reads them. The Simulation the dump may lack goes first; it is
// written up front and cut out at the end if the dump turns out to have its own (in place: a large dump's text is
// never copied).
class ListWriter {
 public:
  // expected_bytes: about what the List will hold (the dump's size: its items lose what kplace never reads), reserved
  // up front: growing a List of tens of MB by doubling copied it again at every step and touched fresh pages.
  explicit ListWriter(std::size_t expected_bytes) {
    out_ = "{ \"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n";
    out_.reserve(expected_bytes + 4096);
    sim_begin_ = out_.size();
    Emit({{"apiVersion", "kplace.dev/v1alpha1"},
          {"kind", "Simulation"},
          {"metadata", {{"name", "imported"}}},
          {"spec", {{"mode", "cluster"}}}});
    sim_end_ = out_.size();
  }

  // Writes the items the parser kept (as it read them) and empties kept.
  void Drain(std::vector<Json>& kept) {
    for (Json& item : kept) Write(std::move(item));
    kept.clear();
  }

  void Finish(ClusterImport& out) {
    if (have_sim_) {
      // "  {Simulation},\n  {next item}": keep the indent, cut the added item and its separator. The dump's own
      // Simulation follows, so there is a next item.
      out_.erase(sim_begin_ + 2, sim_end_ - sim_begin_ + 2);
    } else {
      ++items_;
    }
    out_ += "\n] }\n";
    out.scenario = std::move(out_);
    out.items = items_;
    out.instance_types = instance_types_;
    out.simulation_added = !have_sim_;
  }

 private:
  // The item as Json::dump() prints it, written straight into the List by one JsonWriter (the same bytes; dump()
  // built a string per item through a virtual call per character). Its strings are valid UTF-8: both JSON parsers
  // and the YAML reader refuse anything else.
  void Emit(const Json& item) {
    out_ += out_.size() == sim_begin_ ? "  " : ",\n  ";
    json_.Value(item);
  }

  void Write(Json item) {
    static const std::set<std::string> kSimulated = {"Node",
                                                     "Pod",
                                                     "PriorityClass",
                                                     "PodDisruptionBudget",
                                                     "Deployment",
                                                     "ReplicaSet",
                                                     "StatefulSet",
                                                     "DaemonSet",
                                                     "Service",
                                                     "Job",
                                                     "Namespace",
                                                     "PersistentVolumeClaim",
                                                     "PersistentVolume",
                                                     "StorageClass",
                                                     "CSINode",
                                                     "CSIDriver",
                                                     "CSIStorageCapacity",
                                                     "NodePool",
                                                     "NodeClaim",
                                                     "InstanceType",
                                                     "KubeSchedulerConfiguration",
                                                     "Simulation"};
    if (!item.is_object()) return;  // the parser rejected it already
    const std::string kind = item.value("kind", "");
    if (kind == "Provisioner" && item.value("apiVersion", "") == "karpenter.sh/v1alpha5") {
      Emit(NodePoolFromProvisioner(item));  // read as the NodePool it became (the parser warned)
      ++items_;
      return;
    }
    if (!kSimulated.count(kind)) return;  // the parser warned: not simulated
    if (kind == "Simulation") have_sim_ = true;
    if (kind == "InstanceType") ++instance_types_;
    if (kind == "Pod") {
      if (auto st = item.find("status"); st != item.end() && st->is_object()) {
        const std::string phase = st->value("phase", "");
        if (phase == "Succeeded" || phase == "Failed") return;  // finished: holds nothing
      }
    }
    // What kplace never reads (JSON Lists' items were read without it; YAML documents and arrays were not).
    EraseUnread(item);
    if (auto m = item.find("metadata"); m != item.end() && m->is_object())
      if (auto a = m->find("annotations"); a != m->end() && a->is_object() && a->empty()) m->erase("annotations");
    Emit(item);
    ++items_;
  }

  std::string out_;
  JsonWriter json_{out_};  // compact, into out_
  std::size_t sim_begin_ = 0, sim_end_ = 0;
  std::size_t items_ = 0, instance_types_ = 0;
  bool have_sim_ = false;
};

ClusterImport Finished(ScenarioBuilder& builder, ListWriter& writer, std::size_t documents, bool kwok_only) {
  Scenario sc = builder.Finish();  // every error the run would report
  if (documents > 1) {
    sc.import.documents = documents;
    sc.import.shape = std::to_string(documents) + " documents";
  } else if (kwok_only) {
    sc.import.shape = "Karpenter kwok instance types";
  }
  ClusterImport out;
  out.summary = sim::NewResult(sc).import;  // nodes and pods as the run counts them
  writer.Finish(out);
  return out;
}

}  // namespace

bool IsKwokInstanceTypes(const Json& doc) {
  if (!doc.is_array() || doc.empty()) return false;
  for (const Json& t : doc) {
    if (!t.is_object() || t.contains("kind") || t.contains("items")) return false;  // an object or a list
    auto name = t.find("name"), offerings = t.find("offerings");
    if (name == t.end() || !name->is_string() || offerings == t.end() || !offerings->is_array()) return false;
  }
  return true;
}

ClusterImport ImportClusterDump(std::string_view text) {
  // Read as ParseScenario reads it (AddScenarioText: a JSON List's items one at a time, without what kplace never
  // reads), each item written out as soon as it is read, so a large dump's items are never all held at once.
  ScenarioBuilder builder;
  std::vector<Json> kept;
  builder.KeepItems(&kept);
  ListWriter writer(text.size());
  bool kwok_only = true;
  ReadHooks hooks;
  hooks.document = [&kwok_only](Json& doc, const std::string& prefix) {
    // Karpenter kwok's instance_types.json, the one shape ParseScenario does not read: its InstanceType items.
    if (!IsKwokInstanceTypes(doc)) {
      kwok_only = false;
      return;
    }
    try {
      doc = KwokDocumentToItemsJson(doc);
    } catch (const InputError& e) {
      // "[3] (c-1x-amd64-linux): offerings[0].Price: ..." named as the builder names a document's array items.
      if (prefix.empty()) throw;
      throw InputError(prefix + (e.what()[0] == '[' ? "" : ": ") + e.what());
    }
  };
  hooks.added = [&writer, &kept] { writer.Drain(kept); };
  const std::size_t documents = AddScenarioText(builder, text, hooks);
  return Finished(builder, writer, documents, kwok_only);
}

std::string ConvertClusterDump(std::string_view text, ImportSummary* summary) {
  ClusterImport im = ImportClusterDump(text);
  if (summary) *summary = im.summary;
  return std::move(im.scenario);
}

std::string ImportMessage(const ClusterImport& import) {
  std::string out = ImportSummarySentence(import.summary);
  if (import.instance_types)
    out += "; " + std::to_string(import.instance_types) +
           (import.instance_types == 1 ? " instance type" : " instance types");
  if (import.simulation_added) out += "; a Simulation added (mode cluster)";
  return out + ".";
}

Json ImportToJson(const ClusterImport& import) {
  Json j = ImportJson(import.summary);
  j["items"] = import.items;
  j["instanceTypes"] = import.instance_types;
  j["simulationAdded"] = import.simulation_added;
  j["message"] = ImportMessage(import);
  return j;
}

}  // namespace kplace::io
