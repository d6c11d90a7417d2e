#!/usr/bin/env bash
# The browser playground's tests (scripts/test.sh runs this): installs what is missing, builds the site with the
# wasm preset, then
#   1. the UI (tests/ui) drawn headless over every preset under node (every IM_ASSERT checked, every direct edit
#      and its undo, a background run's answer); the app model itself is tested natively (tests/app, scripts/test.sh)
#   2. the wasm core's C API under node: every preset gives its tests/golden result; bad input is data, never a trap
#   3. end to end in headless Chromium (playwright-core, WebGL2 via SwiftShader): load, placements, kplace.load,
#      typing in the editor, invalid input kept stale, setMode, direct edits (taint badge clicks, cordon, add
#      toleration, undo), the Events panel, a large scenario in the Web Worker without freezing the page, resize,
#      devicePixelRatio 2 and 3, screenshot; share links (round-trip, corrupt/unknown-version, presets), autosave
#      and "restore my last edit", the embed example page, kubectl JSON / YAML import (also 5,000 nodes x 150,000
#      pods), exports
#   4. the page's transfer size (gzip) against the 1.5 MB budget, every web/js module included (each must be in the
#      site and preloaded by index.html)
# Screenshots go to build/web-e2e/.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==== %s ====\n' "$*"; }

# KPLACE_WEB_BUILD_DIR builds and tests another build folder (default build/wasm).
build=${KPLACE_WEB_BUILD_DIR:-build/wasm}
step "web: build the site (scripts/build-site.sh $build)"
scripts/build-site.sh "$build"
export KPLACE_SITE="$PWD/$build/site"
case "$build" in /*) export KPLACE_SITE="$build/site" ;; esac

step "web: the headless UI smoke test (node)"
node "$build/wasm/ui_smoke_test.js"

step "web: the tests' npm packages (playwright-core; yaml, a second YAML reader for the tests)"
(cd tests/web && npm ci --no-audit --no-fund --loglevel=error)

step "web: wasm core API over the presets and the import fixtures (node)"
node --test --test-reporter=spec tests/web/api.test.mjs

step "web: end to end (headless Chromium)"
node --test --test-reporter=spec tests/web/e2e.test.mjs

step "web: share links, embeds, import and export (headless Chromium)"
node --test --test-reporter=spec tests/web/share.test.mjs

step "web: transfer size"
site=$KPLACE_SITE
total=0
# Everything a visit can transfer, including what only a large scenario, an import or a YAML export loads (the worker
# and kplace-core). The shell's modules (js/*.js) are taken from web/js, so a
# new one counts (and must be in the site and preloaded by index.html).
modules=()
for m in web/js/*.js; do
  m=js/$(basename "$m")
  [[ -f $site/$m ]] || { echo "$m is not in the site: rebuild (wasm/CMakeLists.txt copies web/js/*.js)" >&2; exit 1; }
  grep -qF "<link rel=\"modulepreload\" href=\"$m\">" "$site/index.html" ||
    { echo "web/index.html does not preload $m (<link rel=\"modulepreload\">)" >&2; exit 1; }
  modules+=("$m")
done
for f in index.html kplace.js "${modules[@]}" kplace-app.js kplace-app.wasm DejaVuSans.ttf DejaVuSansMono.ttf \
  kplace-worker.js kplace-core.js kplace-core.wasm; do
  size=$(gzip -9c "$site/$f" | wc -c)
  printf '  %-22s %8d bytes gzip\n' "$f" "$size"
  total=$((total + size))
done
printf '  %-22s %8d bytes gzip (budget 1500000)\n' "page total" "$total"
((total <= 1500000)) || { echo "the page is over its 1.5 MB transfer budget" >&2; exit 1; }
