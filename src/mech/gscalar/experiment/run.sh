#!/usr/bin/env bash
# The G-Scalar experiment: runs every workload of the suite on --config gtx480 in each
# configuration of configurations.txt (baseline, the prior ALU-only scalar register file, the
# G-Scalar steps, BDI), then writes the results page and its plot with gscalar_page.py.
#
# Usage: src/mech/gscalar/experiment/run.sh [options]
#   --warpsim PATH    simulator (default build/apps/warpsim/warpsim)
#   --size SIZE       workload size: small, default, large or a number (default small)
#   --jobs N          runs in parallel (default 2)
#   --out DIR         statistics go to DIR/<config>/<workload>.json (default build/experiments/gscalar)
#   --workloads a,b   only these workloads (default: every workload `warpsim list` prints)
#   --configs a,b     only these configurations (default: all of configurations.txt)
#   --docs DIR        where gscalar.md and gscalar.png go (default docs/results)
#   --no-run          run nothing: rebuild the page from the statistics already in --out
# Default paths are relative to the repository root, paths given as options to the current
# directory. Exit status: 0 done, 1 error, 2 bad usage, 3 a run failed or did not verify (the
# remaining runs are then not started; those in flight finish).
# Environment: WARPSIM_PYTHON, the Python 3 to use (default: the first of python3 and
# /usr/bin/python3 that has matplotlib, else python3, which then skips the plot).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../../.." && pwd)
self_relative=${here#"$root"/}/run.sh

die() {  # die <status> <message>
  echo "run.sh: $2" >&2
  exit "$1"
}

# Configuration name -> warpsim options (one string of words), in file order.
declare -A config_options=()
config_names=()
while IFS='|' read -r name options _; do
  name=${name//[[:space:]]/}
  [[ -z "$name" || "$name" == \#* ]] && continue
  config_names+=("$name")
  config_options[$name]=$options
done <"$here/configurations.txt"

# One run, started by xargs as `run.sh --run-one CONFIG WORKLOAD` with the GS_* variables set by
# the main invocation. Prints one progress line. A failure is appended to $GS_OUT/.failures and
# creates $GS_OUT/.stop, after which the runs not yet started do nothing.
run_one() {
  local config=$1 workload=$2
  if [[ -e "$GS_OUT/.stop" ]]; then
    return 0
  fi
  local -a options
  read -ra options <<<"${config_options[$config]}"
  local json="$GS_OUT/$config/$workload.json" log="$GS_OUT/$config/$workload.log"
  rm -f "$json"  # a stale file must not pass for this run's statistics
  local start=${EPOCHREALTIME/[.,]/} rc=0
  "$GS_WARPSIM" run "$workload" --config gtx480 --size "$GS_SIZE" "${options[@]}" -q \
    --stats "$json" >"$log" 2>&1 || rc=$?
  local us=$((${EPOCHREALTIME/[.,]/} - start)) seconds
  printf -v seconds '%d.%d' $((us / 1000000)) $((us % 1000000 / 100000))

  local status=PASS reason=""
  if ((rc == 3)); then
    status=FAIL reason="did not verify"
  elif ((rc != 0)); then
    status=FAIL reason="exit status $rc"
  elif [[ ! -s "$json" ]]; then
    status=FAIL reason="no statistics written"
  fi
  {  # under a lock, so that the count goes up by one a line
    flock 9
    echo >>"$GS_OUT/.finished"
    printf '[%3d/%d] %-10s %-15s %s %6s s\n' "$(wc -l <"$GS_OUT/.finished")" "$GS_TOTAL" \
      "$config" "$workload" "$status" "$seconds"
  } 9>>"$GS_OUT/.lock"
  if [[ $status == FAIL ]]; then
    [[ -s "$log" ]] && reason="$reason: $(head -n 1 "$log" | cut -c 1-200)"
    local command="$GS_WARPSIM run $workload --config gtx480 --size $GS_SIZE ${options[*]}"
    printf '%s %s: %s\n    command: %s\n    log: %s\n' "$config" "$workload" "$reason" \
      "$command" "$log" >>"$GS_OUT/.failures"
    touch "$GS_OUT/.stop"
  elif [[ ! -s "$log" ]]; then
    rm -f "$log"
  fi
}

if [[ "${1:-}" == --run-one ]]; then
  [[ $# -eq 3 ]] || die 2 "--run-one needs CONFIG WORKLOAD"
  run_one "$2" "$3"
  exit 0
fi

absolute() {  # a path given on the command line, relative to the current directory
  case $1 in
    /*) echo "$1" ;;
    *) echo "$PWD/$1" ;;
  esac
}

warpsim=$root/build/apps/warpsim/warpsim
size=small
jobs=2
out=$root/build/experiments/gscalar
docs=$root/docs/results
workloads_option=""
configs_option=""
no_run=0
command=$self_relative
for argument in "$@"; do  # shell-quoted where needed, for the page to show
  if [[ "$argument" =~ ^[A-Za-z0-9_./,=:+@%-]+$ ]]; then
    command+=" $argument"
  else
    printf -v command '%s %q' "$command" "$argument"
  fi
done

while [[ $# -gt 0 ]]; do
  case $1 in
    --warpsim | --size | --jobs | --out | --workloads | --configs | --docs)
      [[ $# -ge 2 ]] || die 2 "$1 needs a value"
      case $1 in
        --warpsim) warpsim=$(absolute "$2") ;;
        --size) size=$2 ;;
        --jobs) jobs=$2 ;;
        --out) out=$(absolute "$2") ;;
        --workloads) workloads_option=$2 ;;
        --configs) configs_option=$2 ;;
        --docs) docs=$(absolute "$2") ;;
      esac
      shift 2
      ;;
    --no-run)
      no_run=1
      shift
      ;;
    -h | --help)
      sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
      exit 0
      ;;
    *) die 2 "unknown option '$1' (see --help)" ;;
  esac
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die 2 "--jobs '$jobs': expected a positive whole number"
[[ -n "$size" ]] || die 2 "--size: empty"

configs=("${config_names[@]}")
if [[ -n "$configs_option" ]]; then
  IFS=, read -ra configs <<<"$configs_option"
  for config in "${configs[@]}"; do
    [[ -n "${config_options[$config]+set}" ]] ||
      die 2 "--configs: unknown configuration '$config' (known: ${config_names[*]})"
  done
fi

python=${WARPSIM_PYTHON:-}
if [[ -z "$python" ]]; then
  python=python3
  for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null && "$candidate" -c 'import matplotlib' 2>/dev/null; then
      python=$candidate
      break
    fi
  done
fi
command -v "$python" >/dev/null || die 1 "Python 3 not found ('$python'); set WARPSIM_PYTHON"

page_options=(--out "$out" --docs "$docs" --command "$command")
[[ -n "$workloads_option" ]] && page_options+=(--workloads "$workloads_option")

if ((no_run)); then
  exec "$python" "$here/gscalar_page.py" "${page_options[@]}"
fi

[[ -x "$warpsim" ]] ||
  die 1 "no simulator at $warpsim (build it: cmake --build build --target warpsim; or --warpsim PATH)"
listing=$("$warpsim" list) || die 1 "'$warpsim list' failed"
# `warpsim list`: a count line, a header line starting with "name", then one workload a line.
mapfile -t known_workloads < <(awk 'header && NF { print $1 } $1 == "name" { header = 1 }' <<<"$listing")
((${#known_workloads[@]} > 0)) || die 1 "'$warpsim list' printed no workloads"
workloads=("${known_workloads[@]}")
if [[ -n "$workloads_option" ]]; then
  IFS=, read -ra workloads <<<"$workloads_option"
  for workload in "${workloads[@]}"; do
    [[ " ${known_workloads[*]} " == *" $workload "* ]] ||
      die 2 "--workloads: unknown workload '$workload' (see $warpsim list)"
  done
fi

mkdir -p "$out"
for config in "${configs[@]}"; do
  mkdir -p "$out/$config"
done
rm -f "$out/.stop" "$out/.failures" "$out/.finished" "$out/.lock"
printf '%s\n' "${workloads[@]}" >"$out/workloads.txt"

total=$((${#configs[@]} * ${#workloads[@]}))
echo "run.sh: $total runs (${#workloads[@]} workloads x ${#configs[@]} configurations:" \
  "${configs[*]}), size $size, $jobs in parallel, statistics in $out"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
start_seconds=$SECONDS
# Workload by workload, so that a configuration that does not work shows up early.
xargs_status=0
for workload in "${workloads[@]}"; do
  for config in "${configs[@]}"; do
    printf '%s %s\n' "$config" "$workload"
  done
done | GS_OUT=$out GS_WARPSIM=$warpsim GS_SIZE=$size GS_TOTAL=$total \
  xargs -P "$jobs" -n 2 "$here/run.sh" --run-one || xargs_status=$?
elapsed=$((SECONDS - start_seconds))

if [[ -s "$out/.failures" ]]; then
  echo "run.sh: stopped after ${elapsed} s; these runs failed (the runs not yet started were skipped):" >&2
  sed 's/^/  /' "$out/.failures" >&2
  exit 3
fi
((xargs_status == 0)) || die 1 "running the simulations failed (xargs exit status $xargs_status)"
echo "run.sh: all $total runs passed in ${elapsed} s"

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
  commit="$commit (with uncommitted changes)"
fi
{
  echo "command=$command"
  echo "started=$started"
  echo "seconds=$elapsed"
  echo "commit=$commit"
  echo "size=$size"
  echo "jobs=$jobs"
  echo "configs=${configs[*]}"
} >"$out/run-info.txt"

"$python" "$here/gscalar_page.py" "${page_options[@]}"
