// Interned strings. Label keys and values, taint keys, resource names and topology keys are compared millions of
// times per run; interning turns those comparisons into integer compares. Symbols are process-wide and
// append-only. Never order output by a Symbol's number: order by its text.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kplace {

using Symbol = std::uint32_t;

// The empty string is always Symbol 0.
inline constexpr Symbol kEmptySymbol = 0;

Symbol Intern(std::string_view text);
// Returns the symbol for text if it was ever interned, or nullopt-like kNoSymbol.
inline constexpr Symbol kNoSymbol = UINT32_MAX;
Symbol Lookup(std::string_view text);
const std::string& Text(Symbol s);

}  // namespace kplace
