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

die() {  # die <status> <message>
  echo "run.sh: $2" >&2
  exit "$1"
}

absolute() {
  case $1 in
    /*) echo "$1" ;;
    *) echo "$PWD/$1" ;;
  esac
}

warpsim=$root/build/apps/warpsim/warpsim
jobs=2
out=$root/build/experiments/avc
docs=$root/docs/results
no_run=0
sweep_options=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --warpsim | --jobs | --out | --docs)
      [[ $# -ge 2 ]] || die 2 "$1 needs a value"
      case $1 in
        --warpsim) warpsim=$(absolute "$2") ;;
        --jobs) jobs=$2 ;;
        --out) out=$(absolute "$2") ;;
        --docs) docs=$(absolute "$2") ;;
      esac
      shift 2
      ;;
    --no-run)
      no_run=1
      shift
      ;;
    --)
      shift
      sweep_options=("$@")
      break
      ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
      exit 0
      ;;
    *) die 2 "unknown option '$1' (see --help)" ;;
  esac
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die 2 "--jobs '$jobs': expected a positive whole number"
[[ -x "$warpsim" ]] ||
  die 1 "no simulator at $warpsim (build it: cmake --build build --target warpsim; or --warpsim PATH)"
python=${WARPSIM_PYTHON:-python3}

sweep() {  # sweep <spec> <dir>
  local status=0
  "$warpsim" sweep "$1" --out "$2" --jobs "$jobs" "${sweep_options[@]}" || status=$?
  ((status == 3)) && die 3 "some points did not pass (see above, or: $warpsim sweep status $2); page not written"
  ((status == 0)) || die 1 "warpsim sweep $1 failed (exit status $status)"
}

if ((!no_run)); then
  mkdir -p "$out"
  sweep "$here/rbase.toml" "$out/rbase"
  "$python" "$here/budget_spec.py" "$out/rbase" "$out/budgets.toml" || die 1 "budget_spec.py failed"
  sweep "$out/budgets.toml" "$out/budgets"
fi

mkdir -p "$docs"
"$warpsim" report "$out/budgets" --template "$here/avc_page.py" --out "$docs/avc.md" ||
  die 1 "warpsim report failed"
