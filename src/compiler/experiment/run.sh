#!/usr/bin/env bash
# The register-allocation experiment: runs every workload of the suite on --config gtx480 with
# --max-registers off, minimal, B75 and B50 (75% and 50% of its minimal count), compiles its PTX
# with ptxas -v at the same limits, and writes docs/results/register-allocation.md with
# regalloc_page.py. regalloc_run.py does the work; `run.sh --help` lists the options:
#   --warpsim PATH, --ptxas PATH|none, --size SIZE (small), --jobs N (2),
#   --out DIR (build/experiments/register-allocation; statistics in DIR/<run>/<workload>.json),
#   --workloads a,b, --docs DIR (docs/results), --no-run (rebuild the page from --out only).
# Exit status: 0 done, 1 error, 2 bad usage, 3 a run failed or did not verify.
# Environment: WARPSIM_PYTHON, the Python 3 to use (default python3).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
command=${here#"$root"/}/run.sh
for argument in "$@"; do  # shell-quoted where needed, for the page to show
  if [[ "$argument" =~ ^[A-Za-z0-9_./,=:+@%-]+$ ]]; then
    command+=" $argument"
  else
    printf -v command '%s %q' "$command" "$argument"
  fi
done

python=${WARPSIM_PYTHON:-python3}
if ! command -v "$python" >/dev/null; then
  echo "run.sh: Python 3 not found ('$python'); set WARPSIM_PYTHON" >&2
  exit 1
fi
PYTHONDONTWRITEBYTECODE=1 exec "$python" "$here/regalloc_run.py" --command "$command" "$@"
