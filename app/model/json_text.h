// Positions inside scenario JSON text, for messages and for edits that keep the text's formatting: find the byte
// span of the value at a JSON path, turn an error's path into line:column, and set the Simulation's mode in place.
// The scanner assumes the text is JSON (it is only used on text the core has accepted, or to locate errors the
// core reported) and never throws.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace kplace::app::json_text {

using PathElem = std::variant<std::string, std::size_t>;  // object key or array index
using Path = std::vector<PathElem>;

struct Span {
  std::size_t begin = 0, end = 0;  // [begin, end) bytes of a value
};

struct Match {
  Span span;              // the deepest value on the path that exists
  std::size_t depth = 0;  // how many path elements matched (== path.size(): found)
};

Match Find(std::string_view text, const Path& path);

struct LineColumn {
  int line = 1, column = 1;  // 1-based; column counts bytes
};
LineColumn PositionOf(std::string_view text, std::size_t offset);

// Parses the location of a core error message: "items[3] (Pod default/web): spec.containers[0].image: ..." gives
// items, 3, spec, containers, 0, image (the longest prefix that reads as a path). nullopt when it names no item.
std::optional<Path> ErrorPath(std::string_view message);

// "invalid JSON at line L, column C" and path-carrying messages both give a position; nullopt when neither does.
std::optional<LineColumn> ErrorPosition(std::string_view text, std::string_view message);

// The text with the Simulation item's spec.mode set to mode, touching nothing else (a Simulation item, spec or
// mode field is added when missing). nullopt when the text is not a List with an items array.
std::optional<std::string> WithMode(std::string_view text, std::string_view mode);
// The same for spec.kubernetesVersion (the release picker).
std::optional<std::string> WithKubernetesVersion(std::string_view text, std::string_view version);

// Direct edits of one item, addressed by its index in items (Node::item_index, Pod::item_index). Each touches only
// the value it changes (members and elements are added after the last one, removed with their separator) and
// returns nullopt when the text does not have the expected shape there.
//   spec.taints[taint].effect = effect
std::optional<std::string> WithTaintEffect(std::string_view text, std::size_t item, std::size_t taint,
                                           std::string_view effect);
//   spec.taints without element taint
std::optional<std::string> WithoutTaint(std::string_view text, std::size_t item, std::size_t taint);
//   spec.unschedulable: true (added when missing); false removes the field
std::optional<std::string> WithUnschedulable(std::string_view text, std::size_t item, bool unschedulable);
// Appends toleration (a JSON object's text) to <pod_spec>.tolerations, creating the array when missing. pod_spec is
// the path of a pod spec object: items[i].spec for a Pod, items[i].spec.template.spec for a workload.
std::optional<std::string> WithToleration(std::string_view text, const Path& pod_spec, std::string_view toleration);
// {"key": ..., "operator": "Equal", "value": ..., "effect": ...} ("Exists" without a value) as JSON text.
std::string TolerationFor(std::string_view key, std::string_view value, std::string_view effect);

}  // namespace kplace::app::json_text
