// UI-only state: selection, layout and toggles. Nothing here affects a simulation result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "app/model/edits.h"
#include "app/model/text_lines.h"

namespace kplace::app {

struct Rect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// One group of the cluster view: the nodes of a zone and NodePool, and (karpenter mode) the NodeClaims Karpenter
// would launch there.
struct ClusterGroup {
  std::string zone, pool;   // "" when unknown / not managed by Karpenter
  std::vector<int> nodes;   // into Snapshot::nodes
  std::vector<int> claims;  // into Snapshot::claims
};

// The cluster view's layout (cluster_panel.cpp): its groups and each row's height, measured once per snapshot, card
// width, font size and card kind, so a frame measures only the cards it draws (every card of 5,000 nodes measured
// each frame cost a large cluster's frames most of their time).
struct ClusterLayout {
  const void* snapshot = nullptr;
  std::uint64_t generation = 0;
  float card_width = 0, em = 0;
  int per_row = 0;
  bool compact = false;
  std::vector<ClusterGroup> groups;
  std::vector<std::vector<float>> row_heights;  // per group, per row of cards
};

struct UiState {
  int preset = -1;                 // index into Presets() last loaded, -1 for text from elsewhere (kplace.load)
  bool preset_edited = false;      // the text was edited since
  std::string selected_pod;        // namespace/name, "" when nothing is selected
  std::string shown_pod;           // the pod the inspector tab showed last frame
  float editor_width = 0.36f;      // fraction of the window's width
  bool editor_collapsed = false;   // the scenario editor is folded away: cluster view and inspector take the width
  bool embed = false;              // embedded in another page (?embed=1): editor folded at first
  float inspector_height = 0.45f;  // fraction of the right column's height
  int editor_epoch = 0;            // bumped when the text is replaced from outside the editor widget
  int editor_edit_large = -1;      // the editor_epoch whose large text the user chose to edit anyway
  // The editor's read-only view of a large text: its line index, for the session generation and size it was built at.
  TextLines editor_lines;
  std::uint64_t editor_lines_generation = 0;
  std::size_t editor_lines_bytes = ~std::size_t{0};
  // The editor's error message with its line:column, for the session generation and error it was worked out for
  // (finding an item's line reads the text up to it: once per error, not per frame).
  std::string editor_error, editor_error_shown;
  std::uint64_t editor_error_generation = 0;
  int compact = -1;  // cluster view: -1 automatic (compact above 40 nodes), 0 off, 1 on
  ClusterLayout cluster_layout;
  bool events_selected_only = true;  // the Events panel shows only the selected pod's events (when one is)
  std::optional<Edit> pending_edit;  // asked for by a panel this frame; applied after the frame is drawn
  bool undo_requested = false;
  std::string explain_request;  // a pod whose explanation the inspector asked for (background-run snapshots)
  std::string disruption_node;  // the node the Disruption tab's what-if is about
  std::optional<std::string> disruption_request;  // the Disruption tab asks the worker about this node
  // The Compare tab: B's settings as picked (index 0 of each: "as the scenario says"), and what it asked for this
  // frame, handled after the panels (ui_main.cpp): pin the result on screen, compare under settings, stop.
  int compare_mode = 0, compare_release = 0, compare_strategy = 0;
  int compare_seed = -1;  // -1: as the scenario says
  bool compare_pin = false, compare_stop = false;
  std::optional<std::string> compare_settings;
  std::string compare_error;  // the last settings' error
  // Pods whose answer the comparison (or, when none, the last edit) changed -> the change (sim::PodChange::Kind),
  // drawn on their chips; rebuilt when the snapshot or the comparison changes (Session::diffs_version).
  std::unordered_map<std::string, std::uint8_t> marks;
  std::uint64_t marks_version = ~std::uint64_t{0};
  // The Timeline tab: the cluster view shows the cluster after this many steps (Session::SnapshotAt); -1: the whole
  // run.
  int timeline_step = -1;
  std::string select_tab;  // a Panel::id (panels.h): brought to the front next frame (tests, a newly selected pod)
  // Embeds: the cluster view takes the height its cards need (cluster_need, last frame's) and the inspector the
  // rest, until the splitter between them is dragged. Otherwise inspector_height splits the column.
  bool fit_cluster = false;
  // Device pixels, measured each frame after the layout: the cluster view's outer height that shows all its cards
  // at the current width, and the window height that shows the top bar, the whole cluster view and an inspector
  // (tabs) 18 em tall. Neither depends on the window's height: embeds post content_need to their parent page.
  float cluster_need = 0;
  float content_need = 0;
  // Screen rectangles (device pixels) of this frame's clickable edit targets, by name: "taint:<node>:<i>",
  // "cordon:<node>", "tolerate:<node>", "pod:<namespace/name>" (chips on node cards), "tab:<panel id>" (panels.h),
  // "mode:<mode>", "explain". For tests (window.kplace.targets()).
  std::map<std::string, Rect> targets;
};

// Records the last item's rectangle as a named target.
void RecordTarget(UiState& ui, const std::string& name);

}  // namespace kplace::app
