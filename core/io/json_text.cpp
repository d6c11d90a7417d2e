#include "core/io/json_text.h"

#include <algorithm>

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

// t[i] is '"': the index just past the closing quote.
std::size_t SkipString(std::string_view t, std::size_t i) {
  for (++i; i < t.size(); ++i) {
    if (t[i] == '\\')
      ++i;
    else if (t[i] == '"')
      return i + 1;
  }
  return std::string_view::npos;
}

// Parses text[begin, end); error positions count from the start of text.
Json ParseJsonRange(std::string_view whole, std::size_t begin, std::size_t end) {
  const std::string_view text = whole.substr(begin, end - begin);
  struct DepthError {
    std::size_t depth;
  };
  try {
    // nlohmann's callback parser scans a container's elements after each object ends (json 3.11), quadratic in a
    // List's items: a 150,000-pod kubectl dump took minutes. Only texts that may nest too deep take that path.
    if (!MayNestDeeperThan(text, kMaxJsonDepth)) return Json::parse(text.begin(), text.end());
    return Json::parse(text.begin(), text.end(), [](int depth, Json::parse_event_t, Json&) {
      if (depth > kMaxJsonDepth) throw DepthError{static_cast<std::size_t>(depth)};
      return true;
    });
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

}  // namespace

void CheckInputSize(std::size_t bytes) {
  if (bytes > kMaxInputBytes)
    throw InputError("input is " + std::to_string(bytes) + " bytes; the limit is " + std::to_string(kMaxInputBytes));
}

std::size_t JsonValueEnd(std::string_view t, std::size_t i, int max_depth) {
  constexpr std::size_t kNone = std::string_view::npos;
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

std::vector<Json> ParseJsonDocuments(std::string_view text) {
  CheckInputSize(text.size());
  std::vector<Json> docs;
  std::size_t i = SkipSpace(text, 0);
  if (i == text.size()) return {ParseJsonRange(text, 0, text.size())};  // empty: the parser's own error
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
    docs.push_back(ParseJsonRange(text, i, end));
    i = SkipSpace(text, end);
  }
  return docs;
}

}  // namespace kplace::io
