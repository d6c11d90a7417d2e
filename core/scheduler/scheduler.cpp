#include "core/scheduler/scheduler.h"

#include <algorithm>

#include "core/scheduler/fit_error.h"
#include "core/scheduler/plugins/names.h"

namespace kplace {

using framework::Code;
using framework::NodeInfo;
using framework::Status;

namespace {

std::uint64_t SplitMix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t Fnv1a(const std::string& s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
  return h;
}

void Record(CycleExplanation* explain, const NodeInfo& node, const Status& s) {
  if (!explain) return;
  NodeFilterRecord r;
  r.node = node.Name();
  r.feasible = s.IsSuccess();
  r.plugin = s.plugin();
  r.code = s.code();
  r.reasons = s.reasons();
  explain->nodes.push_back(std::move(r));
}

}  // namespace

std::size_t Scheduler::SeededIndex(const framework::PodInfo& pod, int attempt, std::uint64_t salt,
                                   std::size_t n) const {
  std::uint64_t h = SplitMix64(seed_ ^ SplitMix64(Fnv1a(pod.pod->Key()) + static_cast<std::uint64_t>(attempt)) ^ salt);
  return static_cast<std::size_t>(h % n);
}

preemption::Randomness Scheduler::PreemptionRandomness(const framework::PodInfo& pod, int attempt) const {
  preemption::Randomness r;
  r.offset = [this, &pod, attempt](std::int32_t n) -> std::int32_t {
    if (preemption_offset_) return *preemption_offset_ % n;
    return static_cast<std::int32_t>(SeededIndex(pod, attempt, 0x6f66667365740000ULL, static_cast<std::size_t>(n)));
  };
  r.tie_break = [this, &pod, attempt](std::size_t n) { return SeededIndex(pod, attempt, 0x7069636b00000000ULL, n); };
  return r;
}

Status Scheduler::FilterNode(framework::CycleState& state, const framework::PodInfo& pod, const NodeInfo& node) {
  return fw_->RunFilterWithNominatedPods(state, pod, node, cluster_.snapshot, &cluster_.nominator);
}

framework::Framework& Scheduler::FrameworkFor(const Pod& pod) const {
  for (framework::Framework* fw : profiles_)
    if (fw->profile_name() == pod.scheduler_name) return *fw;
  return *profiles_.front();
}

CycleOutcome Scheduler::ScheduleOne(std::size_t pod_index, int attempt, CycleExplanation* explain) {
  CycleOutcome out = Cycle(pod_index, attempt, explain);
  if (!out.node) return out;
  Status s = fw_->RunReserve(state_, cluster_.Info(pod_index), *out.node, cluster_.snapshot);
  if (!s.IsSuccess()) {
    // schedule_one.go: a Reserve failure unreserves and fails the cycle with the plugin's error.
    out.node = nullptr;
    out.message = std::string("running Reserve plugin \"") + s.plugin() + "\": " + s.Message();
    if (explain) explain->message = out.message;
  }
  return out;
}

void Scheduler::Recycle(CycleOutcome&& done) {
  done.node_statuses.clear();
  spare_statuses_ = std::move(done.node_statuses);
}

CycleOutcome Scheduler::Cycle(std::size_t pod_index, int attempt, CycleExplanation* explain) {
  CycleOutcome out;
  out.node_statuses.swap(spare_statuses_);  // empty, with an earlier cycle's room
  const framework::PodInfo& pod = cluster_.Info(pod_index);
  fw_ = &FrameworkFor(*pod.pod);
  auto& snapshot = cluster_.snapshot;
  auto& nodes = snapshot.nodes;
  if (explain) {
    explain->attempt = attempt;
    explain->num_all_nodes = nodes.size();
    for (const auto* p : fw_->filter()) explain->filter_plugins.push_back(p->Name());
    if (snapshot.volumes && !pod.pod->volumes.empty()) explain->claims = DescribeClaims(*pod.pod, *snapshot.volumes);
  }
  if (nodes.empty()) {
    out.message = "no nodes available to schedule pods";
    if (explain) explain->message = out.message;
    return out;
  }

  fw_->ResetState(state_);
  framework::PreFilterResult pre_result;
  std::vector<std::string> plugins_with_nodes;
  Status pre = fw_->RunPreFilter(state_, pod, snapshot, pre_result, &plugins_with_nodes);
  FitErrorInput fit;
  fit.num_all_nodes = nodes.size();
  // Code of nodes without an explicit status (for preemption's potential nodes).
  Code absent_code = Code::UnschedulableAndUnresolvable;
  if (!pre.IsSuccess()) {
    out.prefilter_status = pre;
    absent_code = pre.code();
    fit.pre_filter_msg = pre.Message();
    if (explain) {
      explain->prefilter_plugin = pre.plugin();
      explain->prefilter_message = pre.Message();
    }
  } else {
    // The nominated node is tried first; if it fits it is taken without scoring (evaluateNominatedNode). If not,
    // the full pass below filters it again like any other node.
    NodeInfo* nominated = nullptr;
    if (const std::string& nnn = cluster_.nominator.NodeOf(&pod); !nnn.empty()) {
      if (NodeInfo* nn = snapshot.Get(nnn)) {
        Status s = FilterNode(state_, pod, *nn);
        if (explain) {
          explain->nominated_node = nn->Name();
          explain->nominated_node_fit = s.IsSuccess();
        }
        if (s.IsSuccess()) {
          out.node = nn;
          if (explain) {
            Record(explain, *nn, s);
            explain->chosen = nn->Name();
            explain->tied = {nn->Name()};
          }
          return out;
        }
        nominated = nn;
        out.node_statuses.emplace_back(nn, std::move(s));
      }
    }

    // Candidate nodes: all, or those of the PreFilterResult in snapshot order.
    auto& candidates = candidates_;
    auto& feasible = feasible_;
    auto& list = score_nodes_;
    auto& scores = scores_;
    candidates.clear();
    feasible.clear();
    list.clear();
    std::string absent_reason;
    if (pre_result) {
      for (auto& n : nodes)
        if (pre_result->count(n.Name())) candidates.push_back(&n);
      // Absent nodes: "node(s) didn't satisfy plugin(s) [A B]" naming the plugins that returned a result.
      std::string list;
      for (const auto& n : plugins_with_nodes) list += (list.empty() ? "" : " ") + n;
      absent_reason = "node(s) didn't satisfy plugin(s) [" + list + "]";
      fit.absent_reasons = {absent_reason};
    }
    // Without a PreFilterResult every node is a candidate, in snapshot order: index the snapshot directly.
    auto candidate = [&](std::size_t i) -> NodeInfo* { return pre_result ? candidates[i] : &nodes[i]; };

    std::size_t num_all = pre_result ? candidates.size() : nodes.size();
    std::size_t to_find = NumFeasibleNodesToFind(fw_->percentage_of_nodes_to_score(), num_all);
    if (fw_->score().empty()) to_find = std::min<std::size_t>(to_find, 1);
    if (explain) explain->num_nodes_to_find = to_find;
    bool nominated_seen = false;
    // Visits (next_start_node_index_ + i) % num_all without a division per node, filtering a run of nodes at a
    // time. A run is never longer than the feasible nodes still wanted, so the pass stops where one node at a time
    // would have: no node past that point is filtered.
    std::size_t at = num_all ? next_start_node_index_ % num_all : 0;
    auto& run = filter_run_;
    auto& run_status = filter_status_;
    for (std::size_t i = 0; i < num_all && feasible.size() < to_find;) {
      const std::size_t m = std::min({to_find - feasible.size(), num_all - i, kFilterRun});
      run.clear();
      for (std::size_t k = 0; k < m; ++k) {
        run.push_back(candidate(at));
        if (++at == num_all) at = 0;
      }
      i += m;
      run_status.resize(m);
      for (auto& st : run_status) st = Status();
      fw_->RunFilterNodes(state_, pod, run.data(), m, run_status.data(), snapshot, &cluster_.nominator);
      for (std::size_t k = 0; k < m; ++k) {
        NodeInfo* n = const_cast<NodeInfo*>(run[k]);
        Status& s = run_status[k];
        if (explain) Record(explain, *n, s);  // tested here: at -O2 (the wasm core) the call is not inlined
        if (n == nominated) {
          // Same node, same state: the verdict is the one already recorded; keep a single status for it.
          nominated_seen = true;
          if (s.IsSuccess()) feasible.push_back(n);
          continue;
        }
        if (s.IsSuccess())
          feasible.push_back(n);
        else
          out.node_statuses.emplace_back(n, std::move(s));
      }
    }
    if (nominated && !nominated_seen && explain) Record(explain, *nominated, out.node_statuses.front().second);
    // processedNodes = feasible + nodes with a status (the nominated node's status counts even when the pass
    // did not reach it again).
    const std::size_t processed = feasible.size() + out.node_statuses.size();
    next_start_node_index_ = (next_start_node_index_ + processed) % nodes.size();

    if (feasible.size() == 1) {
      out.node = feasible[0];
      if (explain) {
        explain->chosen = out.node->Name();
        explain->tied = {out.node->Name()};
      }
      return out;
    }
    if (!feasible.empty()) {
      list.assign(feasible.begin(), feasible.end());
      Status ps = fw_->RunPreScore(state_, pod, list, snapshot);
      Status ss = ps.IsSuccess() ? fw_->RunScore(state_, pod, list, scores, explain != nullptr) : ps;
      if (!ss.IsSuccess()) {
        out.message = std::string("running Score plugins: plugin \"") + ss.plugin() + "\" failed with: " + ss.Message();
        if (explain) explain->message = out.message;
        return out;
      }
      std::int64_t best = INT64_MIN;
      for (const auto& s : scores) best = std::max(best, s.total);
      auto& top = top_;
      top.clear();
      for (std::size_t i = 0; i < scores.size(); ++i)
        if (scores[i].total == best) top.push_back(i);
      // Order the tie set by name so the seeded choice does not depend on node evaluation order. Names are unique,
      // so selecting the k-th by name equals indexing the sorted set; the full sort is needed only to explain.
      // name_rank orders as the names do (BuildNodeOrder).
      auto by_name = [&](std::size_t a, std::size_t b) {
        return scores[a].node->name_rank < scores[b].node->name_rank;
      };
      const std::size_t k = SeededIndex(pod, attempt, 0, top.size());
      if (explain)
        std::sort(top.begin(), top.end(), by_name);
      else
        std::nth_element(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(k), top.end(), by_name);
      std::size_t pick = top[k];
      out.node = const_cast<NodeInfo*>(scores[pick].node);
      if (explain) {
        explain->chosen = out.node->Name();
        for (auto i : top) explain->tied.push_back(scores[i].node->Name());
        for (auto& s : scores) explain->scores.push_back({s.node->Name(), s.total, std::move(s.plugins)});
        std::sort(explain->scores.begin(), explain->scores.end(), [](const auto& a, const auto& b) {
          return a.total != b.total ? a.total > b.total : a.node < b.node;
        });
      }
      return out;
    }
  }

  // Unschedulable: FitError message, then PostFilter.
  for (const auto& [n, s] : out.node_statuses) fit.AddNode(s);
  out.absent_code = absent_code;
  fit.post_filter_msg = PostFilter(pod, attempt, out, explain);
  out.message = FitErrorMessage(fit);
  if (explain) {
    explain->post_filter_message = fit.post_filter_msg;
    explain->message = out.message;
  }
  return out;
}

std::string Scheduler::PostFilter(const framework::PodInfo& pod, int attempt, CycleOutcome& outcome,
                                  CycleExplanation* explain) {
  std::vector<std::string> reasons;
  for (const auto& name : fw_->post_filter()) {
    if (name == names::kDynamicResources) {
      // DynamicResources' PostFilter for a pod without resource claims (v1.34+). If a PreFilter rejected the pod
      // as unresolvable before DynamicResources' PreFilter ran, its state is missing and it fails with "not found"
      // (an error: preemption does not run).
      if (outcome.prefilter_status.code() == Code::UnschedulableAndUnresolvable) return "not found";
      // 1.37 returns Unschedulable without a reason (kubernetes/kubernetes#140222).
      if (!features_.Enabled(Feature::DynamicResourcesQuietPostFilter))
        reasons.push_back("no new claims to deallocate");
    } else if (name == names::kDefaultPreemption) {
      preemption::NodeToStatus statuses;
      statuses.codes.assign(cluster_.snapshot.nodes.size(), outcome.absent_code);
      for (const auto& [n, s] : outcome.node_statuses) statuses.codes[static_cast<std::size_t>(n->index)] = s.code();
      preemption::Context ctx{*fw_, cluster_.snapshot, &cluster_.nominator, &cluster_.pdbs,
                              fw_->default_preemption_args()};
      PreemptionRecord* record = explain ? &explain->preemption : nullptr;
      if (explain) explain->preemption_ran = true;
      outcome.preemption = preemption::Preempt(ctx, state_, pod, statuses, PreemptionRandomness(pod, attempt), record);
      const Status& s = outcome.preemption->status;
      // A successful preemption returns Success: the PostFilter message is empty (framework.go
      // RunPostFilterPlugins drops the reasons of earlier plugins).
      if (s.IsSuccess()) return "";
      // An internal error stops the PostFilter plugins; its message is the error.
      if (s.code() == Code::Error) return s.Message();
      if (!s.Message().empty()) reasons.push_back(s.Message());
    }
  }
  std::string msg;
  for (std::size_t i = 0; i < reasons.size(); ++i) msg += (i ? ", " : "") + reasons[i];
  return msg;
}

}  // namespace kplace
