#include "core/scheduler/plugins/podtopologyspread/snapshot_cache.h"

#include <algorithm>

namespace kplace::plugins::podtopologyspread {
namespace {

std::uint64_t Mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

std::uint64_t SelectorHash(Symbol ns, const LabelSelector& s) {
  std::uint64_t h = Mix(ns, s.nil);
  for (const auto& r : s.requirements) {
    h = Mix(h, r.key);
    h = Mix(h, static_cast<std::uint64_t>(r.op));
    for (Symbol v : r.values) h = Mix(h, v);
    h = Mix(h, static_cast<std::uint64_t>(r.number));
  }
  return h;
}

}  // namespace

void SnapshotCache::Sync(const framework::Snapshot& snapshot) {
  snapshot_ = &snapshot;
  ++tick_;
  const std::size_t n = snapshot.nodes.size();
  bool layout_changed = n != node_.size();
  if (layout_changed) {
    node_.resize(n, nullptr);
    generation_.resize(n, 0);
    num_pods_.resize(n, 0);
    stamp_.resize(n, 0);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const framework::NodeInfo& ni = snapshot.nodes[i];
    if (node_[i] != ni.node) {
      node_[i] = ni.node;
      layout_changed = true;
    } else if (generation_[i] == ni.generation && num_pods_[i] == ni.pods.size()) {
      continue;
    }
    generation_[i] = ni.generation;
    num_pods_[i] = ni.pods.size();
    stamp_[i] = ++next_stamp_;
  }
  if (layout_changed) ++layout_;
}

const std::vector<Symbol>& SnapshotCache::Values(Symbol key) {
  KeyEntry* e = nullptr;
  for (auto& k : keys_)
    if (k->key == key) e = k.get();
  if (!e) {
    if (keys_.size() >= kMaxKeys) {
      auto victim = std::min_element(keys_.begin(), keys_.end(),
                                     [](const auto& a, const auto& b) { return a->last_used < b->last_used; });
      if ((*victim)->last_used != tick_) keys_.erase(victim);
    }
    keys_.push_back(std::make_unique<KeyEntry>());
    e = keys_.back().get();
    e->key = key;
    e->layout = 0;
  }
  e->last_used = tick_;
  if (e->layout != layout_) {
    e->layout = layout_;
    e->values.resize(node_.size());
    for (std::size_t i = 0; i < node_.size(); ++i) e->values[i] = node_[i]->meta.labels.Get(key).value_or(kNoSymbol);
  }
  return e->values;
}

const std::vector<std::int32_t>* SnapshotCache::Counts(const Constraint& c, Symbol ns) {
  if (!c.counts) return nullptr;
  std::uint64_t hash = SelectorHash(ns, c.selector);
  CountEntry* e = nullptr;
  for (auto& x : counts_) {
    if (x->hash == hash && x->ns == ns && SameSelector(x->constraint.selector, c.selector)) {
      e = x.get();
      break;
    }
  }
  if (!e) {
    if (counts_.size() >= kMaxCountEntries) {
      // Evict the least recently used entry not used in this cycle.
      auto victim = counts_.end();
      for (auto it = counts_.begin(); it != counts_.end(); ++it)
        if ((*it)->last_used != tick_ && (victim == counts_.end() || (*it)->last_used < (*victim)->last_used))
          victim = it;
      if (victim != counts_.end()) counts_.erase(victim);
    }
    counts_.push_back(std::make_unique<CountEntry>());
    e = counts_.back().get();
    e->ns = ns;
    e->hash = hash;
    e->constraint = c;
  }
  e->last_used = tick_;
  const std::size_t n = node_.size();
  if (e->counts.size() != n) {
    e->counts.assign(n, 0);
    e->stamps.assign(n, 0);  // stamps start at 1: every node is counted
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (e->stamps[i] == stamp_[i]) continue;
    e->stamps[i] = stamp_[i];
    e->counts[i] = CountMatchingPods(snapshot_->nodes[i], e->constraint, ns);
  }
  return &e->counts;
}

}  // namespace kplace::plugins::podtopologyspread
