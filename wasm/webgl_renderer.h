// Draws Dear ImGui's frames with WebGL2: the page's renderer, in place of ImGui's general OpenGL3 backend.
//
// Written for where the page draws: a browser that may rasterise in software (SwiftShader when there is no GPU, as
// on many VMs and remote desktops, and in the headless tests), where the cost of a frame is the pixels its triangles
// cover, a textured pixel about twice a plain one. So:
//   - solid fills (rectangles, bars, frames; UV at the font atlas's white pixel) skip the texture fetch in the
//     fragment shader: that texel is opaque white, the fetch would multiply by exactly 1;
//   - a frame's draw lists go up in one vertex and one index buffer upload, freshly allocated each frame so no
//     upload waits for the previous frame's draws;
//   - the state is set once per frame and nothing is saved or restored (the page owns the context);
//   - only what changed is drawn again: each draw list (a window's) is compared with the same list of the last frame
//     drawn, and the canvas's pixels outside those that changed (their old and new bounds) are kept; a frame where
//     nothing changed is not drawn at all, so the browser composites nothing new. Scrolling the cluster view or
//     hovering a row redraws that window, not the editor's text beside it; a pointer moving where nothing reacts
//     costs the app's layout alone. The pixels are those of a whole frame: every command is drawn, cut to the
//     changed region, in its order, over that region cleared;
//   - commands that start past 65,535 vertices (ImDrawCmd::VtxOffset) are drawn by pointing the vertex attributes
//     at their first vertex (WebGL2 has no base-vertex draw), so ImGui can split large lists for 16-bit indices.
// The pixels are those of ImGui's backend: the same shaders' arithmetic, blending, projection and texels (the
// atlas is uploaded as its one meaningful channel).
#pragma once

#include <GLES3/gl3.h>

#include <cstdint>
#include <vector>

#include "imgui.h"

namespace kplace::webapp {

class WebGlRenderer {
 public:
  // Compiles the program and creates the buffers; false (the GL log on stderr) when WebGL2 refuses.
  bool Init();
  // Uploads ImGui's font atlas as the texture draw commands name (after the atlas is built or rebuilt).
  void UploadFonts();
  // Clears the current framebuffer of fb_width x fb_height pixels to `clear` and draws one frame's draw data into
  // it: where it differs from the last frame drawn when the framebuffer keeps its pixels (KeepPixels), all of it
  // otherwise. False, having drawn nothing, when the frame is the same as the last one drawn.
  bool Render(const ImDrawData& data, int fb_width, int fb_height, const ImVec4& clear);
  // The next frame is drawn whole.
  void Forget() { drawn_valid_ = false; }
  // Whether the framebuffer keeps its pixels from one frame to the next (the canvas's preserveDrawingBuffer).
  void KeepPixels(bool keep) { keep_pixels_ = keep; }

 private:
  void SetupState(const ImDrawData& data, int fb_width, int fb_height) const;
  void PointAttributes(std::size_t first_vertex) const;

  GLuint program_ = 0;
  GLint projection_ = -1;
  GLint white_uv_ = -1;
  GLuint vao_ = 0;
  GLuint vertices_ = 0;
  GLuint indices_ = 0;
  GLuint font_texture_ = 0;
  ImVec2 white_uv_value_;
  // A rectangle of framebuffer pixels, rows from the top, [x0, x1) x [y0, y1); empty when x0 >= x1 or y0 >= y1.
  struct Box {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool Empty() const { return x0 >= x1 || y0 >= y1; }
  };
  // Where one draw list lies in its frame's buffers, and the pixels it may touch.
  struct ListSpan {
    std::size_t vertex, vertices, index, indices, word, words;
    Box box;
  };
  // A frame's draw lists, concatenated for the one upload, and the rest that decides its pixels as words: first the
  // canvas size, the clear colour and the projection (DisplayPos, DisplaySize): kFrameWords; then each list's
  // command count and every command's clip rect, texture, offsets, count and callback.
  static constexpr std::size_t kFrameWords = 10;
  struct Frame {
    std::vector<ImDrawVert> vertices;
    std::vector<ImDrawIdx> indices;
    std::vector<std::uint32_t> words;
    std::vector<ListSpan> lists;
    bool callbacks = false;  // a command calls back into the app: drawn whole, never taken as unchanged
  };
  void Gather(const ImDrawData& data, int fb_width, int fb_height, const ImVec4& clear);
  // The pixels that differ between frame_ and drawn_ (empty: none; the whole framebuffer when either is not
  // comparable or the framebuffer does not keep its pixels).
  Box Changed(int fb_width, int fb_height) const;
  Frame frame_, drawn_;       // this frame; the last one drawn
  bool drawn_valid_ = false;  // drawn_ is what the framebuffer shows (not after the font texture changed)
  bool keep_pixels_ = false;
};

}  // namespace kplace::webapp
