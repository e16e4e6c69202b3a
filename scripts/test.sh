#!/usr/bin/env bash
# The full check: Release build + all tests, a Debug build with AddressSanitizer and
# UndefinedBehaviorSanitizer (the simulator's libraries at -O1, the tests at -O0) + all tests, a
# ThreadSanitizer build of the functional engine's tests (its parallel CTAs), a clang libFuzzer build of every fuzz target and a
# bounded fuzzing run of each on its seed corpus. Every build is a CMake unity build (a normal
# build is not: the sources build both ways). Exits non-zero when any step fails and prints a
# summary of every step.
#
# Environment: WARPSIM_JOBS (parallel jobs, default 2), WARPSIM_FUZZ_SECONDS (the fuzzing time
# shared by the fuzz targets, default 40, at least 10 s each), WARPSIM_SKIP_SANITIZE=1 /
# WARPSIM_SKIP_TSAN=1 / WARPSIM_SKIP_FUZZ=1 to leave a stage out.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

jobs=${WARPSIM_JOBS:-2}
fuzz_seconds=${WARPSIM_FUZZ_SECONDS:-40}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

steps=()
results=()
failed=0
record() {  # record <name> <status>
  steps+=("$1")
  results+=("$2")
  [[ "$2" == PASS || "$2" == SKIP* ]] || failed=1
}
run_step() {  # run_step <name> <command...>
  local name=$1
  shift
  echo
  echo "==== $name"
  local start=$SECONDS
  if "$@"; then
    record "$name" PASS
  else
    record "$name" "FAIL (exit $?)"
  fi
  echo "==== $name: ${results[-1]} in $((SECONDS - start)) s"
}

# Unity builds compile several sources as one file: each such file parses the common headers once.
unity=(-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16)
configure() {  # configure <dir> <cmake args...>
  local dir=$1
  shift
  cmake -S "$root" -B "$dir" "${generator[@]}" "${unity[@]}" "$@"
}

run_step "install dependencies" scripts/install-deps.sh

# 1. Release build and tests.
run_step "release: configure" configure build -DCMAKE_BUILD_TYPE=Release
run_step "release: build" cmake --build build -j "$jobs"
run_step "release: ctest" ctest --test-dir build --output-on-failure -j "$jobs"

# 2. Sanitizer build: only the test targets (and the CLI they drive); no benchmarks. Its ctest
# leaves out the tests that only run whole workloads many times over (functional/timing
# equivalence of the suite, run --all, determinism), the generated-PTX freshness checks and the
# nvcc-compiled CUDA programs: they exercise no code the unit and integration tests do not, and
# take hours under the sanitizers; likewise the calibration microbenchmarks on whole GPUs
# (CalibrationOnGpus) and Zorua's runs of whole workloads at the extreme block sizes and register
# budgets (Suite/ZoruaAtSpecifications: its unit tests run here). The Release stage runs them all.
sanitize_exclude='^(Suite/Equivalence|Suite/ZoruaAtSpecifications|Cli\.RunAll|CliTiming\.|TimingDeterminism\.|ptx_not_stale|workload_ptx_not_stale|cudart_|Gpus/CalibrationOnGpus|CalibrationOnGpusDeterminism)' 
if [[ "${WARPSIM_SKIP_SANITIZE:-0}" == 1 ]]; then
  record "sanitize: build + ctest" "SKIP (WARPSIM_SKIP_SANITIZE=1)"
else
  run_step "sanitize: configure" configure build-sanitize -DCMAKE_BUILD_TYPE=Debug \
    -DWARPSIM_SANITIZE=ON -DWARPSIM_BENCH=OFF
  run_step "sanitize: build" cmake --build build-sanitize -j "$jobs"
  run_step "sanitize: ctest" env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-sanitize --output-on-failure -j "$jobs" -E "$sanitize_exclude"
fi

# 3. ThreadSanitizer build of the multi-threaded parts and their tests: the functional engine's
# parallel CTAs (func/parallel_ctas.h) and the rest of the engine's tests around them
# (func_tests, run directly: the build holds no other test binary). The timing model runs
# single-threaded.
if [[ "${WARPSIM_SKIP_TSAN:-0}" == 1 ]]; then
  record "tsan: build + ctest" "SKIP (WARPSIM_SKIP_TSAN=1)"
else
  run_step "tsan: configure" configure build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DWARPSIM_TSAN=ON -DWARPSIM_BENCH=OFF -DWARPSIM_CUDART=OFF
  run_step "tsan: build" cmake --build build-tsan --target func_tests -j "$jobs"
  run_step "tsan: func_tests" env TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    build-tsan/src/func/func_tests --gtest_brief=1
fi

# 4. libFuzzer build of every fuzz target (fuzz/CMakeLists.txt lists them in
# build-fuzz/fuzz_targets.tsv: name, executable, seed corpus or "-", libFuzzer options) and a
# bounded run of each on its seed corpus, the time budget split evenly among them.
fuzz_run() {  # fuzz_run <executable> <corpus or -> <seconds> [libFuzzer options...]
  local bin=$1 corpus=$2 seconds=$3
  shift 3
  if [[ ! -x "$bin" ]]; then
    echo "fuzz target $bin was not built"
    return 1
  fi
  local work
  work=$(mktemp -d)
  local seeds=()
  [[ "$corpus" != - && -d "$corpus" ]] && seeds=("$corpus")
  "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 "$@" \
    -artifact_prefix="$work/" "$work" "${seeds[@]}"
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    echo "fuzzer failed; artifacts in $work"
  else
    rm -rf "$work"
  fi
  return $rc
}
fuzz_all() {  # one step per fuzz target of build-fuzz/fuzz_targets.tsv
  local manifest=build-fuzz/fuzz_targets.tsv
  if [[ ! -s $manifest ]]; then
    record "fuzz: run" "FAIL (no fuzz targets listed in $manifest)"
    return
  fi
  local lines=()
  mapfile -t lines <"$manifest"
  local seconds=$((fuzz_seconds / ${#lines[@]}))
  ((seconds < 10)) && seconds=10
  local line name bin corpus options opts
  for line in "${lines[@]}"; do
    IFS=$'\t' read -r name bin corpus options <<<"$line"
    read -r -a opts <<<"$options"
    run_step "fuzz: $name ${seconds} s" fuzz_run "$bin" "$corpus" "$seconds" "${opts[@]}"
  done
}
if [[ "${WARPSIM_SKIP_FUZZ:-0}" == 1 ]]; then
  record "fuzz: build + run" "SKIP (WARPSIM_SKIP_FUZZ=1)"
elif ! command -v clang++ >/dev/null; then
  record "fuzz: build + run" "FAIL (clang++ not found)"
else
  run_step "fuzz: configure" configure build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++ -DWARPSIM_FUZZ=ON -DWARPSIM_TESTS=OFF -DWARPSIM_BENCH=OFF
  run_step "fuzz: build" cmake --build build-fuzz --target fuzz_targets -j "$jobs"
  fuzz_all
fi

echo
echo "==== summary"
for i in "${!steps[@]}"; do
  printf '  %-28s %s\n' "${steps[$i]}" "${results[$i]}"
done
if [[ $failed -ne 0 ]]; then
  echo "test.sh: FAILED"
  exit 1
fi
echo "test.sh: all steps passed"
