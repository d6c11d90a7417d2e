#include "core/io/object_keys.h"

#include <stdexcept>

namespace kplace::io {

std::uint64_t ObjectKeys::Hash(std::string_view key) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a: the same on every platform (size_t is 32 bits in wasm32)
  for (char c : key) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h ^ (h >> 29);
}

std::uint32_t ObjectKeys::Find(std::string_view key, std::uint64_t hash) const {
  if (slots_.empty()) return kNone;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = static_cast<std::size_t>(hash) & mask;; at = (at + 1) & mask) {
    const std::uint32_t e = slots_[at];
    if (e == kNone) return kNone;
    const Entry& entry = entries_[e];
    if (entry.hash == hash && std::string_view(text_).substr(entry.at, entry.key_size) == key) return e;
  }
}

void ObjectKeys::Place(std::vector<std::uint32_t>& slots, std::uint32_t e) const {
  const std::size_t mask = slots.size() - 1;
  std::size_t at = static_cast<std::size_t>(entries_[e].hash) & mask;
  while (slots[at] != kNone) at = (at + 1) & mask;
  slots[at] = e;
}

void ObjectKeys::Grow() {
  std::vector<std::uint32_t> slots(slots_.empty() ? 1024 : slots_.size() * 2, kNone);
  for (std::uint32_t e = 0; e < entries_.size(); ++e) Place(slots, e);
  slots_ = std::move(slots);
}

std::optional<std::string> ObjectKeys::Insert(std::string_view key, std::string_view label) {
  const std::uint64_t hash = Hash(key);
  if (const std::uint32_t e = Find(key, hash); e != kNone) {
    const Entry& entry = entries_[e];
    return std::string(std::string_view(text_).substr(entry.at + entry.key_size, entry.label_size));
  }
  if (entries_.size() >= kNone - 1) throw std::length_error("too many objects");
  if ((entries_.size() + 1) * 2 > slots_.size()) Grow();
  entries_.push_back(
      {hash, text_.size(), static_cast<std::uint32_t>(key.size()), static_cast<std::uint32_t>(label.size())});
  text_.append(key);
  text_.append(label);
  Place(slots_, static_cast<std::uint32_t>(entries_.size() - 1));
  return std::nullopt;
}

}  // namespace kplace::io
