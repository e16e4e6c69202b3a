#!/usr/bin/env bash
# Resuming: (1) a sweep stopped by SIGTERM kills its runs in flight and keeps what finished; the
# next run runs only the points without a result. (2) A run killed by a signal (kill -9 of the
# child) is recorded as failed; a rerun reports it without running it, --retry-failed runs it
# and nothing else.
source "$(dirname "$0")/lib.sh"

# Three quick points and one that runs for seconds.
cat >spec.toml <<'SPEC'
[axes]
workload = ["vecadd"]
size = [1024, 2048, 4096, 1048576]
SPEC
sweep dry.txt spec.toml --dry-run
long=$(id_of dry.txt "workload=vecadd size=1048576")
[[ -n "$long" ]] || fail "no id for the long point"

# (1) Stop the sweep while the long point runs.
"$W" sweep spec.toml --out out --jobs 4 >stopped.txt 2>&1 &
pid=$!
quick_done() { [[ $(find out/points -name result.json 2>/dev/null | wc -l) -eq 3 ]]; }
wait_for 20 quick_done
running() { pgrep -f "out/points/$long/stats.json.tmp" >/dev/null; }
running || fail "the long point is not running"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
expect_eq "$rc" 130 "exit status of a stopped sweep"
expect_line stopped.txt "sweep: stopped; the runs in flight were killed and run again next time"
expect_text stopped.txt "4 points: 3 passed, 0 failed, 0 did not verify, 1 missing"
running && fail "the long point's run outlived the sweep"
[[ ! -e out/points/$long/result.json ]] || fail "the killed point has a result"
[[ -z "$(find out -name '*.tmp')" ]] || fail "temporary files left: $(find out -name '*.tmp')"
expect_eq "$(column out/table.csv status | tr '\n' ' ')" "pass pass pass missing " "statuses after the stop"

touch marker
sweep resumed.txt spec.toml --out out --jobs 4
expect_eq "$rc" 0 "exit status of the resumed sweep"
expect_text resumed.txt "4 points, 3 already passed; 1 to run"
expect_text resumed.txt "[1/1] pass "
expect_text resumed.txt "sweep spec: ran 1 point in "
expect_eq "$(newer_results out marker)" "$long " "points run by the resumed sweep"

# (2) kill -9 the long point's run: it fails with the signal recorded.
rm -rf out
"$W" sweep spec.toml --out out --jobs 4 >killed.txt 2>&1 &
pid=$!
wait_for 20 running
pkill -KILL -f "out/points/$long/stats.json.tmp"
rc=0
wait "$pid" || rc=$?
expect_eq "$rc" 3 "exit status with a killed run"
expect_text killed.txt "4 points: 3 passed, 1 failed, 0 did not verify, 0 missing"
expect_line killed.txt "sweep: 1 point did not pass:"
expect_line killed.txt "  $long workload=vecadd size=1048576: fail, killed by signal 9"
expect_line killed.txt "    reproduce: $W run vecadd --size 1048576"
expect_text "out/points/$long/result.json" '"signal": 9'
expect_text "out/points/$long/result.json" '"exit_status": 137'

touch marker
sweep kept.txt spec.toml --out out
expect_eq "$rc" 3 "exit status while a point stays failed"
expect_text kept.txt "4 points, 3 already passed, 1 failed before (--retry-failed reruns them); 0 to run"
expect_line kept.txt "  $long workload=vecadd size=1048576: fail, killed by signal 9"
expect_eq "$(newer_results out marker)" "" "points run without --retry-failed"

sweep retried.txt spec.toml --out out --retry-failed
expect_eq "$rc" 0 "exit status after --retry-failed"
expect_text retried.txt "sweep spec: ran 1 point in "
expect_eq "$(newer_results out marker)" "$long " "points run by --retry-failed"
expect_eq "$(column out/table.csv status | sort -u)" pass "statuses after the retry"
echo PASS
