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

  template <class K>
  iterator find(const K& key) {
    return begin() + Position(std::string_view(key));
  }
  template <class K>
  const_iterator find(const K& key) const {
    return begin() + Position(std::string_view(key));
  }
  template <class K>
  size_type count(const K& key) const {
    return find(key) == end() ? 0 : 1;
  }
  template <class K>
  bool contains(const K& key) const {
    return find(key) != end();
  }
  template <class K>
  T& at(const K& key) {
    auto it = find(key);
    if (it == end()) throw std::out_of_range("key not found");
    return it->second;
  }
  template <class K>
  const T& at(const K& key) const {
    auto it = find(key);
    if (it == end()) throw std::out_of_range("key not found");
    return it->second;
  }

  // std::map's: a key already there keeps its value.
  template <class K, class... Args>
  std::pair<iterator, bool> emplace(K&& key, Args&&... args) {
    const std::string_view k(key);
    auto pos = LowerBound(k);
    if (pos != end() && std::string_view(pos->first) == k) return {pos, false};
    pos = members_.emplace(pos, std::piecewise_construct, std::forward_as_tuple(std::forward<K>(key)),
                           std::forward_as_tuple(std::forward<Args>(args)...));
    return {pos, true};
  }
  std::pair<iterator, bool> insert(const value_type& v) { return emplace(v.first, v.second); }
  std::pair<iterator, bool> insert(value_type&& v) { return emplace(std::move(v.first), std::move(v.second)); }
  template <class It>
  void insert(It first, It last) {
    for (; first != last; ++first) emplace(first->first, first->second);
  }
  template <class K, class V>
  std::pair<iterator, bool> insert_or_assign(K&& key, V&& value) {
    auto result = emplace(std::forward<K>(key));
    result.first->second = std::forward<V>(value);
    return result;
  }
  template <class K>
  T& operator[](K&& key) {
    return emplace(std::forward<K>(key)).first->second;
  }

  iterator erase(const_iterator pos) { return members_.erase(pos); }
  iterator erase(const_iterator first, const_iterator last) { return members_.erase(first, last); }
  template <class K, class = std::enable_if_t<!std::is_convertible_v<const K&, const_iterator>>>
  size_type erase(const K& key) {
    auto it = find(key);
    if (it == end()) return 0;
    members_.erase(it);
    return 1;
  }

  // For parsers: members appended in document order, then SortAppended() once the object is complete. A repeated
  // key keeps its last value, as assigning member by member would. The returned reference lives until the next
  // append.
  T& AppendUnsorted(Key&& key) { return members_.emplace_back(std::move(key), T()).second; }
  void SortAppended() {
    if (IsSortedUnique()) return;
    const auto less = [](const value_type& a, const value_type& b) { return a.first < b.first; };
    if (members_.size() <= 16) {  // insertion sort: stable, and no buffer to allocate for a typical object
      for (std::size_t i = 1; i < members_.size(); ++i)
        for (std::size_t j = i; j > 0 && less(members_[j], members_[j - 1]); --j)
          std::swap(members_[j], members_[j - 1]);
    } else {
      std::stable_sort(members_.begin(), members_.end(), less);
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < members_.size(); ++i) {
      if (kept > 0 && members_[kept - 1].first == members_[i].first)
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

  std::size_t Position(std::string_view key) const {
    const std::size_t n = members_.size();
    if (n <= kScan) {
      for (std::size_t i = 0; i < n; ++i) {
        const Key& k = members_[i].first;
        if (k.size() == key.size() && std::memcmp(k.data(), key.data(), key.size()) == 0) return i;
      }
      return n;
    }
    auto it = LowerBound(key);
    return it != members_.end() && std::string_view(it->first) == key ? static_cast<std::size_t>(it - members_.begin())
                                                                      : n;
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
      if (!(members_[i - 1].first < members_[i].first)) return false;
    return true;
  }

  Members members_;
};

}  // namespace kplace::io
