#!/bin/sh
# `warpsim run [options] -- PROGRAM [ARGS]`: runs tests/cudart/cli_app.cu (compiled here) and
# print_env.sh through the command line and checks exit statuses, output, the options passed in
# the environment and the statistics file; the "errors" case checks the one-line errors; the
# "register-pressure" case runs register_pressure.cu, whose kernel needs more registers than
# gtx480's 63, on gtx480 (register-allocated with spill code) and on v100 (as ptxas allocated it);
# the "memory-checks" case runs programs/oob_before_alloc.cu and programs/uninit_read.cu with and
# without --memcheck and --initcheck (and their WARPSIM_* variables).
#   run_cli.sh WARPSIM NVCC LIBDIR SRCDIR WORKDIR run|errors|register-pressure|memory-checks
# The run, register-pressure and memory-checks cases exit 77 (skipped) when nvcc is missing.
set -u
warpsim=$1 nvcc=$2 libdir=$3 src=$4 work=$5 case=$6
mkdir -p "$work" || exit 1
unset WARPSIM_STATS
# warpsim with the sanitizer runtime preloaded in a sanitized build, for the programs it starts
# (they load the sanitized library); nvcc runs without it.
ws() { env ${WARPSIM_CUDART_PRELOAD:+LD_PRELOAD=$WARPSIM_CUDART_PRELOAD} "$warpsim" "$@"; }
out=$work/cli-$case.out err=$work/cli-$case.err
fail() { echo "FAIL [cli-$case]: $*"; echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"; exit 1; }
# expect STATUS STDERR-PATTERN CMD...: runs CMD and checks its status and that stderr is that one
# line ("" = no stderr).
expect() {
  want=$1 pattern=$2; shift 2
  "$@" > "$out" 2> "$err"
  rc=$?
  [ "$rc" = "$want" ] || fail "$*: exit status $rc, expected $want"
  if [ -n "$pattern" ]; then
    grep -q -- "$pattern" "$err" || fail "$*: stderr does not match: $pattern"
    [ "$(wc -l < "$err")" -le 1 ] || fail "$*: more than one line on stderr"
  else
    [ ! -s "$err" ] || fail "$*: unexpected stderr"
  fi
}

if [ "$case" = errors ]; then
  expect 1 "^warpsim: error: run: program '$work/missing' not found$" \
    ws run -- "$work/missing"
  expect 1 "^warpsim: error: run: program 'warpsim-no-such-program' not found (not a path, and not on PATH)$" \
    ws run -- warpsim-no-such-program
  expect 1 "^warpsim: error: run: '$src/check.h' is not an executable file$" \
    ws run -- "$src/check.h"
  # A dynamically linked program that does not load libcudart.so.13 (warpsim itself).
  expect 1 "^warpsim: error: run: $warpsim does not load libcudart.so.13,.*rebuild it with \`nvcc -cudart shared\`$" \
    ws run -- "$warpsim" --version
  expect 2 "^warpsim: error: run: no program after --$" ws run --
  expect 1 "^warpsim: error: run: give either a workload ('sgemm-tiled') or a program after --, not both$" \
    ws run sgemm-tiled -- "$src/print_env.sh"
  # --set and --overlay take one value each: the workload name after them stays the workload.
  expect 1 "^warpsim: error: run: give either a workload ('sgemm-tiled') or a program after --, not both$" \
    ws run --set x=1 --overlay a sgemm-tiled -- "$src/print_env.sh"
  expect 1 "^warpsim: error: run: --mode 'cycle' is unknown (modes: functional, timing)$" \
    ws run --mode cycle -- "$src/print_env.sh"
  # Options reach the program as WARPSIM_* variables; the library directory comes first.
  expect 0 "" ws run --mode timing --config my.toml --overlay a \
    --overlay b --set x=1 --set "y=2" --sms 3 -q --stats s.json --estimate-resources -- \
    "$src/print_env.sh" one "two words"
  printf '%s\n' "args: one two words" "WARPSIM_CONFIG=my.toml" "WARPSIM_MODE=timing" \
    "WARPSIM_OVERLAYS=a;b" "WARPSIM_QUIET=1" "WARPSIM_SET=x=1;y=2" "WARPSIM_SMS=3" \
    "WARPSIM_STATS=s.json" "library dir: $(cd "$libdir" && pwd -P)" > "$work/cli-env.expected"
  diff -u "$work/cli-env.expected" "$out" || fail "the program saw other variables"
  echo "ok [cli-errors]"
  exit 0
fi

if [ ! -x "$nvcc" ]; then
  echo "skipped: nvcc not found (set WARPSIM_NVCC or install the CUDA toolkit)"
  exit 77
fi

# kernel_stats STATS-FILE KERNEL PYTHON-CONDITION...: the statistics file has exactly one launch
# of KERNEL, `k`, and every condition holds for it.
kernel_stats() {
  python3 - "$@" <<'PY'
import json, sys
path, name, conditions = sys.argv[1], sys.argv[2], sys.argv[3:]
ks = [k for k in json.load(open(path))["kernels"] if k["name"] == name]
if len(ks) != 1:
    sys.exit(f"{len(ks)} launches of {name} in {path}")
k = ks[0]
for c in conditions:
    if not eval(c):
        sys.exit(f"{c} does not hold: {json.dumps(k, indent=1)}")
PY
}

if [ "$case" = memory-checks ]; then
  oob=$work/oob_before_alloc uninit=$work/uninit_read
  for p in oob_before_alloc uninit_read; do
    "$nvcc" -cudart shared -arch=sm_80 -I"$src" -o "$work/$p" "$src/programs/$p.cu" > "$work/$p-build.log" 2>&1 ||
      { cat "$work/$p-build.log"; echo "FAIL [cli-$case]: nvcc failed"; exit 1; }
  done
  # Reading the 1000 floats before the first allocation works as on a GPU, with one warning line.
  # The first in execution order: which warp of CTA 0 reads first depends on the scheduler.
  before="[0-9]* bytes before the allocation at 0x[0-9a-f]* of 96000 bytes"
  at="kernel '_Z19vertical_differencePKfPfii' CTA (0,0,0) thread ([0-9]*,0,0) at compute_80.ptx:[0-9]*"
  expect 0 "^warpsim: warning: 1000 device memory accesses outside every allocation (a GPU lets them through inside its mapped pages; --memcheck or WARPSIM_MEMCHECK=1 makes each an error); the first: $at: global load of 4 bytes at 0x[0-9a-f]*, $before$" \
    ws run -- "$oob"
  [ "$(tail -n 1 "$out")" = PASS ] || fail "no PASS without --memcheck"
  # --memcheck (WARPSIM_MEMCHECK=1 for the library itself): the first such read is an error.
  fault="^warpsim: error: $at: illegal global load of 4 bytes at 0x[0-9a-f]* (outside every allocation: $before)$"
  expect 1 "$fault" ws run --memcheck -- "$oob"
  grep -q PASS "$out" && fail "PASS under --memcheck"
  direct() { env ${WARPSIM_CUDART_PRELOAD:+LD_PRELOAD=$WARPSIM_CUDART_PRELOAD} LD_LIBRARY_PATH="$libdir" "$@"; }
  expect 1 "$fault" direct WARPSIM_MEMCHECK=1 "$oob"
  # The padding read is no error by default; --initcheck reports it on one line and exits 1.
  expect 0 "" ws run -- "$uninit"
  expect 1 "^warpsim: error: initcheck: 1 read of uninitialised device memory; the first: kernel '_Z13scaled_groupsPK4int4Piii' CTA (1,0,0) thread (122,0,0) at compute_80.ptx:[0-9]*: global load of 16 bytes at 0x[0-9a-f]*, 4000 bytes into the allocation at 0x[0-9a-f]* of 4016 bytes$" \
    ws run --initcheck -- "$uninit"
  [ "$(tail -n 1 "$out")" = PASS ] || fail "no PASS under --initcheck"
  expect 1 "initcheck: 1 read" direct WARPSIM_INITCHECK=1 "$uninit"
  echo "ok [cli-$case]"
  exit 0
fi

if [ "$case" = register-pressure ]; then
  app=$work/register_pressure kernel=_Z8sgemm8x8iiifPKfS0_fPf stats=$work/register-pressure.json
  "$nvcc" -cudart shared -I"$src" -o "$app" "$src/register_pressure.cu" > "$work/rp-build.log" 2>&1 ||
    { cat "$work/rp-build.log"; echo "FAIL [cli-$case]: nvcc failed"; exit 1; }
  # gtx480 allows 63 registers per thread: the kernel is re-allocated within them, with one line
  # saying so, and still computes the right result.
  rm -f "$stats"
  expect 0 "^warpsim: kernel '$kernel' uses [0-9]* registers (ptxas) but gtx480 allows 63 per thread: allocated within 63 registers, [1-9][0-9]* bytes of spill per thread$" \
    ws run --config gtx480 --stats "$stats" -- "$app"
  grep -qx PASS "$out" || fail "no PASS line on gtx480"
  # ptxas's count must be over the limit (else nothing is tested) and in the range the program
  # is written for.
  regs=$(sed -n 's/.* uses \([0-9]*\) registers (ptxas).*/\1/p' "$err")
  [ "$regs" -ge 64 ] && [ "$regs" -le 110 ] || fail "ptxas count $regs is not in 64..110"
  kernel_stats "$stats" "$kernel" 'k["resource_source"] == "allocator"' \
    'k["regs_per_thread"] <= 63' 'k["register_allocation"]["dynamic_spill_stores"] > 0' ||
    fail "gtx480 statistics"
  # v100 allows 255: no allocation and no line; ptxas's registers.
  rm -f "$stats"
  expect 0 "" ws run --config v100 --stats "$stats" -- "$app"
  grep -qx PASS "$out" || fail "no PASS line on v100"
  kernel_stats "$stats" "$kernel" 'k["resource_source"] == "ptxas"' \
    "k[\"regs_per_thread\"] == $regs" '"register_allocation" not in k' || fail "v100 statistics"
  echo "ok [cli-$case]"
  exit 0
fi

app=$work/cli_app
"$nvcc" -cudart shared -o "$app" "$src/cli_app.cu" > "$work/cli-build.log" 2>&1 &&
  "$nvcc" -o "$app-static" "$src/cli_app.cu" >> "$work/cli-build.log" 2>&1 ||
  { cat "$work/cli-build.log"; echo "FAIL [cli-run]: nvcc failed"; exit 1; }

stats=$work/cli-stats.json
rm -f "$stats"
expect 3 "" ws run --stats "$stats" --sms 4 -- "$app" 100 3
[ "$(cat "$out")" = "sum of squares below 100: 328350" ] || fail "wrong output"
[ "$(grep -c '"name": "_Z7squaresPxi"' "$stats")" = 1 ] || fail "stats: not one squares launch"
grep -q '"sms": 4' "$stats" || fail "stats: not 4 SMs"
grep -q '"resources": "ptxas"' "$stats" || fail "stats: resources not from ptxas by default"
grep -q '"thread_instructions": [1-9]' "$stats" || fail "stats: no thread instructions"
# Found on PATH; the program's own errors and status pass through.
PATH="$work:$PATH" expect 64 "^usage: cli_app N STATUS$" ws run -- cli_app
expect 134 "^warpsim: error: run: $app was ended by signal 6 (Aborted)$" ws run -- "$app" abort
# The configuration reaches the library: an unknown one ends the program with one line.
expect 1 "^warpsim: .*no-such-gpu" ws run --config no-such-gpu -- "$app" 10 0
expect 1 "^warpsim: error: run: $app-static does not load libcudart.so.13,.*rebuild it with \`nvcc -cudart shared\`$" \
  ws run -- "$app-static" 10 0
echo "ok [cli-run]"
