// Shared by the two halves of the JSON reader: json_text.cpp (the fast path for what the API server prints, the
// List's split) and json_errors.cpp (nlohmann's parser for everything else, and the errors).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/json_text.h"

namespace kplace::io {

// Unread::kLeaveOut as a tree of keys from an item's root ("*": every element of an array).
struct UnreadNode {
  std::map<std::string, int, std::less<>> next;  // key -> index in the tree
  bool leave_out = false;
};
const std::vector<UnreadNode>& UnreadTree();

// ParseJsonValue for a text TryParseJsonFast gave up on: nlohmann's SAX parser, the same value or its error.
Json ParseJsonValueWithNlohmann(std::string_view whole, std::size_t begin, std::size_t end, int depth, Unread unread);

}  // namespace kplace::io
