#include "core/scheduler/plugins/imagelocality/image_locality.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "core/scheduler/plugins/names.h"

namespace kplace::plugins {
namespace {

constexpr std::int64_t kMiB = 1024 * 1024;
constexpr std::int64_t kMinThreshold = 23 * kMiB;
constexpr std::int64_t kMaxContainerThreshold = 1000 * kMiB;
const std::vector<std::string> kNoImages;  // a node without images matches none of the pod's
const std::unordered_map<std::string, std::int64_t> kNoNodeImages;

struct PreScoreState : framework::StateData {
  const framework::Snapshot* snapshot = nullptr;
  // Some image of the pod is on some node (image_states and node_images are built together by BuildNodeOrder).
  // When false every node sums to 0, so Score skips the per-node lookups.
  bool any_image_present = true;
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreScoreState>(*this); }
};

class ImageLocality final : public framework::PreScorePlugin, public framework::ScorePlugin {
 public:
  const char* Name() const override { return names::kImageLocality; }

  framework::Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                             const std::vector<const framework::NodeInfo*>&,
                             const framework::Snapshot& snapshot) override {
    auto s = std::make_unique<PreScoreState>();
    s->snapshot = &snapshot;
    if (snapshot.layout_generation != 0) {  // built by BuildNodeOrder
      s->any_image_present = false;
      for (const auto& image : pod.images) s->any_image_present |= snapshot.image_states.count(image) > 0;
    }
    state.Write(prescore_slot, std::move(s));
    return {};
  }

  std::int64_t Score(const framework::CycleState& state, const framework::PodInfo& pod, const framework::NodeInfo& node,
                     framework::Status& status) const override {
    auto* s = state.Read<PreScoreState>(prescore_slot);
    if (!s) {
      status = framework::Status(framework::Code::Error, "image locality state not found");
      return 0;
    }
    const auto& snap = *s->snapshot;
    const auto total_nodes = static_cast<double>(snap.nodes.size());
    std::int64_t sum = 0;
    const auto& on_node = s->any_image_present ? snap.node_images[static_cast<std::size_t>(node.index)] : kNoNodeImages;
    for (const auto& image : on_node.empty() ? kNoImages : pod.images) {
      auto it = on_node.find(image);
      if (it == on_node.end()) continue;
      auto st = snap.image_states.find(image);
      double spread = static_cast<double>(st->second.num_nodes) / total_nodes;
      sum += static_cast<std::int64_t>(static_cast<double>(it->second) * spread);
    }
    std::int64_t max_threshold = kMaxContainerThreshold * static_cast<std::int64_t>(pod.images.size());
    if (sum < kMinThreshold)
      sum = kMinThreshold;
    else if (sum > max_threshold)
      sum = max_threshold;
    if (max_threshold == kMinThreshold) return 0;
    return framework::kMaxNodeScore * (sum - kMinThreshold) / (max_threshold - kMinThreshold);
  }
};

}  // namespace

std::unique_ptr<framework::Plugin> NewImageLocality(const PluginArgs&, const Features&) {
  return std::make_unique<ImageLocality>();
}

}  // namespace kplace::plugins
