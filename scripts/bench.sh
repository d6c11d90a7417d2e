#!/usr/bin/env bash
# The benchmarks, and the report docs/benchmarks.md they regenerate:
#   1. builds the Release CLI and the Google Benchmark binary (native-release) and the site (scripts/build-site.sh);
#   2. runs the Google Benchmark cases (core only: scheduling and Karpenter throughput, parsing);
#   3. runs bench/bench.mjs: every scenario of bench/scenarios.mjs end to end through the native CLI and through the
#      page's WebAssembly core under node and in a Web Worker in headless Chromium, in one run, then the page in
#      headless Chromium (bench/page_bench.mjs), and writes docs/benchmarks.md (--no-report: print only).
# Arguments other than --no-report go to the Google Benchmark binary (e.g. --benchmark_filter=BM_Preemption).
# Instructions instead of seconds, for a change before and after on this noisy machine: bench/instructions.sh.
# Large imports (a 5,000-node / 50,000-pod dump): bench/import_bench.py and bench/page_import_bench.mjs (figures in
# bench/REPORT.md).
set -euo pipefail
cd "$(dirname "$0")/.."
report=(--report docs/benchmarks.md)
args=()
for a in "$@"; do
  if [[ $a == --no-report ]]; then report=(); else args+=("$a"); fi
done
scripts/install-deps.sh native
scripts/install-deps.sh web
cmake --preset native-release >/dev/null
cmake --build --preset native-release --target kplace kplace_bench -j "$(nproc)"
scripts/build-site.sh
(cd tests/web && npm ci --no-audit --no-fund --loglevel=error)
build/native-release/bench/kplace_bench "${args[@]}"
echo
node bench/bench.mjs --page --repeat 2 "${report[@]}"
