// Typed access to a JSON tree with error messages that name the item and the JSON path, as the scenario contract
// requires: `items[3] (Pod default/web): spec.containers[0].resources.requests.cpu: "abc" is not a quantity`.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/io/sorted_object.h"
#include "core/model/input_error.h"
#include "core/model/labels.h"
#include "core/model/quantity.h"
#include "core/model/resource.h"

namespace kplace::io {

// Objects keep their members in one sorted vector (sorted_object.h), std::map's order without its nodes.
using Json = nlohmann::basic_json<SortedObject>;

// The member of an object a NUL-terminated name names, or nullptr (absent, or parent not an object).
const Json* FindMember(const Json& parent, const char* name);

using kplace::InputError;

// Where we are: the item prefix ("items[3] (Pod default/web)") and a path inside it.
class Reader {
 public:
  Reader(std::string item, std::string_view path) : item_(std::make_shared<const std::string>(std::move(item))) {
    path_.Assign(path);
  }

  Reader Field(std::string_view name) const;
  Reader Index(std::size_t i) const;
  Reader Key(std::string_view key) const;  // map key: path.key or path["weird.key"]
  [[noreturn]] void Fail(const std::string& what) const;
  std::string path() const { return std::string(path_.view()); }

  // Each getter: absent or null -> nullopt; present with the wrong type -> error.
  const Json* Object(const Json& parent, const char* name) const;  // returns nullptr when absent/null
  const Json* Array(const Json& parent, const char* name) const;
  std::optional<std::string> String(const Json& parent, const char* name) const;
  std::optional<bool> Bool(const Json& parent, const char* name) const;
  std::optional<std::int64_t> Int(const Json& parent, const char* name, std::int64_t min, std::int64_t max) const;
  std::optional<double> Number(const Json& parent, const char* name) const;

  // Checks the value at this path.
  void ExpectObject(const Json& v) const;
  void ExpectArray(const Json& v) const;
  std::string AsString(const Json& v) const;
  Quantity AsQuantity(const Json& v) const;  // string or number, as Kubernetes accepts
  // A resource list (requests, limits, allocatable...); negative values are rejected.
  Resource AsResourceList(const Json& v, std::vector<std::string>* names = nullptr) const;
  Labels AsLabels(const Json& v) const;
  // metav1.LabelSelector: null -> nil selector (matches nothing), {} -> everything. An invalid key, value or
  // operator raises InputError.
  LabelSelector AsLabelSelector(const Json& v) const;
  // One v1.NodeSelectorRequirement (field: a matchFields entry); any validation failure raises InputError.
  LabelRequirement AsNodeSelectorRequirement(const Json& v, bool field) const;
  // A v1.NodeSelectorTerm. Strict (default): a validation failure raises InputError with upstream's message.
  // Lazy: failures are kept in term.errors and the term never matches (nodeaffinity.LazyErrorNodeSelector, used
  // for a pod's own node affinity); JSON type errors still raise.
  NodeSelectorTerm AsNodeSelectorTerm(const Json& v, bool lazy = false) const;

 private:
  // A JSON path kept inline: a reader is made per field read (most paths fit in the buffer; a longer one continues
  // on the heap), so reading a field allocates nothing. Only an error turns the path into a string.
  class Path {
   public:
    Path() = default;
    Path(const Path& o);
    Path& operator=(const Path& o);
    bool empty() const { return size_ == 0; }
    std::string_view view() const { return heap_.empty() ? std::string_view(inline_, size_) : std::string_view(heap_); }
    void Assign(std::string_view text);
    void Append(std::string_view text);

   private:
    std::size_t size_ = 0;
    char inline_[200];  // fits node affinity's deepest paths (spec.affinity.nodeAffinity...values[i])
    std::string heap_;  // the whole path once it outgrows inline_
  };

  Reader(std::shared_ptr<const std::string> item, const Path& path) : item_(std::move(item)), path_(path) {}
  // Shared by every Reader of one item: a field read copies a pointer, not the item's name.
  std::shared_ptr<const std::string> item_;
  Path path_;
};

std::string JsonTypeName(const Json& v);
// Adds a resource name/quantity to a resource list with the scheduler's units.
void AddResource(Resource& r, const std::string& name, const Quantity& q);

}  // namespace kplace::io
