#include "core/io/json_text.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "core/io/json_text_internal.h"
#include "core/io/utf8.h"

namespace kplace::io {

const std::vector<UnreadNode>& UnreadTree() {
  static const std::vector<UnreadNode> tree = [] {
    std::vector<UnreadNode> t(1);
    auto add = [&t](std::initializer_list<std::string_view> path) {
      int at = 0;
      for (std::string_view key : path) {
        int found = t[static_cast<std::size_t>(at)].Find(key);
        if (found < 0) {
          found = static_cast<int>(t.size());
          t.emplace_back();
          t[static_cast<std::size_t>(at)].next.emplace_back(std::string(key), found);
        }
        at = found;
      }
      t[static_cast<std::size_t>(at)].leave_out = true;
    };
    add({"metadata", "managedFields"});
    add({"metadata", "annotations", "kubectl.kubernetes.io/last-applied-configuration"});
    for (std::string_view k : {"containerStatuses", "initContainerStatuses", "ephemeralContainerStatuses", "nodeInfo",
                               "addresses", "daemonEndpoints", "volumesAttached", "volumesInUse"})
      add({"status", k});
    for (std::string_view containers : {"containers", "initContainers", "ephemeralContainers"})
      for (std::string_view k : {"env", "envFrom", "command", "args", "livenessProbe", "readinessProbe", "startupProbe",
                                 "lifecycle", "volumeMounts"}) {
        add({"spec", containers, "*", k});
        add({"spec", "template", "spec", containers, "*", k});
      }
    return t;
  }();
  return tree;
}

namespace {

constexpr std::size_t kNone = std::string_view::npos;

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::size_t SkipSpace(std::string_view t, std::size_t i) {
  while (i < t.size() && IsSpace(t[i])) ++i;
  return i;
}

// Bit tricks on 8 bytes read as one little-endian word: the bytes of w equal to c get their high bit set. The lowest
// flagged byte is exact; a byte above it may be flagged wrongly (a borrow), so a nonzero result says one exists.
constexpr std::uint64_t kOnes = 0x0101010101010101u;
constexpr std::uint64_t kHighs = 0x8080808080808080u;
constexpr std::uint64_t BytesEqualTo(std::uint64_t w, unsigned char c) {
  const std::uint64_t x = w ^ (kOnes * c);
  return (x - kOnes) & ~x & kHighs;
}

// The first '"' in [p, end), or nullptr. Most strings of an item are short: their first 16 bytes are tested a word at
// a time in place before memchr, a call whose setup costs more than a short string in WebAssembly.
const char* FindQuote(const char* p, const char* end) {
  if constexpr (std::endian::native == std::endian::little) {
    for (int k = 0; k < 2 && end - p >= 8; ++k, p += 8) {
      std::uint64_t w;
      std::memcpy(&w, p, sizeof w);
      if (const std::uint64_t m = BytesEqualTo(w, '"')) return p + std::countr_zero(m) / 8;
    }
  }
  return static_cast<const char*>(std::memchr(p, '"', static_cast<std::size_t>(end - p)));
}

// t[i] is '"': the index just past the closing quote (one preceded by an even number of backslashes).
std::size_t SkipString(std::string_view t, std::size_t i) {
  const char* const begin = t.data();
  const char* const end = begin + t.size();
  const char* p = begin + i + 1;
  while (true) {
    const char* q = FindQuote(p, end);
    if (!q) return std::string_view::npos;
    std::size_t backslashes = 0;
    for (const char* b = q; b > p && b[-1] == '\\'; --b) ++backslashes;
    if (backslashes % 2 == 0) return static_cast<std::size_t>(q - begin) + 1;
    p = q + 1;
  }
}

// The fast path for what the API server prints: strict JSON, built straight into a Json (a quarter of nlohmann's
// lexer's time on a kubectl dump). It gives up (false) on anything else: integers of more than 18 digits, numbers of
// 64 characters or more, numbers out of a double's range, \u escapes of surrogates, nesting near the depth limit and
// every error. The caller then parses with nlohmann, which builds the same value or reports the error in its words; so
// whatever this accepts, nlohmann accepts and builds identically (tests/io/json_text_test.cpp checks it on mutated
// inputs).
class FastParser {
 public:
  FastParser(std::string_view text, int open, Unread unread)
      : p_(text.data()),
        end_(text.data() + text.size()),
        open_(open),
        root_rule_(unread == Unread::kLeaveOut ? 0 : -1) {}

  bool Parse(Json& out) {
    SkipSpace();
    if (!Value(&out, root_rule_)) return false;
    SkipSpace();
    return p_ == end_;
  }

 private:
  void SkipSpace() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  bool Literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }
  static int Hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  // Whether any of the 8 bytes at p ends a run of plain ASCII in a string: a quote, a backslash, a control
  // character or a byte of a multi-byte UTF-8 sequence (bit tricks on one 64-bit word: a byte is zero, a byte is
  // below 0x20, a high bit set; exact about whether one exists, not which).
  static bool EndsPlainRun(const char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, sizeof w);
    const std::uint64_t control = (w - kOnes * 0x20) & ~w & kHighs;
    return (BytesEqualTo(w, '"') | BytesEqualTo(w, '\\') | control | (w & kHighs)) != 0;
  }
  // p_ is just past the opening quote; out (when given) gets the string. Runs are appended by pointer and length:
  // libc++'s append of an iterator range copies byte by byte (the page's core).
  bool String(std::string* out) {
    const char* run = p_;  // the start of bytes not yet appended
    while (true) {
      while (end_ - p_ >= 8 && !EndsPlainRun(p_)) p_ += 8;
      while (p_ < end_) {  // plain ASCII
        const auto c = static_cast<unsigned char>(*p_);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++p_;
      }
      if (p_ >= end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        if (out) out->append(run, static_cast<std::size_t>(p_ - run));
        ++p_;
        return true;
      }
      if (c < 0x20) return false;
      if (c >= 0x80) {
        const std::size_t len = Utf8SequenceLength(std::string_view(p_, static_cast<std::size_t>(end_ - p_)), 0);
        if (len == 0) return false;
        p_ += len;
        continue;
      }
      // An escape.
      if (out) out->append(run, static_cast<std::size_t>(p_ - run));
      if (end_ - p_ < 2) return false;
      const char e = p_[1];
      p_ += 2;
      char plain = 0;
      switch (e) {
        case '"':
          plain = '"';
          break;
        case '\\':
          plain = '\\';
          break;
        case '/':
          plain = '/';
          break;
        case 'b':
          plain = '\b';
          break;
        case 'f':
          plain = '\f';
          break;
        case 'n':
          plain = '\n';
          break;
        case 'r':
          plain = '\r';
          break;
        case 't':
          plain = '\t';
          break;
        case 'u': {
          if (end_ - p_ < 4) return false;
          int code = 0;
          for (int k = 0; k < 4; ++k) {
            const int h = Hex(p_[k]);
            if (h < 0) return false;
            code = code * 16 + h;
          }
          p_ += 4;
          if (code >= 0xD800 && code <= 0xDFFF) return false;  // surrogates: nlohmann's rules
          if (out) {
            if (code < 0x80) {
              *out += static_cast<char>(code);
            } else if (code < 0x800) {
              *out += static_cast<char>(0xC0 | (code >> 6));
              *out += static_cast<char>(0x80 | (code & 0x3F));
            } else {
              *out += static_cast<char>(0xE0 | (code >> 12));
              *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
              *out += static_cast<char>(0x80 | (code & 0x3F));
            }
          }
          run = p_;
          continue;
        }
        default:
          return false;
      }
      if (out) *out += plain;
      run = p_;
    }
  }
  bool Number(Json* out) {
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    const char* digits = p_;
    if (p_ >= end_ || *p_ < '0' || *p_ > '9') return false;
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ < end_ && *p_ >= '0' && *p_ <= '9') return false;  // a leading zero
    if (p_ < end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return Float(digits - (negative ? 1 : 0), out);
    if (p_ - digits > 18) return false;
    std::uint64_t v = 0;
    for (const char* d = digits; d < p_; ++d) v = v * 10 + static_cast<std::uint64_t>(*d - '0');
    if (out) {
      if (negative)
        *out = Json(-static_cast<std::int64_t>(v));
      else
        *out = Json(v);
    }
    return true;
  }
  // The fraction and exponent of a number that starts at begin, p_ past its integer digits. nlohmann's lexer hands the
  // number's text to strtod and its parser refuses a result that is not finite ("number overflow"); strtod rounds
  // correctly in glibc and Emscripten's musl, so the value is the one nlohmann builds (json_text_test checks).
  bool Float(const char* begin, Json* out) {
    auto digits = [this] {
      const char* from = p_;
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
      return p_ > from;
    };
    if (*p_ == '.') {
      ++p_;
      if (!digits()) return false;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (!digits()) return false;
    }
    char token[64];  // strtod needs a terminated copy; longer numbers are rare enough for nlohmann
    const auto size = static_cast<std::size_t>(p_ - begin);
    if (size >= sizeof token) return false;
    std::memcpy(token, begin, size);
    token[size] = '\0';
    const double v = std::strtod(token, nullptr);
    if (!std::isfinite(v)) return false;
    if (out) *out = Json(v);
    return true;
  }
  // The value at p_ into *out (nullptr: checked, not built), written over what *out holds and reusing its storage:
  // a null for a fresh value, the previous item of a List when one tree takes the items in turn (ParseJsonValueInto);
  // the result is the value a fresh parse builds. rule: its node in UnreadTree(), or -1.
  bool Value(Json* out, int rule) {
    if (p_ >= end_) return false;
    switch (*p_) {
      case '{': {
        if (open_ >= kMaxJsonDepth) return false;
        ++open_;
        ++p_;
        if (out && !out->is_object()) *out = Json(Json::value_t::object);
        Json::object_t* object = out ? &out->get_ref<Json::object_t&>() : nullptr;
        const UnreadNode* node = rule >= 0 ? &UnreadTree()[static_cast<std::size_t>(rule)] : nullptr;
        // Members are written over the object's own, in document order: the value out held before (the previous
        // item of a List) lends its strings and containers (see Refill).
        std::size_t filled = 0;
        SkipSpace();
        if (p_ < end_ && *p_ == '}') {
          ++p_;
          --open_;
          if (object) object->DropFrom(0);
          return true;
        }
        while (true) {
          if (p_ >= end_ || *p_ != '"') return false;
          ++p_;
          std::string* key = nullptr;
          Json* value = nullptr;
          if (object) {
            auto& member = object->Refill(filled);
            key = &member.first;
            value = &member.second;
            key->clear();
          }
          if (!String(key)) return false;
          SkipSpace();
          if (p_ >= end_ || *p_ != ':') return false;
          ++p_;
          SkipSpace();
          int next = -1;
          bool leave_out = !object;
          if (node && !leave_out) {
            next = node->Find(*key);
            if (next >= 0) leave_out = UnreadTree()[static_cast<std::size_t>(next)].leave_out;
          }
          if (leave_out) {
            if (!Value(nullptr, -1)) return false;  // the member's slot is written over by the next key, or dropped
          } else {
            // Sorted when the object closes; a repeated key's value is replaced, as nlohmann's parser does.
            if (!Value(value, next)) return false;
            ++filled;
          }
          SkipSpace();
          if (p_ < end_ && *p_ == ',') {
            ++p_;
            SkipSpace();
            continue;
          }
          if (p_ < end_ && *p_ == '}') {
            ++p_;
            --open_;
            if (object) {
              object->DropFrom(filled);
              object->SortAppended();
            }
            return true;
          }
          return false;
        }
      }
      case '[': {
        if (open_ >= kMaxJsonDepth) return false;
        ++open_;
        ++p_;
        if (out && !out->is_array()) *out = Json(Json::value_t::array);
        Json::array_t* array = out ? &out->get_ref<Json::array_t&>() : nullptr;
        int element_rule = -1;
        if (rule >= 0) {
          element_rule = UnreadTree()[static_cast<std::size_t>(rule)].Find("*");
        }
        std::size_t filled = 0;  // elements written over the array's own, as an object's members are
        SkipSpace();
        if (p_ < end_ && *p_ == ']') {
          ++p_;
          --open_;
          if (array) array->erase(array->begin(), array->end());
          return true;
        }
        while (true) {
          if (array) {
            if (filled == array->size()) array->emplace_back();
            if (!Value(&(*array)[filled], element_rule)) return false;
            ++filled;
          } else if (!Value(nullptr, -1)) {
            return false;
          }
          SkipSpace();
          if (p_ < end_ && *p_ == ',') {
            ++p_;
            SkipSpace();
            continue;
          }
          if (p_ < end_ && *p_ == ']') {
            ++p_;
            --open_;
            if (array) array->erase(array->begin() + static_cast<std::ptrdiff_t>(filled), array->end());
            return true;
          }
          return false;
        }
      }
      case '"': {
        ++p_;
        if (!out) return String(nullptr);
        if (!out->is_string()) *out = Json(Json::value_t::string);
        std::string& text = out->get_ref<std::string&>();
        text.clear();
        return String(&text);
      }
      case 't':
        if (!Literal("true")) return false;
        if (out) *out = true;
        return true;
      case 'f':
        if (!Literal("false")) return false;
        if (out) *out = false;
        return true;
      case 'n':
        if (!Literal("null")) return false;
        if (out) *out = nullptr;
        return true;
      default:
        return Number(out);
    }
  }

  const char* p_;
  const char* end_;
  int open_;
  int root_rule_;
};

}  // namespace

void CheckInputSize(std::size_t bytes) {
  if (bytes > kMaxInputBytes)
    throw InputError(
        "input is " + std::to_string(bytes) + " bytes; kplace reads at most " + std::to_string(kMaxInputBytes) +
        " (1 GiB): list only the kinds it simulates (kubectl get "
        "nodes,namespaces,pods,daemonsets,replicasets,statefulsets,jobs,poddisruptionbudgets,"
        "priorityclasses -A -o json) or print them unindented (kubectl get --raw, about a third the size)");
}

std::size_t JsonValueEnd(std::string_view t, std::size_t i, int max_depth) {
  if (i >= t.size()) return kNone;
  if (t[i] == '"') return SkipString(t, i);
  if (t[i] != '{' && t[i] != '[') {
    while (i < t.size() && !IsSpace(t[i]) && t[i] != ',' && t[i] != ']' && t[i] != '}') ++i;
    return i;
  }
  int depth = 0;
  for (; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '"') {
      i = SkipString(t, i);
      if (i == kNone) return kNone;
      --i;
    } else if (c == '{' || c == '[') {
      if (++depth > max_depth) return kNone;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    }
  }
  return kNone;
}

std::vector<std::pair<std::size_t, std::size_t>> JsonDocumentRanges(std::string_view text) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  std::size_t i = SkipSpace(text, 0);
  if (i == text.size()) return {{0, text.size()}};  // empty: the parser's own error
  while (i < text.size()) {
    // Containers are split by a scan; a scalar, or a container the scan cannot end, is parsed with the rest of
    // the text so the parser reports the error where it is.
    // Only a container followed by another container splits: anything else is parsed to the end of the text, so
    // trailing garbage gets the parser's own "expected end of input".
    std::size_t end =
        text[i] == '{' || text[i] == '[' ? JsonValueEnd(text, i, kMaxJsonDepth + 1) : std::string_view::npos;
    if (end != std::string_view::npos) {
      const std::size_t next = SkipSpace(text, end);
      if (next == text.size() || (text[next] != '{' && text[next] != '[')) end = std::string_view::npos;
    }
    if (end == std::string_view::npos) end = text.size();
    ranges.emplace_back(i, end);
    i = SkipSpace(text, end);
  }
  return ranges;
}

namespace {

void EraseUnreadAt(Json& v, int rule) {
  const UnreadNode& node = UnreadTree()[static_cast<std::size_t>(rule)];
  if (v.is_array()) {
    if (const int element_rule = node.Find("*"); element_rule >= 0)
      for (Json& e : v) EraseUnreadAt(e, element_rule);
    return;
  }
  if (!v.is_object()) return;
  for (const auto& [key, next] : node.next) {
    auto it = v.find(key);
    if (it == v.end()) continue;
    if (UnreadTree()[static_cast<std::size_t>(next)].leave_out)
      v.erase(it);
    else
      EraseUnreadAt(*it, next);
  }
}

}  // namespace

void EraseUnread(Json& value) { EraseUnreadAt(value, 0); }

void ReleaseJson(Json& value) {
  if (value.is_object()) {
    auto& members = value.get_ref<Json::object_t&>();
    for (auto& member : members) ReleaseJson(member.second);
    members.clear();
  } else if (value.is_array()) {
    auto& elements = value.get_ref<Json::array_t&>();
    for (Json& element : elements) ReleaseJson(element);
    elements.clear();
  }
  value = nullptr;
}

bool TryParseJsonFast(std::string_view text, int depth, Unread unread, Json& out) {
  return FastParser(text, depth, unread).Parse(out);
}

Json ParseJsonValue(std::string_view whole, std::size_t begin, std::size_t end, int depth, Unread unread) {
  Json value;
  ParseJsonValueInto(whole, begin, end, depth, unread, value);
  return value;
}

void ParseJsonValueInto(std::string_view whole, std::size_t begin, std::size_t end, int depth, Unread unread,
                        Json& out) {
  if (TryParseJsonFast(whole.substr(begin, end - begin), depth, unread, out)) return;
  out = ParseJsonValueWithNlohmann(whole, begin, end, depth, unread);  // over what the fast path half wrote
}

bool ListSplitter::Step(std::size_t bytes) {
  // Items sit two levels down (the List, its items array); keep well inside the depth limit.
  constexpr int kMaxDepth = kMaxJsonDepth - 4;
  const std::string_view t = t_;
  const std::size_t limit = bytes >= t.size() - std::min(i_, t.size()) ? t.size() : i_ + bytes;
  // At the end of the text the next turn fails: the scan never stops short of an answer there.
  while (state_ != kDone && state_ != kFailed && (i_ < limit || i_ >= t.size() || state_ == kStart)) {
    std::size_t& i = i_;
    if (state_ == kStart) {
      i = SkipSpace(t, 0);
      if (i >= t.size() || t[i] != '{') return Fail();
      i = SkipSpace(t, i + 1);
      if (i < t.size() && t[i] == '}') return Fail();  // no items
      state_ = kMember;
    } else if (state_ == kMember) {
      if (i >= t.size() || t[i] != '"') return Fail();
      const std::size_t key_end = SkipString(t, i);
      if (key_end == kNone) return Fail();
      const std::string_view key = t.substr(i + 1, key_end - i - 2);
      if (key.find('\\') != std::string_view::npos) return Fail();  // an escaped key might spell "items"
      i = SkipSpace(t, key_end);
      if (i >= t.size() || t[i] != ':') return Fail();
      i = SkipSpace(t, i + 1);
      if (key == "items") {
        if (have_items_ || i >= t.size() || t[i] != '[') return Fail();  // a repeated key: the last one wins
        have_items_ = true;
        layout_.items_begin = i;
        i = SkipSpace(t, i + 1);
        if (i < t.size() && t[i] == ']') {
          layout_.items_end = ++i;
          AfterMember();
        } else {
          state_ = kItem;
        }
      } else {
        i = JsonValueEnd(t, i, kMaxDepth);
        if (i == kNone) return Fail();
        AfterMember();
      }
    } else {  // kItem
      const std::size_t end = JsonValueEnd(t, i, kMaxDepth);
      if (end == kNone || end == i) return Fail();
      layout_.elements.emplace_back(i, end);
      i = SkipSpace(t, end);
      if (i < t.size() && t[i] == ',') {
        i = SkipSpace(t, i + 1);
      } else if (i < t.size() && t[i] == ']') {
        layout_.items_end = ++i;
        AfterMember();
      } else {
        return Fail();
      }
    }
  }
  return state_ == kDone || state_ == kFailed;
}

void ListSplitter::AfterMember() {
  const std::string_view t = t_;
  i_ = SkipSpace(t, i_);
  if (i_ < t.size() && t[i_] == ',') {
    i_ = SkipSpace(t, i_ + 1);
    state_ = kMember;
  } else if (i_ < t.size() && t[i_] == '}') {
    state_ = have_items_ && SkipSpace(t, i_ + 1) == t.size() ? kDone : kFailed;
  } else {
    state_ = kFailed;
  }
}

std::optional<ListLayout> ListSplitter::Take() {
  if (state_ != kDone) return std::nullopt;
  state_ = kFailed;  // taken
  return std::move(layout_);
}

std::optional<ListLayout> SplitList(std::string_view t) {
  ListSplitter splitter(t);
  while (!splitter.Step(t.size())) {
  }
  return splitter.Take();
}

}  // namespace kplace::io
