// The Events panel's rows: the run's events (cluster mode: kube-scheduler's and Karpenter's, in the loop's order);
// karpenter mode, whose run records only Karpenter's NodePool events, gets Karpenter's decisions as the events
// Karpenter publishes for them (pkg/controllers/provisioning/scheduling/events.go), in its order: FailedScheduling on
// the pods it ignores (provisioner.go GetPendingPods), NoCompatibleInstanceTypes on the NodePools it drops
// (NewScheduler), then per pod Nominated "Pod should schedule on: nodeclaim/<name>" or FailedScheduling
// "Failed to schedule pod, <error>" (Results.Record).
#include <string>

#include "app/model/session.h"
#include "core/karpenter/scheduler.h"

namespace kplace::app {
namespace {

constexpr const char* kNominated = "Pod should schedule on: ";

sim::Event PodEvent(bool ok, const std::string& pod, const std::string& message) {
  sim::Event e;
  e.source = "karpenter";
  e.type = ok ? "Normal" : "Warning";
  e.reason = ok ? "Nominated" : "FailedScheduling";
  e.pod = pod;
  e.message = message;
  return e;
}

void FromProvision(const karpenter::Result& k, std::vector<sim::Event>& out) {
  for (const auto& o : k.pods)
    if (o.kind == karpenter::PodOutcomeKind::Ignored && karpenter::PublishesFailedScheduling(o))
      out.push_back(PodEvent(false, o.key, "Failed to schedule pod, " + o.reason));
  for (const auto& n : k.events) {
    sim::Event e;
    e.type = n.type;
    e.reason = n.reason;
    e.source = "karpenter";
    e.object = n.object;
    e.message = n.message;
    out.push_back(std::move(e));
  }
  for (const auto& o : k.pods) {
    switch (o.kind) {
      case karpenter::PodOutcomeKind::Node:
        out.push_back(PodEvent(true, o.key, std::string(kNominated) + "node/" + o.node));
        break;
      case karpenter::PodOutcomeKind::Claim:
        if (o.claim >= 0 && static_cast<std::size_t>(o.claim) < k.claims.size())
          out.push_back(PodEvent(
              true, o.key, std::string(kNominated) + "nodeclaim/" + k.claims[static_cast<std::size_t>(o.claim)].name));
        break;
      case karpenter::PodOutcomeKind::Unschedulable:
        if (karpenter::PublishesFailedScheduling(o))
          out.push_back(PodEvent(false, o.key, "Failed to schedule pod, " + o.reason));
        break;
      case karpenter::PodOutcomeKind::Ignored:
      case karpenter::PodOutcomeKind::NotProvisionable:
        break;
    }
  }
}

}  // namespace

void IndexEvents(Snapshot& s) {
  auto& extra = s.karpenter_events;
  if (s.result.karpenter) FromProvision(*s.result.karpenter, extra);
  s.events.reserve(s.result.events.size() + extra.size());
  auto add = [&](const sim::Event& e) {
    EventRow row;
    row.event = &e;
    row.karpenter = e.source == "karpenter";
    row.object = !e.object.empty() ? e.object
                 : e.pod.empty()   ? std::string("karpenter")
                                   : "pod/" + e.pod.substr(e.pod.find('/') + 1);
    s.events.push_back(std::move(row));
  };
  for (const auto& e : s.result.events) add(e);
  for (const auto& e : extra) add(e);
}

}  // namespace kplace::app
