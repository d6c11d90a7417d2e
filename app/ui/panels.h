// The details tabs under the cluster view, as a table: DrawApp (ui_main.cpp) shows one tab per panel whose label is
// not empty, in the table's order (panels.cpp). A panel is a file of its own that defines `const Panel k<Name>Panel`
// (events_panel.cpp is the model) and reads only the snapshot: adding one touches that file and one line of
// panels.cpp.
#pragma once

#include <string>
#include <vector>

#include "app/model/session.h"
#include "app/ui/ui_state.h"

namespace kplace::app {

struct Panel {
  // "events": the tab's ImGui ID ("<label>###events"), its test target ("tab:events") and the UiState::select_tab
  // value that brings it to the front.
  const char* id;
  // The tab's label for this snapshot, "" when the panel has nothing to show (then there is no tab).
  std::string (*label)(const Snapshot& snap, const UiState& ui);
  // The tab's content.
  void (*draw)(const Snapshot& snap, const Session& session, UiState& ui);
};

// The details tabs, in the order they appear.
const std::vector<const Panel*>& DetailPanels();

}  // namespace kplace::app
