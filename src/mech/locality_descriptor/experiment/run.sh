#!/usr/bin/env bash
# The Locality Descriptor experiment, both parts of the study (src/mech/locality_descriptor/README.md,
# docs/results/locality-descriptor.md):
#   1. spec.py OUT/spec.toml                         single chip: every application on gtx480 +
#                                                    ldesc-chip with l1.count_footprint: the
#                                                    selection filter (Baseline, 4x L1), the
#                                                    motivation study (48 cluster shapes, each
#                                                    distinct one on the app's grids run once: 16
#                                                    on 2-D grids, 4 on 1-D) and the six
#                                                    configurations on the Fig. 20 set; NUMA:
#                                                    every application on mcm-4gpm, the bandwidth
#                                                    filter (Baseline, dram.channels=64) and the
#                                                    four configurations on the 11 applications
#                                                    the study's NUMA discussion names
#   2. warpsim sweep OUT/spec.toml --out OUT/sweep   273 points at size small (208 single-chip, 65
#                                                    NUMA), spec.py's SIZE_AT and NUMA_SIZE_AT
#                                                    (their comments have each application's size,
#                                                    CTAs and time alone); at --jobs 2 on the
#                                                    otherwise idle 2-core machine the single-chip
#                                                    points take 5 m 14 s (1 to 13 s a point),
#                                                    the NUMA ones about 5 m 30 s (649 s of
#                                                    runs, 1 to 49 s a point)
#   3. warpsim config show gtx480 --overlay ldesc-chip > OUT/ldesc-chip.toml and
#      warpsim config show mcm-4gpm > OUT/mcm-4gpm.toml (the page's configuration sections)
#   4. warpsim report OUT/sweep --template ldesc_page.py --out DOCS/locality-descriptor.md
#
# Usage: src/mech/locality_descriptor/experiment/run.sh [options] [-- warpsim sweep options]
#   --warpsim PATH    simulator (default build/apps/warpsim/warpsim)
#   --size SIZE       small (default), default, large or a number for every application
#                     (spec.py's SIZE_AT and NUMA_SIZE_AT replace them at small)
#   --workloads LIST  only these applications, separated by commas (default: the sixteen of
#                     Table 4 the suite has); headlines over missing ones have no data
#   --quick           no motivation study (both filters, the six and the four
#                     configurations): 137 points, to try the pipeline
#   --jobs N          runs in parallel (default 2)
#   --out DIR         the sweep's directory (default build/experiments/locality-descriptor-SIZE,
#                     with -quick for --quick)
#   --docs DIR        where locality-descriptor.md and its plots go (default docs/results)
#   --no-run          run nothing: rebuild the page from the sweep already in --out
#   -- OPTIONS        further options of `warpsim sweep`, e.g. -- --executor slurm --partition P
# Default paths are relative to the repository root, paths given as options to the current
# directory. The sweep resumes: points that passed in --out are not run again. Every point must
# pass and verify (hints never change results). Exit status: 0 done, 1 error, 2 bad usage, 3 a
# point failed or did not verify (the page is then not written; `warpsim sweep status
# OUT/sweep` lists them, --no-run writes the page anyway).
# Environment: WARPSIM_PYTHON, the Python 3 (with matplotlib) that `warpsim report` uses.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../../.." && pwd)

# shellcheck source=scripts/experiment_common.sh
. "$root/scripts/experiment_common.sh"  # options, checks, run_sweep, write_page

accept_size=1
accept_workloads=1
accept_quick=1
parse_options "$@"
default_out locality-descriptor

if ((!no_run)); then
  mkdir -p "$out"
  spec_options=(--size "$size" --workloads "$workloads")
  ((quick)) && spec_options+=(--quick)
  "$python" "$here/spec.py" "$out/spec.toml" "${spec_options[@]}" || die 1 "spec.py failed"
  run_sweep "$out/spec.toml" "$out/sweep"
  dry_run_requested && exit 0  # the points listed, nothing run
  "$warpsim" config show gtx480 --overlay ldesc-chip >"$out/ldesc-chip.toml" ||
    die 1 "warpsim config show gtx480 --overlay ldesc-chip failed"
  "$warpsim" config show mcm-4gpm >"$out/mcm-4gpm.toml" || die 1 "warpsim config show mcm-4gpm failed"
fi

write_page "$out/sweep" "$here/ldesc_page.py" locality-descriptor.md
