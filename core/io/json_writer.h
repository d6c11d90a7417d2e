// JSON text written as it is produced, byte for byte what nlohmann's dump() prints for the same tree (members in
// key order, its indentation, escapes and number formats) without building the tree: a result with 4,000
// NodeClaims of 300 instance type options each is 160 MB of text and was five times that as a tree.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/json_reader.h"

namespace kplace::io {

class JsonWriter {
 public:
  // Appends to out. indent < 0: compact, as Json::dump(); otherwise pretty, as Json::dump(indent).
  explicit JsonWriter(std::string& out, int indent = -1) : out_(out), indent_(indent) {}
  // With a sink: out is handed to the sink and emptied whenever a container closes with kChunk bytes or more in
  // it, and by Flush(), so a large document never sits in memory whole.
  using Sink = std::function<void(std::string_view)>;
  static constexpr std::size_t kChunk = std::size_t{1} << 20;
  JsonWriter(std::string& out, int indent, Sink sink) : out_(out), indent_(indent), sink_(std::move(sink)) {}
  // A value to be placed `level` containers deep in a larger document (Raw): its lines indent as they would there.
  JsonWriter(std::string& out, int indent, std::size_t level) : out_(out), indent_(indent), level_(level) {}
  void Flush();
  // How deep the next value sits in the document: the level a JsonWriter writing it for Raw is made with.
  std::size_t Level() const { return level_ + depth_; }
  int Indent() const { return indent_; }
  // The next value as text a JsonWriter(out, Indent(), Level()) wrote: one value, complete (a value written once and
  // placed where it repeats).
  void Raw(std::string_view text);

  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  // The next member's name. A Json object keeps its members sorted by name (SortedObject), so they must come in that
  // order: a name not after the previous one throws std::logic_error rather than print a different document.
  JsonWriter& Key(std::string_view name);

  void String(std::string_view s);
  void Int(std::int64_t v);
  void Unsigned(std::uint64_t v);
  void Double(double v);  // not finite: null, as nlohmann prints it
  void Bool(bool v);
  void Null();
  void Value(const Json& v);                        // a whole tree
  void Strings(const std::vector<std::string>& v);  // an array of strings

  // Shorthands for one member.
  void Member(std::string_view name, std::string_view s) { Key(name).String(s); }
  void Member(std::string_view name, const char* s) { Key(name).String(s); }
  void Member(std::string_view name, const std::string& s) { Key(name).String(s); }
  void Member(std::string_view name, int v) { Key(name).Int(v); }
  void Member(std::string_view name, std::int64_t v) { Key(name).Int(v); }
  void Member(std::string_view name, std::size_t v) { Key(name).Unsigned(v); }
  void Member(std::string_view name, double v) { Key(name).Double(v); }
  void Member(std::string_view name, bool v) { Key(name).Bool(v); }
  void Member(std::string_view name, const std::vector<std::string>& v) { Key(name).Strings(v); }

 private:
  struct Frame {
    bool object = false;
    std::size_t count = 0;
    std::string last_key;
    bool keyed = false;  // Key() was called and its value has not been written
  };
  // Text gathers in stage_ and reaches out_ a few KB at a time (appending to out_ byte by byte cost a call per byte in
  // WebAssembly, where libc++'s string members are not inlined); out_ has all of it whenever no container is open,
  // and after Flush().
  static constexpr std::size_t kStage = 4096;
  void Put(char c) {
    if (staged_ == kStage) Spill();
    stage_[staged_++] = c;
  }
  void Put(std::string_view s) {
    if (s.size() > kStage - staged_) return PutLong(s);
    std::memcpy(stage_ + staged_, s.data(), s.size());
    staged_ += s.size();
  }
  void PutLong(std::string_view s);
  void Spill();
  void Written() {  // after a value: a document that is one scalar is complete
    if (depth_ == 0) Spill();
  }
  void BeforeValue();  // the separator and indentation before a value (after a Key, nothing)
  void NewLine(std::size_t level);
  void End(bool object, char close);
  void Escaped(std::string_view s);  // a string literal: quotes and nlohmann's escapes
  // Key() without its checks, for names known to come in order inside an open object (a Json object's own).
  JsonWriter& SortedKey(std::string_view name);

  std::string& out_;
  int indent_;
  std::size_t level_ = 0;  // containers around the document (see the constructor with a level)
  Sink sink_;
  // The text of recently printed doubles (prices repeat across NodeClaims' options): direct-mapped by bit pattern.
  // The text is copied out 32 bytes at a time (a fixed-size copy is two moves; one of a variable size was a
  // `rep movs` costing more than the rest of Double), so size sits after it in the same 32 bytes' reach.
  struct DoubleText {
    std::uint64_t bits = 0;
    char text[31];
    std::uint8_t size = 0;  // 0: empty
  };
  std::unique_ptr<DoubleText[]> doubles_;
  std::vector<Frame> stack_;
  std::size_t depth_ = 0;  // open containers (stack_ keeps its frames for reuse)
  std::size_t staged_ = 0;
  char stage_[kStage];
};

}  // namespace kplace::io
