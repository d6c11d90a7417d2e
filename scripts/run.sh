#!/usr/bin/env bash
# The run command: installs what is missing, builds kplace (Release) and places the pods of a preset.
# Until the browser playground lands, this runs the CLI: scripts/run.sh [PRESET] (default presets/quickstart.json).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh native
cmake -S . -B build/run -G Ninja -DCMAKE_BUILD_TYPE=Release -DKPLACE_BUILD_TESTS=OFF -DKPLACE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build/run --target kplace -j "$(nproc)"
preset="${1:-presets/quickstart.json}"
echo "\$ kplace run $preset"
build/run/kplace run "$preset"
