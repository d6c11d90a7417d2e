// JSON text -> nlohmann::json with limits that keep hostile input from exhausting memory or time, and syntax
// errors in the contract's words ("invalid JSON at line L, column C: ...", never nlohmann's exception text).
#pragma once

#include <string_view>
#include <vector>

#include "core/io/json_reader.h"

namespace kplace::io {

inline constexpr std::size_t kMaxInputBytes = 64u << 20;
inline constexpr int kMaxJsonDepth = 128;

// Throws InputError when an input of this many bytes is over kMaxInputBytes.
void CheckInputSize(std::size_t bytes);

// Parses JSON text with the depth limit; syntax errors become "invalid JSON at line L, column C: ...".
Json ParseJsonText(std::string_view text);

// One or more JSON values one after another (concatenated `kubectl get -o json` outputs, JSON Lines), as the
// API machinery's streaming decoder reads them; positions in errors count from the start of text.
std::vector<Json> ParseJsonDocuments(std::string_view text);

// The end of the JSON value starting at t[i] (brackets matched outside strings; a scalar runs to a delimiter), or
// npos when it does not end or nests deeper than max_depth. Values are not validated: parsing them does that.
std::size_t JsonValueEnd(std::string_view t, std::size_t i, int max_depth);

}  // namespace kplace::io
