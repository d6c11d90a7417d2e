// JSON text -> nlohmann::json with limits that keep hostile input from exhausting memory or time, and syntax
// errors in the contract's words ("invalid JSON at line L, column C: ...", never nlohmann's exception text).
#pragma once

#include <string_view>

#include "core/io/json_reader.h"

namespace kplace::io {

inline constexpr std::size_t kMaxInputBytes = 64u << 20;
inline constexpr int kMaxJsonDepth = 128;

// Parses JSON text with the depth limit; syntax errors become "invalid JSON at line L, column C: ...".
Json ParseJsonText(std::string_view text);

}  // namespace kplace::io
