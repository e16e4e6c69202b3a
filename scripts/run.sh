#!/usr/bin/env bash
# Installs the dependencies, builds warpsim (Release, in build/) and runs the default workload
# (sgemm-tiled, default size). Extra arguments go to `warpsim run`
# (e.g. scripts/run.sh histogram --size small --stats out.json, or scripts/run.sh --all).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
jobs=${WARPSIM_JOBS:-2}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
fi
cmake --build build --target warpsim -j "$jobs"
build/apps/warpsim/warpsim run "$@"
