#!/usr/bin/env bash
# The XMem experiment (src/mech/xmem/README.md), both use cases on gtx480:
#   1. spec.py OUT/spec.toml                  the tiling-portability study (each L2-tiled workload
#                                             at every tile size, on the configured L2, a half
#                                             and a quarter of it, with and without xmem-cache)
#                                             and the DRAM placement study (each placement
#                                             workload with random frames, XMem's frames and the
#                                             ideal row buffer under every address mapping)
#   2. warpsim sweep OUT/spec.toml --out OUT/sweep
#   3. warpsim report OUT/sweep --template xmem_page.py --out DOCS/xmem.md (the headlines beside
#      the paper's, the tables and plots of both studies; its discussion is not written yet)
#
# Usage: src/mech/xmem/experiment/run.sh [options] [-- warpsim sweep options]
#   --warpsim PATH    simulator (default build/apps/warpsim/warpsim)
#   --quick           two address mappings instead of four, to try the pipeline
#   --jobs N          runs in parallel (default 2)
#   --out DIR         the sweep's directory (default build/experiments/xmem)
#   --docs DIR        where xmem.md and its plots go (default docs/results)
#   --no-run          run nothing: rebuild the page from the sweep already in --out
#   -- OPTIONS        further options of `warpsim sweep`, e.g. -- --executor slurm --partition P
# The sweep resumes: points that passed in --out are not run again. Exit status: 0 done, 1 error,
# 2 bad usage, 3 a point failed or did not verify (the page is then not written).
# Environment: WARPSIM_PYTHON, the Python 3 (with matplotlib) that runs spec.py and `warpsim report`.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../../.." && pwd)

# shellcheck source=scripts/experiment_common.sh
. "$root/scripts/experiment_common.sh"  # options, checks, run_sweep, write_page

accept_quick=1
out=$root/build/experiments/xmem
parse_options "$@"

if ((!no_run)); then
  mkdir -p "$out"
  spec_options=()
  ((quick)) && spec_options+=(--quick)
  "$python" "$here/spec.py" "$out/spec.toml" "${spec_options[@]}" || die 1 "spec.py failed"
  run_sweep "$out/spec.toml" "$out/sweep"
  dry_run_requested && exit 0  # the points listed, nothing run
fi

write_page "$out/sweep" "$here/xmem_page.py" xmem.md
