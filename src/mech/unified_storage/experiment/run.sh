#!/usr/bin/env bash
# The unified-storage experiment (src/mech/unified_storage/README.md, docs/results/unified-storage.md):
#   1. spec.py OUT/spec.toml                         the six applications (Needle at three
#                                                    blockings) on fermi-unified with one SM: 11
#                                                    designs, the bank study (unified-384 without
#                                                    arbitration, 256/64/64 and unified-384 with
#                                                    the orf-lrf hierarchy, the aggressive
#                                                    variant) and the sensitivity study
#   2. warpsim sweep OUT/spec.toml --out OUT/sweep   201 points at size small (193 without the
#                                                    aggressive variant), spec.py's SIZE_AT: nw
#                                                    1024, mummer 4096, bfs 65536, dgemm-tiled 256,
#                                                    pcr 512, hotspot 256. Measured on the 2-core
#                                                    machine, one point at a time: nw 1.3-3.4 s,
#                                                    mummer 1.7-2.7, bfs 1.9-3.0, dgemm-tiled
#                                                    0.8-0.9 (4.5-9.9 at budgets that spill),
#                                                    pcr 1.7-1.9, hotspot 1.7-2.7; 6.3 minutes in
#                                                    all at --jobs 1, about 3.5 at --jobs 2
#   3. warpsim report OUT/sweep --template unified_page.py --out DOCS/unified-storage.md
#
# Usage: src/mech/unified_storage/experiment/run.sh [options] [-- warpsim sweep options]
#   --warpsim PATH    simulator (default build/apps/warpsim/warpsim)
#   --size SIZE       small (default), default, large or a number for every application
#                     (spec.py's SIZE_AT replaces them at small); at default nw takes 6-10 s a
#                     point, bfs 10, hotspot 8, the others as at small (about 18 minutes at
#                     --jobs 1, 9 at --jobs 2)
#   --workloads LIST  only these applications, separated by commas (default: nw, mummer, bfs,
#                     dgemm-tiled, pcr, hotspot); the headlines over all six then have no data
#   --quick           256/64/64 and unified-384 with the bank study only, no sensitivity study:
#                     48 points (40 without the aggressive variant), 1 minute at --jobs 1, to
#                     try the pipeline
#   --jobs N          runs in parallel (default 2)
#   --out DIR         the sweep's directory (default build/experiments/unified-storage-SIZE,
#                     with -quick for --quick)
#   --docs DIR        where unified-storage.md and its plots go (default docs/results)
#   --no-run          run nothing: rebuild the page from the sweep already in --out
#   -- OPTIONS        further options of `warpsim sweep`, e.g. -- --executor slurm --partition P
# Default paths are relative to the repository root, paths given as options to the current
# directory. The sweep resumes: points that passed in --out are not run again. Needle at blocking
# 64 and DGEMM's two shared tiles do not fit the 16 KB of shared memory of limited-48-16: the
# launch is refused and the page shows "does not fit" (sweep_check.py). Exit status: 0 done, 1 error (the page also
# fails, naming the statistic, when the simulator lacks a bank statistic), 2 bad usage, 3 any
# other point failed or did not verify (the page is then not written; `warpsim sweep status
# OUT/sweep` lists them, --no-run writes the page anyway).
# Environment: WARPSIM_PYTHON, the Python 3 (with matplotlib) that `warpsim report` uses.
# The aggressive variant runs only when configs/overlays/unified-aggressive.toml exists when
# spec.py runs; the page says so otherwise.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../../.." && pwd)

# shellcheck source=scripts/experiment_common.sh
. "$root/scripts/experiment_common.sh"  # options, checks, write_page

accept_size=1
accept_workloads=1
accept_quick=1
parse_options "$@"
default_out unified-storage

if ((!no_run)); then
  mkdir -p "$out"
  spec_options=(--size "$size" --workloads "$workloads" --warpsim "$warpsim")
  ((quick)) && spec_options+=(--quick)
  "$python" "$here/spec.py" "$out/spec.toml" "${spec_options[@]}" || die 1 "spec.py failed"
  # As run_sweep, but a point whose kernel fits in no division of its design is expected.
  status=0
  "$warpsim" sweep "$out/spec.toml" --out "$out/sweep" --jobs "$jobs" "${sweep_options[@]}" || status=$?
  if ((status == 3)); then
    "$python" "$here/sweep_check.py" "$out/sweep" ||
      die 3 "some points did not pass (see above, or: $warpsim sweep status $out/sweep); page not written"
  elif ((status != 0)); then
    die 1 "warpsim sweep $out/spec.toml failed (exit status $status)"
  fi
  dry_run_requested && exit 0  # the points listed, nothing run
fi

write_page "$out/sweep" "$here/unified_page.py" unified-storage.md
