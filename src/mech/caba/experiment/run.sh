#!/usr/bin/env bash
# The CABA memory-compression experiment (src/mech/caba/README.md, docs/results/caba.md):
#   1. spec.py OUT/spec.toml                         the study's designs, its cache-compression
#                                                    designs and Direct-Load, and the bandwidth
#                                                    study on the suite, on fermi-caba
#   2. warpsim sweep OUT/spec.toml --out OUT/sweep   990 points at the mixed size, about 17
#                                                    minutes at --jobs 2 on an idle 2-core machine
#   3. warpsim report OUT/sweep --template caba_page.py --out DOCS/caba.md
#
# Usage: src/mech/caba/experiment/run.sh [options] [-- warpsim sweep options]
#   --warpsim PATH    simulator (default build/apps/warpsim/warpsim)
#   --size SIZE       mixed (default): the study's compressible applications spec.py names at
#                     size default, the rest of the suite at small; or small, default, large or a
#                     number for every workload (small: a quick look, about 10 minutes)
#   --workloads LIST  only these workloads, separated by commas (default: the whole suite)
#   --jobs N          runs in parallel (default 2)
#   --out DIR         the sweep's directory (default build/experiments/caba, and
#                     build/experiments/caba-SIZE for another size than mixed)
#   --docs DIR        where caba.md and its plots go (default docs/results)
#   --no-run          run nothing: rebuild the page from the sweep already in --out
#   -- OPTIONS        further options of `warpsim sweep`, e.g. -- --executor slurm --partition P
# Default paths are relative to the repository root, paths given as options to the current
# directory. The sweep resumes: points that passed in --out are not run again. Exit status: 0
# done, 1 error, 2 bad usage, 3 a point failed or did not verify (the page is then not written;
# `warpsim sweep status OUT/sweep` lists them, --no-run writes the page anyway).
# Environment: WARPSIM_PYTHON, the Python 3 (with matplotlib) that `warpsim report` uses.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../../.." && pwd)

# shellcheck source=scripts/experiment_common.sh
. "$root/scripts/experiment_common.sh"  # options, checks, run_sweep, write_page

accept_size=1
size_names="mixed|small|default|large"
size=mixed
accept_workloads=1
parse_options "$@"
if [[ -z "$out" ]]; then
  out=$root/build/experiments/caba
  [[ $size == mixed ]] || out+=-$size
fi

if ((!no_run)); then
  mkdir -p "$out"
  "$python" "$here/spec.py" "$out/spec.toml" --size "$size" --workloads "$workloads" \
    --warpsim "$warpsim" || die 1 "spec.py failed"
  run_sweep "$out/spec.toml" "$out/sweep"
  dry_run_requested && exit 0  # the points listed, nothing run
fi

write_page "$out/sweep" "$here/caba_page.py" caba.md
