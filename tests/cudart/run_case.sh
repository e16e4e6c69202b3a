#!/bin/sh
# Compiles one CUDA test program with nvcc and runs it on the drop-in runtime, checking its exit
# status, its stdout (against <program>.expected when given) and its stderr.
#   run_case.sh NVCC LIBDIR SRCDIR WORKDIR CASE
# The stats case also checks the WARPSIM_STATS file and that WARPSIM_QUIET silences stderr.
# Exits 77 (skipped) when nvcc is missing. $WARPSIM_CUDART_PRELOAD, when set, is preloaded
# (the sanitizer runtime of a sanitized library).
set -u
nvcc=$1 libdir=$2 src=$3 work=$4 case=$5
if [ ! -x "$nvcc" ]; then
  echo "skipped: nvcc not found (set WARPSIM_NVCC or install the CUDA toolkit)"
  exit 77
fi
mkdir -p "$work" || exit 1
fail() { echo "FAIL [$case]: $*"; echo "--- stdout"; cat "$work/$case.out"; echo "--- stderr"; cat "$work/$case.err"; exit 1; }

# The multi-arch case checks that the highest PTX <= compute_90 is chosen (its name is in the
# fault message).
# case -> program, nvcc flags, environment, expected exit status, stderr pattern ("" = empty)
# and the most stderr lines allowed
env_vars="" rc_want=0 err_want="" expected="" err_lines=1 occupy=0
case "$case" in
  basics)              prog=basics flags="" expected=basics err_lines=3
                       err_want="block dimension x = 2048 exceeds the limit of 1024" ;;
  basics-no-compress)  prog=basics flags="-no-compress -gencode arch=compute_80,code=compute_80" expected=basics
                       err_want="block dimension x = 2048 exceeds the limit of 1024" err_lines=3 ;;
  streams)             prog=streams flags="" expected=streams err_lines=2
                       err_want="cudaGraphCreate: not supported by warpsim" ;;
  streams-no-compress) prog=streams flags="-no-compress -gencode arch=compute_80,code=compute_80" expected=streams
                       err_want="cudaGraphCreate: not supported by warpsim" err_lines=2 ;;
  per-thread)          prog=streams flags="--default-stream per-thread" expected=streams
                       err_want="cudaGraphCreate: not supported by warpsim" err_lines=2 ;;
  stats)               prog=basics flags="" expected=basics err_want=""
                       env_vars="WARPSIM_STATS=$work/stats.json WARPSIM_QUIET=1" ;;
  occupied-base)       prog=streams flags="" expected=streams err_lines=2 occupy=1
                       err_want="cudaGraphCreate: not supported by warpsim" ;;
  two-units)           prog="two_units_main two_units_other" flags="" expected=two-units ;;
  multi-arch)          prog=fault expected=fault-error env_vars="WARPSIM_FAULT=error"
                       err_want="at compute_90.ptx:[0-9]*: illegal global store"
                       flags="-gencode arch=compute_75,code=compute_75 -gencode arch=compute_90,code=compute_90 -gencode arch=compute_100,code=compute_100" ;;
  fault)               prog=fault flags="" rc_want=1 expected=fault
                       err_want="^warpsim: error: kernel '_Z7overrunPii' CTA (0,0,0) thread (0,0,0) at compute_[0-9]*.ptx:[0-9]*: illegal global store of 4 bytes at 0x[0-9a-f]* (unmapped)$" ;;
  fault-error)         prog=fault flags="-no-compress" env_vars="WARPSIM_FAULT=error" expected=fault-error
                       err_want="illegal global store" ;;
  sass-only)           prog=fault flags="-gencode arch=compute_80,code=sm_80" expected=sass-only
                       err_want="SASS only: sm_80.*rebuild with nvcc -cudart shared -gencode arch=compute_80,code=compute_80" ;;
  *) echo "unknown case $case"; exit 1 ;;
esac

exe="$work/$case"
sources=""
for p in $prog; do sources="$sources $src/$p.cu"; done
if ! "$nvcc" -cudart shared $flags -o "$exe" $sources > "$work/$case.build" 2>&1; then
  cat "$work/$case.build"; echo "FAIL [$case]: nvcc failed"; exit 1
fi
if ! readelf -d "$exe" | grep -q "libcudart.so.13"; then
  echo "FAIL [$case]: the program does not import libcudart.so.13"; exit 1
fi
preload=${WARPSIM_CUDART_PRELOAD:-}
if [ "$occupy" = 1 ]; then
  "$nvcc" -shared -Xcompiler -fPIC -o "$work/liboccupy.so" "$src/occupy_device_base.c" \
    > "$work/$case.build" 2>&1 || { cat "$work/$case.build"; echo "FAIL [$case]: nvcc failed"; exit 1; }
  preload="${preload:+$preload:}$work/liboccupy.so"
fi
preload=${preload:+LD_PRELOAD=$preload}
env LD_LIBRARY_PATH="$libdir" $preload $env_vars "$exe" > "$work/$case.out" 2> "$work/$case.err"
rc=$?
[ "$rc" = "$rc_want" ] || fail "exit status $rc, expected $rc_want"
if [ -n "$expected" ]; then
  diff -u "$src/$expected.expected" "$work/$case.out" > "$work/$case.diff" || { cat "$work/$case.diff"; fail "stdout differs"; }
fi
if [ -n "$err_want" ]; then
  grep -q -- "$err_want" "$work/$case.err" || fail "stderr does not match: $err_want"
  lines=$(wc -l < "$work/$case.err")
  [ "$lines" -le "$err_lines" ] || fail "expected at most $err_lines stderr lines, got $lines"
else
  [ ! -s "$work/$case.err" ] || fail "unexpected stderr"
fi
if [ "$case" = stats ]; then
  # one entry per launch that ran: axpy<float>, axpy<double>, count, reverseBlocks, byValue
  launches=$(grep -c '"name": "_Z' "$work/stats.json")
  [ "$launches" = 5 ] || fail "stats file lists $launches launches, expected 5"
  grep -q '"warp_instructions"' "$work/stats.json" || fail "stats file has no warp_instructions"
fi
echo "ok [$case]"
