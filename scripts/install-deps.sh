#!/usr/bin/env bash
# Installs what kplace needs to build and test, from Debian's packages, only when something is missing.
# Usage: scripts/install-deps.sh [native|fuzz|all]
set -euo pipefail

want=(cmake ninja-build g++ libgtest-dev googletest libgmock-dev libbenchmark-dev nlohmann-json3-dev)
case "${1:-native}" in
  native) ;;
  fuzz|all) want+=(clang libclang-rt-dev clang-format) ;;
  *) echo "usage: $0 [native|fuzz|all]" >&2; exit 2 ;;
esac

missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "installing: ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
