#!/usr/bin/env bash
# The run command: installs what is missing, builds the browser playground and serves it on
# http://127.0.0.1:8080 (PORT overrides) until interrupted.
#   scripts/run.sh                 the playground (WebAssembly + Dear ImGui) in build/wasm/site
#   scripts/run.sh PRESET.json     the CLI instead: kplace run PRESET.json (Release build in build/run)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -gt 0 ]]; then
  scripts/install-deps.sh native
  cmake -S . -B build/run -G Ninja -DCMAKE_BUILD_TYPE=Release -DKPLACE_BUILD_TESTS=OFF -DKPLACE_BUILD_BENCHMARKS=OFF \
    >/dev/null
  cmake --build build/run --target kplace -j "$(nproc)"
  echo "\$ kplace run $1"
  exec build/run/kplace run "$1"
fi

scripts/build-site.sh
port="${PORT:-8080}"
echo
echo "kplace playground: http://127.0.0.1:$port/   (serving build/wasm/site; Ctrl+C stops)"
exec python3 -m http.server --bind 127.0.0.1 --directory build/wasm/site "$port"
