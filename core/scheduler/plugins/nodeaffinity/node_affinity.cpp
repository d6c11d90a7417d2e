#include "core/scheduler/plugins/nodeaffinity/node_affinity.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <string>

#include "core/scheduler/plugins/helper/node_affinity_match.h"
#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

using framework::Code;
using framework::Status;

// A preferred term counts unless its weight is 0 or its preference is empty; such terms are skipped without
// being parsed, so their errors are never reported (NewPreferredSchedulingTerms).
bool Counts(const PreferredSchedulingTerm& t) { return t.weight != 0 && !t.preference.empty(); }

class NodeAffinityPlugin final : public framework::PreFilterPlugin,
                                 public framework::FilterPlugin,
                                 public framework::PreScorePlugin,
                                 public framework::ScorePlugin {
 public:
  explicit NodeAffinityPlugin(const NodeAffinityArgs& args) {
    if (!args.added_affinity) return;
    // The parser builds addedAffinity strictly (NewNodeSelector / NewPreferredSchedulingTerms fail on errors).
    added_required_ = args.added_affinity->required;
    for (const auto& t : args.added_affinity->preferred)
      if (Counts(t) && !t.preference.invalid()) added_preferred_.push_back(t);
  }
  const char* Name() const override { return names::kNodeAffinity; }
  // Node/Add and label updates (node_affinity.go)
  framework::ClusterEvents EventsToRegister() const override { return framework::cluster_event::kNodeAdd; }

  Status PreFilter(framework::CycleState& state, const framework::PodInfo& pod, const framework::Snapshot& snapshot,
                   framework::PreFilterResult& result) override {
    const Pod& p = *pod.pod;
    const NodeSelector* required = RequiredOf(p);
    // Upstream skips only for a nil spec.nodeSelector; an empty one ({}) gives Success with the same outcome.
    if (!required && !added_required_ && p.node_selector.empty()) return Status::Skip();
    WriteVerdictRow(state, p, required, snapshot);
    // The only PreFilter state is the cached Filter verdict row; Filter recomputes misses from the parsed pod.
    if (!required || required->terms.empty()) return {};

    // A term restricts metadata.name when it has matchFields `metadata.name In [...]` (all values, intersected
    // within the term); terms are ORed, so one term without such a restriction leaves every node eligible.
    static const Symbol kNameField = Intern("metadata.name");
    std::optional<std::set<std::string>> node_names;
    for (const auto& term : required->terms) {
      std::optional<std::set<std::string>> term_names;
      for (const auto& r : term.match_fields) {
        if (r.key != kNameField || r.op != SelectorOp::In) continue;
        std::set<std::string> s;
        for (Symbol v : r.values) s.insert(Text(v));
        if (!term_names) {
          term_names = std::move(s);
        } else {
          std::set<std::string> both;
          std::set_intersection(term_names->begin(), term_names->end(), s.begin(), s.end(),
                                std::inserter(both, both.begin()));
          term_names = std::move(both);
        }
      }
      if (!term_names) return {};
      if (!node_names) node_names.emplace();
      node_names->insert(term_names->begin(), term_names->end());
    }
    if (node_names && node_names->empty())
      return Status(Code::UnschedulableAndUnresolvable, kErrReasonNodeAffinityConflict);
    result = std::move(node_names);
    return {};
  }

  Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                const framework::NodeInfo& node) const override {
    return framework::FilterWithVerdicts(state, prefilter_slot, node, [&] { return FilterNode(pod, node); });
  }

  Status FilterNode(const framework::PodInfo& pod, const framework::NodeInfo& node) const {
    const Node& n = *node.node;
    if (added_required_ && !added_required_->Matches(n.meta.labels, n.name_symbol))
      return Status(Code::UnschedulableAndUnresolvable, kErrReasonNodeAffinityEnforced);
    // Parse errors in the pod's terms are ignored "for backwards compatibility": such terms just never match.
    if (!helper::MatchesRequiredNodeAffinity(*pod.pod, n))
      return Status(Code::UnschedulableAndUnresolvable, kErrReasonNodeAffinityPod);
    return {};
  }

  Status PreScore(framework::CycleState&, const framework::PodInfo& pod, const std::vector<const framework::NodeInfo*>&,
                  const framework::Snapshot&) override {
    const auto* preferred = PreferredOf(*pod.pod);
    if (preferred) {
      auto errors = PreferredSchedulingTermsErrors(*preferred);
      if (!errors.empty()) return Status(Code::Error, AggregateError(errors));
    }
    // The model cannot tell an absent list from an empty one; both score 0 everywhere.
    if (!preferred && added_preferred_.empty()) return Status::Skip();
    return {};
  }

  void ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                  std::vector<framework::NodeScore>& scores, framework::Status& status) const override {
    framework::ScoreEach(*this, state, pod, scores, status);
  }

  std::int64_t Score(const framework::CycleState&, const framework::PodInfo& pod, const framework::NodeInfo& node,
                     Status& status) const override {
    std::int64_t count = PreferredSchedulingTermsScore(added_preferred_, *node.node);
    if (const auto* preferred = PreferredOf(*pod.pod)) {
      // Without PreScore (disabled), the pod's terms are checked here.
      for (const auto& t : *preferred) {
        if (Counts(t) && t.preference.invalid()) {
          status = Status(Code::Error, AggregateError(PreferredSchedulingTermsErrors(*preferred)));
          return 0;
        }
      }
      count += PreferredSchedulingTermsScore(*preferred, *node.node);
    }
    return count;
  }

  bool HasNormalize() const override { return true; }
  Status NormalizeScore(const framework::CycleState&, const framework::PodInfo&,
                        std::vector<framework::NodeScore>& scores) const override {
    framework::DefaultNormalizeScore(framework::kMaxNodeScore, false, scores);
    return {};
  }

 private:
  // The Filter verdict depends on the Node, addedAffinity (fixed per plugin) and the pod's nodeSelector and
  // required terms; the row key encodes the latter exactly (a term with parse errors never matches).
  void WriteVerdictRow(framework::CycleState& state, const Pod& p, const NodeSelector* required,
                       const framework::Snapshot& snapshot) {
    key_.clear();
    key_.push_back(p.node_selector.size());
    for (auto [k, v] : p.node_selector) key_.push_back(static_cast<std::uint64_t>(k) << 32 | v);
    auto add_requirements = [&](const std::vector<LabelRequirement>& reqs) {
      key_.push_back(reqs.size());
      for (const auto& r : reqs) {
        key_.push_back(static_cast<std::uint64_t>(r.key) << 8 | static_cast<std::uint64_t>(r.op));
        key_.push_back(static_cast<std::uint64_t>(r.number));
        key_.push_back(r.values.size());
        for (Symbol v : r.values) key_.push_back(v);
      }
    };
    key_.push_back(required ? required->terms.size() + 1 : 0);
    if (required) {
      for (const auto& t : required->terms) {
        key_.push_back(t.invalid() ? 1 : 0);
        add_requirements(t.match_expressions);
        add_requirements(t.match_fields);
      }
    }
    auto st = std::make_unique<framework::VerdictState>();
    st->row = cache_.Get(snapshot, key_);
    state.Write(prefilter_slot, std::move(st));
  }

  static const NodeSelector* RequiredOf(const Pod& p) {
    const auto& na = p.affinity.node_affinity;
    return na && na->required ? &*na->required : nullptr;
  }
  static const std::vector<PreferredSchedulingTerm>* PreferredOf(const Pod& p) {
    const auto& na = p.affinity.node_affinity;
    return na && !na->preferred.empty() ? &na->preferred : nullptr;
  }

  std::optional<NodeSelector> added_required_;
  std::vector<PreferredSchedulingTerm> added_preferred_;
  framework::NodeVerdictCache cache_;
  std::vector<std::uint64_t> key_;  // scratch
};

}  // namespace

std::vector<FieldError> PreferredSchedulingTermsErrors(const std::vector<PreferredSchedulingTerm>& terms) {
  std::vector<FieldError> out;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (!Counts(terms[i]) || !terms[i].preference.invalid()) continue;
    auto errs = PrefixErrors(terms[i].preference.errors, "[" + std::to_string(i) + "]");
    out.insert(out.end(), errs.begin(), errs.end());
  }
  return out;
}

std::int64_t PreferredSchedulingTermsScore(const std::vector<PreferredSchedulingTerm>& terms, const Node& node) {
  std::int64_t score = 0;
  for (const auto& t : terms)
    if (Counts(t) && t.preference.Matches(node.meta.labels, node.name_symbol)) score += t.weight;
  return score;
}

std::unique_ptr<framework::Plugin> NewNodeAffinity(const PluginArgs& args, const Features&) {
  return std::make_unique<NodeAffinityPlugin>(args.node_affinity);
}

}  // namespace kplace::plugins
