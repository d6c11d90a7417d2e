#!/usr/bin/env bash
# Builds the browser playground, the static folder build/wasm/site: what scripts/run.sh serves, what
# scripts/test-web.sh tests and what CI publishes to GitHub Pages (.github/workflows/ci.yml), one recipe for all three.
# Installs what is missing (Emscripten, fonts, fonttools, Chromium's and node's packages: scripts/install-deps.sh web),
# configures the wasm preset (which fetches Dear ImGui's and libyaml's sources from Debian's source packages into
# build/_deps when absent) and builds every wasm target. Anything the site needs that is missing fails the build.
# Usage: scripts/build-site.sh [BUILD_DIR]   (default build/wasm; JOBS overrides the parallel jobs, default nproc)
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build/wasm}
scripts/install-deps.sh web
cmake --preset wasm -B "$build" >/dev/null
cmake --build "$build" -j "${JOBS:-$(nproc)}"
for f in index.html kplace.js kplace-worker.js kplace-app.js kplace-app.wasm kplace-core.js kplace-core.wasm \
  DejaVuSans.ttf DejaVuSansMono.ttf embed-example.html; do
  [[ -s $build/site/$f ]] || { echo "build-site: $build/site/$f is missing after the build" >&2; exit 1; }
done
echo "site: $build/site"
