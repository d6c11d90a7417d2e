// YAML text -> nlohmann::json, as kubectl reads `kubectl apply -f` input: a stream of documents separated by `---`
// lines (or concatenated JSON objects), each converted exactly as k8s.io/apimachinery/pkg/util/yaml's
// YAMLOrJSONDecoder and sigs.k8s.io/yaml's YAMLToJSON (go-yaml v2, YAML 1.1 scalars) convert it. For each document
// the result equals what ParseJsonText would return for the JSON text kubectl produces from it.
//
// Errors are InputErrors: "invalid YAML at line L, column C: <problem>" ("invalid YAML in document N at line L,
// column C: ..." from the second document on; lines count from the start of the whole text, columns are characters,
// both from 1). A stream that kubectl reads as JSON (it starts with `{`) and is neither valid JSON nor valid YAML
// reports the JSON error, as kubectl does: "invalid JSON at line L, column C: ...".
// Limits: kMaxInputBytes, containers nested at most kMaxJsonDepth deep (aliases included), and alias expansion
// bounded both as go-yaml bounds it ("document contains excessive aliasing") and in bytes relative to the input.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/json_reader.h"
#include "core/io/json_text.h"

namespace kplace::io {

// Where a document came from: its number in the stream (from 1, counting empty documents as the user sees them
// between `---` lines) and the line its text starts on (from 1).
struct YamlDocumentInfo {
  std::size_t number = 0;
  std::size_t line = 0;
};

// One Json per document, in order. Empty documents, documents holding only comments, and documents whose value is
// null (`~`, `null`) are skipped, as kubectl skips them. Throws InputError on the first bad document: nothing is
// returned then.
std::vector<Json> ParseYamlText(std::string_view text);

// The same stream, one call per document as soon as it is converted, so a caller can process (and drop) documents
// one at a time. On an InputError the documents before the bad one have already been delivered.
void ForEachYamlDocument(std::string_view text,
                         const std::function<void(Json&&, const YamlDocumentInfo&)>& on_document);

// doc as one YAML document in block style, the way `kubectl get -o yaml` writes it: keys in order, two spaces per
// level, a mapping's sequence not indented further ("items:\n- kind: Node"), empty containers as {} and []. A string
// is plain only when every YAML 1.1 reader (go-yaml v2, as kubectl and ParseYamlText read it) takes it back as that
// string; otherwise it is double-quoted (numbers, booleans, null, timestamps, indicators, `: ` and ` #`, leading or
// trailing space, control characters and line breaks escaped). ParseYamlText(JsonToYaml(doc)) equals doc (integral
// floats come back as integers, as kubectl's YAML-to-JSON writes them).
std::string JsonToYaml(const Json& doc);

}  // namespace kplace::io
