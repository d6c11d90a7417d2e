#include "core/scheduler/plugins/podtopologyspread/snapshot_cache.h"

#include <algorithm>

#include "core/scheduler/plugins/helper/node_affinity_match.h"

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

bool SameRequirements(const std::vector<LabelRequirement>& a, const std::vector<LabelRequirement>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto &x = a[i], &y = b[i];
    if (x.key != y.key || x.op != y.op || x.values != y.values || x.number != y.number) return false;
  }
  return true;
}

bool SameNodeSelector(const std::optional<NodeSelector>& a, const std::optional<NodeSelector>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  if (a->terms.size() != b->terms.size()) return false;
  for (std::size_t i = 0; i < a->terms.size(); ++i) {
    const auto &x = a->terms[i], &y = b->terms[i];
    if (x.invalid() != y.invalid() || !SameRequirements(x.match_expressions, y.match_expressions) ||
        !SameRequirements(x.match_fields, y.match_fields))
      return false;
  }
  return true;
}

bool SameTolerations(const std::vector<Toleration>& a, const std::vector<Toleration>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].key != b[i].key || a[i].op != b[i].op || a[i].value != b[i].value || a[i].effect != b[i].effect)
      return false;
  return true;
}

const std::optional<NodeSelector>& RequiredTerms(const Pod& pod) {
  static const std::optional<NodeSelector> kNone;
  const auto& na = pod.affinity.node_affinity;
  return na ? na->required : kNone;
}

// Finds the entry `same` accepts or makes one, evicting the least recently used one beyond `limit`.
template <typename Entry, typename Same>
Entry& FindOrMake(std::vector<std::unique_ptr<Entry>>& entries, std::size_t limit, Same&& same, bool* made) {
  for (auto& e : entries) {
    if (same(*e)) {
      *made = false;
      return *e;
    }
  }
  if (entries.size() >= limit) {
    auto victim = std::min_element(entries.begin(), entries.end(),
                                   [](const auto& a, const auto& b) { return a->last_used < b->last_used; });
    entries.erase(victim);
  }
  *made = true;
  return *entries.emplace_back(std::make_unique<Entry>());
}

}  // namespace

void SnapshotCache::Sync(const framework::Snapshot& snapshot) {
  ++tick_;
  const std::size_t n = snapshot.nodes.size();
  if (stamp_log_.size() > 4 * n + 4096) {
    stamp_log_base_ = next_stamp_;
    stamp_log_.clear();
  }
  if (&snapshot != snapshot_ || snapshot.nodes.data() != nodes_data_) {
    // Another snapshot (or its node list was rebuilt): freed Node addresses may be reused, start over.
    snapshot_ = &snapshot;
    nodes_data_ = snapshot.nodes.data();
    node_.clear();
  }
  bool layout_changed = n != node_.size();
  const auto& log = snapshot.changed_nodes;
  if (!layout_changed && snapshot.tracks_changes && snapshot.layout_generation != 0 &&
      log_layout_ == snapshot.layout_generation && log_pos_ <= log.size()) {
    // Same node list as the last full scan and the owner logs every pod change: visit only logged nodes.
    for (std::size_t k = log_pos_; k < log.size(); ++k) {
      const auto i = static_cast<std::size_t>(log[k]);
      if (i >= n) continue;
      const framework::NodeInfo& ni = snapshot.nodes[i];
      if (generation_[i] == ni.generation && num_pods_[i] == ni.pods.size()) continue;
      generation_[i] = ni.generation;
      num_pods_[i] = ni.pods.size();
      Stamp(i);
    }
    log_pos_ = log.size();
    return;
  }
  log_pos_ = log.size();
  log_layout_ = snapshot.layout_generation;
  if (layout_changed) {
    node_.assign(n, nullptr);
    generation_.resize(n, 0);
    num_pods_.resize(n, 0);
    stamp_.resize(n, 0);
  }
  const framework::NodeInfo* nodes = snapshot.nodes.data();
  const Node** node = node_.data();
  std::uint64_t* generation = generation_.data();
  std::size_t* num_pods = num_pods_.data();
  for (std::size_t i = 0; i < n; ++i) {
    const framework::NodeInfo& ni = nodes[i];
    if (node[i] != ni.node) {
      node[i] = ni.node;
      layout_changed = true;
    } else if (generation[i] == ni.generation && num_pods[i] == ni.pods.size()) {
      continue;
    }
    generation[i] = ni.generation;
    num_pods[i] = ni.pods.size();
    Stamp(i);
  }
  if (layout_changed) ++layout_;
}

std::shared_ptr<const KeyDomains> SnapshotCache::Domains(Symbol key) {
  KeyEntry* e = nullptr;
  for (auto& k : keys_)
    if (k.key == key) e = &k;
  if (!e) {
    if (keys_.size() >= kMaxKeys) {
      keys_.erase(std::min_element(keys_.begin(), keys_.end(),
                                   [](const auto& a, const auto& b) { return a.last_used < b.last_used; }));
    }
    e = &keys_.emplace_back();
    e->key = key;
  }
  e->last_used = tick_;
  if (e->layout != layout_ || !e->domains) {
    auto d = std::make_shared<KeyDomains>();
    d->of_node.resize(node_.size());
    for (std::size_t i = 0; i < node_.size(); ++i) {
      auto v = node_[i]->meta.labels.Get(key);
      d->of_node[i] = v ? index_.FindOrAdd(*v) : -1;
    }
    d->values = index_.keys();
    d->empty_id = index_.Find(kEmptySymbol);
    index_.Clear();
    e->layout = layout_;
    e->domains = std::move(d);
  }
  return e->domains;
}

SnapshotCache::CountEntry* SnapshotCache::FindCount(const Constraint& c, Symbol ns) {
  std::uint64_t hash = SelectorHash(ns, c.selector);
  for (auto& x : counts_)
    if (x->hash == hash && x->ns == ns && SameSelector(x->constraint.selector, c.selector)) return x.get();
  return nullptr;
}

const std::vector<std::int32_t>* SnapshotCache::Counts(const Constraint& c, Symbol ns) {
  if (!c.counts) return nullptr;
  CountEntry* e = FindCount(c, ns);
  if (!e) {
    const std::uint64_t hash = SelectorHash(ns, c.selector);
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
  if (e->last_used == tick_) return &e->counts;  // already brought up to date since the last Sync
  e->last_used = tick_;
  const std::size_t n = node_.size();
  bool all = e->synced < stamp_log_base_ || next_stamp_ - e->synced >= n;
  if (e->counts.size() != n) {
    e->counts.assign(n, 0);
    e->stamps.assign(n, 0);  // stamps start at 1: every node is counted
    e->totals.clear();
    all = true;
  }
  const std::uint64_t* now = stamp_.data();
  std::uint64_t* seen = e->stamps.data();
  std::int32_t* counts = e->counts.data();
  auto recount = [&](std::size_t i) {
    if (seen[i] == now[i]) return;
    seen[i] = now[i];
    const std::int32_t was = counts[i];
    counts[i] = CountMatchingPods(snapshot_->nodes[i], e->constraint, ns);
    if (counts[i] == was) return;
    for (auto& t : e->totals)
      if (const std::int32_t d = t.domain_of[i]; d >= 0)
        t.totals.counts[static_cast<std::size_t>(d)] += counts[i] - was;
  };
  if (all) {
    for (std::size_t i = 0; i < n; ++i) recount(i);
  } else {
    // Every node was up to date at stamp `synced`: only nodes stamped since can differ.
    for (std::size_t k = static_cast<std::size_t>(e->synced - stamp_log_base_); k < stamp_log_.size(); ++k)
      if (stamp_log_[k] < n) recount(stamp_log_[k]);
  }
  e->synced = next_stamp_;
  return &e->counts;
}

const SnapshotCache::DomainTotals* SnapshotCache::Totals(const Constraint& c, Symbol ns,
                                                         const std::shared_ptr<const KeyDomains>& kd, const char* aff,
                                                         std::uint64_t aff_serial, const char* tnt,
                                                         std::uint64_t tnt_serial) {
  if (!c.counts || !kd) return nullptr;
  CountEntry* e = FindCount(c, ns);
  if (!e || e->last_used != tick_) return nullptr;
  const std::size_t n = e->counts.size();
  if (kd->of_node.size() != n) return nullptr;
  aff_serial = aff ? aff_serial : 0;
  tnt_serial = tnt ? tnt_serial : 0;
  for (auto& t : e->totals) {
    if (t.domains == kd && t.aff == aff_serial && t.tnt == tnt_serial) {
      t.last_used = tick_;
      return &t.totals;
    }
  }
  if (e->totals.size() >= kMaxTotalsPerCount) {
    e->totals.erase(std::min_element(e->totals.begin(), e->totals.end(),
                                     [](const auto& a, const auto& b) { return a.last_used < b.last_used; }));
  }
  auto& t = e->totals.emplace_back();
  t.domains = kd;
  t.aff = aff_serial;
  t.tnt = tnt_serial;
  t.last_used = tick_;
  const std::size_t D = kd->values.size();
  t.domain_of.assign(n, -1);
  t.totals.counts.assign(D, 0);
  t.totals.exists.assign(D, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t d = kd->of_node[i];
    if (d < 0 || (aff && !aff[i]) || (tnt && !tnt[i])) continue;
    t.domain_of[i] = d;
    t.totals.exists[static_cast<std::size_t>(d)] = 1;
    t.totals.counts[static_cast<std::size_t>(d)] += e->counts[i];
  }
  return &t.totals;
}

const std::vector<char>& SnapshotCache::AffinityMatches(const Pod& pod, std::uint64_t* serial) {
  const auto& required = RequiredTerms(pod);
  bool made = false;
  AffinityEntry& e = FindOrMake(
      affinity_, kMaxPolicyEntries,
      [&](const AffinityEntry& x) {
        return x.node_selector == pod.node_selector && SameNodeSelector(x.required, required);
      },
      &made);
  if (made) {
    e.node_selector = pod.node_selector;
    e.required = required;
  }
  e.last_used = tick_;
  if (made || e.layout != layout_) {
    e.layout = layout_;
    e.ok.resize(node_.size());
    for (std::size_t i = 0; i < node_.size(); ++i) e.ok[i] = helper::MatchesRequiredNodeAffinity(pod, *node_[i]);
    e.serial = ++next_serial_;
  }
  if (serial) *serial = e.serial;
  return e.ok;
}

const std::vector<char>& SnapshotCache::TaintsTolerated(const Pod& pod, std::uint64_t* serial) {
  bool made = false;
  TaintEntry& e = FindOrMake(
      taints_, kMaxPolicyEntries, [&](const TaintEntry& x) { return SameTolerations(x.tolerations, pod.tolerations); },
      &made);
  if (made) e.tolerations = pod.tolerations;
  e.last_used = tick_;
  if (made || e.layout != layout_) {
    e.layout = layout_;
    e.ok.resize(node_.size());
    for (std::size_t i = 0; i < node_.size(); ++i) {
      e.ok[i] = FindUntoleratedTaint(node_[i]->taints, pod.tolerations, [](const Taint& t) {
                  return t.effect == TaintEffect::NoSchedule || t.effect == TaintEffect::NoExecute;
                }) == nullptr;
    }
    e.serial = ++next_serial_;
  }
  if (serial) *serial = e.serial;
  return e.ok;
}

void SnapshotCache::Lookup(const framework::Snapshot& snapshot, const std::vector<Constraint>& cs, Symbol ns,
                           std::vector<std::shared_ptr<const KeyDomains>>& domains,
                           std::vector<const std::int32_t*>& matching) {
  Sync(snapshot);
  for (std::size_t i = 0; i < cs.size(); ++i) {
    domains[i] = Domains(cs[i].key);
    const auto* m = Counts(cs[i], ns);
    matching[i] = m ? m->data() : nullptr;
  }
}

}  // namespace kplace::plugins::podtopologyspread
