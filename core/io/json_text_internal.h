// Shared by the two halves of the JSON reader: json_text.cpp (the fast path for what the API server prints, the
// List's split) and json_errors.cpp (nlohmann's parser for everything else, and the errors).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/io/json_text.h"

namespace kplace::io {

// Unread::kLeaveOut as a tree of keys from an item's root ("*": every element of an array).
struct UnreadNode {
  std::vector<std::pair<std::string, int>> next;  // key -> index in the tree (a few keys: scanned, no tree's nodes)
  bool leave_out = false;
  // The index under key, or -1. Looked up for every key of an item's upper levels as it is read.
  int Find(std::string_view key) const {
    for (const auto& [k, at] : next)
      if (k.size() == key.size() && (key.empty() || k[0] == key[0]) && std::string_view(k) == key) return at;
    return -1;
  }
};
const std::vector<UnreadNode>& UnreadTree();

// ParseJsonValue for a text TryParseJsonFast gave up on: nlohmann's SAX parser, the same value or its error.
Json ParseJsonValueWithNlohmann(std::string_view whole, std::size_t begin, std::size_t end, int depth, Unread unread);

}  // namespace kplace::io
