// The objects a scenario defines so far, by "Kind namespace/name", each with the label of the item that defined it
// (for "duplicate Pod default/web (also items[3])").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kplace::io {

// One open-addressing table of hashes and one block of text: a 150,000-pod dump costs a few large blocks, not a
// node and two strings per object (that map's lookups missed the cache at every item, and freeing it was one long
// step of the page's import).
class ObjectKeys {
 public:
  // Adds key with label. When key is already there, adds nothing and returns the label it was added with.
  std::optional<std::string> Insert(std::string_view key, std::string_view label);
  bool Contains(std::string_view key) const { return Find(key, Hash(key)) != kNone; }
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::uint64_t hash;
    std::size_t at;  // the key, then the label, in text_
    std::uint32_t key_size, label_size;
  };
  static constexpr std::uint32_t kNone = 0xffffffffu;
  static std::uint64_t Hash(std::string_view key);
  std::uint32_t Find(std::string_view key, std::uint64_t hash) const;    // the entry, or kNone
  void Place(std::vector<std::uint32_t>& slots, std::uint32_t e) const;  // entry e in its first free slot
  void Grow();

  std::vector<std::uint32_t> slots_;  // entry indexes (kNone: empty); a power of two, at most half full
  std::vector<Entry> entries_;
  std::string text_;
};

}  // namespace kplace::io
