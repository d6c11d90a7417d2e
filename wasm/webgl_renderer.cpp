#include "wasm/webgl_renderer.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace kplace::webapp {
namespace {

// GLSL ES 3.00 (WebGL2). The arithmetic is that of ImGui's OpenGL3 backend for ES 3 (a highp vertex stage, a
// mediump fragment stage, colour times texel; the UV is highp here, for the exact test below), so the pixels are the
// same. Two differences that leave them so:
//   - the atlas is one channel, the coverage (GetTexDataAsAlpha8): ImGui's RGBA atlas is white with the coverage
//     in alpha, so the texel is (1, 1, 1, coverage) either way, at a quarter of the texture's bytes;
//   - the fetch is skipped where it would read the white texel. That test is exact (the UV of a solid fill is one
//     value at every vertex, so it interpolates to itself); where it is not met the texel is fetched as before.
// textureLod: the atlas has one level, and an explicit level is defined inside a branch.
constexpr const char* kVertexShader = R"(#version 300 es
precision highp float;
layout (location = 0) in vec2 Position;
layout (location = 1) in vec2 UV;
layout (location = 2) in vec4 Color;
uniform mat4 ProjMtx;
out vec2 Frag_UV;
out vec4 Frag_Color;
void main() {
  Frag_UV = UV;
  Frag_Color = Color;
  gl_Position = ProjMtx * vec4(Position.xy, 0, 1);
}
)";

constexpr const char* kFragmentShader = R"(#version 300 es
precision mediump float;
uniform sampler2D Texture;
uniform highp vec2 WhiteUV;
in highp vec2 Frag_UV;
in vec4 Frag_Color;
layout (location = 0) out vec4 Out_Color;
void main() {
  if (Frag_UV == WhiteUV)
    Out_Color = Frag_Color;
  else
    Out_Color = Frag_Color * vec4(1.0, 1.0, 1.0, textureLod(Texture, Frag_UV, 0.0).r);
}
)";

// Whether the shader compiled; its log on stderr if not.
bool Compiled(GLuint shader, const char* what) {
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok) return true;
  char log[1024] = {};
  glGetShaderInfoLog(shader, sizeof log, nullptr, log);
  std::fprintf(stderr, "kplace: %s: %s\n", what, log);
  return false;
}

GLuint Compile(GLenum type, const char* source) {
  const GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  if (Compiled(shader, type == GL_VERTEX_SHADER ? "the vertex shader does not compile"
                                                : "the fragment shader does not compile"))
    return shader;
  glDeleteShader(shader);
  return 0;
}

}  // namespace

bool WebGlRenderer::Init() {
  const GLuint vs = Compile(GL_VERTEX_SHADER, kVertexShader);
  const GLuint fs = Compile(GL_FRAGMENT_SHADER, kFragmentShader);
  if (!vs || !fs) return false;
  program_ = glCreateProgram();
  glAttachShader(program_, vs);
  glAttachShader(program_, fs);
  glLinkProgram(program_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  // A program that did not link has no uniforms (-1), and these two are used: so the link is checked without
  // glGetProgramiv, whose JavaScript (Emscripten's, for every query it answers) the page would carry for this alone.
  projection_ = glGetUniformLocation(program_, "ProjMtx");
  white_uv_ = glGetUniformLocation(program_, "WhiteUV");
  if (projection_ < 0 || white_uv_ < 0) {
    std::fprintf(stderr, "kplace: the shaders do not link\n");
    return false;
  }
  glUseProgram(program_);
  glUniform1i(glGetUniformLocation(program_, "Texture"), 0);

  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vertices_);
  glGenBuffers(1, &indices_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vertices_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, indices_);  // part of the vertex array's state
  for (GLuint attribute = 0; attribute < 3; ++attribute) glEnableVertexAttribArray(attribute);

  ImGuiIO& io = ImGui::GetIO();
  io.BackendRendererName = "kplace_webgl2";
  io.BackendFlags |= ImGuiBackendFlags_RendererHasVtxOffset;
  return true;
}

void WebGlRenderer::UploadFonts() {
  ImGuiIO& io = ImGui::GetIO();
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  io.Fonts->GetTexDataAsAlpha8(&pixels, &width, &height);
  if (font_texture_) glDeleteTextures(1, &font_texture_);
  glGenTextures(1, &font_texture_);
  glBindTexture(GL_TEXTURE_2D, font_texture_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, width, height, 0, GL_RED, GL_UNSIGNED_BYTE, pixels);
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(font_texture_)));
  white_uv_value_ = io.Fonts->TexUvWhitePixel;
}

void WebGlRenderer::SetupState(const ImDrawData& data, int fb_width, int fb_height) const {
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glEnable(GL_SCISSOR_TEST);
  glViewport(0, 0, fb_width, fb_height);
  // Display space (top left = DisplayPos) to clip space, y down: column-major.
  const float l = data.DisplayPos.x, r = data.DisplayPos.x + data.DisplaySize.x;
  const float t = data.DisplayPos.y, b = data.DisplayPos.y + data.DisplaySize.y;
  const float projection[16] = {
      2.0f / (r - l), 0, 0, 0, 0, 2.0f / (t - b), 0, 0, 0, 0, -1, 0, (r + l) / (l - r), (t + b) / (b - t), 0, 1,
  };
  glUseProgram(program_);
  glUniformMatrix4fv(projection_, 1, GL_FALSE, projection);
  glUniform2f(white_uv_, white_uv_value_.x, white_uv_value_.y);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(vao_);
}

void WebGlRenderer::PointAttributes(std::size_t first_vertex) const {
  const auto at = [&](std::size_t member) {
    return reinterpret_cast<const void*>(first_vertex * sizeof(ImDrawVert) + member);
  };
  constexpr GLsizei kStride = sizeof(ImDrawVert);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, kStride, at(offsetof(ImDrawVert, pos)));
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, kStride, at(offsetof(ImDrawVert, uv)));
  glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, kStride, at(offsetof(ImDrawVert, col)));
}

void WebGlRenderer::Render(const ImDrawData& data, int fb_width, int fb_height) {
  if (fb_width <= 0 || fb_height <= 0 || data.TotalVtxCount <= 0) return;
  frame_vertices_.resize(static_cast<std::size_t>(data.TotalVtxCount));
  frame_indices_.resize(static_cast<std::size_t>(data.TotalIdxCount));
  std::size_t nv = 0, ni = 0;
  for (int n = 0; n < data.CmdListsCount; ++n) {
    const ImDrawList& list = *data.CmdLists[n];
    std::memcpy(frame_vertices_.data() + nv, list.VtxBuffer.Data, list.VtxBuffer.size_in_bytes());
    std::memcpy(frame_indices_.data() + ni, list.IdxBuffer.Data, list.IdxBuffer.size_in_bytes());
    nv += static_cast<std::size_t>(list.VtxBuffer.Size);
    ni += static_cast<std::size_t>(list.IdxBuffer.Size);
  }
  SetupState(data, fb_width, fb_height);
  glBindBuffer(GL_ARRAY_BUFFER, vertices_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(nv * sizeof(ImDrawVert)), frame_vertices_.data(),
               GL_STREAM_DRAW);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(ni * sizeof(ImDrawIdx)), frame_indices_.data(),
               GL_STREAM_DRAW);

  const ImVec2 clip_off = data.DisplayPos;
  const ImVec2 clip_scale = data.FramebufferScale;
  std::size_t list_vertex = 0, list_index = 0;
  std::size_t pointed_at = SIZE_MAX;  // the first vertex the attributes point at
  ImTextureID bound = nullptr;
  for (int n = 0; n < data.CmdListsCount; ++n) {
    const ImDrawList& list = *data.CmdLists[n];
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      if (cmd.UserCallback) {
        if (cmd.UserCallback == ImDrawCallback_ResetRenderState) {
          SetupState(data, fb_width, fb_height);
          pointed_at = SIZE_MAX;
          bound = nullptr;
        } else {
          cmd.UserCallback(&list, &cmd);
        }
        continue;
      }
      const ImVec2 min((cmd.ClipRect.x - clip_off.x) * clip_scale.x, (cmd.ClipRect.y - clip_off.y) * clip_scale.y);
      const ImVec2 max((cmd.ClipRect.z - clip_off.x) * clip_scale.x, (cmd.ClipRect.w - clip_off.y) * clip_scale.y);
      if (max.x <= min.x || max.y <= min.y) continue;
      glScissor(static_cast<int>(min.x), static_cast<int>(static_cast<float>(fb_height) - max.y),
                static_cast<int>(max.x - min.x), static_cast<int>(max.y - min.y));
      if (cmd.GetTexID() != bound) {
        bound = cmd.GetTexID();
        glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<std::uintptr_t>(bound)));
      }
      if (const std::size_t first = list_vertex + cmd.VtxOffset; first != pointed_at) {
        PointAttributes(first);
        pointed_at = first;
      }
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(cmd.ElemCount),
                     sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT,
                     reinterpret_cast<const void*>((list_index + cmd.IdxOffset) * sizeof(ImDrawIdx)));
    }
    list_vertex += static_cast<std::size_t>(list.VtxBuffer.Size);
    list_index += static_cast<std::size_t>(list.IdxBuffer.Size);
  }
  glDisable(GL_SCISSOR_TEST);  // the next frame's clear covers the whole canvas
}

}  // namespace kplace::webapp
