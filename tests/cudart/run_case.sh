#!/bin/sh
# Compiles one CUDA test program with nvcc and runs it on the drop-in runtime, checking its exit
# status, its stdout (against <name>.expected) and its stderr (a pattern and a line count, or
# nothing at all).
#   run_case.sh NVCC LIBDIR SRCDIR WORKDIR CASE
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

# Per case: the program (its .cu files), nvcc flags, environment, exit status, the .expected
# file for stdout, a pattern stderr must match ("": stderr must be empty) and the most stderr
# lines allowed. nvcc's default build embeds zstd-compressed PTX; -no-compress the raw form.
nocompress="-no-compress -gencode arch=compute_80,code=compute_80"
prog=$case flags="" env_vars="" rc_want=0 expected=$case err_want="" err_lines=1 occupy=0
case "$case" in
  kernels) ;;
  kernels-no-compress) prog=kernels flags=$nocompress expected=kernels ;;
  symbols) flags="-no-compress" ;;
  shared_memory) ;;
  events) ;;
  atomics) flags="-no-compress" ;;
  printf) ;;
  launch_errors) err_lines=5
    err_want="^warpsim: cudaLaunchKernel: kernel '_Z5writePi': block of 2048 threads exceeds the device's limit of 1024$" ;;
  memory) err_lines=2
    err_want="^warpsim: cudaFree: free: 0x1234 is not the start of an allocation$" ;;
  managed) ;;
  # PTX only (no SASS): the slowest compile of the set, and SASS would not be used anyway. Two
  # of CUB's radix-sort kernels need more registers than the default GPU's (gtx480) 63: they
  # run register-allocated within 63, with a notice each.
  thrust_sort) flags="-gencode arch=compute_80,code=compute_80" err_lines=2
    err_want="^warpsim: kernel '.*DeviceRadixSort.*' uses [0-9]* registers (estimate) but gtx480 allows 63 per thread: allocated within 63 registers, [0-9]* bytes of spill per thread$" ;;
  # stderr: the query of a host function and the refused 101% carve-out, one line each.
  device_query) env_vars="WARPSIM_SMS=7" err_lines=2
    err_want="^warpsim: cudaFuncGetAttributes: 0x[0-9a-f]* is not a registered kernel$" ;;
  # The properties follow the configuration: the GTX 480 has 15 SMs.
  device_query-gtx480) prog=device_query env_vars="WARPSIM_CONFIG=gtx480" err_lines=2
    err_want="^warpsim: cudaFuncGetAttributes: 0x[0-9a-f]* is not a registered kernel$" ;;
  unsupported) rc_want=2
    err_want="^warpsim: cudaMallocArray: not supported by warpsim$" ;;
  stats) prog=kernels expected=kernels
    env_vars="WARPSIM_STATS=$work/stats.json WARPSIM_QUIET=1 WARPSIM_SMS=4" ;;
  streams) err_lines=2 err_want="cudaIpcGetMemHandle: not supported by warpsim" ;;
  streams-no-compress) prog=streams flags=$nocompress expected=streams err_lines=2
    err_want="cudaIpcGetMemHandle: not supported by warpsim" ;;
  per-thread) prog=streams flags="--default-stream per-thread" expected=streams err_lines=2
    err_want="cudaIpcGetMemHandle: not supported by warpsim" ;;
  occupied-base) prog=streams expected=streams err_lines=2 occupy=1
    err_want="cudaIpcGetMemHandle: not supported by warpsim" ;;
  two-units) prog="two_units_main two_units_other" ;;
  # The highest PTX <= compute_90 must be chosen (its name is in the fault message).
  multi-arch) prog=fault expected=fault-error env_vars="WARPSIM_FAULT=error"
    err_want="at compute_90.ptx:[0-9]*: illegal global store"
    flags="-gencode arch=compute_75,code=compute_75 -gencode arch=compute_90,code=compute_90 -gencode arch=compute_100,code=compute_100" ;;
  fault) rc_want=1
    err_want="^warpsim: error: kernel '_Z7overrunPii' CTA (0,0,0) thread (0,0,0) at compute_[0-9]*.ptx:[0-9]*: illegal global store of 4 bytes at 0x[0-9a-f]* (unmapped)$" ;;
  fault-error) prog=fault flags="-no-compress" env_vars="WARPSIM_FAULT=error"
    err_want="illegal global store" ;;
  sass-only) prog=fault flags="-gencode arch=compute_80,code=sm_80"
    err_want="SASS only: sm_80.*rebuild with nvcc -cudart shared -gencode arch=compute_80,code=compute_80" ;;
  # Locality descriptors through libwarpsim_locality (built beside the runtime, in lib/).
  locality) err_want="^warpsim: warpsimLocalityDescriptorAdd: locality descriptor: data_tile.x (4097) is larger than dims.x (4096)$"
    flags="-I$src/../../include -L$libdir/../lib -lwarpsim_locality -Xlinker -rpath=$libdir/../lib"
    env_vars="WARPSIM_STATS=$work/stats.json" ;;
  # XMem atoms through libwarpsim_xmem (built beside the runtime, in lib/).
  xmem) err_want="^warpsim: warpsimAtomMap: AtomMap: \[0x[0-9a-f]*, 0x[0-9a-f]*) of atom 0 is not inside one device allocation$"
    err_lines=2
    flags="-I$src/../../include -L$libdir/../lib -lwarpsim_xmem -Xlinker -rpath=$libdir/../lib"
    env_vars="WARPSIM_STATS=$work/stats.json" ;;
  *) echo "unknown case $case"; exit 1 ;;
esac

exe="$work/$case"
sources=""
for p in $prog; do sources="$sources $src/$p.cu"; done
if ! "$nvcc" -cudart shared -I"$src" $flags -o "$exe" $sources > "$work/$case.build" 2>&1; then
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
rm -f "$work/stats.json"
env LD_LIBRARY_PATH="$libdir" $preload $env_vars "$exe" > "$work/$case.out" 2> "$work/$case.err"
rc=$?
[ "$rc" = "$rc_want" ] || fail "exit status $rc, expected $rc_want"
diff -u "$src/$expected.expected" "$work/$case.out" > "$work/$case.diff" || { cat "$work/$case.diff"; fail "stdout differs"; }
if [ -n "$err_want" ]; then
  grep -q -- "$err_want" "$work/$case.err" || fail "stderr does not match: $err_want"
  lines=$(wc -l < "$work/$case.err")
  [ "$lines" -le "$err_lines" ] || fail "expected at most $err_lines stderr lines, got $lines"
else
  [ ! -s "$work/$case.err" ] || fail "unexpected stderr"
fi
if [ "$case" = stats ]; then
  # One entry per launch of kernels.cu, the SM count of WARPSIM_SMS, and the program's name.
  launches=$(grep -c '"name": "_Z' "$work/stats.json")
  [ "$launches" = 8 ] || fail "stats file lists $launches launches, expected 8"
  grep -q '"warp_instructions"' "$work/stats.json" || fail "stats file has no warp_instructions"
  grep -q '"sms": 4' "$work/stats.json" || fail "stats file does not say 4 SMs"
  grep -q "\"program\": \".*/stats\"" "$work/stats.json" || fail "stats file does not name the program"
fi
if [ "$case" = locality ]; then
  # Launch 1 takes scale's descriptor and the next launch's, launch 2 scale's, launch 3 none.
  [ "$(grep -c '"locality_descriptors": 2' "$work/stats.json")" = 1 ] || fail "no launch with 2 descriptors"
  [ "$(grep -c '"locality_descriptors": 1' "$work/stats.json")" = 1 ] || fail "no launch with 1 descriptor"
  [ "$(grep -c '"locality_descriptors"' "$work/stats.json")" = 2 ] || fail "a third launch had descriptors"
fi
if [ "$case" = xmem ]; then
  # Launch 1 takes the map, the 2-D map and the two activations, launch 2 the deactivation and
  # the unmap; both see the program's two atoms.
  [ "$(grep -c '"host_ops": 4' "$work/stats.json")" = 1 ] || fail "no launch with 4 atom operations"
  [ "$(grep -c '"host_ops": 2' "$work/stats.json")" = 1 ] || fail "no launch with 2 atom operations"
  [ "$(grep -c '"atoms": 2' "$work/stats.json")" = 2 ] || fail "the launches do not both see 2 atoms"
  # Launch 3 (scale_tiled) sees the third atom and issues 12 operations in each of its 4 CTAs
  # from the device; the host's launches issue none.
  [ "$(grep -c '"atoms": 3' "$work/stats.json")" = 1 ] || fail "the third launch does not see 3 atoms"
  [ "$(grep -c '"device_ops": 48' "$work/stats.json")" = 1 ] || fail "no launch with 48 device atom operations"
  [ "$(grep -c '"device_ops": 0' "$work/stats.json")" = 2 ] || fail "the host's launches issued device operations"
fi
echo "ok [$case]"
