#!/usr/bin/env bash
# Installs what kplace needs to build and test, from Debian's packages, only when something is missing.
# Usage: scripts/install-deps.sh [native|fuzz|all|web|profile]
#   web: Emscripten, a TTF font and fontTools (to subset it), headless Chromium, node/npm and python3 for the browser
#        playground; Dear ImGui's and libyaml's sources come separately from Debian's source packages
#        (scripts/fetch-source.sh, run by the wasm build's configure step).
#   profile: valgrind (bench/instructions.sh counts instructions with cachegrind).
set -euo pipefail

# libyaml-dev: the YAML parser the core links natively (core/io/yaml_text.cpp).
want=(cmake ninja-build g++ libgtest-dev googletest libgmock-dev libbenchmark-dev nlohmann-json3-dev libyaml-dev)
need_node=0
case "${1:-native}" in
  native) ;;
  fuzz|all) want+=(clang libclang-rt-dev clang-format) ;;
  web)
    want=(cmake ninja-build nlohmann-json3-dev emscripten fonts-dejavu-core fonttools chromium python3 xz-utils
          ca-certificates)
    need_node=1
    ;;
  profile) want=(valgrind) ;;
  *) echo "usage: $0 [native|fuzz|all|web|profile]" >&2; exit 2 ;;
esac

missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
# node and npm may come from another source (e.g. NodeSource's nodejs bundles npm, and Debian's npm would conflict
# with it): ask for Debian's packages only when the commands are absent.
if ((need_node)); then
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
fi
if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "installing: ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
