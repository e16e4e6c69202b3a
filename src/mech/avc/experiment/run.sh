#!/usr/bin/env bash
# The Affine Vector Cache experiment (src/mech/avc/README.md, docs/results/avc.md), in three
# steps:
#   1. warpsim sweep rbase.toml --out OUT/rbase        the paper's workloads at the budget
#                                                       "minimal": each kernel's rbase
#   2. budget_spec.py OUT/rbase OUT/budgets.toml        the sweep over every budget from rbase
#      warpsim sweep OUT/budgets.toml --out OUT/budgets down, in the four configurations of
#                                                       Table 3 (and three ablations at 0.5 rbase)
#   3. warpsim report OUT/budgets --template avc_page.py --out DOCS/avc.md
#
# Usage: src/mech/avc/experiment/run.sh [options] [-- warpsim sweep options]
#   --warpsim PATH    simulator (default build/apps/warpsim/warpsim)
#   --jobs N          runs in parallel (default 2)
#   --out DIR         the sweeps' directory (default build/experiments/avc)
#   --docs DIR        where avc.md and its plots go (default docs/results)
#   --no-run          run nothing: rebuild the page from the sweeps already in --out
#   -- OPTIONS        further options of `warpsim sweep`, e.g. -- --executor slurm --partition P
# Default paths are relative to the repository root, paths given as options to the current
# directory. The sweeps resume: points that passed in --out are not run again. Exit status: 0
# done, 1 error, 2 bad usage, 3 a point failed or did not verify (the page is then not written).
# Environment: WARPSIM_PYTHON, the Python 3 (with matplotlib) that `warpsim report` uses.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../../.." && pwd)

# shellcheck source=scripts/experiment_common.sh
. "$root/scripts/experiment_common.sh"  # options, checks, run_sweep, write_page

out=$root/build/experiments/avc
parse_options "$@"

if ((!no_run)); then
  mkdir -p "$out"
  run_sweep "$here/rbase.toml" "$out/rbase"
  "$python" "$here/budget_spec.py" "$out/rbase" "$out/budgets.toml" || die 1 "budget_spec.py failed"
  run_sweep "$out/budgets.toml" "$out/budgets"
fi

write_page "$out/budgets" "$here/avc_page.py" avc.md
