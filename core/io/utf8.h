// UTF-8 validity as Go's utf8 package and nlohmann see it, shared by the JSON and YAML readers.
#pragma once

#include <cstddef>
#include <string_view>

namespace kplace::io {

// The length of the valid UTF-8 sequence starting at s[i], or 0 when the byte there does not start one (truncated,
// overlong, a surrogate, above U+10FFFF).
inline std::size_t Utf8SequenceLength(std::string_view s, std::size_t i) {
  auto b = static_cast<unsigned char>(s[i]);
  std::size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  bool ok = len > 0 && i + len <= s.size() && !(len == 2 && b < 0xC2) && !(len == 4 && b > 0xF4);
  for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
  if (ok && len > 2) {  // overlong forms, surrogates, above U+10FFFF
    auto c = static_cast<unsigned char>(s[i + 1]);
    ok = !(b == 0xE0 && c < 0xA0) && !(b == 0xED && c >= 0xA0) && !(b == 0xF0 && c < 0x90) && !(b == 0xF4 && c >= 0x90);
  }
  return ok ? len : 0;
}

}  // namespace kplace::io
