// A JSON object's members in one vector sorted by key: the object type of kplace's Json (json_reader.h).
//
// nlohmann's default, std::map, allocates a tree node per member and follows pointers on every lookup; the readers
// look up a handful of keys in each of a scenario's hundreds of thousands of small objects, and a kubectl dump
// builds and frees millions of members. Here an object is one allocation, a lookup scans a few adjacent keys (or
// bisects a large object), and the order is std::map's (bytewise by key), so every dump, iteration and comparison
// of a Json keeps its bytes.
//
// Parsers that build objects member by member (json_text.cpp, yaml_text.cpp) append in document order and sort once
// when the object closes (AppendUnsorted, SortAppended): inserting each member in order would cost a move of the
// members after it, quadratic in a hostile object of a million keys.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace kplace::io {

// The template parameters are those nlohmann passes an ObjectType (key, value, comparator, allocator); the
// comparator and allocator are not used: keys compare bytewise, as std::less<std::string> does.
template <class Key, class T, class IgnoredLess = std::less<>, class IgnoredAllocator = void>
class SortedObject {
 public:
  using key_type = Key;
  using mapped_type = T;
  using value_type = std::pair<Key, T>;  // not pair<const Key, T>: sorting moves members
  using Members = std::vector<value_type>;
  using iterator = typename Members::iterator;
  using const_iterator = typename Members::const_iterator;
  using size_type = typename Members::size_type;
  using difference_type = typename Members::difference_type;
  using key_compare = std::less<>;  // transparent: nlohmann looks keys up as string_view and char arrays too

  SortedObject() = default;
  template <class It>
  SortedObject(It first, It last) {
    for (; first != last; ++first) emplace(first->first, first->second);
  }
  SortedObject(std::initializer_list<value_type> init) : SortedObject(init.begin(), init.end()) {}

  iterator begin() noexcept { return members_.begin(); }
  iterator end() noexcept { return members_.end(); }
  const_iterator begin() const noexcept { return members_.begin(); }
  const_iterator end() const noexcept { return members_.end(); }
  const_iterator cbegin() const noexcept { return members_.cbegin(); }
  const_iterator cend() const noexcept { return members_.cend(); }
  size_type size() const noexcept { return members_.size(); }
  bool empty() const noexcept { return members_.empty(); }
  size_type max_size() const noexcept { return members_.max_size(); }
  void clear() noexcept { members_.clear(); }
  void reserve(size_type n) { members_.reserve(n); }

  // Lookups take a string_view (std::string, string_view and literals convert): one instance of each, not one per
  // key type and literal length, in a page whose size is budgeted.
  iterator find(std::string_view key) { return begin() + static_cast<difference_type>(Position(key)); }
  const_iterator find(std::string_view key) const { return begin() + static_cast<difference_type>(Position(key)); }
  size_type count(std::string_view key) const { return find(key) == end() ? 0 : 1; }
  // The value of the member a NUL-terminated name names (a literal at the readers' call sites), or nullptr. Small
  // objects compare the name as they read it (no strlen, no memcmp: calls to byte loops in the page's core); larger
  // ones measure it once and bisect.
  [[gnu::noinline]] const T* FindName(const char* name) const {
    const std::size_t n = members_.size();
    if (n <= kScan) {
      for (std::size_t i = 0; i < n; ++i)
        if (SameName(members_[i].first, name)) return &members_[i].second;
      return nullptr;
    }
    const std::size_t at = Position(std::string_view(name));
    return at == n ? nullptr : &members_[at].second;
  }
  bool contains(std::string_view key) const { return find(key) != end(); }
  T& at(std::string_view key) {
    auto it = find(key);
    if (it == end()) throw std::out_of_range("key not found");
    return it->second;
  }
  const T& at(std::string_view key) const {
    auto it = find(key);
    if (it == end()) throw std::out_of_range("key not found");
    return it->second;
  }

  // std::map's: a key already there keeps its value.
  [[gnu::noinline]] std::pair<iterator, bool> emplace(Key key, T value) {
    auto pos = LowerBound(key);
    if (pos != end() && pos->first == key) return {pos, false};
    return {members_.emplace(pos, std::move(key), std::move(value)), true};
  }
  std::pair<iterator, bool> insert(const value_type& v) { return emplace(v.first, v.second); }
  std::pair<iterator, bool> insert(value_type&& v) { return emplace(std::move(v.first), std::move(v.second)); }
  template <class It>
  void insert(It first, It last) {
    for (; first != last; ++first) emplace(first->first, first->second);
  }
  T& operator[](Key key) { return emplace(std::move(key), T()).first->second; }

  iterator erase(const_iterator pos) { return members_.erase(pos); }
  iterator erase(const_iterator first, const_iterator last) { return members_.erase(first, last); }
  size_type erase(std::string_view key) {
    auto it = find(key);
    if (it == end()) return 0;
    members_.erase(it);
    return 1;
  }

  // For parsers: members appended in document order, then SortAppended() once the object is complete. A repeated
  // key keeps its last value, as assigning member by member would. The returned reference lives until the next
  // append.
  T& AppendUnsorted(Key&& key) { return members_.emplace_back(std::move(key), T()).second; }
  // For parsers that refill an object in place (json_text.cpp: a List's items parsed one after another into one
  // tree): member k, appended when k == size(), whose key and value the parser overwrites, reusing their storage; then
  // DropFrom(n) removes the members from n on, and SortAppended() sorts.
  value_type& Refill(std::size_t k) {
    if (k == members_.size()) members_.emplace_back();
    return members_[k];
  }
  void DropFrom(std::size_t n) { members_.erase(members_.begin() + static_cast<difference_type>(n), members_.end()); }
  [[gnu::noinline]] void SortAppended() {
    if (IsSortedUnique()) return;
    // Stable (the last of a repeated key must stay last): insertion sort within runs of kRun, then runs merged in
    // pairs through a buffer. Written out rather than std::stable_sort, whose instance cost the page 8 KB.
    const std::size_t n = members_.size();
    for (std::size_t lo = 0; lo < n; lo += kRun) {
      const std::size_t hi = std::min(n, lo + kRun);
      for (std::size_t i = lo + 1; i < hi; ++i) {
        if (!KeyLess(members_[i].first, members_[i - 1].first)) continue;
        value_type moving = std::move(members_[i]);
        std::size_t j = i;
        for (; j > lo && KeyLess(moving.first, members_[j - 1].first); --j) members_[j] = std::move(members_[j - 1]);
        members_[j] = std::move(moving);
      }
    }
    if (n > kRun) {
      Members merged(n);
      for (std::size_t width = kRun; width < n; width *= 2) {
        for (std::size_t lo = 0; lo < n; lo += 2 * width) {
          const std::size_t mid = std::min(n, lo + width), hi = std::min(n, lo + 2 * width);
          std::size_t i = lo, j = mid, k = lo;
          while (i < mid && j < hi)  // from the right only when strictly smaller: stable
            merged[k++] = std::move(KeyLess(members_[j].first, members_[i].first) ? members_[j++] : members_[i++]);
          while (i < mid) merged[k++] = std::move(members_[i++]);
          while (j < hi) merged[k++] = std::move(members_[j++]);
        }
        members_.swap(merged);
      }
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (kept > 0 && SameKey(members_[kept - 1].first, members_[i].first))
        members_[kept - 1] = std::move(members_[i]);  // the later one wins
      else if (kept++ != i)
        members_[kept - 1] = std::move(members_[i]);
    }
    members_.erase(members_.begin() + static_cast<difference_type>(kept), members_.end());
  }

  friend bool operator==(const SortedObject& a, const SortedObject& b) { return a.members_ == b.members_; }
  friend bool operator!=(const SortedObject& a, const SortedObject& b) { return !(a == b); }
  friend bool operator<(const SortedObject& a, const SortedObject& b) { return a.members_ < b.members_; }

 private:
  // Small objects (most of a manifest's) are scanned: comparing lengths first rejects most keys without reading
  // them. Larger ones are bisected.
  static constexpr std::size_t kScan = 8;
  static constexpr std::size_t kRun = 16;  // SortAppended's runs sorted in place

  // Out of line: nlohmann inlines find into every lookup of the readers, and the page's size is budgeted.
  [[gnu::noinline]] std::size_t Position(std::string_view key) const {
    const std::size_t n = members_.size();
    if (n <= kScan) {
      for (std::size_t i = 0; i < n; ++i)
        if (SameKey(members_[i].first, key)) return i;
      return n;
    }
    auto it = LowerBound(key);
    return it != members_.end() && SameKey(it->first, key) ? static_cast<std::size_t>(it - members_.begin()) : n;
  }
  // Key comparisons written out for the short keys of manifests: lengths first, then 8 bytes at a time, and the
  // first bytes before a full comparison. In the page's core, memcmp is a call to a loop that reads a byte at a time
  // when the keys are not 4-byte aligned (they rarely are in a string's inline buffer).
  static bool SameKey(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    const char* x = a.data();
    const char* y = b.data();
    std::size_t n = a.size();
    for (; n >= 8; n -= 8, x += 8, y += 8) {
      std::uint64_t u, v;
      std::memcpy(&u, x, sizeof u);
      std::memcpy(&v, y, sizeof v);
      if (u != v) return false;
    }
    for (; n > 0; --n)
      if (*x++ != *y++) return false;
    return true;
  }
  static bool SameName(std::string_view key, const char* name) {
    for (const char c : key) {
      if (*name == '\0' || *name != c) return false;  // the name ends first (a key may hold a NUL), or differs
      ++name;
    }
    return *name == '\0';
  }
  static bool KeyLess(std::string_view a, std::string_view b) {
    if (!a.empty() && !b.empty() && a[0] != b[0])
      return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]);
    return a < b;
  }
  iterator LowerBound(std::string_view key) {
    return std::lower_bound(members_.begin(), members_.end(), key,
                            [](const value_type& m, std::string_view k) { return std::string_view(m.first) < k; });
  }
  const_iterator LowerBound(std::string_view key) const {
    return std::lower_bound(members_.begin(), members_.end(), key,
                            [](const value_type& m, std::string_view k) { return std::string_view(m.first) < k; });
  }
  bool IsSortedUnique() const {
    for (std::size_t i = 1; i < members_.size(); ++i)
      if (!KeyLess(members_[i - 1].first, members_[i].first)) return false;
    return true;
  }

  Members members_;
};

}  // namespace kplace::io
