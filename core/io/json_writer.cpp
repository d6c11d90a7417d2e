#include "core/io/json_writer.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "core/io/utf8.h"

namespace kplace::io {

void JsonWriter::NewLine(std::size_t level) {
  static constexpr std::string_view kLine =
      "\n                                                                                               ";
  std::size_t n = level * static_cast<std::size_t>(indent_);
  if (n < kLine.size()) return Put(kLine.substr(0, n + 1));  // the usual case: one copy
  Put(kLine);
  for (n -= kLine.size() - 1; n > 0;) {
    const std::size_t part = std::min(n, kLine.size() - 1);
    Put(kLine.substr(1, part));
    n -= part;
  }
}

void JsonWriter::Spill() {
  out_.append(stage_, staged_);
  staged_ = 0;
}

void JsonWriter::PutLong(std::string_view s) {
  Spill();
  if (s.size() >= kStage) {
    out_.append(s);
    return;
  }
  std::memcpy(stage_, s.data(), s.size());
  staged_ = s.size();
}

void JsonWriter::BeforeValue() {
  if (depth_ == 0) return;
  Frame& f = stack_[depth_ - 1];
  if (f.object) {
    if (!f.keyed) throw std::logic_error("JsonWriter: an object member without a name");
    f.keyed = false;
    return;
  }
  if (f.count++ > 0) Put(',');
  if (indent_ >= 0) NewLine(level_ + depth_);
}

JsonWriter& JsonWriter::Key(std::string_view name) {
  if (depth_ == 0 || !stack_[depth_ - 1].object || stack_[depth_ - 1].keyed)
    throw std::logic_error("JsonWriter: a member name outside an object");
  Frame& f = stack_[depth_ - 1];
  // Json objects keep members sorted (SortedObject): they print in name order, each name once.
  if (f.count > 0 && !(std::string_view(f.last_key) < name))
    throw std::logic_error("JsonWriter: member \"" + std::string(name) + "\" after \"" + f.last_key + "\"");
  f.last_key.assign(name);
  return SortedKey(name);
}

JsonWriter& JsonWriter::SortedKey(std::string_view name) {
  Frame& f = stack_[depth_ - 1];
  if (f.count++ > 0) Put(',');
  if (indent_ >= 0) NewLine(level_ + depth_);
  Escaped(name);
  Put(indent_ >= 0 ? ": " : ":");
  f.keyed = true;
  return *this;
}

void JsonWriter::BeginObject() {
  BeforeValue();
  Put('{');
  if (stack_.size() == depth_) stack_.emplace_back();
  Frame& f = stack_[depth_++];
  f.object = true;
  f.count = 0;
  f.keyed = false;
}

void JsonWriter::BeginArray() {
  BeforeValue();
  Put('[');
  if (stack_.size() == depth_) stack_.emplace_back();
  Frame& f = stack_[depth_++];
  f.object = false;
  f.count = 0;
  f.keyed = false;
}

void JsonWriter::End(bool object, char close) {
  if (depth_ == 0 || stack_[depth_ - 1].object != object || stack_[depth_ - 1].keyed)
    throw std::logic_error("JsonWriter: unbalanced end");
  const std::size_t count = stack_[--depth_].count;
  if (count > 0 && indent_ >= 0) NewLine(level_ + depth_);
  Put(close);
  if (depth_ == 0) Spill();
  if (sink_ && out_.size() + staged_ >= kChunk) Flush();
}

void JsonWriter::Flush() {
  Spill();
  if (!sink_ || out_.empty()) return;
  sink_(out_);
  out_.clear();
}

void JsonWriter::Raw(std::string_view text) {
  BeforeValue();
  Put(text);
  Written();
}

void JsonWriter::EndObject() { End(true, '}'); }
void JsonWriter::EndArray() { End(false, ']'); }

void JsonWriter::String(std::string_view s) {
  BeforeValue();
  Escaped(s);
  Written();
}

namespace {

// The bytes Escaped copies as they are: printable ASCII but '"' and '\\' (one table load per byte in the scan).
constexpr std::array<bool, 256> kPlainByte = [] {
  std::array<bool, 256> t{};
  for (int b = 0x20; b < 0x80; ++b) t[static_cast<std::size_t>(b)] = b != '"' && b != '\\';
  return t;
}();

}  // namespace

void JsonWriter::Escaped(std::string_view s) {
  Put('"');
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < s.size();) {
    while (i < s.size() && kPlainByte[static_cast<unsigned char>(s[i])]) ++i;
    if (i == s.size()) break;
    const auto b = static_cast<unsigned char>(s[i]);
    if (b >= 0x80) {
      const std::size_t len = Utf8SequenceLength(s, i);
      if (len == 0) {  // nlohmann's own error for invalid UTF-8 (type_error 316)
        Spill();
        out_.resize(out_.size() - 1);
        (void)Json(std::string(s)).dump();
        throw std::logic_error("JsonWriter: invalid UTF-8");  // not reached: dump() threw
      }
      i += len;
      continue;
    }
    Put(s.substr(run, i - run));
    switch (b) {
      case '"':
        Put("\\\"");
        break;
      case '\\':
        Put("\\\\");
        break;
      case 0x08:
        Put("\\b");
        break;
      case 0x09:
        Put("\\t");
        break;
      case 0x0A:
        Put("\\n");
        break;
      case 0x0C:
        Put("\\f");
        break;
      case 0x0D:
        Put("\\r");
        break;
      default: {  // other control characters: \u00xx, lower-case hex as nlohmann prints them
        static constexpr char kHex[] = "0123456789abcdef";
        Put("\\u00");
        Put(kHex[b >> 4]);
        Put(kHex[b & 0xF]);
      }
    }
    run = ++i;
  }
  Put(s.substr(run));
  Put('"');
}

void JsonWriter::Int(std::int64_t v) {
  BeforeValue();
  std::array<char, 24> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  Put(std::string_view(buf.data(), static_cast<std::size_t>(r.ptr - buf.data())));
  Written();
}

void JsonWriter::Unsigned(std::uint64_t v) {
  BeforeValue();
  std::array<char, 24> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  Put(std::string_view(buf.data(), static_cast<std::size_t>(r.ptr - buf.data())));
  Written();
}

void JsonWriter::Double(double v) {
  BeforeValue();
  if (!std::isfinite(v)) {
    Put("null");
    Written();
    return;
  }
  constexpr unsigned kBits = 12;
  if (!doubles_) doubles_ = std::make_unique<DoubleText[]>(std::size_t{1} << kBits);
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  DoubleText& cached = doubles_[(bits * 0x9E3779B97F4A7C15ull) >> (64 - kBits)];
  if (cached.size == 0 || cached.bits != bits) {
    // nlohmann's shortest round-trip form (grisu2 and its exponent rules), the function its serializer calls.
    std::array<char, 64> buf{};
    const char* end = nlohmann::detail::to_chars(buf.data(), buf.data() + buf.size(), v);
    const auto size = static_cast<std::size_t>(end - buf.data());
    if (size >= sizeof cached.text) {
      Put(std::string_view(buf.data(), size));
      Written();
      return;
    }
    cached.bits = bits;
    cached.size = static_cast<std::uint8_t>(size);
    std::memcpy(cached.text, buf.data(), size);
  }
  if (kStage - staged_ < 32) Spill();
  static_assert(offsetof(DoubleText, size) == offsetof(DoubleText, text) + 31);
  std::memcpy(stage_ + staged_, reinterpret_cast<const char*>(&cached) + offsetof(DoubleText, text), 32);
  staged_ += cached.size;
  Written();
}

void JsonWriter::Bool(bool v) {
  BeforeValue();
  Put(v ? "true" : "false");
  Written();
}

void JsonWriter::Null() {
  BeforeValue();
  Put("null");
  Written();
}

void JsonWriter::Strings(const std::vector<std::string>& v) {
  BeginArray();
  for (const auto& s : v) String(s);
  EndArray();
}

void JsonWriter::Value(const Json& v) {
  switch (v.type()) {
    case Json::value_t::object:
      BeginObject();
      for (auto it = v.begin(); it != v.end(); ++it) {
        SortedKey(it.key());  // a Json object's keys (SortedObject): in order, each once
        Value(it.value());
      }
      EndObject();
      return;
    case Json::value_t::array:
      BeginArray();
      for (const auto& e : v) Value(e);
      EndArray();
      return;
    case Json::value_t::string:
      String(v.get_ref<const std::string&>());
      return;
    case Json::value_t::boolean:
      Bool(v.get<bool>());
      return;
    case Json::value_t::number_integer:
      Int(v.get<std::int64_t>());
      return;
    case Json::value_t::number_unsigned:
      Unsigned(v.get<std::uint64_t>());
      return;
    case Json::value_t::number_float:
      Double(v.get<double>());
      return;
    case Json::value_t::null:
      Null();
      return;
    case Json::value_t::discarded:
    case Json::value_t::binary:
      break;
  }
  BeforeValue();
  Put(v.dump());
  Written();
}

}  // namespace kplace::io
