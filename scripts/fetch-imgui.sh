#!/usr/bin/env bash
# Fetches Dear ImGui's full source (core + the GLFW backend; the page draws with its own WebGL2 renderer,
# wasm/webgl_renderer.cpp) from Debian's source package into build/_deps/imgui (never committed). Debian's
# libimgui-dev ships headers and a native library only, so the wasm build compiles ImGui from this source. Prints
# the unpacked source directory.
# Usage: scripts/fetch-imgui.sh [DEST]   (default build/_deps/imgui)
set -euo pipefail
here="$(dirname "$0")"
exec "$here/fetch-source.sh" --dest "${1:-build/_deps/imgui}" imgui imgui.cpp backends/imgui_impl_glfw.cpp
