#include "app/model/json_text.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

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
  void Seek(std::size_t p) { p_ = p; }
  std::size_t pos() const { return p_; }
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

  // The wanted member or element starts here: one level deeper, then on along path.
  void Enter(const Path& path, Match& m) {
    ++m.depth;
    SkipWs();
    m.span = Span{p_, p_};
    Descend(path, m);
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
        if (*key == std::get<std::string>(want)) return Enter(path, m);
        if (!Value()) return;
        if (!Eat(',')) return;
      }
    }
    if (c == '[' && std::holds_alternative<std::size_t>(want)) {
      ++p_;
      if (Eat(']')) return;
      for (std::size_t i = 0;; ++i) {
        if (i == std::get<std::size_t>(want)) return Enter(path, m);
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

// The members (object: from the key's quote to the value's end) or elements of the container opened at open.
struct Container {
  bool ok = false;
  std::vector<Span> elements;
  std::size_t close = 0;  // position of the closing bracket
};

Container Elements(std::string_view text, std::size_t open) {
  Container out;
  if (open >= text.size() || (text[open] != '{' && text[open] != '[')) return out;
  const char c = text[open];
  const char close = c == '{' ? '}' : ']';
  Scanner s(text);
  s.Seek(open + 1);
  if (s.Eat(close)) {
    out.ok = true;
    out.close = s.pos() - 1;
    return out;
  }
  while (true) {
    s.SkipWs();
    const std::size_t begin = s.pos();
    if (c == '{' && (!s.String() || !s.Eat(':'))) return out;
    auto v = s.Value();
    if (!v) return out;
    out.elements.push_back(Span{begin, v->end});
    if (s.Eat(',')) continue;
    if (!s.Eat(close)) return out;
    out.ok = true;
    out.close = s.pos() - 1;
    return out;
  }
}

// The text without element index of the container opened at open (its separator goes with it).
std::optional<std::string> RemoveElement(std::string_view text, std::size_t open, std::size_t index) {
  const Container c = Elements(text, open);
  if (!c.ok || index >= c.elements.size()) return std::nullopt;
  std::size_t begin, end;
  if (c.elements.size() == 1) {
    begin = open + 1;
    end = c.close;
  } else if (index > 0) {
    begin = c.elements[index - 1].end;
    end = c.elements[index].end;
  } else {
    begin = c.elements[0].begin;
    end = c.elements[1].begin;
  }
  std::string out(text);
  out.erase(begin, end - begin);
  return out;
}

// The text with element appended to the container opened at open.
std::optional<std::string> Append(std::string_view text, std::size_t open, std::string_view element) {
  const Container c = Elements(text, open);
  if (!c.ok) return std::nullopt;
  std::string out(text);
  if (c.elements.empty()) {
    out.replace(open + 1, c.close - open - 1, " " + std::string(element) + " ");
  } else {
    out.insert(c.elements.back().end, ", " + std::string(element));
  }
  return out;
}

bool IsObject(std::string_view text, const Match& m, std::size_t depth) {
  return m.depth == depth && m.span.begin < text.size() && text[m.span.begin] == '{';
}
bool IsArray(std::string_view text, const Match& m, std::size_t depth) {
  return m.depth == depth && m.span.begin < text.size() && text[m.span.begin] == '[';
}

Path ItemPath(std::size_t item, std::initializer_list<PathElem> rest) {
  Path p{std::string("items"), item};
  p.insert(p.end(), rest.begin(), rest.end());
  return p;
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

namespace {

// The Simulation item's spec.<field> set to the JSON string value (WithMode, WithKubernetesVersion).
std::optional<std::string> WithSimulationSpec(std::string_view text, const std::string& field, std::string_view value) {
  const std::string quoted = Quote(value);
  const std::string member = Quote(field) + ": " + quoted;
  Match items = Find(text, {std::string("items")});
  if (items.depth != 1 || items.span.begin >= text.size() || text[items.span.begin] != '[') return std::nullopt;
  for (std::size_t i = 0;; ++i) {
    Match item = Find(text, {std::string("items"), i});
    if (item.depth != 2) break;
    Match kind = Find(text, {std::string("items"), i, std::string("kind")});
    if (kind.depth != 3 || text.substr(kind.span.begin, kind.span.end - kind.span.begin) != "\"Simulation\"") continue;
    Match m = Find(text, {std::string("items"), i, std::string("spec"), field});
    if (m.depth == 4) {
      std::string out(text);
      out.replace(m.span.begin, m.span.end - m.span.begin, quoted);
      return out;
    }
    if (m.depth == 3 && text[m.span.begin] == '{') return InsertFirst(text, m.span.begin, member);
    if (text[item.span.begin] == '{') return InsertFirst(text, item.span.begin, "\"spec\": { " + member + " }");
    return std::nullopt;
  }
  return InsertFirst(text, items.span.begin,
                     "{ \"apiVersion\": \"kplace.dev/v1alpha1\", \"kind\": \"Simulation\", \"metadata\": { \"name\": "
                     "\"sim\" }, \"spec\": { " +
                         member + " } }");
}

}  // namespace

std::optional<std::string> WithMode(std::string_view text, std::string_view mode) {
  return WithSimulationSpec(text, "mode", mode);
}

std::optional<std::string> WithKubernetesVersion(std::string_view text, std::string_view version) {
  return WithSimulationSpec(text, "kubernetesVersion", version);
}

std::optional<std::string> WithTaintEffect(std::string_view text, std::size_t item, std::size_t taint,
                                           std::string_view effect) {
  const Path path = ItemPath(item, {std::string("spec"), std::string("taints"), taint, std::string("effect")});
  const Match m = Find(text, path);
  if (m.depth == path.size()) {
    std::string out(text);
    out.replace(m.span.begin, m.span.end - m.span.begin, Quote(effect));
    return out;
  }
  if (IsObject(text, m, path.size() - 1)) return Append(text, m.span.begin, "\"effect\": " + Quote(effect));
  return std::nullopt;
}

std::optional<std::string> WithoutTaint(std::string_view text, std::size_t item, std::size_t taint) {
  const Match m = Find(text, ItemPath(item, {std::string("spec"), std::string("taints")}));
  if (!IsArray(text, m, 4)) return std::nullopt;
  return RemoveElement(text, m.span.begin, taint);
}

std::optional<std::string> WithUnschedulable(std::string_view text, std::size_t item, bool unschedulable) {
  const Match field = Find(text, ItemPath(item, {std::string("spec"), std::string("unschedulable")}));
  if (field.depth == 4) {
    if (unschedulable) {
      std::string out(text);
      out.replace(field.span.begin, field.span.end - field.span.begin, "true");
      return out;
    }
    const Match spec = Find(text, ItemPath(item, {std::string("spec")}));
    const Container c = Elements(text, spec.span.begin);
    if (c.elements.size() == 1) {  // spec holds nothing else: drop it (cordon added it)
      const Match node = Find(text, ItemPath(item, {}));
      const Container members = Elements(text, node.span.begin);
      for (std::size_t i = 0; i < members.elements.size(); ++i)
        if (text.substr(members.elements[i].begin, 6) == "\"spec\"") return RemoveElement(text, node.span.begin, i);
    }
    for (std::size_t i = 0; i < c.elements.size(); ++i)
      if (text.substr(c.elements[i].begin, 15) == "\"unschedulable\"") return RemoveElement(text, spec.span.begin, i);
    return std::nullopt;
  }
  if (!unschedulable) return std::string(text);  // already schedulable
  const Match spec = Find(text, ItemPath(item, {std::string("spec")}));
  if (IsObject(text, spec, 3)) return Append(text, spec.span.begin, "\"unschedulable\": true");
  const Match node = Find(text, ItemPath(item, {}));
  if (IsObject(text, node, 2)) return Append(text, node.span.begin, "\"spec\": { \"unschedulable\": true }");
  return std::nullopt;
}

std::optional<std::string> WithToleration(std::string_view text, const Path& pod_spec, std::string_view toleration) {
  Path path = pod_spec;
  path.emplace_back(std::string("tolerations"));
  const Match m = Find(text, path);
  if (IsArray(text, m, path.size())) return Append(text, m.span.begin, toleration);
  if (m.depth == path.size()) return std::nullopt;  // tolerations is not an array
  const Match spec = Find(text, pod_spec);
  if (IsObject(text, spec, pod_spec.size()))
    return Append(text, spec.span.begin, "\"tolerations\": [ " + std::string(toleration) + " ]");
  return std::nullopt;
}

std::string TolerationFor(std::string_view key, std::string_view value, std::string_view effect) {
  std::string out = "{ \"key\": " + Quote(key);
  if (value.empty()) {
    out += ", \"operator\": \"Exists\"";
  } else {
    out += ", \"operator\": \"Equal\", \"value\": " + Quote(value);
  }
  return out + ", \"effect\": " + Quote(effect) + " }";
}

}  // namespace kplace::app::json_text
