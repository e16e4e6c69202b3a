#!/bin/sh
# The regression collection (tests/cudart/programs/*.cu): compiles one self-checking CUDA program
# with nvcc and runs it under `warpsim run -- ./app` in functional and timing mode on gtx480, v100
# and a100. Every run must exit 0 and print a last line "PASS"; a program whose output must not
# depend on the mode (a race that a GPU resolves one way) is listed in programs/same-output and
# must print the same stdout in both modes on each configuration.
#   run_program.sh WARPSIM NVCC LIBDIR SRCDIR WORKDIR PROGRAM
# Exits 77 (skipped) when nvcc is missing. A program may name extra nvcc flags on a first line
# "// nvcc: FLAGS", extra `warpsim run` options on a line "// warpsim: OPTIONS", and further
# source files (in programs/, compiled and linked with it) on a line "// nvcc-sources: FILES".
set -u
warpsim=$1 nvcc=$2 libdir=$3 src=$4 work=$5 prog=$6
if [ ! -x "$nvcc" ]; then
  echo "skipped: nvcc not found (set WARPSIM_NVCC or install the CUDA toolkit)"
  exit 77
fi
work=$work/programs
mkdir -p "$work" || exit 1
cu=$src/programs/$prog.cu
flags=$(sed -n 's|^// nvcc: ||p' "$cu")
runopts=$(sed -n 's|^// warpsim: ||p' "$cu")
sources=$cu
for s in $(sed -n 's|^// nvcc-sources: ||p' "$cu"); do sources="$sources $src/programs/$s"; done
exe=$work/$prog
# shellcheck disable=SC2086
"$nvcc" -cudart shared -arch=sm_80 -I"$src" $flags -o "$exe" $sources > "$work/$prog.nvcc" 2>&1 ||
  { cat "$work/$prog.nvcc"; echo "FAIL [$prog]: nvcc failed"; exit 1; }
ws() { env ${WARPSIM_CUDART_PRELOAD:+LD_PRELOAD=$WARPSIM_CUDART_PRELOAD} "$warpsim" "$@"; }
same=no
grep -qx "$prog" "$src/programs/same-output" && same=yes
status=0
for config in gtx480 v100 a100; do
  for mode in functional timing; do
    out=$work/$prog-$config-$mode.out err=$work/$prog-$config-$mode.err
    # shellcheck disable=SC2086
    ws run -q --mode $mode --config $config $runopts -- "$exe" > "$out" 2> "$err"
    rc=$?
    if [ "$rc" != 0 ] || [ "$(tail -n 1 "$out")" != PASS ]; then
      echo "FAIL [$prog] $config $mode: exit status $rc"
      echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"
      status=1
    else
      echo "ok [$prog] $config $mode"
    fi
  done
  if [ "$same" = yes ] && ! diff -u "$work/$prog-$config-functional.out" "$work/$prog-$config-timing.out"; then
    echo "FAIL [$prog] $config: functional and timing mode print different output"
    status=1
  fi
done
exit $status
