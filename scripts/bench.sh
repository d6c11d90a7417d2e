#!/usr/bin/env bash
# Builds the Release benchmarks and prints scheduling throughput (pods/s) on generated clusters.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh native
cmake --preset native-release >/dev/null
cmake --build --preset native-release --target kplace_bench -j "$(nproc)"
build/native-release/bench/kplace_bench "$@"
