#include "core/model/symbol.h"

#include <deque>
#include <unordered_map>

namespace kplace {
namespace {

struct SymbolTable {
  std::deque<std::string> texts;  // deque: stable addresses for the string_view keys below
  std::unordered_map<std::string_view, Symbol> index;
  SymbolTable() { Add(""); }
  Symbol Add(std::string_view t) {
    texts.emplace_back(t);
    auto id = static_cast<Symbol>(texts.size() - 1);
    index.emplace(texts.back(), id);
    return id;
  }
};

SymbolTable& Table() {
  static SymbolTable table;
  return table;
}

}  // namespace

Symbol Intern(std::string_view text) {
  auto& t = Table();
  if (auto it = t.index.find(text); it != t.index.end()) return it->second;
  return t.Add(text);
}

Symbol Lookup(std::string_view text) {
  auto& t = Table();
  auto it = t.index.find(text);
  return it == t.index.end() ? kNoSymbol : it->second;
}

const std::string& Text(Symbol s) { return Table().texts.at(s); }

}  // namespace kplace
