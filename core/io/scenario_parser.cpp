#include "core/io/scenario_parser.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "core/io/compare.h"
#include "core/io/validate_pod.h"
#include "core/io/yaml_text.h"

namespace kplace::io {

std::vector<Json> ReadDocuments(std::string_view text, std::vector<std::size_t>* numbers) {
  std::size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // a UTF-8 byte order mark
  while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t')) ++i;
  // Empty text, and text starting as JSON does, is JSON: its parser's messages say more than YAML's would.
  if (i == text.size() || text[i] == '{' || text[i] == '[') {
    std::vector<Json> docs = ParseJsonDocuments(text);
    if (numbers)
      for (std::size_t d = 0; d < docs.size(); ++d) numbers->push_back(d + 1);
    return docs;
  }
  std::vector<Json> docs;
  ForEachYamlDocument(text, [&](Json&& doc, const YamlDocumentInfo& info) {
    docs.push_back(std::move(doc));
    if (numbers) numbers->push_back(info.number);
  });
  if (docs.empty()) throw InputError("no Kubernetes objects: the YAML text holds no documents (or only null ones)");
  return docs;
}

namespace {

bool IsJsonText(std::string_view text) {
  std::size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // a UTF-8 byte order mark
  while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t')) ++i;
  return i == text.size() || text[i] == '{' || text[i] == '[';
}

std::string DocumentPrefix(std::size_t documents, std::size_t number) {
  return documents == 1 ? "" : "document " + std::to_string(number);
}

// Adds the documents of JSON text to builder, a List's items one at a time (each parsed without what kplace never
// reads, Unread::kLeaveOut), so a dump of hundreds of MB is never a tree in memory as a whole. Errors are exactly
// ParseJsonDocuments' then ScenarioBuilder's: a syntax error anywhere in the text comes before any other.
// Returns the number of documents.
std::size_t AddJsonText(ScenarioBuilder& builder, std::string_view text, const ReadHooks& hooks) {
  CheckInputSize(text.size());
  // The usual input, one List and nothing after it but space, splits at once: no scan for the boundaries of
  // documents first (a tenth of reading the List's items).
  std::optional<ListLayout> whole_list = SplitList(text);
  const auto ranges =
      whole_list ? std::vector<std::pair<std::size_t, std::size_t>>{{0, text.size()}} : JsonDocumentRanges(text);
  try {
    for (std::size_t d = 0; d < ranges.size(); ++d) {
      const std::string prefix = DocumentPrefix(ranges.size(), d + 1);
      const auto [begin, end] = ranges[d];
      const std::string_view doc = text.substr(begin, end - begin);
      if (auto layout = whole_list ? std::move(whole_list) : SplitList(doc)) {
        // Everything but the items: the document with an empty items array (its depth is the document's).
        const std::string shell =
            std::string(doc.substr(0, layout->items_begin)) + "[]" + std::string(doc.substr(layout->items_end));
        Json list = ParseJsonText(shell);
        if (hooks.document) hooks.document(list, prefix);
        if (builder.BeginList(list, prefix)) {
          Json item;  // each item parsed over the one before (ParseJsonValueInto)
          for (std::size_t i = 0; i < layout->elements.size(); ++i) {
            const auto [b, e] = layout->elements[i];
            // An item sits in the List object and its items array: 2 containers deep.
            ParseJsonValueInto(text, begin + b, begin + e, 2, Unread::kLeaveOut, item);
            builder.Add(item, i);
            if (hooks.added) hooks.added();
          }
          ReleaseJson(item);
          continue;
        }
        // A hook may have made it something else: read the document whole.
      }
      Json whole = ParseJsonValue(text, begin, end, 0, Unread::kLeaveOut);
      if (hooks.document) hooks.document(whole, prefix);
      builder.AddDocument(whole, prefix);
      if (hooks.added) hooks.added();
    }
  } catch (const std::exception&) {
    CheckJsonSyntax(text);  // throws the first syntax error, if any, ahead of the error found while reading
    throw;
  }
  return ranges.size();
}

}  // namespace

std::size_t AddScenarioText(ScenarioBuilder& builder, std::string_view text, const ReadHooks& hooks) {
  if (IsJsonText(text)) return AddJsonText(builder, text, hooks);
  std::vector<std::size_t> numbers;
  std::vector<Json> docs = ReadDocuments(text, &numbers);
  for (std::size_t d = 0; d < docs.size(); ++d) {
    const std::string prefix = DocumentPrefix(docs.size(), numbers[d]);
    if (hooks.document) hooks.document(docs[d], prefix);
    builder.AddDocument(docs[d], prefix);
    docs[d] = Json();  // released once added
    if (hooks.added) hooks.added();
  }
  return docs.size();
}

Scenario ParseScenario(std::string_view text) { return ParseScenario(text, ParseOptions{}); }

Scenario ParseScenario(std::string_view text, const ParseOptions& options) {
  ScenarioBuilder builder(options);
  const std::size_t documents = AddScenarioText(builder, text);
  Scenario sc = builder.Finish();
  if (documents > 1) {
    sc.import.documents = documents;
    sc.import.shape = std::to_string(documents) + " documents";
  }
  return sc;
}

Scenario ParseScenarioJson(const Json& doc, ParseOptions options) {
  ScenarioBuilder builder(options);
  builder.AddDocument(doc, "");
  return builder.Finish();
}

Scenario ParseScenarioDocuments(const std::vector<Json>& docs, const std::vector<std::size_t>& numbers) {
  ScenarioBuilder builder;
  for (std::size_t d = 0; d < docs.size(); ++d)
    builder.AddDocument(docs[d],
                        docs.size() == 1 ? "" : "document " + std::to_string(d < numbers.size() ? numbers[d] : d + 1));
  Scenario sc = builder.Finish();
  if (docs.size() > 1) {
    sc.import.documents = docs.size();
    sc.import.shape = std::to_string(docs.size()) + " documents";
  }
  return sc;
}

namespace {

bool EndsWithList(const std::string& kind) { return kind.size() >= 4 && kind.compare(kind.size() - 4, 4, "List") == 0; }

// A list: kind List or <Kind>List, or no kind at all, with an items array (kubectl's List, the API server's typed
// lists, `kubectl get --raw` output).
bool IsList(const Json& v) {
  if (!v.is_object()) return false;
  auto items = v.find("items");
  if (items == v.end() || !items->is_array()) return false;
  auto k = v.find("kind");
  if (k == v.end() || k->is_null()) return true;
  return k->is_string() && EndsWithList(k->get_ref<const std::string&>());
}

// A karpenter.sh/v1alpha5 Provisioner as the NodePool it became: the fields kplace reads, moved to their places.
Json ProvisionerAsNodePool(const Json& p, const Reader& r) {
  Json np = {{"apiVersion", "karpenter.sh/v1"}, {"kind", "NodePool"}};
  if (auto m = p.find("metadata"); m != p.end()) np["metadata"] = *m;
  Json tmpl_spec = Json::object();
  Json tmpl_meta = Json::object();
  Json out_spec = Json::object();
  if (const Json* spec = r.Object(p, "spec")) {
    for (const char* k : {"requirements", "taints", "startupTaints"})
      if (auto it = spec->find(k); it != spec->end()) tmpl_spec[k] = *it;
    if (auto it = spec->find("labels"); it != spec->end()) tmpl_meta["labels"] = *it;
    if (auto it = spec->find("weight"); it != spec->end()) out_spec["weight"] = *it;
    if (const Json* limits = r.Field("spec").Object(*spec, "limits"))
      if (auto it = limits->find("resources"); it != limits->end()) out_spec["limits"] = *it;
  }
  out_spec["template"] = {{"spec", tmpl_spec}};
  if (!tmpl_meta.empty()) out_spec["template"]["metadata"] = tmpl_meta;
  np["spec"] = out_spec;
  return np;
}

// A Pod (or a workload's pod template) with a persistentVolumeClaim or ephemeral volume, or a StatefulSet with
// volumeClaimTemplates.
bool UsesVolumeClaims(const Json& item, const std::string& kind) {
  const Json* spec = nullptr;
  if (auto s = item.find("spec"); s != item.end() && s->is_object()) spec = &*s;
  static const std::set<std::string> kPodKinds = {"Pod", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job"};
  if (!spec || !kPodKinds.count(kind)) return false;
  if (kind == "StatefulSet")
    if (auto t = spec->find("volumeClaimTemplates"); t != spec->end() && t->is_array() && !t->empty()) return true;
  const Json* pod_spec = spec;
  if (kind != "Pod") {
    auto t = spec->find("template");
    if (t == spec->end() || !t->is_object()) return false;
    auto ts = t->find("spec");
    if (ts == t->end() || !ts->is_object()) return false;
    pod_spec = &*ts;
  }
  auto vols = pod_spec->find("volumes");
  if (vols == pod_spec->end() || !vols->is_array()) return false;
  for (const auto& v : *vols)
    if (v.is_object() && (v.contains("persistentVolumeClaim") || v.contains("ephemeral"))) return true;
  return false;
}

bool IsNamespaced(const std::string& kind) {
  static const std::set<std::string> kNamespaced = {
      "Pod", "PodDisruptionBudget",  "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet", "Service",
      "Job", "PersistentVolumeClaim"};
  return kNamespaced.count(kind) > 0;
}

}  // namespace

Json NodePoolFromProvisioner(const Json& provisioner) { return ProvisionerAsNodePool(provisioner, Reader("", "")); }

void ScenarioBuilder::AddDocument(const Json& doc, const std::string& prefix) {
  if (!doc.is_object() && !doc.is_array())
    Reader(prefix, "").Fail("expected a Kubernetes object, a List or an array of them, got " + JsonTypeName(doc));
  if (doc.is_object() && !IsList(doc)) {
    // A lone object that looks like a list but is not one: say why, as the List check always did.
    if (auto k = doc.find("kind"); k != doc.end() && k->is_string() && EndsWithList(k->get<std::string>())) {
      Reader r(prefix, "");
      auto items = doc.find("items");
      if (items == doc.end() || items->is_null()) r.Field("items").Fail("required");
      r.Field("items").Fail("expected array, got " + JsonTypeName(*items));
    }
  }
  const std::size_t before = next_index_;
  Flatten(doc, prefix, "", "");
  if (!doc.is_object() || !IsList(doc) || !doc.contains("kind") || doc["kind"] != "List") {
    if (sc_.import.shape.empty()) {
      if (doc.is_array())
        sc_.import.shape = "a JSON array";
      else if (IsList(doc))
        sc_.import.shape =
            doc.contains("kind") && doc["kind"].is_string() ? doc["kind"].get<std::string>() : "a list without kind";
      else if (next_index_ - before == 1)
        sc_.import.shape = "a single object";
    }
  }
}

void ScenarioBuilder::Flatten(const Json& v, const std::string& path, const std::string& kind,
                              const std::string& api_version) {
  if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      Flatten(v[i], path.empty() ? "[" + std::to_string(i) + "]" : path + "[" + std::to_string(i) + "]", "", "");
    return;
  }
  if (IsList(v)) {
    std::string list_kind, item_kind, item_api;
    if (auto k = v.find("kind"); k != v.end() && k->is_string()) list_kind = k->get<std::string>();
    if (list_kind != "List" && EndsWithList(list_kind)) {
      item_kind = list_kind.substr(0, list_kind.size() - 4);
      if (auto a = v.find("apiVersion"); a != v.end() && a->is_string()) item_api = a->get<std::string>();
    }
    const Json& items = v["items"];
    const std::string base = path.empty() ? "items" : (path.back() == ']' ? path + ".items" : path + ", items");
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string at = base + "[" + std::to_string(i) + "]";
      if (items[i].is_array() || IsList(items[i]))
        Flatten(items[i], at, "", "");
      else
        AddObject(items[i], at, item_kind, item_api);
    }
    return;
  }
  AddObject(v, path.empty() ? "object" : path, kind, api_version);
}

bool ScenarioBuilder::BeginList(const Json& list, const std::string& prefix) {
  if (!IsList(list)) return false;
  list_prefix_ = prefix;
  list_kind_.clear();
  list_api_version_.clear();
  std::string kind;
  if (auto k = list.find("kind"); k != list.end() && k->is_string()) kind = k->get<std::string>();
  if (kind != "List" && EndsWithList(kind)) {
    list_kind_ = kind.substr(0, kind.size() - 4);
    if (auto a = list.find("apiVersion"); a != list.end() && a->is_string()) list_api_version_ = a->get<std::string>();
  }
  if (kind != "List" && sc_.import.shape.empty()) sc_.import.shape = kind.empty() ? "a list without kind" : kind;
  return true;
}

void ScenarioBuilder::Add(const Json& item, std::size_t index) {
  const std::string label = (list_prefix_.empty() ? "items[" : list_prefix_ + ", items[") + std::to_string(index) + "]";
  if (item.is_array() || IsList(item))
    Flatten(item, label, "", "");
  else
    AddObject(item, label, list_kind_, list_api_version_);
}

std::string ScenarioBuilder::GenerateName(const std::string& kind, const std::string& ns, const std::string& base) {
  // names.SimpleNameGenerator (apiserver/pkg/storage/names): the prefix cut to 58 characters plus 5 random
  // characters from utilrand's alphabet. kplace derives them from the prefix and a counter, so the same input
  // gives the same names.
  static constexpr char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  const std::string prefix = base.substr(0, std::min<std::size_t>(base.size(), 58));
  const bool namespaced = IsNamespaced(kind);
  for (std::uint64_t n = 0;; ++n) {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over prefix and counter
    for (char c : prefix + "#" + std::to_string(n)) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    std::string name = prefix;
    for (int k = 0; k < 5; ++k, h /= 27) name += kAlphabet[h % 27];
    if (!seen_.Contains(kind + " " + (namespaced ? ns + "/" : "") + name)) return name;
  }
}

void ScenarioBuilder::AddObject(const Json& given, const std::string& label, const std::string& implied_kind,
                                const std::string& implied_api_version) {
  Scenario& sc = sc_;
  auto& seen = seen_;
  const std::size_t i = next_index_++;
  if (label != "items[" + std::to_string(i) + "]") plain_ = false;
  if (!plain_) {
    if (sc.item_labels.empty())
      for (std::size_t k = 0; k < i; ++k) sc.item_labels.push_back("items[" + std::to_string(k) + "]");
    sc.item_labels.push_back(label);
  }
  const Json* itemp = &given;
  Json completed;  // a copy, only when the item needs its kind or name filled in
  if (given.is_object()) {
    auto k = given.find("kind");
    const bool no_kind = k == given.end() || k->is_null();
    auto m = given.find("metadata");
    std::string base;
    if (m != given.end() && m->is_object()) {
      auto n = m->find("name"), g = m->find("generateName");
      if ((n == m->end() || n->is_null() || (n->is_string() && n->get_ref<const std::string&>().empty())) &&
          g != m->end() && g->is_string())
        base = g->get<std::string>();
    }
    if ((no_kind && !implied_kind.empty()) || !base.empty()) {
      completed = given;
      if (no_kind && !implied_kind.empty()) {
        completed["kind"] = implied_kind;
        if (!completed.contains("apiVersion") && !implied_api_version.empty())
          completed["apiVersion"] = implied_api_version;
      }
      if (!base.empty()) {
        std::string ns;
        if (auto n = m->find("namespace"); n != m->end() && n->is_string()) ns = n->get<std::string>();
        completed["metadata"]["name"] = GenerateName(completed.value("kind", ""), ns.empty() ? "default" : ns, base);
        ++sc.import.generated_names;
      }
      itemp = &completed;
    }
  }
  const Json& item = *itemp;
  if (keep_) keep_->push_back(item);
  if (!item.is_object()) Reader(label, "").Fail("expected object, got " + JsonTypeName(item));
  std::string item_kind, name, ns;
  auto kind_it = item.find("kind");
  if (kind_it != item.end() && kind_it->is_string()) item_kind = kind_it->get<std::string>();
  if (auto m = item.find("metadata"); m != item.end() && m->is_object()) {
    if (auto n = m->find("name"); n != m->end() && n->is_string()) name = n->get<std::string>();
    if (auto n = m->find("namespace"); n != m->end() && n->is_string()) ns = n->get<std::string>();
  }
  bool namespaced = IsNamespaced(item_kind);
  if (namespaced && ns.empty()) ns = "default";
  // A whole document without kind or name is named by its label alone ("object (object)" says nothing).
  Reader r(item_kind.empty() && name.empty() && label.rfind("items[", 0) != 0
               ? label
               : label + " (" + Describe(item_kind, ns, name) + ")",
           "");
  if (kind_it != item.end() && !kind_it->is_null() && !kind_it->is_string())
    r.Field("kind").Fail("expected string, got " + JsonTypeName(*kind_it));
  if (item_kind.empty()) r.Field("kind").Fail("required");
  std::string api_version;
  if (auto a = item.find("apiVersion"); a != item.end() && a->is_string()) api_version = a->get<std::string>();

  auto check_duplicate = [&]() {
    std::string& key = key_;
    key.assign(item_kind).append(" ");
    if (namespaced) key.append(ns).append("/");
    key.append(name);
    if (auto also = seen.Insert(key, label))
      r.Fail("duplicate " + Describe(item_kind, namespaced ? ns : "", name) + " (also " + *also + ")");
  };

  if (UsesVolumeClaims(item, item_kind)) ++sc.import.volume_claims;
  if (item_kind == "Node") {
    Node n = ParseNode(item, r);
    n.item_index = static_cast<int>(i);
    check_duplicate();
    sc.nodes.push_back(std::move(n));
    if (static_cast<std::int64_t>(sc.nodes.size()) > kMaxNodes)
      r.Fail("more than " + std::to_string(kMaxNodes) + " nodes");
  } else if (item_kind == "Pod") {
    if (options_.api_validation) ValidatePodObject(item, r, &deferred_checks_);
    Pod p = ParsePod(item, r);
    if (p.meta.name.empty()) r.Field("metadata.name").Fail("required");
    p.item_index = static_cast<int>(i);
    check_duplicate();
    sc.pods.push_back(std::move(p));
  } else if (item_kind == "PriorityClass") {
    PriorityClass pc = ParsePriorityClass(item, r);
    pc.item_index = static_cast<int>(i);
    check_duplicate();
    if (pc.global_default) {
      for (const auto& other : sc.priority_classes)
        if (other.global_default)
          r.Field("globalDefault").Fail("PriorityClass \"" + other.name + "\" is already marked as default");
    }
    if (pc.name == "system-cluster-critical" || pc.name == "system-node-critical")
      r.Field("metadata.name").Fail("\"" + pc.name + "\" is a built-in system PriorityClass");
    sc.priority_classes.push_back(std::move(pc));
  } else if (item_kind == "PodDisruptionBudget") {
    PodDisruptionBudget pdb = ParsePdb(item, r);
    pdb.item_index = static_cast<int>(i);
    check_duplicate();
    sc.pdbs.push_back(std::move(pdb));
  } else if (item_kind == "Deployment" || item_kind == "ReplicaSet" || item_kind == "StatefulSet" ||
             item_kind == "DaemonSet" || item_kind == "Service" || item_kind == "Job") {
    Workload w = ParseWorkload(item_kind, item, r, options_.api_validation, &deferred_checks_);
    w.item_index = static_cast<int>(i);
    check_duplicate();
    sc.workloads.push_back(std::move(w));
  } else if (item_kind == "PersistentVolumeClaim") {
    PersistentVolumeClaim c = ParsePersistentVolumeClaim(item, r);
    c.item_index = static_cast<int>(i);
    check_duplicate();
    sc.persistent_volume_claims.push_back(std::move(c));
  } else if (item_kind == "PersistentVolume") {
    PersistentVolume pv = ParsePersistentVolume(item, r);
    pv.item_index = static_cast<int>(i);
    check_duplicate();
    sc.persistent_volumes.push_back(std::move(pv));
  } else if (item_kind == "StorageClass") {
    StorageClass c = ParseStorageClass(item, r);
    c.item_index = static_cast<int>(i);
    check_duplicate();
    sc.storage_classes.push_back(std::move(c));
  } else if (item_kind == "CSINode") {
    CSINode n = ParseCSINode(item, r);
    n.item_index = static_cast<int>(i);
    check_duplicate();
    sc.csi_nodes.push_back(std::move(n));
  } else if (item_kind == "CSIDriver") {
    CSIDriver d = ParseCSIDriver(item, r);
    d.item_index = static_cast<int>(i);
    check_duplicate();
    sc.csi_drivers.push_back(std::move(d));
  } else if (item_kind == "CSIStorageCapacity") {
    CSIStorageCapacity c = ParseCSIStorageCapacity(item, r);
    c.item_index = static_cast<int>(i);
    check_duplicate();
    sc.csi_storage_capacities.push_back(std::move(c));
  } else if (item_kind == "Namespace") {
    check_duplicate();
    sc.namespaces.push_back(ParseNamespace(item, r));
  } else if (item_kind == "Provisioner" && api_version == "karpenter.sh/v1alpha5") {
    // Karpenter v0.33 replaced v1alpha5 Provisioners with NodePools; the fields kplace reads moved without changing
    // meaning (karpenter's v1beta1 migration guide), so the Provisioner is read as the NodePool it became.
    NodePool np = ParseProvisioner(item, r);
    np.item_index = static_cast<int>(i);
    check_duplicate();
    sc.node_pools.push_back(std::move(np));
    sc.warnings.push_back(label + ": karpenter.sh/v1alpha5 Provisioner " + name +
                          " read as the karpenter.sh/v1 NodePool it became (spec.requirements, spec.labels, "
                          "spec.taints, spec.startupTaints, spec.limits.resources and spec.weight moved to "
                          "spec.template.spec.requirements, spec.template.metadata.labels, spec.template.spec.taints, "
                          "spec.template.spec.startupTaints, spec.limits and spec.weight); convert it with Karpenter's "
                          "v0.33 migration before upgrading");
  } else if (item_kind == "Machine" && api_version == "karpenter.sh/v1alpha5") {
    sc.warnings.push_back(label + ": karpenter.sh/v1alpha5 Machine " + name +
                          " is not simulated: Karpenter v0.33 replaced Machines with NodeClaims");
  } else if (item_kind == "NodePool") {
    if (api_version == "karpenter.sh/v1beta1")
      sc.warnings.push_back(label + ": karpenter.sh/v1beta1 NodePool " + name +
                            " read as karpenter.sh/v1: the fields kplace reads (template labels, requirements, "
                            "taints, startupTaints, limits, weight) did not change; v1 moved kubelet to the NodeClass, "
                            "expireAfter into the template and renamed consolidationPolicy WhenUnderutilized to "
                            "WhenEmptyOrUnderutilized, none of which kplace reads");
    NodePool np = ParseNodePool(item, r);
    np.item_index = static_cast<int>(i);
    check_duplicate();
    sc.node_pools.push_back(std::move(np));
  } else if (item_kind == "NodeClaim") {
    NodeClaim nc = ParseNodeClaim(item, r);
    nc.item_index = static_cast<int>(i);
    check_duplicate();
    sc.node_claims.push_back(std::move(nc));
  } else if (item_kind == "InstanceType") {
    InstanceType it = ParseInstanceType(item, r);
    it.item_index = static_cast<int>(i);
    check_duplicate();
    sc.instance_types.push_back(std::move(it));
  } else if (item_kind == "KubeSchedulerConfiguration") {
    if (have_config_) r.Fail("only one KubeSchedulerConfiguration is allowed");
    have_config_ = true;
    sc.scheduler_config = ParseSchedulerConfig(item, r);
    sc.scheduler_config.item_index = static_cast<int>(i);
  } else if (item_kind == "Simulation") {
    if (have_sim_) r.Fail("only one Simulation is allowed");
    have_sim_ = true;
    sc.simulation = ParseSimulation(item, r);
  } else {
    if (ignored_[item_kind]++ == 0) {
      ignored_first_[item_kind] = label;
      sc.warnings.push_back(label + ": kind \"" + item_kind + "\" is not simulated; ignored");
    }
  }
}

Scenario ScenarioBuilder::Finish() {
  const SimulationOverrides& o = options_.overrides;
  if (o.mode) sc_.simulation.mode = *o.mode;
  if (o.seed) sc_.simulation.seed = *o.seed;
  if (o.kubernetes_minor) sc_.simulation.kubernetes_minor = *o.kubernetes_minor;
  if (o.scoring_strategy)
    for (auto& profile : sc_.scheduler_config.profiles) profile.args.fit.strategy = *o.scoring_strategy;
  for (const auto& check : deferred_checks_) ValidateReleaseDependentPodSpec(check, sc_.simulation.kubernetes_minor);
  for (const auto& [kind, count] : ignored_) {
    if (count < 2) continue;
    const std::string first = ignored_first_[kind] + ": kind \"" + kind + "\" is not simulated; ignored";
    for (auto& w : sc_.warnings)
      if (w == first) w += " (and " + std::to_string(count - 1) + " more " + kind + " items)";
  }
  for (const auto& [kind, count] : ignored_) sc_.import.ignored_kinds.emplace_back(kind, count);
  if (plain_) sc_.item_labels.clear();
  ExpandWorkloads();
  AddVolumeClaims();
  AddInFlightNodeClaims();
  return std::move(sc_);
}

namespace {

// A pod its controller counts as one of its replicas: not finished and not being deleted (controller.IsPodActive,
// pkg/controller/controller_utils.go).
bool Active(const Pod& p) { return !p.Terminal() && !p.meta.deleting; }

// The claim of a StatefulSet replica: <template>-<set>-<ordinal> (stateful_set_utils.go
// getPersistentVolumeClaimName).
std::string StatefulSetClaimName(const std::string& tmpl, const std::string& set, std::int32_t ordinal) {
  return tmpl + "-" + set + "-" + std::to_string(ordinal);
}

// The ordinal in a StatefulSet pod's name <set>-<ordinal>, or -1.
std::int32_t StatefulSetOrdinal(const std::string& pod, const std::string& set) {
  if (pod.size() <= set.size() + 1 || pod.compare(0, set.size(), set) != 0 || pod[set.size()] != '-') return -1;
  auto n = ParseDecimalInt64(pod.substr(set.size() + 1));
  return n && *n >= 0 && *n <= INT32_MAX && std::to_string(*n) == pod.substr(set.size() + 1)
             ? static_cast<std::int32_t>(*n)
             : -1;
}

std::string OwnerKey(const std::string& kind, const std::string& ns, const std::string& name) {
  return kind + " " + ns + "/" + name;
}

}  // namespace

void ScenarioBuilder::AddVolumeClaims() {
  Scenario& sc = sc_;
  std::unordered_set<std::string> claims;
  for (const auto& c : sc.persistent_volume_claims) claims.insert(c.Key());
  auto add = [&](PersistentVolumeClaim c, const std::string& name, const std::string& ns, int item_index,
                 std::string generated_for) {
    c.meta.name = name;
    c.meta.namespace_ = ns;
    c.item_index = item_index;
    c.generated_for = std::move(generated_for);
    if (claims.insert(c.Key()).second) sc.persistent_volume_claims.push_back(std::move(c));
  };
  // A StatefulSet's controller creates every missing claim of its replicas, for pods it created earlier too
  // (createMissingPersistentVolumeClaims).
  std::map<std::pair<std::string, std::string>, const Workload*> sets;
  for (const auto& w : sc.workloads)
    if (w.kind == "StatefulSet" && !w.volume_claim_templates.empty()) sets[{w.meta.namespace_, w.meta.name}] = &w;
  for (auto& p : sc.pods) {
    if (const OwnerReference* o = p.meta.Controller(); o && o->kind == "StatefulSet" && !p.Terminal()) {
      auto it = sets.find({p.meta.namespace_, o->name});
      const std::int32_t ordinal = it == sets.end() ? -1 : StatefulSetOrdinal(p.meta.name, o->name);
      if (ordinal >= 0)
        for (const auto& t : it->second->volume_claim_templates)
          add(t, StatefulSetClaimName(t.meta.name, o->name, ordinal), p.meta.namespace_, it->second->item_index,
              "StatefulSet/" + o->name);
    }
    // Generic ephemeral volumes: the ephemeral volume controller creates <pod>-<volume>, owned by the pod
    // (pkg/controller/volume/ephemeral, k8s.io/component-helpers/storage/ephemeral VolumeClaimName).
    for (auto& v : p.volumes) {
      if (v.kind != PodVolume::Kind::Ephemeral) continue;
      v.claim_name = p.meta.name + "-" + v.name;
      if (p.Terminal()) continue;
      PersistentVolumeClaim c = *v.ephemeral_template;
      c.meta.owner_references = {{"v1", "Pod", p.meta.name, true}};
      add(std::move(c), v.claim_name, p.meta.namespace_, p.item_index, "Pod/" + p.meta.name);
    }
  }
  for (const auto& p : sc.pods) {
    if (p.Terminal()) continue;
    for (const auto& v : p.volumes)
      if (v.kind != PodVolume::Kind::Other && !claims.count(p.meta.namespace_ + "/" + v.claim_name)) {
        ++sc.import.missing_claims;
        break;
      }
  }
  // The default StorageClass for claims without a class: the DefaultStorageClass admission plugin for new claims,
  // the PV controller's retroactive assignment for unbound ones. Several defaults: the newest, then by name
  // (pkg/volume/util/storageclass.go GetDefaultClass).
  const StorageClass* def = nullptr;
  for (const auto& c : sc.storage_classes)
    if (c.is_default && (!def || c.meta.creation_unix > def->meta.creation_unix ||
                         (c.meta.creation_unix == def->meta.creation_unix && c.meta.name < def->meta.name)))
      def = &c;
  if (def)
    for (auto& c : sc.persistent_volume_claims)
      if (!c.storage_class_name && c.volume_name.empty()) c.storage_class_name = def->meta.name;
}

void ScenarioBuilder::AddInFlightNodeClaims() {
  // A NodeClaim that registered is its Node (listed or not); one being deleted is going away; one not launched yet
  // has no capacity. The rest are in flight (cluster state's StateNode without a Node, pkg/controllers/state).
  static const Symbol kHostname = Intern("kubernetes.io/hostname");
  std::set<std::string> node_names;
  for (const auto& n : sc_.nodes) node_names.insert(n.meta.name);
  for (const auto& nc : sc_.node_claims) {
    if (!nc.node_name.empty() || nc.meta.deleting || !nc.launched || node_names.count(nc.meta.name)) continue;
    Node n;
    n.meta = nc.meta;
    n.name_symbol = Intern(n.meta.name);
    // StateNode.HostName: the NodeClaim's name while it has no Node.
    if (!n.meta.labels.Get(kHostname)) {
      n.meta.labels.Set(kHostname, n.name_symbol);
    }
    n.taints = nc.taints;
    n.allocatable = nc.allocatable;
    n.capacity = nc.capacity;
    n.item_index = nc.item_index;
    sc_.in_flight_node_claims.push_back(std::move(n));
  }
}

void ScenarioBuilder::ExpandWorkloads() {
  Scenario& sc = sc_;
  auto& seen = seen_;
  // The settled state: the pods each listed controller already has. A Deployment's pods belong to its ReplicaSets,
  // named <deployment>-<pod-template-hash>; when those ReplicaSets are not listed, the hash label ties the pods to
  // the Deployment.
  std::unordered_map<std::string, std::int32_t> active;  // controller key -> active pods it owns
  std::set<std::string> listed;                          // controller keys of the workloads given
  std::set<std::string> represented;                     // Deployments whose ReplicaSets are given
  for (const auto& w : sc.workloads) {
    listed.insert(OwnerKey(w.kind, w.meta.namespace_, w.meta.name));
    if (w.kind != "ReplicaSet") continue;
    if (const OwnerReference* o = w.meta.Controller(); o && o->kind == "Deployment")
      represented.insert(OwnerKey("Deployment", w.meta.namespace_, o->name));
  }
  for (const auto& p : sc.pods) {
    if (p.Terminal()) ++sc.import.finished_pods;
    if (p.meta.deleting && !p.node_name.empty() && !p.Terminal()) ++sc.import.terminating_pods;
    if (sc.workloads.empty()) continue;  // no controller to count pods for (an import of Nodes and Pods)
    const OwnerReference* o = p.meta.Controller();
    if (!o || p.Terminal()) continue;
    std::string key = OwnerKey(o->kind, p.meta.namespace_, o->name);
    bool kept = listed.count(key) > 0;
    if (Active(p)) ++active[key];
    if (o->kind == "ReplicaSet") {
      const std::string* hash_label = p.meta.LabelValue("pod-template-hash");
      const std::string& hash = hash_label ? *hash_label : std::string();
      if (!hash.empty() && o->name.size() > hash.size() + 1 &&
          o->name.compare(o->name.size() - hash.size() - 1, std::string::npos, "-" + hash) == 0) {
        std::string deployment =
            OwnerKey("Deployment", p.meta.namespace_, o->name.substr(0, o->name.size() - hash.size() - 1));
        if (Active(p)) ++active[deployment];
        kept = kept || (listed.count(deployment) > 0 && !represented.count(deployment));
      }
    }
    if (kept) ++sc.import.controller_pods_kept;
  }

  // Expand what each controller would still create: Deployments (unless their ReplicaSets are given), ReplicaSets,
  // StatefulSets (the missing ordinals) and Jobs into pending pods <name>-<i>, skipping names in use.
  std::int64_t total = static_cast<std::int64_t>(sc.pods.size());
  // namespace/name of the pods in the input, gathered when a controller first creates a pod
  std::unordered_set<std::string> given;
  const std::size_t input_pods = sc.pods.size();
  bool gathered = false;
  const auto in_input = [&](const std::string& key) {
    if (!gathered) {
      gathered = true;
      for (std::size_t i = 0; i < input_pods; ++i)
        given.insert(sc.pods[i].meta.namespace_ + "/" + sc.pods[i].meta.name);
    }
    return given.count(key) > 0;
  };
  for (const auto& w : sc.workloads) {
    if (w.kind != "Deployment" && w.kind != "ReplicaSet" && w.kind != "StatefulSet" && w.kind != "Job") continue;
    const std::string key = OwnerKey(w.kind, w.meta.namespace_, w.meta.name);
    if (w.kind == "Deployment" && represented.count(key)) {
      ++sc.import.workloads_represented;
      continue;
    }
    Reader r(sc.ItemLabel(w.item_index) + " (" + Describe(w.kind, w.meta.namespace_, w.meta.name) + ")", "");
    std::int32_t want = w.replicas;
    const std::int32_t have = active.count(key) ? active[key] : 0;
    if (w.kind == "Job") {
      // The Job controller's wanted active pods (pkg/controller/job/job_controller.go manageJob): parallelism, at
      // most the completions still missing; none when suspended, or when a work queue (no completions) has had a
      // success.
      if (w.suspend)
        want = 0;
      else if (w.completions)
        want = std::min(want, std::max(0, *w.completions - w.succeeded));
      else if (w.succeeded > 0)
        want = 0;
    }
    // A StatefulSet creates each missing ordinal (a pod named <set>-<i> is that replica); the others create the
    // missing count under names that skip existing pods (their controllers' random suffixes never collide).
    const bool ordinals = w.kind == "StatefulSet";
    const std::int32_t create = ordinals ? w.replicas : std::max(0, want - have);
    for (std::int32_t i = 0, made = 0; ordinals ? i < w.replicas : made < create; ++i) {
      std::string name = w.meta.name + "-" + std::to_string(i);
      if (in_input(w.meta.namespace_ + "/" + name)) continue;
      ++made;
      std::string pod_key = "Pod " + w.meta.namespace_ + "/" + name;
      if (++total > kMaxPods)
        r.Field("spec.replicas").Fail("the scenario would have more than " + std::to_string(kMaxPods) + " pods");
      Pod p = *w.pod_template;
      p.meta.name = name;
      p.meta.namespace_ = w.meta.namespace_;
      p.meta.creation_timestamp = w.meta.creation_timestamp;
      p.meta.creation_unix = w.meta.creation_unix;
      // A Deployment's pods are owned by its ReplicaSet; kplace names that ReplicaSet after the Deployment.
      std::string owner_kind = w.kind == "Deployment" ? "ReplicaSet" : w.kind;
      p.meta.owner_references = {{w.kind == "Job" ? "batch/v1" : "apps/v1", owner_kind, w.meta.name, true}};
      p.node_name.clear();
      if (ordinals)
        for (auto& v : p.volumes)
          for (const auto& t : w.volume_claim_templates)
            if (v.name == t.meta.name) v.claim_name = StatefulSetClaimName(t.meta.name, w.meta.name, i);
      p.item_index = w.item_index;
      p.generated_from = w.kind + "/" + w.meta.name;
      if (auto also = seen.Insert(pod_key, sc.ItemLabel(w.item_index)))
        r.Fail("expands into Pod " + p.meta.namespace_ + "/" + p.meta.name + ", which " + *also + " already defines");
      sc.pods.push_back(std::move(p));
    }
  }
  if (total > kMaxPods) Reader("", "items").Fail("more than " + std::to_string(kMaxPods) + " pods");
}

}  // namespace kplace::io
