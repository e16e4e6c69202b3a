#!/usr/bin/env bash
# The G-Scalar experiment: runs the sweep of sweep.toml (every workload of the suite on gtx480 in
# the baseline, the prior ALU-only scalar register file, the G-Scalar steps and BDI) with
# `warpsim sweep`, then writes the results page and its plot with `warpsim report` and the
# template gscalar_page.py. The two commands it runs:
#   warpsim sweep src/mech/gscalar/experiment/sweep.toml --out OUT --jobs N
#   warpsim report OUT --template src/mech/gscalar/experiment/gscalar_page.py --out DOCS/gscalar.md
#
# Usage: src/mech/gscalar/experiment/run.sh [options] [-- warpsim sweep options]
#   --warpsim PATH    simulator (default build/apps/warpsim/warpsim)
#   --size SIZE       workload size: small, default, large or a number (default small); another
#                     size than small runs a copy of sweep.toml with that size
#   --jobs N          runs in parallel (default 2)
#   --out DIR         the sweep's directory (default build/experiments/gscalar, and
#                     build/experiments/gscalar-SIZE for another size than small)
#   --docs DIR        where gscalar.md and gscalar.png go (default docs/results)
#   --no-run          run nothing: rebuild the page from the sweep already in --out
#   -- OPTIONS        further options of `warpsim sweep`, e.g. -- --executor slurm --partition P
# Default paths are relative to the repository root, paths given as options to the current
# directory. A sweep resumes: points that passed in --out are not run again. Exit status: 0
# done, 1 error, 2 bad usage, 3 a point failed or did not verify (the page is then not written;
# `warpsim sweep status OUT` lists them, --no-run writes the page anyway).
# Environment: WARPSIM_PYTHON, the Python 3 (with matplotlib) that `warpsim report` uses.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../../.." && pwd)

# shellcheck source=scripts/experiment_common.sh
. "$root/scripts/experiment_common.sh"  # options, checks, write_page

accept_size=1
parse_options "$@"
if [[ -z "$out" ]]; then
  out=$root/build/experiments/gscalar
  [[ $size == small ]] || out+=-$size
fi

if ((!no_run)); then
  spec=$here/sweep.toml
  if [[ $size != small ]]; then
    # The spec with its size axis (one line, checked) replaced: small -> SIZE.
    [[ $(grep -c '^size = \["small"\]$' "$spec") == 1 ]] ||
      die 1 "$spec: expected one line 'size = [\"small\"]'"
    value=\"$size\"
    [[ $size =~ ^[0-9]+$ ]] && value=$size
    spec=$(mktemp "${TMPDIR:-/tmp}/gscalar-$size.XXXXXX.toml")
    trap 'rm -f "$spec"' EXIT
    sed -e "s/^size = \[\"small\"\]\$/size = [$value]/" \
      -e "s/^name = \"gscalar-small\"\$/name = \"gscalar-$size\"/" "$here/sweep.toml" >"$spec"
  fi
  status=0
  "$warpsim" sweep "$spec" --out "$out" --jobs "$jobs" "${sweep_options[@]}" || status=$?
  ((status == 0)) && dry_run_requested && exit 0  # the points listed, nothing run
  if ((status == 3)); then
    die 3 "some points did not pass (see above, or: $warpsim sweep status $out); page not written"
  fi
  ((status == 0)) || die 1 "warpsim sweep failed (exit status $status)"
fi

write_page "$out" "$here/gscalar_page.py" gscalar.md
