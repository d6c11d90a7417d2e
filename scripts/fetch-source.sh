#!/usr/bin/env bash
# Fetches the upstream source of a Debian source package (its .orig tarball, as Debian ships it) into
# build/_deps/PACKAGE/src (never committed) and prints that directory. The wasm build compiles C/C++ libraries from
# there, since Debian's -dev packages hold native objects only: Dear ImGui (imgui, scripts/fetch-imgui.sh) and libyaml.
# Each FILE (a path inside the source) must exist afterwards, or the script fails; when all of them already exist,
# nothing is downloaded.
# Usage: scripts/fetch-source.sh [--dest DEST] PACKAGE FILE...   (default DEST: build/_deps/PACKAGE)
set -euo pipefail
cd "$(dirname "$0")/.."
dest=""
if [[ "${1:-}" == "--dest" ]]; then
  dest="${2:?--dest needs a directory}"
  shift 2
fi
pkg="${1:?usage: $0 [--dest DEST] PACKAGE FILE...}"
shift
(($# > 0)) || { echo "fetch-source: name at least one file the $pkg source must hold" >&2; exit 2; }
dest="${dest:-build/_deps/$pkg}"
src="$dest/src"

have_all() {
  local f
  for f in "$@"; do [[ -f "$src/$f" ]] || return 1; done
}
if have_all "$@"; then
  echo "$src"
  exit 0
fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
mkdir -p "$dest"
tarball() { compgen -G "$dest/${pkg}_*.orig.tar.*" | head -n 1 || true; }

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
  (cd "$dest" && apt-get source --download-only "$pkg" >&2) ||
    { $SUDO apt-get update -qq && (cd "$dest" && apt-get source --download-only "$pkg" >&2); }
fi

tar="$(tarball)"
[[ -n "$tar" ]] || { echo "fetch-source: no $pkg orig tarball in $dest" >&2; exit 1; }
rm -rf "$src" "$dest/unpack"
mkdir -p "$dest/unpack"
tar -xf "$tar" -C "$dest/unpack"
top="$(find "$dest/unpack" -mindepth 1 -maxdepth 1 -type d | head -n 1)"
mv "$top" "$src"
rm -rf "$dest/unpack"
for f in "$@"; do
  [[ -f "$src/$f" ]] || { echo "fetch-source: $tar has no $f" >&2; exit 1; }
done
echo "$src"
