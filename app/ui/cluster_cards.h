// Pieces of the cluster view shared by its card kinds (cluster_panel.cpp: Nodes; claim_cards.cpp: the NodeClaims
// Karpenter would launch, the cost of new capacity). Drawing helpers only: positions are screen pixels.
#pragma once

#include <cstdint>
#include <string>

#include "app/model/session.h"
#include "app/ui/ui_state.h"
#include "imgui.h"

namespace kplace::app {

// A flow layout: items left to right, wrapping at the right edge.
struct Flow {
  float left, right, x, y, line_h, gap;
  ImVec2 Place(float w) {
    if (x > left && x + w > right) {
      x = left;
      y += line_h + gap;
    }
    ImVec2 p(x, y);
    x += w + gap;
    return p;
  }
  float Bottom() const { return y + line_h; }
};

// A labelled usage bar: name, used / total filled, text right-aligned.
void Bar(ImDrawList* dl, ImVec2 pos, float w, float h, const char* name, std::int64_t used, std::int64_t total,
         const std::string& text);
// The cpu and memory bars of a card, one line each from pos: requested against allocatable.
void ResourceBars(ImDrawList* dl, ImVec2 pos, float w, float line, const Resource& requested,
                  const Resource& allocatable);
// A rectangle outline drawn as dashes (ghost and in-flight cards).
void DashedRect(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color, float thickness);
// A small filled badge with text at pos (its top-left); returns its width.
float Badge(ImDrawList* dl, ImVec2 pos, ImU32 color, const std::string& text);
float BadgeWidth(const std::string& text);

// karpenter mode: the card of a NodeClaim Karpenter would launch (translucent, dashed): name and "would launch",
// instance type / zone / capacity type / price, requests (pods + DaemonSet overhead) against the instance type's
// allocatable, the pods Karpenter put there. Same contract as the node cards: returns the height; draws when draw.
float GhostCard(const Snapshot& snap, const ClaimView& cv, ImVec2 pos, float w, bool draw, bool compact, UiState& ui);
// The price and count of new capacity (karpenter mode: to launch; cluster mode: launched), nothing without any.
void CostLine(const Snapshot& snap);

}  // namespace kplace::app
