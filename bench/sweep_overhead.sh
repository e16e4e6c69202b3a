#!/usr/bin/env bash
# Measures what `warpsim sweep` adds to its points: runs bench/sweep_overhead.toml (216 small
# points) into a fresh directory on the local pool and prints the sweep's wall time, the sum of
# the points' own wall times (result.json) divided by the job count, and the overhead.
#   bench/sweep_overhead.sh [WARPSIM] [JOBS]    (defaults: build/apps/warpsim/warpsim, nproc)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
warpsim=${1:-$root/build/apps/warpsim/warpsim}
jobs=${2:-$(nproc)}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
"$warpsim" sweep "$root/bench/sweep_overhead.toml" --out "$out/sweep" --jobs "$jobs" 2>/dev/null
end=$(date +%s.%N)
python3 - "$out/sweep" "$start" "$end" "$jobs" <<'PY'
import json, pathlib, sys
d, start, end, jobs = pathlib.Path(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
walls = [json.loads(p.read_text())["wall_seconds"] for p in d.glob("points/*/result.json")]
wall = end - start
ideal = sum(walls) / jobs
print(f"points {len(walls)}, jobs {jobs}: sweep {wall:.2f} s, points' own time / jobs {ideal:.2f} s, "
      f"overhead {100 * (wall / ideal - 1):.1f}%")
PY
