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

# shellcheck source=scripts/experiment_common.sh
. "$root/scripts/experiment_common.sh"  # options, checks, run_sweep, write_page

out=$root/build/experiments/rf-hierarchy
parse_options "$@"

if ((!no_run)); then
  mkdir -p "$out"
  "$python" "$here/spec.py" "$out/spec.toml" || die 1 "spec.py failed"
  run_sweep "$out/spec.toml" "$out/sweep"
fi

write_page "$out/sweep" "$here/rfh_page.py" rf-hierarchy.md
