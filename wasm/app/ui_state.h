// UI-only state: selection, layout and toggles. Nothing here affects a simulation result.
#pragma once

#include <string>

namespace kplace::app {

struct UiState {
  int preset = -1;                 // index into Presets() last loaded, -1 for text from elsewhere (kplace.load)
  bool preset_edited = false;      // the text was edited since
  std::string selected_pod;        // namespace/name, "" when nothing is selected
  float editor_width = 0.36f;      // fraction of the window's width
  float inspector_height = 0.45f;  // fraction of the right column's height
  int editor_epoch = 0;            // bumped when the text is replaced from outside the editor widget
};

}  // namespace kplace::app
