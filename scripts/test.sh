#!/usr/bin/env bash
# The test command: installs what is missing, builds, and runs every test.
#   1. clang-format check
#   2. the whole suite (unit tests, table tests, golden scenario tests) in a Debug build (assertions on) under
#      AddressSanitizer + UndefinedBehaviorSanitizer, with clang -Werror
#   3. a short libFuzzer run over the scenario parser (built in the same tree: the code is instrumented for it)
#   4. the same suite in Release with GCC -Werror (optimised code; the CLI and benchmarks are built there)
#   5. the browser playground: wasm build, the wasm core over the presets (node), headless-Chromium end to end
# Benchmarks are built (Release) but not timed here: run scripts/bench.sh for figures. One build tree per compiler and
# optimisation level: a plain Debug build (the native-debug preset) adds nothing the ASan one does not check.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh all
jobs=$(nproc)

step() { printf '\n==== %s ====\n' "$*"; }

step "format check"
mapfile -t sources < <(git ls-files '*.cpp' '*.h' 2>/dev/null || find core app cli tests bench fuzz wasm -name '*.cpp' -o -name '*.h')
clang-format --dry-run --Werror "${sources[@]}"

step "asan+ubsan (clang): build"
# A tree configured by another compiler (an older checkout's GCC) is configured afresh.
if [[ -f build/asan/CMakeCache.txt ]] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++' build/asan/CMakeCache.txt; then
  rm -rf build/asan
fi
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
step "asan+ubsan: tests"
# One process runs the whole suite (ctest would start one per test: minutes of process start-up under ASan).
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build/asan/tests/kplace_tests --gtest_brief=1

step "fuzz: scenario parser (30 s)"
mkdir -p build/asan/fuzz/corpus
cp presets/*.json build/asan/fuzz/corpus/ 2>/dev/null || true
build/asan/fuzz/scenario_parser_fuzzer -max_total_time=30 -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
  build/asan/fuzz/corpus 2>&1 | tail -n 3

step "release: build (CLI, benchmarks)"
cmake --preset native-release >/dev/null
cmake --build --preset native-release -j "$jobs"
build/native-release/tests/kplace_tests --gtest_brief=1

step "browser playground (wasm build, node API tests, headless Chromium e2e)"
scripts/test-web.sh
