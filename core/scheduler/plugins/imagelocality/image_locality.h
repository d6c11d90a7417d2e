// ImageLocality: prefers nodes that already have the pod's images, weighted by how widely each image is spread
// (upstream plugins/imagelocality/image_locality.go).
#pragma once

#include <memory>

#include "core/model/features.h"
#include "core/model/scheduler_config.h"
#include "core/scheduler/framework/interface.h"

namespace kplace::plugins {
std::unique_ptr<framework::Plugin> NewImageLocality(const PluginArgs& args, const Features& features);
}
