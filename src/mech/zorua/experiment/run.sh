#!/usr/bin/env bash
# The Zorua specification-sweep experiment (src/mech/zorua/README.md, docs/results/zorua.md):
#   1. spec.py OUT/spec.toml                         five applications x their resource
#                                                    specifications (184 in all) x the designs
#                                                    (baseline, WLM, Zorua) x three GPU
#                                                    generations (gtx480, k40, gtx980)
#   2. warpsim sweep OUT/spec.toml --out OUT/sweep   1,656 points at size small, each on one SM
#                                                    (spec.py says why), barnes-hut at 1,024
#                                                    bodies: 0.3-0.7 s a point for mst and
#                                                    dct8x8, 0.7-2 s nqueens and sssp, 3-5 s
#                                                    barnes-hut; 19 minutes at --jobs 2 on the
#                                                    2-core machine
#   3. warpsim report OUT/sweep --template zorua_page.py --out DOCS/zorua.md
#
# Usage: src/mech/zorua/experiment/run.sh [options] [-- warpsim sweep options]
#   --warpsim PATH    simulator (default build/apps/warpsim/warpsim)
#   --size SIZE       small (default), default, large or a number for every application
#                     (spec.py's SIZE_AT replaces some at small); at default a point takes 5 to
#                     60 s (hours for the whole sweep at --jobs 2)
#   --workloads LIST  only these applications, separated by commas (default: dct8x8, mst,
#                     nqueens, barnes-hut, sssp)
#   --quick           a handful of specifications per application (3 thread counts, the
#                     first and last shared size, budget minimal): 216 points for the five
#                     applications (27 for mst alone, 15 s), about 2 to 4 minutes, to try the
#                     pipeline
#   --jobs N          runs in parallel (default 2)
#   --out DIR         the sweep's directory (default build/experiments/zorua-SIZE, with -quick
#                     for --quick)
#   --docs DIR        where zorua.md and its plots go (default docs/results)
#   --no-run          run nothing: rebuild the page from the sweep already in --out
#   -- OPTIONS        further options of `warpsim sweep`, e.g. -- --executor slurm --partition P
# Default paths are relative to the repository root, paths given as options to the current
# directory. The sweep resumes: points that passed in --out are not run again. Exit status: 0
# done, 1 error, 2 bad usage, 3 a point failed or did not verify (the page is then not written;
# `warpsim sweep status OUT/sweep` lists them, --no-run writes the page anyway).
# Environment: WARPSIM_PYTHON, the Python 3 (with matplotlib) that `warpsim report` uses.
# WLM runs only when configs/overlays/wlm.toml exists when spec.py runs; the page says so
# otherwise.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../../.." && pwd)

# shellcheck source=scripts/experiment_common.sh
. "$root/scripts/experiment_common.sh"  # options, checks, run_sweep, write_page

accept_size=1
accept_workloads=1
accept_quick=1
parse_options "$@"
default_out zorua

if ((!no_run)); then
  mkdir -p "$out"
  spec_options=(--size "$size" --workloads "$workloads" --warpsim "$warpsim")
  ((quick)) && spec_options+=(--quick)
  "$python" "$here/spec.py" "$out/spec.toml" "${spec_options[@]}" || die 1 "spec.py failed"
  run_sweep "$out/spec.toml" "$out/sweep"
  dry_run_requested && exit 0  # the points listed, nothing run
fi

write_page "$out/sweep" "$here/zorua_page.py" zorua.md
