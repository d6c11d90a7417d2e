// Draws Dear ImGui's frames with WebGL2: the page's renderer, in place of ImGui's general OpenGL3 backend.
//
// Written for where the page draws: a browser that may rasterise in software (SwiftShader when there is no GPU, as
// on many VMs and remote desktops, and in the headless tests), where the cost of a frame is the pixels its triangles
// cover, a textured pixel about twice a plain one. So:
//   - solid fills (rectangles, bars, frames; UV at the font atlas's white pixel) skip the texture fetch in the
//     fragment shader: that texel is opaque white, the fetch would multiply by exactly 1;
//   - a frame's draw lists go up in one vertex and one index buffer upload, freshly allocated each frame so no
//     upload waits for the previous frame's draws;
//   - the state is set once per frame and nothing is saved or restored (the page owns the context), but the scissor
//     test is left off for the next frame's clear;
//   - commands that start past 65,535 vertices (ImDrawCmd::VtxOffset) are drawn by pointing the vertex attributes
//     at their first vertex (WebGL2 has no base-vertex draw), so ImGui can split large lists for 16-bit indices.
// The pixels are those of ImGui's backend: the same shaders' arithmetic, blending, projection and texels (the
// atlas is uploaded as its one meaningful channel).
#pragma once

#include <GLES3/gl3.h>

#include <vector>

#include "imgui.h"

namespace kplace::webapp {

class WebGlRenderer {
 public:
  // Compiles the program and creates the buffers; false (the GL log on stderr) when WebGL2 refuses.
  bool Init();
  // Uploads ImGui's font atlas as the texture draw commands name (after the atlas is built or rebuilt).
  void UploadFonts();
  // Draws one frame's draw data into the current framebuffer of fb_width x fb_height pixels.
  void Render(const ImDrawData& data, int fb_width, int fb_height);

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
  // A frame's draw lists, concatenated for the one upload.
  std::vector<ImDrawVert> frame_vertices_;
  std::vector<ImDrawIdx> frame_indices_;
};

}  // namespace kplace::webapp
