// The registry of the details tabs (panels.h), in the order they appear: one line per panel, the Panel its own file
// defines.
#include "app/ui/panels.h"

// clang-format off
#define KPLACE_DETAIL_PANELS(PANEL) \
  PANEL(kPodPanel) \
  PANEL(kEventsPanel) \
  PANEL(kChangesPanel) \
  PANEL(kComparePanel) \
  PANEL(kRoundsPanel) \
  PANEL(kQueuePanel) \
  PANEL(kTimelinePanel) \
  PANEL(kDisruptionPanel) \
  /* a new panel: one line above this one */
// clang-format on

namespace kplace::app {

#define KPLACE_DECLARE_PANEL(name) extern const Panel name;
KPLACE_DETAIL_PANELS(KPLACE_DECLARE_PANEL)
#undef KPLACE_DECLARE_PANEL

const std::vector<const Panel*>& DetailPanels() {
#define KPLACE_LIST_PANEL(name) &name,
  static const std::vector<const Panel*> panels = {KPLACE_DETAIL_PANELS(KPLACE_LIST_PANEL)};
#undef KPLACE_LIST_PANEL
  return panels;
}

}  // namespace kplace::app
