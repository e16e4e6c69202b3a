#!/bin/sh
# measure_gpu.cu, the calibration microbenchmarks as a CUDA program, measured on the simulator:
# compiled with nvcc, run as `warpsim run --mode timing --config v100 -- measure_gpu --quick`
# through the drop-in libcudart, its targets file must parse (`warpsim calibrate v100 --targets
# FILE` prints a row for every measurement) and its figures must be near what `warpsim
# calibrate v100` simulates with micro.ptx: the same machine model measured two ways (within
# 15%; they agree within about 1%, the chase loops being the same instructions).
#   run_under_warpsim.sh WARPSIM NVCC SRCDIR WORKDIR      (SRCDIR: the source tree's root)
# Exits 77 (skipped) when nvcc is missing. Only the measurements both know are compared
# (measure_gpu --list, warpsim calibrate --list).
set -u
warpsim=$1 nvcc=$2 src=$3 work=$4
if [ ! -x "$nvcc" ]; then
  echo "skipped: nvcc not found (set WARPSIM_NVCC or install the CUDA toolkit)"
  exit 77
fi
work=$work/measure_gpu
mkdir -p "$work" || exit 1
exe=$work/measure_gpu
ws() { env ${WARPSIM_CUDART_PRELOAD:+LD_PRELOAD=$WARPSIM_CUDART_PRELOAD} "$warpsim" "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

# PTX only (compute_80): the simulator runs the PTX, and ptxas would triple the compile time.
"$nvcc" -cudart shared -gencode arch=compute_80,code=compute_80 -O2 -o "$exe" \
  "$src/workloads/micro/gpu/measure_gpu.cu" > "$work/nvcc.out" 2>&1 ||
  { cat "$work/nvcc.out"; fail "nvcc failed"; }

# The measurements both sides know.
ws run -q --mode functional --config v100 -- "$exe" --list > "$work/ours.list" 2>&1 ||
  { cat "$work/ours.list"; fail "measure_gpu --list"; }
ws calibrate --list > "$work/theirs.list" 2>&1 || { cat "$work/theirs.list"; fail "warpsim calibrate --list"; }
names=$(awk 'NR == FNR { known[$1] = 1; next } ($1 in known) { print $1 }' \
  "$work/theirs.list" "$work/ours.list")
[ -n "$names" ] || fail "no measurement in common between measure_gpu --list and warpsim calibrate --list"
only=$(echo "$names" | paste -sd , -)

# The conditions configs/calibration/v100.toml measures under (its `sets`), on both sides.
sets=$(sed -n 's/^sets *= *\[\(.*\)\]/\1/p' "$src/configs/calibration/v100.toml" | tr -d '",')
setargs=
for s in $sets; do setargs="$setargs --set $s"; done

out=$work/v100-measured.toml
# shellcheck disable=SC2086
ws run -q --mode timing --config v100 $setargs -- "$exe" --quick --gpu v100 --only "$only" \
  --out "$out" > "$work/run.out" 2> "$work/run.err"
rc=$?
[ "$rc" = 0 ] || { cat "$work/run.out" "$work/run.err"; fail "measure_gpu under warpsim: exit status $rc"; }
cat "$work/run.err"

# shellcheck disable=SC2086
ws calibrate v100 $setargs --targets "$out" > "$work/calibrate.out" 2>&1
rc=$?
cat "$work/calibrate.out"
# 3: a target missed by more than the file's 5%: the 15% below decides.
[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "warpsim calibrate v100 --targets $out: exit status $rc"
status=0
for n in $names; do
  row=$(awk -v n="$n" '$1 == n' "$work/calibrate.out")
  [ -n "$row" ] || { echo "FAIL: no row for $n"; status=1; continue; }
  # measurement  simulated  target  error  ok|MISS  source
  echo "$row" | awk -v n="$n" '{
    sim = $2; meas = $3; d = (sim - meas) / meas; if (d < 0) d = -d
    if (d > 0.15) { printf "FAIL: %s: measure_gpu %s, warpsim calibrate %s (%.1f%% apart)\n", n, meas, sim, 100 * d; exit 1 }
    printf "ok %s: measure_gpu %s, warpsim calibrate %s (%.1f%% apart)\n", n, meas, sim, 100 * d }' || status=1
done
[ "$status" = 0 ] && echo PASS
exit $status
