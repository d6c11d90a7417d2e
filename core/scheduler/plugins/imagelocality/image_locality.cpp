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
  explicit ImageLocality(const Features& f)
      : image_volumes_(f.Enabled(Feature::ImageLocalityImageVolumes)),
        threshold_counts_volumes_(f.Enabled(Feature::ImageLocalityThresholdCountsImageVolumes)) {}
  const char* Name() const override { return names::kImageLocality; }

  framework::Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                             const std::vector<const framework::NodeInfo*>&,
                             const framework::Snapshot& snapshot) override {
    auto s = std::make_unique<PreScoreState>();
    s->snapshot = &snapshot;
    if (snapshot.layout_generation != 0) {  // built by BuildNodeOrder
      s->any_image_present = false;
      for (const auto& image : pod.images) s->any_image_present |= snapshot.image_states.count(image) > 0;
      if (image_volumes_)
        for (const auto& image : pod.image_volumes) s->any_image_present |= snapshot.image_states.count(image) > 0;
    }
    state.Write(prescore_slot, std::move(s));
    return {};
  }

  void ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                  std::vector<framework::NodeScore>& scores, framework::Status& status) const override {
    // None of the pod's images on any node: every node's sum is 0, under the minimum threshold, so it scores 0 (the
    // scores arrive at 0).
    if (const auto* s = state.Read<PreScoreState>(prescore_slot); s && !s->any_image_present) return;
    framework::ScoreEach(*this, state, pod, scores, status);
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
    auto add = [&](const std::vector<std::string>& images) {
      for (const auto& image : on_node.empty() ? kNoImages : images) {
        auto it = on_node.find(image);
        if (it == on_node.end()) continue;
        auto st = snap.image_states.find(image);
        double spread = static_cast<double>(st->second.num_nodes) / total_nodes;
        sum += static_cast<std::int64_t>(static_cast<double>(it->second) * spread);
      }
    };
    add(pod.images);
    // Image volumes add to the sum from 1.36 (kubernetes/kubernetes#130231) and to the threshold's image count from
    // 1.37 (#138951); in 1.36 a pod's image volumes can reach the maximum score alone.
    if (image_volumes_) add(pod.image_volumes);
    std::size_t count = pod.images.size() + (threshold_counts_volumes_ ? pod.image_volumes.size() : 0);
    std::int64_t max_threshold = kMaxContainerThreshold * static_cast<std::int64_t>(count);
    if (sum < kMinThreshold)
      sum = kMinThreshold;
    else if (sum > max_threshold)
      sum = max_threshold;
    if (max_threshold == kMinThreshold) return 0;
    return framework::kMaxNodeScore * (sum - kMinThreshold) / (max_threshold - kMinThreshold);
  }

 private:
  bool image_volumes_;
  bool threshold_counts_volumes_;
};

}  // namespace

std::unique_ptr<framework::Plugin> NewImageLocality(const PluginArgs&, const Features& features) {
  return std::make_unique<ImageLocality>(features);
}

}  // namespace kplace::plugins
