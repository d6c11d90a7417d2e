#!/usr/bin/env bash
# Fetches Dear ImGui's full source (core + GLFW/OpenGL3 backends) from Debian's source package into
# build/_deps/imgui (never committed). Debian's libimgui-dev ships headers and a native library only, so the wasm
# build compiles ImGui from this source. Prints the unpacked source directory.
# Usage: scripts/fetch-imgui.sh [DEST]   (default build/_deps/imgui)
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:-build/_deps/imgui}"
src="$dest/src"

if [[ -f "$src/imgui.cpp" && -f "$src/backends/imgui_impl_opengl3.cpp" ]]; then
  echo "$src"
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
mkdir -p "$dest"
tarball() { compgen -G "$dest/imgui_*.orig.tar.*" | head -n 1 || true; }

if [[ -z "$(tarball)" ]]; then
  # Source entries: a deb-src copy of the system's deb822 entries (same URIs, suites and keys).
  srcs=/etc/apt/sources.list.d/kplace-deb-src.sources
  if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src ' /etc/apt/sources.list; then
    if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
      sed 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | $SUDO tee "$srcs" >/dev/null
    else
      sed -n 's/^deb /deb-src /p' /etc/apt/sources.list |
        $SUDO tee /etc/apt/sources.list.d/kplace-deb-src.list >/dev/null
    fi
    $SUDO apt-get update -qq
  fi
  (cd "$dest" && apt-get source --download-only imgui >&2) ||
    { $SUDO apt-get update -qq && (cd "$dest" && apt-get source --download-only imgui >&2); }
fi

tar="$(tarball)"
[[ -n "$tar" ]] || { echo "fetch-imgui: no imgui orig tarball in $dest" >&2; exit 1; }
rm -rf "$src" "$dest/unpack"
mkdir -p "$dest/unpack"
tar -xf "$tar" -C "$dest/unpack"
top="$(find "$dest/unpack" -mindepth 1 -maxdepth 1 -type d | head -n 1)"
mv "$top" "$src"
rm -rf "$dest/unpack"
[[ -f "$src/imgui.cpp" ]] || { echo "fetch-imgui: $tar has no imgui.cpp" >&2; exit 1; }
echo "$src"
