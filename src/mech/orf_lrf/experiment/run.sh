#!/usr/bin/env bash
# The register-file-hierarchy experiment (src/mech/orf_lrf/README.md, src/mech/rfc/README.md,
# docs/results/rf-hierarchy.md):
#   1. spec.py OUT/spec.toml                         every configuration the page needs
#   2. warpsim sweep OUT/spec.toml --out OUT/sweep   the suite in each (2,257 points, about
#                                                    25 minutes at --jobs 2)
#   3. warpsim report OUT/sweep --template rfh_page.py --out DOCS/rf-hierarchy.md
#
# Usage: src/mech/orf_lrf/experiment/run.sh [options] [-- warpsim sweep options]
#   --warpsim PATH    simulator (default build/apps/warpsim/warpsim)
#   --jobs N          runs in parallel (default 2)
#   --out DIR         the sweep's directory (default build/experiments/rf-hierarchy)
#   --docs DIR        where rf-hierarchy.md and its plots go (default docs/results)
#   --no-run          run nothing: rebuild the page from the sweep already in --out
#   -- OPTIONS        further options of `warpsim sweep`, e.g. -- --executor slurm --partition P
# Default paths are relative to the repository root, paths given as options to the current
# directory. The sweep resumes: points that passed in --out are not run again. Exit status: 0
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
out=$root/build/experiments/rf-hierarchy
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
  "$python" "$here/spec.py" "$out/spec.toml" || die 1 "spec.py failed"
  sweep "$out/spec.toml" "$out/sweep"
fi

mkdir -p "$docs"
"$warpsim" report "$out/sweep" --template "$here/rfh_page.py" --out "$docs/rf-hierarchy.md" ||
  die 1 "warpsim report failed"
