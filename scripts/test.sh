#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test.
#   1. native debug build with -Werror: unit tests, table tests, golden scenario tests
#   2. the same suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   3. a short libFuzzer run over the scenario parser
#   4. clang-format check
#   5. the browser playground: wasm build, the wasm core over the presets (node), headless-Chromium end to end
# Benchmarks are built (Release) but not timed here: run scripts/bench.sh for figures.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh all
jobs=$(nproc)

step() { printf '\n==== %s ====\n' "$*"; }

step "format check"
mapfile -t sources < <(git ls-files '*.cpp' '*.h' 2>/dev/null || find core app cli tests bench fuzz wasm -name '*.cpp' -o -name '*.h')
clang-format --dry-run --Werror "${sources[@]}"

step "native debug: build"
cmake --preset native-debug >/dev/null
cmake --build --preset native-debug -j "$jobs"
step "native debug: tests"
# One process runs the whole suite (ctest would start one per test: minutes of process start-up under ASan).
build/native-debug/tests/kplace_tests --gtest_brief=1

step "asan+ubsan: build"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
step "asan+ubsan: tests"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build/asan/tests/kplace_tests --gtest_brief=1

step "fuzz: scenario parser (30 s)"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"
mkdir -p build/fuzz/corpus
cp presets/*.json build/fuzz/corpus/ 2>/dev/null || true
build/fuzz/fuzz/scenario_parser_fuzzer -max_total_time=30 -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
  build/fuzz/corpus 2>&1 | tail -n 3

step "release: build (CLI, benchmarks)"
cmake --preset native-release >/dev/null
cmake --build --preset native-release -j "$jobs"
build/native-release/tests/kplace_tests --gtest_brief=1

step "browser playground (wasm build, node API tests, headless Chromium e2e)"
scripts/test-web.sh
