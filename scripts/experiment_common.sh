# shellcheck shell=bash disable=SC2034,SC2154  # sourced: sets the run.sh's variables, reads its root
# What the experiments' run.sh share (src/mech/*/experiment/run.sh): the same options, parsed the
# same way, the same checks, and the helpers around them. Not run on its own: a run.sh sets
# `root` (the repository root) after `set -euo pipefail` and sources this file. It then sets
# `out` to its default sweep directory (or leaves it "" and calls default_out after parsing);
# with a --size option `accept_size=1` (and `size` for another default than small,
# `size_names` to take other named sizes than small|default|large); with a --workloads option
# `accept_workloads=1`; with a --quick option `accept_quick=1`. Then it calls
# `parse_options "$@"`, after which these are set and checked:
#   warpsim        the simulator (--warpsim; default build/apps/warpsim/warpsim), runnable
#   jobs           runs in parallel (--jobs; default 2), a positive whole number
#   size           (only with accept_size=1) --size: one of size_names or a positive number
#   workloads      (only with accept_workloads=1) --workloads: names separated by commas, or ""
#   quick          (only with accept_quick=1) 1 with --quick, else 0
#   out, docs      the sweep's directory (--out) and the page's (--docs; default docs/results)
#   no_run         1 with --no-run
#   sweep_options  what follows `--`, for `warpsim sweep`
#   python         $WARPSIM_PYTHON, else python3
# Default paths are relative to the repository root, paths given as options to the current
# directory. --help prints the run.sh's own header (its comment from line 2 down to `set -euo
# pipefail`), so each run.sh documents its options there. Bad usage exits with status 2, a
# missing simulator with 1, each with one line on stderr. default_out and write_page name the
# sweep's directory and write the page the same way in every experiment.

usage_file=${BASH_SOURCE[1]}  # the run.sh that sourced this file

die() {  # die <status> <message>
  echo "run.sh: $2" >&2
  exit "$1"
}

absolute() {  # a path given on the command line, relative to the current directory
  case $1 in
    /*) echo "$1" ;;
    *) echo "$PWD/$1" ;;
  esac
}

warpsim=$root/build/apps/warpsim/warpsim
jobs=2
docs=$root/docs/results
no_run=0
sweep_options=()
out=""
accept_size=0
size=small
size_names="small|default|large"
accept_workloads=0
workloads=""
accept_quick=0
quick=0
python=${WARPSIM_PYTHON:-python3}

parse_options() {  # parse_options "$@"
  while [[ $# -gt 0 ]]; do
    case $1 in
      --warpsim | --size | --workloads | --jobs | --out | --docs)
        [[ $1 != --size ]] || ((accept_size)) || die 2 "unknown option '$1' (see --help)"
        [[ $1 != --workloads ]] || ((accept_workloads)) || die 2 "unknown option '$1' (see --help)"
        [[ $# -ge 2 ]] || die 2 "$1 needs a value"
        case $1 in
          --warpsim) warpsim=$(absolute "$2") ;;
          --size) size=$2 ;;
          --workloads) workloads=$2 ;;
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
      --quick)
        ((accept_quick)) || die 2 "unknown option '$1' (see --help)"
        quick=1
        shift
        ;;
      --)
        shift
        sweep_options=("$@")
        break
        ;;
      -h | --help)
        sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$usage_file"
        exit 0
        ;;
      *) die 2 "unknown option '$1' (see --help)" ;;
    esac
  done
  [[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die 2 "--jobs '$jobs': expected a positive whole number"
  if ((accept_size)); then
    [[ "$size" =~ ^($size_names|[1-9][0-9]*)$ ]] ||
      die 2 "--size '$size': expected ${size_names//|/, } or a positive whole number"
  fi
  if ((accept_workloads)); then
    [[ "$workloads" =~ ^([a-z0-9_-]+(,[a-z0-9_-]+)*)?$ ]] ||
      die 2 "--workloads '$workloads': expected workload names separated by commas"
  fi
  [[ -x "$warpsim" ]] ||
    die 1 "no simulator at $warpsim (build it: cmake --build build --target warpsim; or --warpsim PATH)"
}

dry_run_requested() {  # true when the options for `warpsim sweep` include --dry-run
  local option
  for option in "${sweep_options[@]}"; do
    [[ $option == --dry-run ]] && return 0
  done
  return 1
}

run_sweep() {  # run_sweep <spec> <dir>: warpsim sweep; exits 3 when a point did not pass, 1 on an error
  local status=0
  "$warpsim" sweep "$1" --out "$2" --jobs "$jobs" "${sweep_options[@]}" || status=$?
  ((status == 3)) && die 3 "some points did not pass (see above, or: $warpsim sweep status $2); page not written"
  ((status == 0)) || die 1 "warpsim sweep $1 failed (exit status $status)"
}

default_out() {  # default_out <name>: unless --out was given, out=build/experiments/<name>-SIZE(-quick)
  [[ -n "$out" ]] && return 0
  out=$root/build/experiments/$1-$size
  ((quick)) && out+=-quick
  return 0
}

write_page() {  # write_page <sweep dir> <template> <page file name>: warpsim report into --docs
  mkdir -p "$docs"
  "$warpsim" report "$1" --template "$2" --out "$docs/$3" || die 1 "warpsim report failed"
}
