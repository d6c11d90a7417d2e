#include "core/io/json_text.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>

#include "core/io/utf8.h"

namespace kplace::io {
namespace {

constexpr std::size_t kNone = std::string_view::npos;

// Lines and columns for an error at byte offset pos.
std::pair<std::size_t, std::size_t> LineColumn(std::string_view text, std::size_t pos) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

// nlohmann's "last read" excerpt may hold the invalid UTF-8 it complains about: keep valid sequences, write
// every other byte >= 0x80 as <0xNN> so the message itself is valid UTF-8.
std::string ValidUtf8(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = Utf8SequenceLength(s, i);
    if (len > 0) {
      out.append(s, i, len);
      i += len;
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      const auto b = static_cast<unsigned char>(s[i]);
      out += "<0x";
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
      out += '>';
      ++i;
    }
  }
  return out;
}

// Byte offset of the first number token equal to token outside JSON strings.
std::optional<std::size_t> FindNumberToken(std::string_view text, std::string_view token) {
  auto number_char = [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  };
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (number_char(c)) {
      std::size_t j = i;
      while (j < text.size() && number_char(text[j])) ++j;
      if (text.substr(i, j - i) == token) return i;
      i = j - 1;
    }
  }
  return std::nullopt;
}

// Conservative: false only when the depth callback in ParseJsonText could never fire (it sees a depth above limit
// when a container opens inside `limit` + 1 open ones, or a key or value appears inside that many). Strings are
// skipped as the lexer skips them; anything else outside them counts as a token.
bool MayNestDeeperThan(std::string_view text, int limit) {
  int open = 0;
  bool in_string = false, escape = false;
  for (char c : text) {
    if (in_string) {
      if (escape)
        escape = false;
      else if (c == '\\')
        escape = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '}' || c == ']') {
      if (open > 0) --open;
      continue;
    }
    if (open > limit) return true;
    if (c == '{' || c == '[')
      ++open;
    else if (c == '"')
      in_string = true;
  }
  return false;
}

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::size_t SkipSpace(std::string_view t, std::size_t i) {
  while (i < t.size() && IsSpace(t[i])) ++i;
  return i;
}

// t[i] is '"': the index just past the closing quote (one preceded by an even number of backslashes).
std::size_t SkipString(std::string_view t, std::size_t i) {
  const char* const begin = t.data();
  const char* const end = begin + t.size();
  const char* p = begin + i + 1;
  while (true) {
    const auto* q = static_cast<const char*>(std::memchr(p, '"', static_cast<std::size_t>(end - p)));
    if (!q) return std::string_view::npos;
    std::size_t backslashes = 0;
    for (const char* b = q; b > p && b[-1] == '\\'; --b) ++backslashes;
    if (backslashes % 2 == 0) return static_cast<std::size_t>(q - begin) + 1;
    p = q + 1;
  }
}

struct DepthError {};

// Runs parse() on whole[begin, end) and turns its exceptions into InputErrors in the contract's words; error
// positions count from the start of whole.
template <class Parse>
auto WithJsonErrors(std::string_view whole, std::size_t begin, std::size_t end, Parse parse) -> decltype(parse()) {
  const std::string_view text = whole.substr(begin, end - begin);
  try {
    return parse();
  } catch (const DepthError&) {
    throw InputError("invalid JSON: nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  } catch (const Json::parse_error& e) {
    // e.byte is 1-based and points just past the offending character.
    std::size_t pos = e.byte == 0 ? 0 : e.byte - 1;
    auto [line, col] = LineColumn(whole, begin + pos);
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: " prefix.
    auto colon = what.find(": ");
    if (colon != std::string::npos) what = what.substr(colon + 2);
    throw InputError("invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(col) + ": " +
                     ValidUtf8(what));
  } catch (const Json::exception& e) {
    // out_of_range.406 "number overflow parsing '1e400'" carries no position: the offending number is the first
    // number token outside strings that spells it (everything before it parsed).
    std::string what = e.what();
    auto close = what.find("] ");
    if (close != std::string::npos) what = what.substr(close + 2);
    std::string where;
    auto open_quote = what.find('\'');
    if (open_quote != std::string::npos && what.back() == '\'') {
      std::string token = what.substr(open_quote + 1, what.size() - open_quote - 2);
      if (auto pos = FindNumberToken(text, token)) {
        auto [line, col] = LineColumn(whole, begin + *pos);
        where = " at line " + std::to_string(line) + ", column " + std::to_string(col);
      }
    }
    throw InputError("invalid JSON" + where + ": " + what);
  }
}

// Parses text[begin, end); error positions count from the start of text.
Json ParseJsonRange(std::string_view whole, std::size_t begin, std::size_t end) {
  const std::string_view text = whole.substr(begin, end - begin);
  return WithJsonErrors(whole, begin, end, [&]() {
    // nlohmann's callback parser scans a container's elements after each object ends (json 3.11), quadratic in a
    // List's items: a 150,000-pod kubectl dump took minutes. Only texts that may nest too deep take that path.
    if (!MayNestDeeperThan(text, kMaxJsonDepth)) return Json::parse(text.begin(), text.end());
    return Json::parse(text.begin(), text.end(), [](int depth, Json::parse_event_t, Json&) {
      if (depth > kMaxJsonDepth) throw DepthError{};
      return true;
    });
  });
}

// Unread::kLeaveOut as a tree of keys from an item's root ("*": every element of an array).
struct UnreadNode {
  std::map<std::string, int, std::less<>> next;  // key -> index in the tree
  bool leave_out = false;
};

const std::vector<UnreadNode>& UnreadTree() {
  static const std::vector<UnreadNode> tree = [] {
    std::vector<UnreadNode> t(1);
    auto add = [&t](std::initializer_list<std::string_view> path) {
      int at = 0;
      for (std::string_view key : path) {
        auto it = t[static_cast<std::size_t>(at)].next.find(key);
        if (it == t[static_cast<std::size_t>(at)].next.end()) {
          t.emplace_back();
          it = t[static_cast<std::size_t>(at)].next.emplace(std::string(key), static_cast<int>(t.size() - 1)).first;
        }
        at = it->second;
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

// nlohmann's SAX events -> a Json value, as Json::parse builds it, with ParseJsonText's depth limit and, under
// Unread::kLeaveOut, without the values UnreadTree() names. open_: containers open in the whole text.
class ValueBuilder {
 public:
  ValueBuilder(int depth, Unread unread) : open_(depth), rules_(unread == Unread::kLeaveOut ? 0 : -1) {}
  Json Take() { return std::move(root_); }

  bool null() { return Scalar(nullptr); }
  bool boolean(bool v) { return Scalar(v); }
  bool number_integer(Json::number_integer_t v) { return Scalar(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return Scalar(v); }
  bool number_float(Json::number_float_t v, const std::string&) { return Scalar(v); }
  bool string(std::string& v) { return Scalar(std::move(v)); }
  bool binary(Json::binary_t& v) { return Scalar(std::move(v)); }
  bool start_object(std::size_t) { return Open(Json::value_t::object); }
  bool start_array(std::size_t) { return Open(Json::value_t::array); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(std::string& k) {
    if (open_ > kMaxJsonDepth) throw DepthError{};
    if (skip_ > 0) return true;
    next_rule_ = -1;
    if (const int r = rules_stack_.back(); r >= 0) {
      const auto& node = UnreadTree()[static_cast<std::size_t>(r)];
      if (auto it = node.next.find(k); it != node.next.end()) {
        if (UnreadTree()[static_cast<std::size_t>(it->second)].leave_out) {
          skip_next_ = true;
          return true;
        }
        next_rule_ = it->second;
      }
    }
    slot_ = &stack_.back()->get_ref<Json::object_t&>().AppendUnsorted(std::move(k));  // sorted in Close()
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;
  }

 private:
  // The rule for the value about to be placed: an object's after key(), an array's "*" child.
  int RuleForNext() const {
    if (stack_.empty()) return rules_;
    if (!stack_.back()->is_array()) return next_rule_;
    const int r = rules_stack_.back();
    if (r < 0) return -1;
    const auto& node = UnreadTree()[static_cast<std::size_t>(r)];
    auto it = node.next.find("*");
    return it == node.next.end() ? -1 : it->second;
  }
  Json* Place(Json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    if (stack_.back()->is_array()) {
      stack_.back()->get_ref<Json::array_t&>().push_back(std::move(v));
      return &stack_.back()->get_ref<Json::array_t&>().back();
    }
    *slot_ = std::move(v);
    return slot_;
  }
  template <class T>
  bool Scalar(T&& v) {
    if (open_ > kMaxJsonDepth) throw DepthError{};
    if (skip_ > 0) return true;
    if (skip_next_) {
      skip_next_ = false;
      return true;
    }
    Place(Json(std::forward<T>(v)));
    return true;
  }
  bool Open(Json::value_t type) {
    if (open_ > kMaxJsonDepth) throw DepthError{};
    ++open_;
    if (skip_ > 0 || skip_next_) {
      skip_next_ = false;
      ++skip_;
      return true;
    }
    const int rule = RuleForNext();
    stack_.push_back(Place(Json(type)));
    rules_stack_.push_back(rule);
    return true;
  }
  bool Close() {
    --open_;
    if (skip_ > 0) {
      --skip_;
      return true;
    }
    if (stack_.back()->is_object()) stack_.back()->get_ref<Json::object_t&>().SortAppended();
    stack_.pop_back();
    rules_stack_.pop_back();
    return true;
  }

  Json root_;
  std::vector<Json*> stack_;      // the open containers being built
  std::vector<int> rules_stack_;  // each one's node in UnreadTree(), -1 when nothing under it is left out
  Json* slot_ = nullptr;          // an object's member named by the last key
  int open_;
  int rules_;               // the root's node: 0, or -1 when nothing is left out
  int next_rule_ = -1;      // the node of the member named by the last key
  int skip_ = 0;            // containers open inside a value left out
  bool skip_next_ = false;  // the last key's value is left out
};

// The fast path for what the API server prints: strict JSON with integer numbers, built straight into a Json (a
// quarter of nlohmann's lexer's time on a kubectl dump). It gives up (false) on anything else: floats, integers of
// more than 18 digits, \u escapes of surrogates, nesting near the depth limit and every error. The caller then
// parses with nlohmann, which builds the same value or reports the error in its words; so whatever this accepts,
// nlohmann accepts and builds identically (tests/io/json_text_test.cpp checks it on mutated inputs).
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
  // p_ is just past the opening quote; out (when given) gets the string.
  bool String(std::string* out) {
    const char* run = p_;  // the start of bytes not yet appended
    while (true) {
      while (p_ < end_) {  // plain ASCII
        const auto c = static_cast<unsigned char>(*p_);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++p_;
      }
      if (p_ >= end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        if (out) out->append(run, p_);
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
      if (out) out->append(run, p_);
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
    if (p_ < end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E' || (*p_ >= '0' && *p_ <= '9'))) return false;
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
  // The value at p_ into *out (nullptr: checked, not built); rule: its node in UnreadTree(), or -1.
  bool Value(Json* out, int rule) {
    if (p_ >= end_) return false;
    switch (*p_) {
      case '{': {
        if (open_ >= kMaxJsonDepth) return false;
        ++open_;
        ++p_;
        if (out) *out = Json(Json::value_t::object);
        Json::object_t* object = out ? &out->get_ref<Json::object_t&>() : nullptr;
        const UnreadNode* node = rule >= 0 ? &UnreadTree()[static_cast<std::size_t>(rule)] : nullptr;
        SkipSpace();
        if (p_ < end_ && *p_ == '}') {
          ++p_;
          --open_;
          return true;
        }
        while (true) {
          if (p_ >= end_ || *p_ != '"') return false;
          ++p_;
          std::string key;  // moved into the object: one allocation at most (short keys fit in the string)
          if (!String(object ? &key : nullptr)) return false;
          SkipSpace();
          if (p_ >= end_ || *p_ != ':') return false;
          ++p_;
          SkipSpace();
          int next = -1;
          bool leave_out = !object;
          if (node && !leave_out) {
            if (auto it = node->next.find(key); it != node->next.end()) {
              next = it->second;
              leave_out = UnreadTree()[static_cast<std::size_t>(next)].leave_out;
            }
          }
          if (leave_out) {
            if (!Value(nullptr, -1)) return false;
          } else {
            // Sorted when the object closes; a repeated key's value is replaced, as nlohmann's parser does.
            if (!Value(&object->AppendUnsorted(std::move(key)), next)) return false;
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
            if (object) object->SortAppended();
            return true;
          }
          return false;
        }
      }
      case '[': {
        if (open_ >= kMaxJsonDepth) return false;
        ++open_;
        ++p_;
        if (out) *out = Json(Json::value_t::array);
        Json::array_t* array = out ? &out->get_ref<Json::array_t&>() : nullptr;
        int element_rule = -1;
        if (rule >= 0) {
          const auto& node = UnreadTree()[static_cast<std::size_t>(rule)];
          if (auto it = node.next.find("*"); it != node.next.end()) element_rule = it->second;
        }
        SkipSpace();
        if (p_ < end_ && *p_ == ']') {
          ++p_;
          --open_;
          return true;
        }
        while (true) {
          if (array) {
            array->emplace_back();
            if (!Value(&array->back(), element_rule)) return false;
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
            return true;
          }
          return false;
        }
      }
      case '"': {
        ++p_;
        if (!out) return String(nullptr);
        *out = Json(Json::value_t::string);
        return String(&out->get_ref<std::string&>());
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

// Syntax and the depth limit only.
class SyntaxChecker {
 public:
  bool null() { return Value(); }
  bool boolean(bool) { return Value(); }
  bool number_integer(Json::number_integer_t) { return Value(); }
  bool number_unsigned(Json::number_unsigned_t) { return Value(); }
  bool number_float(Json::number_float_t, const std::string&) { return Value(); }
  bool string(std::string&) { return Value(); }
  bool binary(Json::binary_t&) { return Value(); }
  bool key(std::string&) { return Value(); }
  bool start_object(std::size_t) { return Open(); }
  bool start_array(std::size_t) { return Open(); }
  bool end_object() { return --open_, true; }
  bool end_array() { return --open_, true; }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;
  }

 private:
  bool Value() const {
    if (open_ > kMaxJsonDepth) throw DepthError{};
    return true;
  }
  bool Open() {
    Value();
    ++open_;
    return true;
  }
  int open_ = 0;
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

Json ParseJsonText(std::string_view text) {
  CheckInputSize(text.size());
  return ParseJsonRange(text, 0, text.size());
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

std::vector<Json> ParseJsonDocuments(std::string_view text) {
  CheckInputSize(text.size());
  std::vector<Json> docs;
  for (const auto& [begin, end] : JsonDocumentRanges(text)) docs.push_back(ParseJsonRange(text, begin, end));
  return docs;
}

namespace {

void EraseUnreadAt(Json& v, int rule) {
  const UnreadNode& node = UnreadTree()[static_cast<std::size_t>(rule)];
  if (v.is_array()) {
    if (auto it = node.next.find("*"); it != node.next.end())
      for (Json& e : v) EraseUnreadAt(e, it->second);
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

bool TryParseJsonFast(std::string_view text, int depth, Unread unread, Json& out) {
  return FastParser(text, depth, unread).Parse(out);
}

Json ParseJsonValue(std::string_view whole, std::size_t begin, std::size_t end, int depth, Unread unread) {
  Json fast;
  if (TryParseJsonFast(whole.substr(begin, end - begin), depth, unread, fast)) return fast;
  return WithJsonErrors(whole, begin, end, [&]() {
    ValueBuilder builder(depth, unread);
    Json::sax_parse(whole.begin() + static_cast<std::ptrdiff_t>(begin),
                    whole.begin() + static_cast<std::ptrdiff_t>(end), &builder);
    return builder.Take();
  });
}

void CheckJsonSyntax(std::string_view text) {
  CheckInputSize(text.size());
  // A pair, not a structured binding: clang before 16 (Emscripten's, the fuzz preset's) cannot capture bindings.
  for (const auto& range : JsonDocumentRanges(text)) {
    WithJsonErrors(text, range.first, range.second, [&]() {
      SyntaxChecker checker;
      Json::sax_parse(text.begin() + static_cast<std::ptrdiff_t>(range.first),
                      text.begin() + static_cast<std::ptrdiff_t>(range.second), &checker);
    });
  }
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
