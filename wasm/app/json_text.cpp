#include "wasm/app/json_text.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace kplace::app::json_text {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view t) : t_(t) {}

  void SkipWs() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\n' || t_[p_] == '\r' || t_[p_] == '\t')) ++p_;
  }
  bool Eat(char c) {
    SkipWs();
    if (p_ < t_.size() && t_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  char Peek() {
    SkipWs();
    return p_ < t_.size() ? t_[p_] : '\0';
  }

  // Reads a string token; decodes the simple escapes (keys in scenarios are plain ASCII).
  std::optional<std::string> String() {
    if (!Eat('"')) return std::nullopt;
    std::string out;
    while (p_ < t_.size() && t_[p_] != '"') {
      if (t_[p_] == '\\' && p_ + 1 < t_.size()) {
        ++p_;
        const char e = t_[p_];
        out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
      } else {
        out += t_[p_];
      }
      ++p_;
    }
    if (p_ >= t_.size()) return std::nullopt;
    ++p_;
    return out;
  }

  // Skips one value; returns its span.
  std::optional<Span> Value() {
    SkipWs();
    const std::size_t begin = p_;
    const char c = Peek();
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++p_;
      if (Eat(close)) return Span{begin, p_};
      while (true) {
        if (c == '{') {
          if (!String() || !Eat(':')) return std::nullopt;
        }
        if (!Value()) return std::nullopt;
        if (Eat(',')) continue;
        if (Eat(close)) return Span{begin, p_};
        return std::nullopt;
      }
    }
    if (c == '"') {
      if (!String()) return std::nullopt;
      return Span{begin, p_};
    }
    while (p_ < t_.size() && !std::isspace(static_cast<unsigned char>(t_[p_])) && t_[p_] != ',' && t_[p_] != '}' &&
           t_[p_] != ']')
      ++p_;
    if (p_ == begin) return std::nullopt;
    return Span{begin, p_};
  }

  // Descends along path from the value at the current position.
  void Descend(const Path& path, Match& m) {
    SkipWs();
    const std::size_t begin = p_;
    if (m.depth == path.size()) {
      if (auto s = Value()) m.span = *s;
      return;
    }
    const PathElem& want = path[m.depth];
    const char c = Peek();
    if (c == '{' && std::holds_alternative<std::string>(want)) {
      ++p_;
      if (Eat('}')) return;
      while (true) {
        auto key = String();
        if (!key || !Eat(':')) return;
        if (*key == std::get<std::string>(want)) {
          ++m.depth;
          SkipWs();
          m.span = Span{p_, p_};
          Descend(path, m);
          return;
        }
        if (!Value()) return;
        if (!Eat(',')) return;
      }
    }
    if (c == '[' && std::holds_alternative<std::size_t>(want)) {
      ++p_;
      if (Eat(']')) return;
      for (std::size_t i = 0;; ++i) {
        if (i == std::get<std::size_t>(want)) {
          ++m.depth;
          SkipWs();
          m.span = Span{p_, p_};
          Descend(path, m);
          return;
        }
        if (!Value()) return;
        if (!Eat(',')) return;
      }
    }
    p_ = begin;
  }

 private:
  std::string_view t_;
  std::size_t p_ = 0;
};

// The value's span extended to the end of the container it opens: Find gives a start; the scanner measures.
Span Measure(std::string_view text, std::size_t begin) {
  Scanner s(text.substr(begin));
  auto v = s.Value();
  return v ? Span{begin + v->begin, begin + v->end} : Span{begin, begin};
}

std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Inserts element as the first member (object) or element (array) of the container opened at open.
std::string InsertFirst(std::string_view text, std::size_t open, std::string_view element) {
  Scanner s(text.substr(open + 1));
  const char next = s.Peek();
  const bool empty = next == '}' || next == ']';
  std::string out(text.substr(0, open + 1));
  out += " ";
  out += element;
  const bool space_follows = open + 1 < text.size() && std::isspace(static_cast<unsigned char>(text[open + 1]));
  out += empty ? " " : space_follows ? "," : ", ";
  out += text.substr(open + 1);
  return out;
}

}  // namespace

Match Find(std::string_view text, const Path& path) {
  Match m;
  Scanner s(text);
  s.SkipWs();
  m.span = Measure(text, 0);
  s.Descend(path, m);
  if (m.depth < path.size() || m.span.end == m.span.begin) m.span = Measure(text, m.span.begin);
  return m;
}

LineColumn PositionOf(std::string_view text, std::size_t offset) {
  LineColumn lc;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++lc.line;
      lc.column = 1;
    } else {
      ++lc.column;
    }
  }
  return lc;
}

std::optional<Path> ErrorPath(std::string_view message) {
  if (message.substr(0, 6) != "items[") return std::nullopt;
  Path path{std::string("items")};
  std::size_t p = 6;
  std::size_t close = message.find(']', p);
  if (close == std::string_view::npos) return std::nullopt;
  path.emplace_back(
      static_cast<std::size_t>(std::strtoull(std::string(message.substr(p, close - p)).c_str(), nullptr, 10)));
  // Skip " (Kind ns/name)" and ": ", then read dotted keys, [n] indices and ["key"] map keys up to ": ".
  std::size_t colon = message.find("): ", close);
  if (colon == std::string_view::npos) return path;
  p = colon + 3;
  std::string key;
  auto flush = [&] {
    if (!key.empty()) path.emplace_back(key);
    key.clear();
  };
  while (p < message.size()) {
    const char c = message[p];
    if (c == ':' || c == ' ') break;
    if (c == '.') {
      flush();
      ++p;
    } else if (c == '[' && p + 1 < message.size() && message[p + 1] == '"') {
      flush();
      const std::size_t end = message.find("\"]", p + 2);
      if (end == std::string_view::npos) break;
      path.emplace_back(std::string(message.substr(p + 2, end - p - 2)));
      p = end + 2;
    } else if (c == '[') {
      flush();
      const std::size_t end = message.find(']', p);
      if (end == std::string_view::npos) break;
      path.emplace_back(
          static_cast<std::size_t>(std::strtoull(std::string(message.substr(p + 1)).c_str(), nullptr, 10)));
      p = end + 1;
    } else {
      key += c;
      ++p;
    }
  }
  flush();
  return path;
}

std::optional<LineColumn> ErrorPosition(std::string_view text, std::string_view message) {
  int line = 0, column = 0;
  if (std::sscanf(std::string(message).c_str(), "invalid JSON at line %d, column %d", &line, &column) == 2)
    return LineColumn{line, column};
  auto path = ErrorPath(message);
  if (!path) return std::nullopt;
  return PositionOf(text, Find(text, *path).span.begin);
}

std::optional<std::string> WithMode(std::string_view text, std::string_view mode) {
  const std::string quoted = Quote(mode);
  Match items = Find(text, {std::string("items")});
  if (items.depth != 1 || items.span.begin >= text.size() || text[items.span.begin] != '[') return std::nullopt;
  for (std::size_t i = 0;; ++i) {
    Match item = Find(text, {std::string("items"), i});
    if (item.depth != 2) break;
    Match kind = Find(text, {std::string("items"), i, std::string("kind")});
    if (kind.depth != 3 || text.substr(kind.span.begin, kind.span.end - kind.span.begin) != "\"Simulation\"") continue;
    Match m = Find(text, {std::string("items"), i, std::string("spec"), std::string("mode")});
    if (m.depth == 4) {
      std::string out(text);
      out.replace(m.span.begin, m.span.end - m.span.begin, quoted);
      return out;
    }
    if (m.depth == 3 && text[m.span.begin] == '{') return InsertFirst(text, m.span.begin, "\"mode\": " + quoted);
    if (text[item.span.begin] == '{')
      return InsertFirst(text, item.span.begin, "\"spec\": { \"mode\": " + quoted + " }");
    return std::nullopt;
  }
  return InsertFirst(text, items.span.begin,
                     "{ \"apiVersion\": \"kplace.dev/v1alpha1\", \"kind\": \"Simulation\", \"metadata\": { \"name\": "
                     "\"sim\" }, \"spec\": { \"mode\": " +
                         quoted + " } }");
}

}  // namespace kplace::app::json_text
