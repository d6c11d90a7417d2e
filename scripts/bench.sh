#!/usr/bin/env bash
# Prints scheduling throughput (pods/s) on generated clusters: the native Release benchmarks (Google Benchmark), then
# the same scenarios through the WebAssembly core under node when the site is built (`cmake --build --preset wasm`).
# Arguments go to the native benchmark binary (e.g. --benchmark_filter=BM_Preemption).
# Large imports (a 5,000-node / 50,000-pod dump through `kplace run`, next to Python's json.loads):
# bench/import_bench.py after building the CLI (cmake --build --preset native-release --target kplace).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh native
cmake --preset native-release >/dev/null
cmake --build --preset native-release --target kplace_bench -j "$(nproc)"
build/native-release/bench/kplace_bench "$@"
if [[ -f build/wasm/site/kplace-core.wasm ]] && command -v node >/dev/null; then
  echo
  node bench/wasm_bench.mjs
else
  echo "(WebAssembly figures: build the site with 'cmake --preset wasm && cmake --build --preset wasm' first)"
fi
