#!/usr/bin/env bash
# Failures: a point whose --set key does not exist fails (exit status 1 of its run) with its
# stderr line recorded, listed with the command that reproduces it, and the sweep exits with 3.
# Spec and usage errors are one line and exit status 1 (2 for the command line).
source "$(dirname "$0")/lib.sh"

cat >spec.toml <<'SPEC'
[axes]
workload = ["vecadd", "saxpy"]
size = [1024]
variant = ["ok", "typo"]
[axes.set]
"gpu.sample_interval" = [0]
[variants.ok]
[variants.typo]
sets = ["sm.no_such_key=1"]
[columns]
cycles = "totals.cycles"
SPEC
sweep run.txt spec.toml --out out
expect_eq "$rc" 3 "exit status with failed points"
sweep dry.txt spec.toml --dry-run
bad=$(id_of dry.txt "workload=vecadd size=1024 variant=typo set:gpu.sample_interval=0")
expect_text run.txt "4 points: 2 passed, 2 failed, 0 did not verify, 0 missing"
expect_line run.txt "sweep: 2 points did not pass:"
expect_line run.txt "  $bad workload=vecadd size=1024 variant=typo set:gpu.sample_interval=0: fail, exit status 1"
message="config: error: --set 'sm.no_such_key=1': unknown key 'sm.no_such_key'"
expect_line run.txt "    stderr: $message"
reproduce="$W run vecadd --size 1024 --set sm.no_such_key=1 --set gpu.sample_interval=0"
expect_line run.txt "    reproduce: $reproduce"
expect_line run.txt "    log: $tmp/out/points/$bad/stderr.log"
expect_eq "$(grep -c '^\[[1-4]/4\] fail .*(exit status 1)$' run.txt)" 2 "failure lines"

# The point's files say the same; the reproduce command does fail that way.
expect_text "out/points/$bad/result.json" '"status": "fail"'
expect_text "out/points/$bad/result.json" '"exit_status": 1'
expect_text "out/points/$bad/result.json" "$message"
expect_line "out/points/$bad/stderr.log" "$message"
[[ ! -e out/points/$bad/stats.json ]] || fail "a failed run left statistics"
rc=0
$reproduce -q 2>reproduced.txt || rc=$?
expect_eq "$rc" 1 "exit status of the reproduce command"
expect_line reproduced.txt "$message"
expect_eq "$(awk -F, 'NR > 1 { printf "%s:%s:%s ", $4, $6, ($8 == "" ? "empty" : "set") }' out/table.csv)" \
  "ok:pass:set typo:fail:empty ok:pass:set typo:fail:empty " "statuses and cycles in the table"

"$W" sweep status out >status.txt
expect_line status.txt "out: 4 points: 2 passed, 2 failed, 0 did not verify, 0 missing"
expect_line status.txt "  $bad workload=vecadd size=1024 variant=typo set:gpu.sample_interval=0: fail, exit status 1"

# Spec errors: one line naming the file and line; nothing written.
printf '[axes]\nworkload = ["vecadd"]\nsizes = [1]\n' >bad.toml
sweep bad.txt bad.toml --out bad-out
expect_eq "$rc" 1 "exit status of a bad spec"
expect_eq "$(cat bad.txt)" "bad.toml:3: error: unknown key 'sizes' in [axes] (known: workload, program, size, config, mode, variant, registers, seed, set)" "bad spec message"
[[ ! -e bad-out ]] || fail "a bad spec created the output directory"
printf '[axes]\nworkload = ["vecadd", "nosuch"]\n' >bad.toml
sweep bad.txt bad.toml --out bad-out
expect_prefix "$(cat bad.txt)" "bad.toml:2: error: unknown workload 'nosuch' (known: vecadd, saxpy" "unknown workload"
printf '[axes]\nworkload = ["vecadd"]\nconfig = ["gtx4800"]\n' >bad.toml
sweep bad.txt bad.toml --out bad-out
expect_prefix "$(cat bad.txt)" "bad.toml:3: error: config 'gtx4800': no configuration of that name (bundled: a100, " "unknown configuration"
sweep noout.txt spec.toml
expect_eq "$rc" 1 "exit status without --out"
expect_eq "$(cat noout.txt)" "warpsim: error: sweep: --out DIR is required (where the results go)" "no --out"
sweep nodir.txt status nowhere
expect_eq "$(cat nodir.txt)" "warpsim: error: sweep: nowhere is not a sweep directory (no points.jsonl)" "status of no sweep"
echo PASS
