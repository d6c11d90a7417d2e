#include "wasm/webgl_renderer.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
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

template <typename T>
bool SameRange(const std::vector<T>& a, std::size_t at, const std::vector<T>& b, std::size_t bt, std::size_t n) {
  return n == 0 || std::memcmp(a.data() + at, b.data() + bt, n * sizeof(T)) == 0;
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
  Forget();  // the same draw data would sample the new texture
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

void WebGlRenderer::Gather(const ImDrawData& data, int fb_width, int fb_height, const ImVec4& clear) {
  Frame& f = frame_;
  f.vertices.resize(static_cast<std::size_t>(data.TotalVtxCount));
  f.indices.resize(static_cast<std::size_t>(data.TotalIdxCount));
  f.words.clear();
  f.lists.clear();
  f.callbacks = false;
  const auto word = [&f](auto v) {
    std::uint32_t w = 0;
    std::memcpy(&w, &v, sizeof v < sizeof w ? sizeof v : sizeof w);
    f.words.push_back(w);
  };
  const float frame[kFrameWords] = {static_cast<float>(fb_width),
                                    static_cast<float>(fb_height),
                                    clear.x,
                                    clear.y,
                                    clear.z,
                                    clear.w,
                                    data.DisplayPos.x,
                                    data.DisplayPos.y,
                                    data.DisplaySize.x,
                                    data.DisplaySize.y};
  for (float v : frame) word(v);
  const ImVec2 off = data.DisplayPos;
  const ImVec2 scale = data.FramebufferScale;
  std::size_t nv = 0, ni = 0;
  for (int n = 0; n < data.CmdListsCount; ++n) {
    const ImDrawList& list = *data.CmdLists[n];
    ListSpan span{};
    span.vertex = nv;
    span.vertices = static_cast<std::size_t>(list.VtxBuffer.Size);
    span.index = ni;
    span.indices = static_cast<std::size_t>(list.IdxBuffer.Size);
    span.word = f.words.size();
    std::memcpy(f.vertices.data() + nv, list.VtxBuffer.Data, list.VtxBuffer.size_in_bytes());
    std::memcpy(f.indices.data() + ni, list.IdxBuffer.Data, list.IdxBuffer.size_in_bytes());
    nv += span.vertices;
    ni += span.indices;
    // The pixels the list may touch: inside both its vertices' bounds and its commands' clip rects, a pixel wider
    // on every side (the scissor rounds the clip rect; triangles cover the pixels whose centres they hold).
    ImVec4 verts(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX), clips(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
    for (const ImDrawVert& v : list.VtxBuffer) {
      verts = ImVec4(std::min(verts.x, v.pos.x), std::min(verts.y, v.pos.y), std::max(verts.z, v.pos.x),
                     std::max(verts.w, v.pos.y));
    }
    word(list.CmdBuffer.Size);
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      f.callbacks |= cmd.UserCallback && cmd.UserCallback != ImDrawCallback_ResetRenderState;
      for (float v : {cmd.ClipRect.x, cmd.ClipRect.y, cmd.ClipRect.z, cmd.ClipRect.w}) word(v);
      word(cmd.TextureId);
      word(cmd.VtxOffset);
      word(cmd.IdxOffset);
      word(cmd.ElemCount);
      word(cmd.UserCallback);
      clips = ImVec4(std::min(clips.x, cmd.ClipRect.x), std::min(clips.y, cmd.ClipRect.y),
                     std::max(clips.z, cmd.ClipRect.z), std::max(clips.w, cmd.ClipRect.w));
    }
    span.words = f.words.size() - span.word;
    const auto pixel = [](float v, float o, float s, int limit, float out) {
      const float p = std::floor((v - o) * s + out);
      return !(p > 0) ? 0 : p >= static_cast<float>(limit) ? limit : static_cast<int>(p);  // no vertices: 0
    };
    span.box = {pixel(std::max(verts.x, clips.x), off.x, scale.x, fb_width, -1),
                pixel(std::max(verts.y, clips.y), off.y, scale.y, fb_height, -1),
                pixel(std::min(verts.z, clips.z), off.x, scale.x, fb_width, 2),
                pixel(std::min(verts.w, clips.w), off.y, scale.y, fb_height, 2)};
    f.lists.push_back(span);
  }
}

WebGlRenderer::Box WebGlRenderer::Changed(int fb_width, int fb_height) const {
  const Frame& now = frame_;
  const Frame& was = drawn_;
  const Box whole{0, 0, fb_width, fb_height};
  if (!drawn_valid_ || now.callbacks || !SameRange(now.words, 0, was.words, 0, kFrameWords)) return whole;
  Box changed{fb_width, fb_height, 0, 0};
  const auto add = [&changed](const Box& b) {
    if (b.Empty()) return;
    changed = {std::min(changed.x0, b.x0), std::min(changed.y0, b.y0), std::max(changed.x1, b.x1),
               std::max(changed.y1, b.y1)};
  };
  for (std::size_t i = 0; i < std::max(now.lists.size(), was.lists.size()); ++i) {
    if (i >= was.lists.size()) {
      add(now.lists[i].box);
    } else if (i >= now.lists.size()) {
      add(was.lists[i].box);
    } else {
      const ListSpan& a = now.lists[i];
      const ListSpan& b = was.lists[i];
      if (a.vertices == b.vertices && a.indices == b.indices && a.words == b.words &&
          SameRange(now.words, a.word, was.words, b.word, a.words) &&
          SameRange(now.indices, a.index, was.indices, b.index, a.indices) &&
          SameRange(now.vertices, a.vertex, was.vertices, b.vertex, a.vertices))
        continue;
      add(a.box);
      add(b.box);
    }
  }
  return (keep_pixels_ || changed.Empty()) ? changed : whole;
}

bool WebGlRenderer::Render(const ImDrawData& data, int fb_width, int fb_height, const ImVec4& clear) {
  if (fb_width <= 0 || fb_height <= 0) return false;
  Gather(data, fb_width, fb_height, clear);
  const Box changed = Changed(fb_width, fb_height);
  if (changed.Empty()) return false;
  std::swap(frame_, drawn_);
  drawn_valid_ = true;
  SetupState(data, fb_width, fb_height);
  // GL counts scissor rows from the bottom.
  const int gl_y0 = fb_height - changed.y1, gl_y1 = fb_height - changed.y0;
  glScissor(changed.x0, gl_y0, changed.x1 - changed.x0, gl_y1 - gl_y0);
  glClearColor(clear.x, clear.y, clear.z, clear.w);
  glClear(GL_COLOR_BUFFER_BIT);
  const Frame& f = drawn_;
  if (f.vertices.empty()) return true;
  glBindBuffer(GL_ARRAY_BUFFER, vertices_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(f.vertices.size() * sizeof(ImDrawVert)), f.vertices.data(),
               GL_STREAM_DRAW);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(f.indices.size() * sizeof(ImDrawIdx)), f.indices.data(),
               GL_STREAM_DRAW);

  const ImVec2 clip_off = data.DisplayPos;
  const ImVec2 clip_scale = data.FramebufferScale;
  std::size_t pointed_at = SIZE_MAX;  // the first vertex the attributes point at
  ImTextureID bound = nullptr;
  for (int n = 0; n < data.CmdListsCount; ++n) {
    const ImDrawList& list = *data.CmdLists[n];
    const ListSpan& span = f.lists[static_cast<std::size_t>(n)];
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
      // The command's scissor as a whole frame sets it, cut to the changed pixels.
      const int x = static_cast<int>(min.x), y = static_cast<int>(static_cast<float>(fb_height) - max.y);
      const int x0 = std::max(x, changed.x0), x1 = std::min(x + static_cast<int>(max.x - min.x), changed.x1);
      const int y0 = std::max(y, gl_y0), y1 = std::min(y + static_cast<int>(max.y - min.y), gl_y1);
      if (x1 <= x0 || y1 <= y0) continue;
      glScissor(x0, y0, x1 - x0, y1 - y0);
      if (cmd.GetTexID() != bound) {
        bound = cmd.GetTexID();
        glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<std::uintptr_t>(bound)));
      }
      if (const std::size_t first = span.vertex + cmd.VtxOffset; first != pointed_at) {
        PointAttributes(first);
        pointed_at = first;
      }
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(cmd.ElemCount),
                     sizeof(ImDrawIdx) == 2 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT,
                     reinterpret_cast<const void*>((span.index + cmd.IdxOffset) * sizeof(ImDrawIdx)));
    }
  }
  return true;
}

}  // namespace kplace::webapp
