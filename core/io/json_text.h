// JSON text -> nlohmann::json with limits that keep hostile input from exhausting memory or time, and syntax
// errors in the contract's words ("invalid JSON at line L, column C: ...", never nlohmann's exception text).
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/io/json_reader.h"

namespace kplace::io {

// The largest input read: a 5,000-node / 50,000-pod cluster as `kubectl get --raw` prints it is about 300 MB, and
// as `kubectl get -o json` prints it (indented) about 800 MB. Larger inputs are refused with a message that says
// what to leave out.
inline constexpr std::size_t kMaxInputBytes = std::size_t{1} << 30;
inline constexpr int kMaxJsonDepth = 128;

// Throws InputError when an input of this many bytes is over kMaxInputBytes.
void CheckInputSize(std::size_t bytes);

// Parses JSON text with the depth limit; syntax errors become "invalid JSON at line L, column C: ...".
Json ParseJsonText(std::string_view text);

// What a scenario item holds that kplace never reads, left out while an item is parsed (the parse still checks
// its syntax): metadata.managedFields, the kubectl.kubernetes.io/last-applied-configuration annotation, a Pod's
// container statuses, a Node's nodeInfo, addresses, daemonEndpoints and attached volumes, and in every container
// (of a Pod or a pod template) env, envFrom, command, args, probes, lifecycle and volumeMounts. In a
// kubectl dump they are most of the bytes.
enum class Unread { kKeep, kLeaveOut };

// Removes from value (an item's root) what Unread::kLeaveOut leaves out while parsing.
void EraseUnread(Json& value);

// Parses whole[begin, end), one JSON value that sits inside `depth` open containers of whole (a List's item: 2),
// with ParseJsonText's depth limit and messages (positions count from the start of whole).
Json ParseJsonValue(std::string_view whole, std::size_t begin, std::size_t end, int depth, Unread unread);
// ParseJsonValue into out, written over the value out holds and reusing its strings and containers: a List's items
// parsed in turn into one tree allocate little once the first few are read (most items are alike), and are not
// freed one by one. out ends as ParseJsonValue's value; on an error (thrown) it holds a part of it.
void ParseJsonValueInto(std::string_view whole, std::size_t begin, std::size_t end, int depth, Unread unread,
                        Json& out);

// Frees a parsed value, leaving null: each container's members first, then the container. (nlohmann's destructor
// first moves every descendant of a container into a stack of its own, which cost as much again as freeing them: a
// sixth of reading a List's items.) Recursive: for values at most kMaxJsonDepth deep, as parsed ones are.
void ReleaseJson(Json& value);

// ParseJsonValue's fast path for text that is one value in the API server's shape (strict JSON, integer numbers):
// true with out set (written over what it held, as ParseJsonValueInto does), or false when it gives up (the value
// may still be valid: ParseJsonValue then parses it with nlohmann). Whatever it accepts, nlohmann builds identically.
bool TryParseJsonFast(std::string_view text, int depth, Unread unread, Json& out);

// Throws what ParseJsonDocuments(text) would throw for the first syntax error, or the depth limit, in text;
// returns when there is none. Builds nothing.
void CheckJsonSyntax(std::string_view text);

// The byte ranges of the JSON values ParseJsonDocuments(text) parses one by one.
std::vector<std::pair<std::size_t, std::size_t>> JsonDocumentRanges(std::string_view text);

// One or more JSON values one after another (concatenated `kubectl get -o json` outputs, JSON Lines), as the
// API machinery's streaming decoder reads them; positions in errors count from the start of text.
std::vector<Json> ParseJsonDocuments(std::string_view text);

// The end of the JSON value starting at t[i] (brackets matched outside strings; a scalar runs to a delimiter), or
// npos when it does not end or nests deeper than max_depth. Values are not validated: parsing them does that.
std::size_t JsonValueEnd(std::string_view t, std::size_t i, int max_depth);

// The byte ranges [begin, end) of a plain List's items and of the items array itself ([ ... ]), found by a linear
// scan that skips strings; nullopt when the text is not simply an object with one "items" array (the caller then
// parses the whole text). Values are not validated: parsing them does that.
struct ListLayout {
  std::size_t items_begin = 0, items_end = 0;
  std::vector<std::pair<std::size_t, std::size_t>> elements;
};
std::optional<ListLayout> SplitList(std::string_view text);

// SplitList a slice at a time (the playground reads a 150,000-pod List across frames): each Step scans on until it
// has passed `bytes` more bytes (whole items and members), and returns true once the scan is over; Take() then gives
// SplitList's answer. text must outlive the splitter.
class ListSplitter {
 public:
  explicit ListSplitter(std::string_view text) : t_(text) {}
  bool Step(std::size_t bytes);
  std::optional<ListLayout> Take();
  std::size_t scanned() const { return i_; }  // bytes scanned so far

 private:
  enum State { kStart, kMember, kItem, kDone, kFailed };
  bool Fail() {
    state_ = kFailed;
    return true;
  }
  // After a member's value: the next member, or the end of the List (nothing but space after it).
  void AfterMember();
  std::string_view t_;
  State state_ = kStart;
  std::size_t i_ = 0;
  bool have_items_ = false;
  ListLayout layout_;
};

}  // namespace kplace::io
