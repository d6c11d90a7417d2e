// What the fast path of json_text.cpp leaves to nlohmann's parser: texts it gives up on (floats, long integers,
// surrogate escapes, deep nesting), whole documents and the List's shell, and every error, in the contract's words.
// Off the path of a kubectl dump's items: compiled for size in the page (CMakeLists.txt).
#include <algorithm>
#include <cstring>

#include "core/io/json_text.h"
#include "core/io/json_text_internal.h"
#include "core/io/utf8.h"

namespace kplace::io {
namespace {

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
      if (const int found = node.Find(k); found >= 0) {
        if (UnreadTree()[static_cast<std::size_t>(found)].leave_out) {
          skip_next_ = true;
          return true;
        }
        next_rule_ = found;
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
    return UnreadTree()[static_cast<std::size_t>(r)].Find("*");
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

// Parses text[begin, end); error positions count from the start of text. Through ValueBuilder rather than
// Json::parse: nlohmann's DOM parser sets an object's members one by one, each put in its place in key order
// (quadratic in a hostile object of a million keys), and its callback parser, the one that can stop at a depth,
// scans a container's elements after each object ends (quadratic in a List's items: minutes on a kubectl dump).
Json ParseJsonRange(std::string_view whole, std::size_t begin, std::size_t end) {
  return ParseJsonValueWithNlohmann(whole, begin, end, 0, Unread::kKeep);
}

}  // namespace

Json ParseJsonText(std::string_view text) {
  CheckInputSize(text.size());
  return ParseJsonRange(text, 0, text.size());
}

std::vector<Json> ParseJsonDocuments(std::string_view text) {
  CheckInputSize(text.size());
  std::vector<Json> docs;
  for (const auto& [begin, end] : JsonDocumentRanges(text)) docs.push_back(ParseJsonRange(text, begin, end));
  return docs;
}

Json ParseJsonValueWithNlohmann(std::string_view whole, std::size_t begin, std::size_t end, int depth, Unread unread) {
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

}  // namespace kplace::io
