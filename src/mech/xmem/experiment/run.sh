#!/usr/bin/env bash
# The XMem experiment (src/mech/xmem/README.md), both use cases on gtx480:
#   1. spec.py OUT/spec.toml                  the tiling-portability study (each L2-tiled workload
#                                             at every tile size, on the configured L2, a half
#                                             and a quarter of it, with and without xmem-cache)
#                                             and the DRAM placement study (each placement
#                                             workload with random frames, XMem's frames and the
#                                             ideal row buffer under every address mapping)
#   2. warpsim sweep OUT/spec.toml --out OUT/sweep
# The results page (docs/results/xmem.md) is not generated yet: its template is the next step;
# the sweep's table (`warpsim sweep status OUT/sweep`, OUT/sweep/results.csv) holds the runs.
#
# Usage: src/mech/xmem/experiment/run.sh [options] [-- warpsim sweep options]
#   --warpsim PATH    simulator (default build/apps/warpsim/warpsim)
#   --quick           two address mappings instead of four, to try the pipeline
#   --jobs N          runs in parallel (default 2)
#   --out DIR         the sweep's directory (default build/experiments/xmem)
#   -- OPTIONS        further options of `warpsim sweep`, e.g. -- --executor slurm --partition P
# The sweep resumes: points that passed in --out are not run again. Exit status: 0 done, 1 error,
# 2 bad usage, 3 a point failed or did not verify.
# Environment: WARPSIM_PYTHON, the Python 3 that runs spec.py.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../../.." && pwd)

# shellcheck source=scripts/experiment_common.sh
. "$root/scripts/experiment_common.sh"  # options, checks, run_sweep

accept_quick=1
out=$root/build/experiments/xmem
parse_options "$@"

mkdir -p "$out"
spec_options=()
((quick)) && spec_options+=(--quick)
"$python" "$here/spec.py" "$out/spec.toml" "${spec_options[@]}" || die 1 "spec.py failed"
run_sweep "$out/spec.toml" "$out/sweep"
