// CycleState: per-pod scratch data shared between a plugin's extension points in one scheduling cycle.
// Written once (PreFilter / PreScore), read many times (Filter / Score). Each plugin owns two slots, so a
// lookup is an index, not a map search. Clone() copies the state for what-if evaluations (preemption).
#pragma once

#include <cstdint>
#include <memory>
#include <typeinfo>
#include <vector>

namespace kplace {
struct Node;
}  // namespace kplace

namespace kplace::framework {

class FilterPlugin;

// A Filter plugin the framework runs on every node of a cycle, with the pass verdicts it has cached (see
// VerdictState in types.h): where verdict[i] is a pass for the NodeInfo at snapshot index i whose Node is layout[i],
// the plugin's Filter returns Success without being called.
struct ActiveFilter {
  const FilterPlugin* plugin = nullptr;
  const std::uint8_t* verdict = nullptr;  // nullptr: no cached verdicts
  const Node* const* layout = nullptr;    // the Node per snapshot index the verdicts are for
  std::size_t size = 0;
};

struct StateData {
  virtual ~StateData() = default;
  virtual std::unique_ptr<StateData> Clone() const = 0;
};

class CycleState {
 public:
  void Reset(std::size_t slots) {
    data_.clear();
    data_.resize(slots);
    active_filters_ready = false;
  }
  void Write(std::size_t slot, std::unique_ptr<StateData> d) {
    if (slot >= data_.size()) data_.resize(slot + 1);
    data_[slot] = std::move(d);
  }
  // Typed read; nullptr when the slot is empty or holds another type.
  template <typename T>
  T* Read(std::size_t slot) const {
    if (slot >= data_.size() || !data_[slot]) return nullptr;
    StateData* d = data_[slot].get();
    if (typeid(*d) == typeid(T)) return static_cast<T*>(d);  // exact type: skips the dynamic_cast walk
    return dynamic_cast<T*>(d);
  }
  CycleState Clone() const {
    CycleState c;
    c.data_.resize(data_.size());
    for (std::size_t i = 0; i < data_.size(); ++i)
      if (data_[i]) c.data_[i] = data_[i]->Clone();
    c.skip_filter = skip_filter;
    c.skip_score = skip_score;
    c.active_filters = active_filters;
    c.active_filters_ready = active_filters_ready;
    return c;
  }
  // Set by the framework when a plugin's PreFilter / PreScore returned Skip.
  // Bytes, not vector<bool>: Filter reads one per plugin per node.
  std::vector<std::uint8_t> skip_filter, skip_score;
  // The Filter plugins whose PreFilter did not skip, in profile order: what Framework::RunFilter runs on every node,
  // listed once per cycle (Reset and Framework::RunPreFilter mark it stale).
  mutable std::vector<ActiveFilter> active_filters;
  mutable bool active_filters_ready = false;

 private:
  std::vector<std::unique_ptr<StateData>> data_;
};

}  // namespace kplace::framework
