// YAML -> Json as kubectl converts it (see yaml_text.h). The path upstream, read for these rules:
//   k8s.io/apimachinery pkg/util/yaml/decoder.go   YAMLOrJSONDecoder: JSON stream if the text starts with `{`,
//                                                  else YAMLReader's `---` line splitting, one yaml.Unmarshal each
//   sigs.k8s.io/yaml yaml.go                       YAMLToJSON: go-yaml v2 into interface{}, then keys to strings
//                                                  (convertToJSONableObject) and encoding/json.Marshal
//   go.yaml.in/yaml/v2 v2.4.2-v2.4.4 resolve.go    plain scalar resolution (YAML 1.1 booleans, ints, floats)
//   go.yaml.in/yaml/v2 decode.go                   node decoding: merge keys, aliases and the aliasing limit
// k8s.io/cli-runtime's StreamVisitor then skips documents that decode to null.
// Known differences, all in exotic input: libyaml 0.2.5 refuses `x:` followed by `,?[]{}` inside a flow collection
// where go-yaml's older scanner reads a plain scalar; go-yaml's alias ratio is checked here in document order, while
// go-yaml decodes a merge sequence from its last item (the threshold can fall one node apart); errors that go-yaml,
// sigs.k8s.io/yaml and encoding/json would raise in three passes come in document order here; and containers nest at
// most kMaxJsonDepth deep (go-yaml allows 10,000).
//
// The parser is libyaml (Debian libyaml-dev natively; compiled from Debian's source package for wasm, see
// scripts/fetch-source.sh). go-yaml v2 is a Go port of libyaml, so the scanner, the parser and their problem texts
// ("mapping values are not allowed in this context", ...) are the same ones kubectl reports; libyaml's event API also
// gives the scalar style (plain or quoted) and tag that resolution needs, and lets us build the Json directly.
//
// Why libyaml rather than yaml-cpp (Debian libyaml-cpp-dev 0.7.0), measured on a kubectl-style 50.3 MB `kind: List`
// of 13,000 pods (managedFields, conditions, the last-applied annotation, a `|` script each; 20,000 such pods are
// 77 MB, past kMaxInputBytes), g++ 12 -O2, one run each on a shared 2-core machine (load average about 9):
//   ParseYamlText (libyaml 0.2.5 events straight into Json)    4.2 s, peak RSS 376 MB
//     of which libyaml's own event loop                        2.5 s
//   yaml-cpp 0.7.0 YAML::Load (its node tree only)            24.2 s, peak RSS 1.83 GB
//   yaml-cpp YAML::Load and a walk into Json                  30.6 s, peak RSS 2.04 GB
//   ParseJsonText of the same List as JSON (61 MB)             2.1 s, peak RSS 396 MB
// In wasm (-Os, -fwasm-exceptions) libyaml and this file add 82,308 bytes to kplace-core.wasm (30,230 gzip -9) once a
// caller uses them; the same List converts (and dumps) in 11.4 s there under node 20. Standalone wasm modules that
// convert YAML text to JSON text, against one that only parses JSON (103,351 bytes, 43,206 gzip -9): this file over
// libyaml adds 90,323 (33,292 gzip -9); yaml-cpp 0.7.0 with a plain walk into Json, none of kubectl's rules yet,
// adds 112,430 (42,804 gzip -9). yaml-cpp reports plain/quoted only through its nodes' "?"/"!" tags.
#include "core/io/yaml_text.h"

#include <yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/io/utf8.h"

namespace kplace::io {
namespace {

// Alias expansion may add at most this many bytes (scalar text plus one per node) to a stream, besides go-yaml's own
// ratio rule below: twice the input plus 1 MiB. A billion-laughs document stops here with a clear error.
constexpr std::size_t kAliasBytesFloor = std::size_t{1} << 20;
constexpr std::size_t kAliasBytesPerInputByte = 2;

constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";
constexpr std::string_view kStrTag = "tag:yaml.org,2002:str";
constexpr std::string_view kBoolTag = "tag:yaml.org,2002:bool";
constexpr std::string_view kIntTag = "tag:yaml.org,2002:int";
constexpr std::string_view kFloatTag = "tag:yaml.org,2002:float";
constexpr std::string_view kNullTag = "tag:yaml.org,2002:null";
constexpr std::string_view kTimestampTag = "tag:yaml.org,2002:timestamp";
constexpr std::string_view kBinaryTag = "tag:yaml.org,2002:binary";
constexpr std::string_view kMergeTag = "tag:yaml.org,2002:merge";

// ---- Positions and errors -----------------------------------------------------------------------------------------

// 1-based line and column (in characters) of byte offset pos.
std::pair<std::size_t, std::size_t> LineColumn(std::string_view text, std::size_t pos) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
      ++col;
    }
  }
  return {line, col};
}

std::string Where(const char* what, std::size_t document, std::size_t line, std::size_t column) {
  std::string s = std::string("invalid ") + what;
  if (document > 1) s += " in document " + std::to_string(document);
  return s + " at line " + std::to_string(line) + ", column " + std::to_string(column);
}

[[noreturn]] void Fail(std::size_t document, std::size_t line, std::size_t column, const std::string& problem) {
  throw InputError(Where("YAML", document, line, column) + ": " + problem);
}

// ---- Go's strconv and encoding rules that the conversion inherits ----------------------------------------------

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// strconv.ParseUint(s, 0, 64): base prefixes 0b/0o/0x (with at least one more character) and a leading 0 for octal.
std::optional<std::uint64_t> GoParseUint(std::string_view s) {
  if (s.empty()) return std::nullopt;
  unsigned base = 10;
  if (s[0] == '0') {
    char p = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : '\0';
    if (p == 'b' || p == 'o' || p == 'x') {
      base = p == 'b' ? 2 : p == 'o' ? 8 : 16;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  std::uint64_t n = 0;
  for (char c : s) {
    unsigned d;
    if (IsDigit(c)) {
      d = static_cast<unsigned>(c - '0');
    } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') {
      d = static_cast<unsigned>((c | 0x20) - 'a' + 10);
    } else {
      return std::nullopt;
    }
    if (d >= base) return std::nullopt;
    if (n > (std::numeric_limits<std::uint64_t>::max() - d) / base) return std::nullopt;  // out of range
    n = n * base + d;
  }
  return n;
}

// strconv.ParseInt(s, 0, 64): an optional sign, then as GoParseUint, within int64.
std::optional<std::int64_t> GoParseInt(std::string_view s) {
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  auto u = GoParseUint(s);
  if (!u) return std::nullopt;
  constexpr std::uint64_t kCutoff = std::uint64_t{1} << 63;
  if (!neg && *u >= kCutoff) return std::nullopt;
  if (neg && *u > kCutoff) return std::nullopt;
  return neg ? static_cast<std::int64_t>(0 - *u) : static_cast<std::int64_t>(*u);
}

// resolve.go's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool YamlStyleFloat(std::string_view s) {
  std::size_t i = 0, n = s.size();
  if (i < n && (s[i] == '-' || s[i] == '+')) ++i;
  if (i < n && s[i] == '.') {
    ++i;
    std::size_t d = i;
    while (i < n && IsDigit(s[i])) ++i;
    if (i == d) return false;
  } else {
    std::size_t d = i;
    while (i < n && IsDigit(s[i])) ++i;
    if (i == d) return false;
    if (i < n && s[i] == '.') {
      ++i;
      while (i < n && IsDigit(s[i])) ++i;
    }
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '-' || s[i] == '+')) ++i;
    std::size_t d = i;
    while (i < n && IsDigit(s[i])) ++i;
    if (i == d) return false;
  }
  return i == n;
}

// strconv's underscoreOK: underscores only between digits (or after a base prefix), never last.
bool GoUnderscoreOK(std::string_view s) {
  char saw = '^';
  std::size_t i = 0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0') {
    char p = static_cast<char>(s[1] | 0x20);
    if (p == 'b' || p == 'o' || p == 'x') {
      i = 2;
      saw = '0';
      hex = p == 'x';
    }
  }
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (IsDigit(c) || (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')) {
      saw = '0';
      continue;
    }
    if (c == '_') {
      if (saw != '0') return false;
      saw = '_';
      continue;
    }
    if (saw == '_') return false;
    saw = '!';
  }
  return saw != '_';
}

// strconv.ParseFloat(s, 64) for s matching YamlStyleFloat: nullopt when it overflows (Go reports a range error
// there; underflow to zero or a subnormal is no error). strtod rounds correctly (glibc, Emscripten's musl), and reads
// the C locale's '.', as kplace never calls setlocale; std::from_chars for double is missing from Emscripten's libc++.
std::optional<double> GoParseDecimalFloat(std::string_view s) {
  std::string copy(s);
  char* end = nullptr;
  double v = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || std::isinf(v)) return std::nullopt;
  return v;
}

// encoding/json writes a float64 with strconv 'f' formatting for 1e-6 <= |f| < 1e21 (else 'e'): an integral value
// in that range is written as an integer literal, which ParseJsonText reads back as an integer when it fits.
Json GoJsonFloat(double f) {
  if (f == std::trunc(f) && std::fabs(f) < 1e21) {
    if (f >= 0 && f < 18446744073709551616.0) return Json(static_cast<std::uint64_t>(f));
    if (f < 0 && f >= -9223372036854775808.0) return Json(static_cast<std::int64_t>(f));
  }
  return Json(f);
}

// sigs.k8s.io/yaml's float map key: strconv.FormatFloat(f, 'g', -1, 32), with +Inf/-Inf/NaN as .inf/-.inf/.nan:
// float32(f)'s shortest round-tripping digits, as %e when the exponent is below -4 or from 6 up, else as %f.
// (std::to_chars for floats is missing from Emscripten's libc++: the shortest digits come from printf and strtof.)
std::string GoFloatKey(double d) {
  if (std::isnan(d)) return ".nan";
  // float32(d): values from 2^128 - 2^103 up round to infinity (the cast itself is undefined there).
  if (std::isinf(d) || std::fabs(d) >= 0x1.ffffffp127) return d > 0 ? ".inf" : "-.inf";
  float f = static_cast<float>(d);
  char buf[64];
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, static_cast<double>(f));
    if (std::strtof(buf, nullptr) == f) break;
  }
  std::string sci(buf);  // [-]d[.ddd]e(+|-)XX
  auto epos = sci.find('e');
  int exp = std::atoi(sci.c_str() + epos + 1);
  if (exp < -4 || exp >= 6) return sci;
  bool neg = sci[0] == '-';
  std::string digits;
  for (std::size_t i = neg ? 1 : 0; i < epos; ++i)
    if (sci[i] != '.') digits += sci[i];
  if (digits == "0") return neg ? "-0" : "0";
  std::string out = neg ? "-" : "";
  if (exp < 0) return out + "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
  auto point = static_cast<std::size_t>(exp) + 1;
  if (digits.size() <= point) return out + digits + std::string(point - digits.size(), '0');
  return out + digits.substr(0, point) + "." + digits.substr(point);
}

// base64.StdEncoding.DecodeString: padded, '\r' and '\n' ignored.
std::optional<std::string> GoBase64(std::string_view in) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (IsDigit(c)) return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string s;
  for (char c : in)
    if (c != '\r' && c != '\n') s += c;
  if (s.size() % 4 != 0) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < s.size(); i += 4) {
    bool last = i + 4 == s.size();
    int v[4];
    int n = 4;
    for (int k = 0; k < 4; ++k) {
      char c = s[i + k];
      if (c == '=' && last && k >= 2 && (k == 3 || s[i + 3] == '=')) {
        n = std::min(n, k);
        v[k] = 0;
        continue;
      }
      if (k >= n) return std::nullopt;
      v[k] = value(c);
      if (v[k] < 0) return std::nullopt;
    }
    std::uint32_t bits = (static_cast<std::uint32_t>(v[0]) << 18) | (static_cast<std::uint32_t>(v[1]) << 12) |
                         (static_cast<std::uint32_t>(v[2]) << 6) | static_cast<std::uint32_t>(v[3]);
    out += static_cast<char>(bits >> 16);
    if (n >= 3) out += static_cast<char>((bits >> 8) & 0xFF);
    if (n == 4) out += static_cast<char>(bits & 0xFF);
  }
  return out;
}

// encoding/json writes each byte of invalid UTF-8 as U+FFFD.
std::string GoValidUtf8(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = Utf8SequenceLength(s, i);
    if (len > 0) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

// resolve.go's parseTimestamp (time.Parse with "2006-1-2T15:4:5.999999999Z07:00", the same with "t",
// "2006-1-2 15:4:5.999999999" and "2006-1-2"). Only an explicit !!timestamp tag needs it: an untagged timestamp
// decodes into interface{} as its own text (decode.go), which is what a string gives anyway.
bool GoTimestamp(std::string_view s) {
  std::size_t i = 0;
  auto num = [&](int& out) {  // time.getnum(s, false): one or two digits
    if (i >= s.size() || !IsDigit(s[i])) return false;
    out = s[i++] - '0';
    if (i < s.size() && IsDigit(s[i])) out = out * 10 + (s[i++] - '0');
    return true;
  };
  auto lit = [&](char c) {
    if (i >= s.size() || s[i] != c) return false;
    ++i;
    return true;
  };
  if (s.size() < 5) return false;
  for (; i < 4; ++i)
    if (!IsDigit(s[i])) return false;
  int year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  int month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!lit('-') || !num(month) || month < 1 || month > 12 || !lit('-') || !num(day)) return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  if (day < 1 || day > kDays[month - 1] + (month == 2 && leap ? 1 : 0)) return false;
  if (i == s.size()) return true;
  char sep = s[i++];
  if (sep != 'T' && sep != 't' && sep != ' ') return false;
  if (!num(hour) || hour >= 24 || !lit(':') || !num(minute) || minute >= 60 || !lit(':') || !num(second) ||
      second >= 60)
    return false;
  if (i + 1 < s.size() && (s[i] == '.' || s[i] == ',') && IsDigit(s[i + 1])) {
    ++i;
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  if (sep == ' ') return i == s.size();
  if (lit('Z')) return i == s.size();
  if (s.size() - i != 6 || (s[i] != '+' && s[i] != '-') || !IsDigit(s[i + 1]) || !IsDigit(s[i + 2]) ||
      s[i + 3] != ':' || !IsDigit(s[i + 4]) || !IsDigit(s[i + 5]))
    return false;
  return (s[i + 1] - '0') * 10 + (s[i + 2] - '0') <= 24 && (s[i + 4] - '0') * 10 + (s[i + 5] - '0') <= 60;
}

// ---- Scalar resolution (go-yaml v2 resolve.go and decode.go's scalar) ------------------------------------------

enum class Kind { kScalar, kSequence, kMapping };

struct Scalar {
  enum Type { kNull, kBool, kInt, kUint, kFloat, kString, kTimestamp, kMerge } type = kString;
  bool b = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double f = 0;
  std::string_view text;  // the scalar's own text (kString/kTimestamp/kMerge), or `owned`
  std::string owned;      // decoded !!binary data
};

std::string_view TypeTag(Scalar::Type t) {
  switch (t) {
    case Scalar::kNull:
      return kNullTag;
    case Scalar::kBool:
      return kBoolTag;
    case Scalar::kInt:
    case Scalar::kUint:
      return kIntTag;
    case Scalar::kFloat:
      return kFloatTag;
    case Scalar::kTimestamp:
      return kTimestampTag;
    case Scalar::kMerge:
      return kMergeTag;
    case Scalar::kString:
      break;
  }
  return kStrTag;
}

std::string ShortTag(std::string_view tag) {
  if (tag.substr(0, kTagPrefix.size()) == kTagPrefix) return "!!" + std::string(tag.substr(kTagPrefix.size()));
  return std::string(tag);
}

// resolve.go's resolveMap: YAML 1.1 booleans (y/yes/on/true and n/no/off/false in three spellings each), nulls,
// .inf/.nan and the merge key.
std::optional<Scalar> ResolveMapped(std::string_view in) {
  Scalar r;
  auto one_of = [&](std::initializer_list<std::string_view> list) {
    return std::find(list.begin(), list.end(), in) != list.end();
  };
  if (one_of({"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})) {
    r.type = Scalar::kBool;
    r.b = true;
  } else if (one_of({"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})) {
    r.type = Scalar::kBool;
  } else if (one_of({"", "~", "null", "Null", "NULL"})) {
    r.type = Scalar::kNull;
  } else if (one_of({".nan", ".NaN", ".NAN"})) {
    r.type = Scalar::kFloat;
    r.f = std::numeric_limits<double>::quiet_NaN();
  } else if (one_of({".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"})) {
    r.type = Scalar::kFloat;
    r.f = std::numeric_limits<double>::infinity();
  } else if (one_of({"-.inf", "-.Inf", "-.INF"})) {
    r.type = Scalar::kFloat;
    r.f = -std::numeric_limits<double>::infinity();
  } else if (in == "<<") {
    r.type = Scalar::kMerge;
    r.text = in;
  } else {
    return std::nullopt;
  }
  return r;
}

// resolve(tag, in) for a resolvable tag ("", !!str, !!bool, !!int, !!float, !!null, !!timestamp).
Scalar ResolveText(std::string_view tag, std::string_view in) {
  char hint = 'N';  // resolve.go's resolveTable on the first byte
  if (!in.empty()) {
    char c = in[0];
    hint = c == '+' || c == '-'                                                ? 'S'
           : IsDigit(c)                                                        ? 'D'
           : std::string_view("yYnNtTfFoO~").find(c) != std::string_view::npos ? 'M'
           : c == '.'                                                          ? '.'
                                                                               : 0;
  }
  Scalar r;
  if (hint != 0 && tag != kStrTag) {
    if (auto mapped = ResolveMapped(in)) return *mapped;
    if (hint == '.') {  // strconv.ParseFloat(in): Go syntax, underscores between digits
      std::string plain(in);
      if (plain.find('_') != std::string::npos) {
        if (!GoUnderscoreOK(in)) plain.clear();
        plain.erase(std::remove(plain.begin(), plain.end(), '_'), plain.end());
      }
      if (YamlStyleFloat(plain)) {
        if (auto f = GoParseDecimalFloat(plain)) {
          r.type = Scalar::kFloat;
          r.f = *f;
          return r;
        }
      }
    } else if (hint == 'D' || hint == 'S') {
      if (tag == kTimestampTag && GoTimestamp(in)) {
        r.type = Scalar::kTimestamp;
        r.text = in;
        return r;
      }
      std::string plain(in);  // underscores are dropped before any number parsing
      plain.erase(std::remove(plain.begin(), plain.end(), '_'), plain.end());
      if (auto i = GoParseInt(plain)) {
        r.type = Scalar::kInt;
        r.i = *i;
        return r;
      }
      if (auto u = GoParseUint(plain)) {
        r.type = Scalar::kUint;
        r.u = *u;
        return r;
      }
      if (YamlStyleFloat(plain)) {
        if (auto f = GoParseDecimalFloat(plain)) {
          r.type = Scalar::kFloat;
          r.f = *f;
          return r;
        }
      }
      // resolve.go then retries "0b"/"-0b" binary; strconv's base 0 above already read those.
    }
  }
  r.type = Scalar::kString;
  r.text = in;
  return r;
}

// ---- The decoder of one document ---------------------------------------------------------------------------------

struct StreamState {
  std::string_view text;
  std::size_t alias_bytes = 0;
  std::size_t alias_bytes_limit = 0;
};

struct Anchor {
  bool open = true;  // still being built: an alias to it would contain itself
  Kind kind = Kind::kScalar;
  Json json;
  std::optional<std::string> key;  // a scalar's form as a map key, or
  std::string key_problem;         // why it has none
  std::size_t decodes = 0;         // go-yaml's unmarshal calls to decode it (aliases inside expanded)
  std::size_t bytes = 0;           // its size for the alias byte limit
  int height = 0;                  // containers nested in it (a scalar: 0)
};

struct Frame {
  Kind kind = Kind::kMapping;
  Json json;
  yaml_mark_t mark{};
  std::string anchor;
  std::size_t decodes_at_start = 0;
  std::size_t bytes_at_start = 0;
  int height = 1;
  // Mappings: the key whose value comes next; merge: that key is `<<`.
  bool want_key = true;
  bool merge = false;
  std::string key;
  // A sequence that is the value of `<<`: its items are mappings to merge.
  bool merge_sequence = false;
};

struct Node {  // what a finished node hands to its parent
  Kind kind;
  bool from_alias;
  int height;
  yaml_mark_t mark;
};

class DocumentDecoder {
 public:
  DocumentDecoder(StreamState& stream, std::string_view chunk, std::size_t first_line, std::size_t number)
      : stream_(stream), chunk_(chunk), first_line_(first_line), number_(number) {
    if (!yaml_parser_initialize(&parser_)) throw InputError("invalid YAML: out of memory");
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(chunk_.data()), chunk_.size());
  }
  ~DocumentDecoder() {
    if (have_event_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  DocumentDecoder(const DocumentDecoder&) = delete;
  DocumentDecoder& operator=(const DocumentDecoder&) = delete;

  // The first document of the chunk (go-yaml's Unmarshal reads no further); nullopt when there is none.
  std::optional<Json> Decode() {
    Next();  // STREAM-START
    if (Next() == YAML_STREAM_END_EVENT) return std::nullopt;
    decodes_ = 1;  // the document node
    while (!done_) {
      switch (Next()) {
        case YAML_SCALAR_EVENT:
          OnScalar();
          break;
        case YAML_ALIAS_EVENT:
          OnAlias();
          break;
        case YAML_SEQUENCE_START_EVENT:
          OnStart(Kind::kSequence, event_.data.sequence_start.anchor);
          break;
        case YAML_MAPPING_START_EVENT:
          OnStart(Kind::kMapping, event_.data.mapping_start.anchor);
          break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT:
          OnEnd();
          break;
        default:
          FailAt(event_.start_mark, "unexpected event");
      }
    }
    Next();  // DOCUMENT-END: a parse error right after the root still counts
    return std::move(root_);
  }

 private:
  yaml_event_type_t Next() {
    if (have_event_) yaml_event_delete(&event_);
    have_event_ = false;
    if (!yaml_parser_parse(&parser_, &event_)) FailParser();
    have_event_ = true;
    return event_.type;
  }

  [[noreturn]] void FailAt(const yaml_mark_t& mark, const std::string& problem) const {
    Fail(number_, first_line_ + mark.line, mark.column + 1, problem);
  }

  [[noreturn]] void FailParser() const {
    std::string problem = parser_.problem ? parser_.problem : "unknown problem parsing YAML content";
    if (parser_.error == YAML_READER_ERROR) {  // no mark: the byte offset of the bad input
      auto [line, col] = LineColumn(chunk_, parser_.problem_offset);
      Fail(number_, first_line_ + line - 1, col, problem);
    }
    if (parser_.context) {
      problem += std::string(" (") + parser_.context + " at line " +
                 std::to_string(first_line_ + parser_.context_mark.line) + ", column " +
                 std::to_string(parser_.context_mark.column + 1) + ")";
    }
    FailAt(parser_.problem_mark, problem);
  }

  // decode.go's unmarshal: every decoded node counts; past 100 aliased ones and 1,000 in all, the share of aliased
  // ones may not exceed allowedAliasRatio (99% up to 400,000 nodes, falling to 10% at 4,000,000).
  void CountDecodes(std::size_t all, std::size_t aliased, const yaml_mark_t& mark) {
    decodes_ += all;
    aliased_ += aliased;
    if (aliased_ <= 100 || decodes_ <= 1000) return;
    double allowed = decodes_ <= 400000    ? 0.99
                     : decodes_ >= 4000000 ? 0.10
                                           : 0.99 - 0.89 * (static_cast<double>(decodes_ - 400000) / 3600000.0);
    if (static_cast<double>(aliased_) / static_cast<double>(decodes_) > allowed)
      FailAt(mark, "document contains excessive aliasing");
  }

  Frame* Top() { return stack_.empty() ? nullptr : &stack_.back(); }
  bool WantKey() const { return !stack_.empty() && stack_.back().kind == Kind::kMapping && stack_.back().want_key; }

  [[noreturn]] void FailWantMap(const yaml_mark_t& mark) const {
    FailAt(mark, "map merge requires map or sequence of maps as the value");
  }

  // A scalar as a JSON object key (sigs.k8s.io/yaml convertToJSONableObject): strings as they are, ints in decimal,
  // floats as float32 %g, booleans as true/false; null and uint64 keys have no form there.
  static std::optional<std::string> KeyOf(const Scalar& s, std::string& problem) {
    switch (s.type) {
      case Scalar::kString:
      case Scalar::kTimestamp:
      case Scalar::kMerge:
        return std::string(s.text);
      case Scalar::kBool:
        return s.b ? "true" : "false";
      case Scalar::kInt:
        return std::to_string(s.i);
      case Scalar::kFloat:
        return GoFloatKey(s.f);
      case Scalar::kNull:
        problem = "a null map key cannot become a JSON object key";
        return std::nullopt;
      case Scalar::kUint:
        problem = "map key " + std::to_string(s.u) + " is above the int64 range and cannot become a JSON object key";
        return std::nullopt;
    }
    return std::nullopt;
  }

  Json JsonOf(const Scalar& s, const yaml_mark_t& mark) const {
    switch (s.type) {
      case Scalar::kNull:
        return Json(nullptr);
      case Scalar::kBool:
        return Json(s.b);
      case Scalar::kInt:
        return s.i >= 0 ? Json(static_cast<std::uint64_t>(s.i)) : Json(s.i);
      case Scalar::kUint:
        return Json(s.u);
      case Scalar::kFloat:
        if (!std::isfinite(s.f))  // encoding/json refuses them
          FailAt(mark, std::string("json: unsupported value: ") + (std::isnan(s.f) ? "NaN"
                                                                   : s.f > 0       ? "+Inf"
                                                                                   : "-Inf"));
        return GoJsonFloat(s.f);
      case Scalar::kString:
      case Scalar::kTimestamp:
      case Scalar::kMerge:
        break;
    }
    return Json(std::string(s.text));
  }

  // decode.go's scalar: quoted and block scalars without a tag are strings; the rest go through resolve.
  Scalar Resolve(const yaml_event_t& e) const {
    std::string_view value(reinterpret_cast<const char*>(e.data.scalar.value), e.data.scalar.length);
    std::string_view tag = e.data.scalar.tag ? reinterpret_cast<const char*>(e.data.scalar.tag) : "";
    Scalar r;
    r.text = value;
    if (tag.empty() && !e.data.scalar.plain_implicit) return r;
    if (tag == kBinaryTag) {
      auto data = GoBase64(value);
      if (!data) FailAt(e.start_mark, "!!binary value contains invalid base64 data");
      r.owned = GoValidUtf8(*data);
      return r;
    }
    if (!(tag.empty() || tag == kStrTag || tag == kBoolTag || tag == kIntTag || tag == kFloatTag || tag == kNullTag ||
          tag == kTimestampTag))
      return r;  // other tags (custom ones, "!") keep the text
    Scalar got = ResolveText(tag, value);
    if (tag.empty() || tag == kStrTag || TypeTag(got.type) == tag) return got;
    if (tag == kFloatTag && got.type == Scalar::kInt) {
      got.type = Scalar::kFloat;
      got.f = static_cast<double>(got.i);
      return got;
    }
    FailAt(e.start_mark,
           "cannot decode " + ShortTag(TypeTag(got.type)) + " `" + std::string(value) + "` as a " + ShortTag(tag));
  }

  void OpenAnchor(const unsigned char* name) {
    if (!name) return;
    Anchor& a = anchors_[reinterpret_cast<const char*>(name)];
    a = Anchor{};
  }

  void OnScalar() {
    const yaml_event_t& e = event_;
    const char* anchor = reinterpret_cast<const char*>(e.data.scalar.anchor);
    std::string_view value(reinterpret_cast<const char*>(e.data.scalar.value), e.data.scalar.length);
    std::size_t decodes_at_start = decodes_, bytes_at_start = bytes_;
    if (WantKey()) {
      Frame& top = stack_.back();
      std::string_view tag = e.data.scalar.tag ? reinterpret_cast<const char*>(e.data.scalar.tag) : "";
      bool merge = value == "<<" && (e.data.scalar.plain_implicit || tag == kMergeTag);  // decode.go isMerge
      if (!merge) CountDecodes(1, 0, e.start_mark);
      bytes_ += 1 + value.size();
      Scalar s = Resolve(e);
      if (!s.owned.empty()) s.text = s.owned;
      std::string problem;
      auto key = KeyOf(s, problem);
      if (anchor) Remember(anchor, Kind::kScalar, Json(), key, problem, decodes_at_start, bytes_at_start, 0);
      if (merge) {
        top.merge = true;
      } else {
        if (!key) FailAt(e.start_mark, problem);
        top.key = std::move(*key);
      }
      top.want_key = false;
      return;
    }
    CountDecodes(1, 0, e.start_mark);
    bytes_ += 1 + value.size();
    if (Frame* top = Top(); top && (top->merge_sequence || (top->kind == Kind::kMapping && top->merge)))
      FailWantMap(e.start_mark);
    Scalar s = Resolve(e);
    if (!s.owned.empty()) s.text = s.owned;
    Json json = JsonOf(s, e.start_mark);
    if (anchor) {
      std::string problem;
      auto key = KeyOf(s, problem);
      Remember(anchor, Kind::kScalar, json, key, problem, decodes_at_start, bytes_at_start, 0);
    }
    Deliver(std::move(json), Node{Kind::kScalar, false, 0, e.start_mark});
  }

  void Remember(const std::string& name, Kind kind, Json json, std::optional<std::string> key, std::string problem,
                std::size_t decodes_at_start, std::size_t bytes_at_start, int height) {
    Anchor& a = anchors_[name];
    a.open = false;
    a.kind = kind;
    a.json = std::move(json);
    a.key = std::move(key);
    a.key_problem = std::move(problem);
    a.decodes = decodes_ - decodes_at_start;
    a.bytes = bytes_ - bytes_at_start;
    a.height = height;
  }

  void OnAlias() {
    const yaml_event_t& e = event_;
    std::string name(reinterpret_cast<const char*>(e.data.alias.anchor));
    auto it = anchors_.find(name);
    if (it == anchors_.end()) FailAt(e.start_mark, "unknown anchor '" + name + "' referenced");
    const Anchor& a = it->second;
    if (a.open) FailAt(e.start_mark, "anchor '" + name + "' value contains itself");
    CountDecodes(1, 0, e.start_mark);                  // the alias node
    CountDecodes(a.decodes, a.decodes, e.start_mark);  // its target again, all of it aliased
    stream_.alias_bytes += a.bytes;
    if (stream_.alias_bytes > stream_.alias_bytes_limit)
      FailAt(e.start_mark, "aliases expand to more than " + std::to_string(stream_.alias_bytes_limit) +
                               " bytes (the limit is twice the input size plus 1 MiB)");
    bytes_ += a.bytes;
    if (stack_.size() + static_cast<std::size_t>(a.height) > static_cast<std::size_t>(kMaxJsonDepth))
      FailAt(e.start_mark, "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    if (WantKey()) {
      if (a.kind != Kind::kScalar)
        FailAt(e.start_mark, std::string("invalid map key: a ") + (a.kind == Kind::kMapping ? "mapping" : "sequence") +
                                 " cannot be a map key");
      if (!a.key) FailAt(e.start_mark, a.key_problem);
      stack_.back().key = *a.key;
      stack_.back().want_key = false;
      return;
    }
    Frame* top = Top();
    if (top && top->merge_sequence && a.kind != Kind::kMapping) FailWantMap(e.start_mark);
    Deliver(Json(a.json), Node{a.kind, true, a.height, e.start_mark});
  }

  void OnStart(Kind kind, const unsigned char* anchor) {
    const yaml_mark_t& mark = event_.start_mark;
    if (WantKey())
      FailAt(mark, std::string("invalid map key: a ") + (kind == Kind::kMapping ? "mapping" : "sequence") +
                       " cannot be a map key");
    if (stack_.size() + 1 > static_cast<std::size_t>(kMaxJsonDepth))
      FailAt(mark, "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    Frame* top = Top();
    bool merge_sequence = kind == Kind::kSequence && top && top->kind == Kind::kMapping && top->merge;
    if (kind == Kind::kSequence && top && top->merge_sequence) FailWantMap(mark);
    Frame f;
    f.kind = kind;
    f.json = kind == Kind::kMapping ? Json::object() : Json::array();
    f.mark = mark;
    f.decodes_at_start = decodes_;
    f.bytes_at_start = bytes_;
    f.merge_sequence = merge_sequence;
    if (anchor) {
      f.anchor = reinterpret_cast<const char*>(anchor);
      OpenAnchor(anchor);
    }
    // decode.go's merge walks a sequence's items itself: the sequence is no decoded node.
    if (!merge_sequence) CountDecodes(1, 0, mark);
    bytes_ += 1;
    stack_.push_back(std::move(f));
  }

  void OnEnd() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    // Members were appended in document order, merges included: sorted once here, the last of a repeated key winning
    // as decode.go's assignments in turn do.
    if (f.kind == Kind::kMapping) f.json.get_ref<Json::object_t&>().SortAppended();
    if (!f.anchor.empty()) {
      std::size_t decodes_at_start = f.decodes_at_start;
      Remember(f.anchor, f.kind, f.json, std::nullopt, "", decodes_at_start, f.bytes_at_start, f.height);
    }
    Deliver(std::move(f.json), Node{f.kind, false, f.height, f.mark});
  }

  void Deliver(Json&& json, const Node& node) {
    if (stack_.empty()) {
      root_ = std::move(json);
      done_ = true;
      return;
    }
    Frame& p = stack_.back();
    p.height = std::max(p.height, node.height + 1);
    if (p.kind == Kind::kSequence) {
      if (p.merge_sequence && node.kind != Kind::kMapping) FailWantMap(node.mark);
      p.json.get_ref<Json::array_t&>().push_back(std::move(json));
      return;
    }
    auto& object = p.json.get_ref<Json::object_t&>();
    p.want_key = true;
    if (!p.merge) {
      object.AppendUnsorted(std::move(p.key)) = std::move(json);
      p.key.clear();
      return;
    }
    // decode.go's merge: the merged mapping's entries are set in turn, overriding what is there; a sequence's
    // mappings from the last to the first, so earlier ones win among them.
    p.merge = false;
    if (node.kind == Kind::kMapping) {
      for (auto& [k, v] : json.get_ref<Json::object_t&>()) object.AppendUnsorted(std::string(k)) = std::move(v);
    } else if (node.kind == Kind::kSequence && !node.from_alias) {
      auto& items = json.get_ref<Json::array_t&>();
      for (auto it = items.rbegin(); it != items.rend(); ++it)
        for (auto& [k, v] : it->get_ref<Json::object_t&>()) object.AppendUnsorted(std::string(k)) = std::move(v);
    } else {
      FailWantMap(node.mark);
    }
  }

  StreamState& stream_;
  std::string_view chunk_;
  std::size_t first_line_;
  std::size_t number_;
  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool have_event_ = false;
  std::vector<Frame> stack_;
  std::unordered_map<std::string, Anchor> anchors_;
  Json root_;
  bool done_ = false;
  std::size_t decodes_ = 0, aliased_ = 0;
  std::size_t bytes_ = 0;
};

// ---- The stream: kubectl's YAMLOrJSONDecoder -----------------------------------------------------------------------

bool GoIsSpaceAt(std::string_view s, std::size_t i, std::size_t& width) {  // unicode.IsSpace on the rune at i
  unsigned char c = static_cast<unsigned char>(s[i]);
  width = 1;
  if (c == ' ' || (c >= '\t' && c <= '\r')) return true;
  if (c == 0xC2 && i + 1 < s.size() &&
      (static_cast<unsigned char>(s[i + 1]) == 0x85 || static_cast<unsigned char>(s[i + 1]) == 0xA0)) {
    width = 2;
    return true;
  }
  return false;
}

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Where the JSON value starting at p ends, found the way a decoder would read it (brackets outside strings);
// the text's end when it never closes.
std::size_t JsonValueEnd(std::string_view text, std::size_t p) {
  char c = text[p];
  if (c == '{' || c == '[' || c == '"') {
    int depth = 0;
    bool in_string = false, escape = false;
    for (std::size_t i = p; i < text.size(); ++i) {
      char d = text[i];
      if (in_string) {
        if (escape)
          escape = false;
        else if (d == '\\')
          escape = true;
        else if (d == '"') {
          in_string = false;
          if (depth == 0) return i + 1;
        }
      } else if (d == '"') {
        in_string = true;
      } else if (d == '{' || d == '[') {
        ++depth;
      } else if (d == '}' || d == ']') {
        if (--depth == 0) return i + 1;
      }
    }
    return text.size();
  }
  std::size_t i = p;
  while (i < text.size() && !IsJsonSpace(text[i]) && std::string_view(",:[]{}\"").find(text[i]) == std::string::npos)
    ++i;
  return i == p ? p + 1 : i;
}

// ParseJsonText's message for a value at byte p of the stream, with the stream's lines and the document number.
InputError JsonErrorInStream(const InputError& e, std::string_view text, std::size_t p, std::size_t number) {
  std::string msg = e.what();
  constexpr std::string_view kAt = "invalid JSON at line ";
  if (msg.rfind(kAt, 0) != 0)
    return number > 1 ? InputError("invalid JSON in document " + std::to_string(number) +
                                   msg.substr(std::string_view("invalid JSON").size()))
                      : e;
  std::size_t line = 0, col = 0;
  std::size_t i = kAt.size();
  while (i < msg.size() && IsDigit(msg[i])) line = line * 10 + static_cast<std::size_t>(msg[i++] - '0');
  constexpr std::string_view kCol = ", column ";
  if (msg.compare(i, kCol.size(), kCol) != 0) return e;
  i += kCol.size();
  while (i < msg.size() && IsDigit(msg[i])) col = col * 10 + static_cast<std::size_t>(msg[i++] - '0');
  auto [base_line, base_col] = LineColumn(text, p);
  if (line == 1) col += base_col - 1;
  line += base_line - 1;
  return InputError(Where("JSON", number, line, col) + msg.substr(i));
}

class Stream {
 public:
  Stream(std::string_view text, const std::function<void(Json&&, const YamlDocumentInfo&)>& emit)
      : text_(text), emit_(emit) {
    state_.text = text;
    state_.alias_bytes_limit = kAliasBytesFloor + kAliasBytesPerInputByte * text.size();
  }

  void Run() {
    std::size_t pos = 0;
    std::optional<InputError> json_error;
    std::size_t first = 0, width = 0;
    while (first < text_.size() && GoIsSpaceAt(text_, first, width)) first += width;
    if (first < text_.size() && text_[first] == '{') pos = ReadJson(json_error);
    ReadYaml(pos, json_error);
  }

 private:
  // json.Decoder over the stream, one value a document. The first failure after at most one value hands the rest to
  // the YAML reader (after the blanks up to the first newline); after two values it is final.
  std::size_t ReadJson(std::optional<InputError>& json_error) {
    std::size_t pos = 0, count = 0;
    std::size_t line = 1, counted = 0;  // lines up to byte `counted`, kept as we go (no rescans from the top)
    for (;;) {
      std::size_t p = pos;
      while (p < text_.size() && IsJsonSpace(text_[p])) ++p;
      if (p == text_.size()) return text_.size();
      line += static_cast<std::size_t>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(counted),
                                                  text_.begin() + static_cast<std::ptrdiff_t>(p), '\n'));
      counted = p;
      std::size_t end = JsonValueEnd(text_, p);
      Json value;
      try {
        value = ParseJsonText(text_.substr(p, end - p));
      } catch (const InputError& e) {
        InputError located = JsonErrorInStream(e, text_, p, number_ + 1);
        if (count > 1) throw located;
        json_error = located;
        std::size_t width = 0;
        while (pos < text_.size() && GoIsSpaceAt(text_, pos, width)) {
          pos += width;
          if (text_[pos - 1] == '\n') break;
        }
        return pos;
      }
      ++count;
      ++number_;
      pos = end;
      if (!value.is_null()) emit_(std::move(value), YamlDocumentInfo{number_, line});
    }
  }

  // YAMLReader: lines beginning with `---` followed by nothing but blanks or a comment end a document (a first one
  // stays in the document it starts); one go-yaml Unmarshal per document.
  void ReadYaml(std::size_t pos, std::optional<InputError>& json_error) {
    std::size_t line = LineColumn(text_, pos).first;
    std::size_t begin = std::string_view::npos, begin_line = 0;
    while (pos < text_.size()) {
      std::size_t nl = text_.find('\n', pos);
      std::size_t next = nl == std::string_view::npos ? text_.size() : nl + 1;
      std::string_view content = text_.substr(pos, (nl == std::string_view::npos ? text_.size() : nl) - pos);
      if (content.substr(0, 3) == "---") {
        std::string_view rest = content.substr(3);
        std::size_t width = 0;
        while (!rest.empty() && GoIsSpaceAt(rest, 0, width)) rest.remove_prefix(width);
        while (!rest.empty() && GoIsSpaceAt(rest, rest.size() - 1, width)) rest.remove_suffix(1);
        if (!rest.empty() && rest[0] != '#')
          Fail(number_ + 1, line, 1, "invalid document separator: " + std::string(rest));
        if (begin != std::string_view::npos) {
          Document(begin, pos, begin_line, json_error);
          begin = std::string_view::npos;
          pos = next;
          ++line;
          continue;
        }
      }
      if (begin == std::string_view::npos) {
        begin = pos;
        begin_line = line;
      }
      pos = next;
      ++line;
    }
    if (begin != std::string_view::npos) Document(begin, text_.size(), begin_line, json_error);
  }

  void Document(std::size_t begin, std::size_t end, std::size_t first_line, std::optional<InputError>& json_error) {
    ++number_;
    std::optional<Json> value;
    try {
      DocumentDecoder decoder(state_, text_.substr(begin, end - begin), first_line, number_);
      value = decoder.Decode();
    } catch (const InputError&) {
      if (json_error) throw *json_error;  // kubectl reports the JSON error when both readings fail
      throw;
    }
    json_error.reset();
    if (value && !value->is_null()) emit_(std::move(*value), YamlDocumentInfo{number_, first_line});
  }

  std::string_view text_;
  const std::function<void(Json&&, const YamlDocumentInfo&)>& emit_;
  StreamState state_;
  std::size_t number_ = 0;
};

// ---- Json -> YAML (JsonToYaml) --------------------------------------------------------------------------------

// A string written plain reads back as itself: go-yaml v2 (the resolution above) would not take it for a null, a
// bool, a number or the merge key; nothing in it starts a comment, a mapping value, a flow collection, an alias, a
// tag, a directive or a document marker; it is printable ASCII without leading or trailing space. Strings that
// other YAML readers take for something else are quoted too: timestamps (go-yaml v3 decodes them as time.Time) and
// YAML 1.1's sexagesimal numbers (`1:30`).
bool PlainSafe(std::string_view s) {
  if (s.empty() || std::string_view("-?:,[]{}#&*!|>'\"%@` ").find(s[0]) != std::string_view::npos) return false;
  if (s.substr(0, 3) == "..." || s == "<<") return false;  // a document end; the merge key (decode.go isMerge)
  if (s.back() == ' ' || s.back() == ':') return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c >= 0x7f) return false;
    if (c == ':' && (i + 1 == s.size() || s[i + 1] == ' ')) return false;
    if (c == '#' && s[i - 1] == ' ') return false;
  }
  if (ResolveText("", s).type != Scalar::kString || GoTimestamp(s)) return false;
  if ((IsDigit(s[0]) || s[0] == '+' || s[0] == '-') && s.find(':') != std::string_view::npos) return false;
  return true;
}

// A double-quoted scalar: the JSON escapes YAML shares, \xHH for other control characters (C1 included), and YAML's
// own escapes for what YAML 1.1 reads as line breaks (NEL, LS, PS), skips (a byte order mark) or refuses (U+FFFE,
// U+FFFF).
std::string DoubleQuoted(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\r':
        out += "\\r";
        continue;
      default:
        break;
    }
    if (c < 0x20 || c == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      // U+0080..U+009F: C1 controls, not printable in YAML; U+0085 (NEL) is a line break.
      const auto cp = static_cast<unsigned char>(s[i + 1]);
      static constexpr char kHex[] = "0123456789abcdef";
      out += cp == 0x85 ? std::string("\\N") : std::string("\\x") + kHex[cp >> 4] + kHex[cp & 15];
      ++i;
    } else if (s.substr(i, 3) == "\xEF\xBF\xBE" || s.substr(i, 3) == "\xEF\xBF\xBF") {
      out += s[i + 2] == '\xBE' ? "\\uFFFE" : "\\uFFFF";  // noncharacters, not printable in YAML
      i += 2;
    } else if (s.substr(i, 3) == "\xE2\x80\xA8") {
      out += "\\L";
      i += 2;
    } else if (s.substr(i, 3) == "\xE2\x80\xA9") {
      out += "\\P";
      i += 2;
    } else if (s.substr(i, 3) == "\xEF\xBB\xBF") {
      out += "\\uFEFF";
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string ScalarYaml(const Json& v) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    return PlainSafe(s) ? s : DoubleQuoted(s);
  }
  // null, true/false and numbers as JSON writes them, which go-yaml v2 resolves to the same values.
  return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool IsBlock(const Json& v) { return (v.is_object() || v.is_array()) && !v.empty(); }

// Writes v, a non-empty container, as a block node whose lines are indented by `indent`; the first line's indent is
// already written when first_inline (a sequence entry's "- ").
void EmitBlock(const Json& v, std::size_t indent, bool first_inline, std::string& out) {
  bool first = true;
  auto pad = [&]() {
    if (!(first && first_inline)) out.append(indent, ' ');
    first = false;
  };
  if (v.is_array()) {
    for (const Json& e : v) {
      pad();
      out += '-';
      if (IsBlock(e)) {
        out += ' ';
        EmitBlock(e, indent + 2, true, out);
      } else {
        out += ' ';
        out += e.is_object() ? "{}" : e.is_array() ? "[]" : ScalarYaml(e);
        out += '\n';
      }
    }
    return;
  }
  for (auto it = v.begin(); it != v.end(); ++it) {
    pad();
    const std::string key = ScalarYaml(Json(it.key()));
    // libyaml reads an implicit key of at most 1024 characters; a longer one is an explicit key ("? key").
    const bool explicit_key = key.size() > 1000;
    if (explicit_key) {
      out += "? " + key + "\n";
      out.append(indent, ' ');
    } else {
      out += key;
    }
    out += ':';
    const Json& value = it.value();
    if (value.is_object() && !value.empty()) {
      out += '\n';
      EmitBlock(value, indent + 2, false, out);
    } else if (value.is_array() && !value.empty()) {
      out += '\n';
      // kubectl's (go-yaml v2's) style: a mapping's sequence is not indented further; under an explicit key it is.
      EmitBlock(value, explicit_key ? indent + 2 : indent, false, out);
    } else {
      out += ' ';
      out += value.is_object() ? "{}" : value.is_array() ? "[]" : ScalarYaml(value);
      out += '\n';
    }
  }
}

}  // namespace

void ForEachYamlDocument(std::string_view text,
                         const std::function<void(Json&&, const YamlDocumentInfo&)>& on_document) {
  CheckInputSize(text.size());
  Stream(text, on_document).Run();
}

std::vector<Json> ParseYamlText(std::string_view text) {
  std::vector<Json> out;
  ForEachYamlDocument(text, [&](Json&& value, const YamlDocumentInfo&) { out.push_back(std::move(value)); });
  return out;
}

std::string JsonToYaml(const Json& doc) {
  std::string out;
  if (IsBlock(doc))
    EmitBlock(doc, 0, false, out);
  else
    out = (doc.is_object() ? "{}" : doc.is_array() ? "[]" : ScalarYaml(doc)) + "\n";
  return out;
}

}  // namespace kplace::io
