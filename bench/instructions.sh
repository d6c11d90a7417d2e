#!/usr/bin/env bash
# Instructions, not seconds: what one run of a scenario executes natively (`kplace run --format json`, the whole
# process) and in the page's core under node (the x86 instructions of V8's code for one warm kplace_run: node running
# the core twice minus once, every function compiled by TurboFan up front), both counted by cachegrind. The counts
# repeat to a fraction of a percent where this shared machine's wall times vary by half: for comparing a change
# before and after (build both, run this on each), not for the report (bench.mjs times; docs/benchmarks.md).
# Usage: bench/instructions.sh [FILE...]   (default: every scenario in build/bench-scenarios, which bench.mjs writes)
#   CLI=path/to/kplace CORE=dir/with/kplace-core.js  choose the builds (default: native-release's CLI, the site's core)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh profile
cli=${CLI:-build/native-release/kplace}
core=${CORE:-build/wasm/site}
if (($# == 0)); then set -- build/bench-scenarios/*.json; fi

count() {
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    sed -n 's/.*I *refs: *//p' | tr -d ,
}
wasm() {
  count node --no-liftoff --no-wasm-lazy-compilation --single-threaded bench/wasm_runs.cjs "$core" "$1" "$2"
}

printf '%-60s %16s %16s %8s\n' scenario native wasm wasm/native
for f in "$@"; do
  native=$(count "$cli" run --format json "$f")
  once=$(wasm "$f" 1)
  twice=$(wasm "$f" 2)
  run=$((twice - once))
  awk -v f="$(basename "$f")" -v n="$native" -v w="$run" 'BEGIN { printf "%-60s %16.0f %16.0f %7.2fx\n", f, n, w, w / n }'
done
