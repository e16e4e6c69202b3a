#!/usr/bin/env bash
# The SLURM executor against a real SLURM: a single-node cluster of its own
# (scripts/slurm/single-node-cluster.sh, on free ports, in a temporary directory), a
# sweep of 4 points in 2 array tasks that waits for them, a rerun that submits nothing, then
# --no-wait with a held job: `sweep status` while it is queued, a sweep refused meanwhile, the job
# cancelled, a rerun that resubmits its points, `sweep status` and `sweep table` at the end.
# Skipped (77) where SLURM or munge is not installed (scripts/install-deps.sh installs them).
source "$(dirname "$0")/lib.sh"
cluster_sh=$(cd "$here/../../scripts/slurm" && pwd)/single-node-cluster.sh

PATH=$PATH:/usr/sbin:/sbin  # slurmd, slurmctld and munged live there
for p in slurmctld slurmd munged sbatch squeue scontrol; do
  if ! command -v "$p" >/dev/null; then
    echo "SKIP: $p not installed (scripts/install-deps.sh installs SLURM and munge)"
    exit 77
  fi
done
# Nothing of a SLURM job or site the test may run in: only the cluster's own slurm.conf counts.
for v in $(compgen -e); do
  case $v in SLURM_* | SBATCH_* | SQUEUE_* | SCONTROL_* | SINFO_* | SALLOC_* | SRUN_*) unset "$v" ;; esac
done

# The daemons' sockets need a short path, whatever TMPDIR is.
cluster=$(mktemp -d "${TMPDIR:-/tmp}/slurm.XXXXXX")
if ((${#cluster} > 60)); then
  rmdir "$cluster"
  cluster=$(mktemp -d /tmp/slurm.XXXXXX)
fi
cleanup() {
  kill "$watchdog" 2>/dev/null || true
  timeout -k 5 60 "$cluster_sh" stop "$cluster" >/dev/null 2>&1 || echo "warning: stopping the cluster failed" >&2
  rm -rf "$tmp" "$cluster"
}
# Every wait below has its own limit; should the test still outlast 240 s (CTest gives it 300
# and then kills it, no trap run), the watchdog stops the cluster, so that no daemon outlives it.
(
  sleep 240 &
  trap 'kill $! 2>/dev/null; exit 0' TERM
  wait $!
  echo "FAIL: the test ran for 240 s; stopping its cluster" >&2
  timeout -k 5 60 "$cluster_sh" stop "$cluster" >/dev/null 2>&1
  kill -TERM $$
) &
watchdog=$!
trap cleanup EXIT

on_failure_show_logs() {
  local f
  for f in "$cluster"/slurmctld.log "$cluster"/slurmd.log "$tmp"/out/slurm/task-*.out; do
    [[ -f $f ]] && { echo "--- $f:" >&2; tail -n 20 "$f" >&2; }
  done
  return 0
}
fail() {
  echo "FAIL: $*" >&2
  on_failure_show_logs
  exit 1
}

start=$SECONDS
timeout -k 5 120 "$cluster_sh" start "$cluster" >start.txt 2>&1 || { cat start.txt >&2; fail "the cluster did not start"; }
eval "$("$cluster_sh" env "$cluster")"
expect_eq "$SLURM_CONF" "$cluster/slurm.conf" "SLURM_CONF"
expect_eq "$(timeout 20 sinfo -h -o '%P %a %D %T')" "debug* up 1 idle" "sinfo"
echo "cluster up in $((SECONDS - start)) s"

# warpsim sweep with a deadline (its own waits have none on purpose: a real job may queue for days).
sweep() {
  local log=$1
  shift
  rc=0
  timeout -k 5 150 "$W" sweep "$@" >"$log" 2>&1 </dev/null || rc=$?
  [[ $rc -ne 124 && $rc -ne 137 ]] || { cat "$log" >&2; fail "warpsim sweep $* did not finish in 150 s"; }
}
job_gone() { [[ -z $(timeout 20 squeue -h -j "$1" -o %i 2>/dev/null) ]]; }
# The tasks of array job JOB that slurmctld remembers (it forgets ended jobs after MinJobAge,
# 300 s), as "TASK:STATE:EXITCODE" lines; no accounting database needed.
job_tasks() {
  timeout 20 scontrol -o show job "$1" |
    sed -n 's/.*ArrayTaskId=\([0-9]*\) .*JobState=\([A-Z]*\) .*ExitCode=\([0-9:]*\) .*/\1:\2:\3/p' | sort -n
}

cat >spec.toml <<'SPEC'
name = "realslurm"
[axes]
workload = ["vecadd", "saxpy"]
size = ["small"]
variant = ["base", "lrr"]
[variants.base]
[variants.lrr]
overlays = ["lrr"]
[columns]
cycles = "totals.cycles"
SPEC
slurm=(--executor slurm --partition debug --time 00:05:00 --mem 256M --max-parallel 2 --poll 1)

# 1. Four points in two array tasks of two; the sweep waits for them.
sweep run.txt spec.toml --out out "${slurm[@]}" --chunk 2
expect_eq "$rc" 0 "exit status"
job=$(cat out/slurm/job-id)
[[ $job =~ ^[0-9]+$ ]] || fail "out/slurm/job-id: '$job' is not a job id"
expect_text run.txt "sweep realslurm: 4 points, 0 already passed; 4 to run on SLURM"
expect_line run.txt "sweep: submitted SLURM job $job: 4 points in 2 array tasks ($tmp/out/slurm/job.sh)"
expect_eq "$(grep -c '^\[[1-4]/4\] pass ' run.txt)" 4 "per-point lines"
expect_text run.txt "4 points: 4 passed, 0 failed, 0 did not verify, 0 missing"
for id in $(awk -F, 'NR > 1 { print $1 }' out/table.csv); do
  expect_text "out/points/$id/result.json" '"status": "pass"'
  [[ -s out/points/$id/stats.json ]] || fail "point $id has no stats.json"
done
expect_eq "$(find out/points -name result.json | wc -l)" 4 "result files"
expect_eq "$(column out/table.csv workload | tr '\n' ' ')" "vecadd vecadd saxpy saxpy " "workloads in the table"
expect_eq "$(column out/table.csv variant | tr '\n' ' ')" "base lrr base lrr " "variants in the table"
expect_eq "$(column out/table.csv status | tr '\n' ' ')" "pass pass pass pass " "statuses in the table"
[[ -z $(column out/table.csv cycles | grep -v '^[1-9][0-9]*$') ]] || fail "cycles not all whole numbers: $(column out/table.csv cycles)"
# SLURM ran both tasks, and they ended well (slurmctld's memory, not sacct).
wait_for 60 job_gone "$job"
expect_eq "$(job_tasks "$job" | tr '\n' ' ')" "0:COMPLETED:0:0 1:COMPLETED:0:0 " "the job's array tasks"
for task in 0 1; do
  expect_line "out/slurm/task-${job}_$task.out" "sweep task $task: 2 points: 2 passed, 0 did not pass"
done
"$W" sweep status out >status.txt
expect_line status.txt "out: 4 points: 4 passed, 0 failed, 0 did not verify, 0 missing"
expect_line status.txt "SLURM job $job (out/slurm/job.sh)"

# 2. Again: every point has passed, nothing is submitted.
sweep again.txt spec.toml --out out "${slurm[@]}" --chunk 2
expect_eq "$rc" 0 "exit status of the rerun"
expect_text again.txt "sweep realslurm: 4 points, 4 already passed; 0 to run on SLURM"
grep -q submitted again.txt && fail "the rerun submitted a job: $(cat again.txt)"
expect_eq "$(cat out/slurm/job-id)" "$job" "job id after the rerun"
expect_eq "$(timeout 20 scontrol -o show jobs | grep -c "ArrayJobId=$job ")" 2 "jobs slurmctld knows after the rerun"
expect_eq "$(timeout 20 scontrol -o show jobs | grep -vc "ArrayJobId=$job ")" 0 "other jobs after the rerun"

# 3. Two new points with --no-wait, held in the queue: status while queued, a sweep refused
#    meanwhile; then the job is cancelled before it ran (lost), and a rerun resubmits the points.
sed -i 's/"saxpy"]/"saxpy", "blackscholes"]/' spec.toml
sweep held.txt spec.toml --out out "${slurm[@]}" --chunk 1 --no-wait --slurm-option=--hold
expect_eq "$rc" 0 "exit status with --no-wait"
held=$(cat out/slurm/job-id)
expect_line held.txt "sweep: submitted SLURM job $held: 2 points in 2 array tasks ($tmp/out/slurm/job.sh)"
expect_text held.txt "sweep: not waiting (--no-wait)"
expect_eq "$(timeout 20 squeue -h -j "$held" -o %T | sort -u)" PENDING "the held job's state"
"$W" sweep status out >status.txt
expect_line status.txt "out: 6 points: 4 passed, 0 failed, 0 did not verify, 2 missing"
expect_line status.txt "SLURM job $held (out/slurm/job.sh)"
sweep busy.txt spec.toml --out out "${slurm[@]}"
expect_eq "$rc" 1 "exit status while the job is queued"
expect_line busy.txt "warpsim: error: sweep: SLURM job $held of $tmp/out is still running (squeue); wait for it or cancel it (scancel $held)"
timeout 20 scancel "$held"
wait_for 30 job_gone "$held"
sweep resubmit.txt spec.toml --out out "${slurm[@]}" --chunk 1 --no-wait
expect_eq "$rc" 0 "exit status of the resubmission"
again=$(cat out/slurm/job-id)
[[ $again != "$held" ]] || fail "no new job after the cancelled one"
expect_text resubmit.txt "sweep realslurm: 6 points, 4 already passed; 2 to run on SLURM"
expect_line resubmit.txt "sweep: submitted SLURM job $again: 2 points in 2 array tasks ($tmp/out/slurm/job.sh)"
wait_for 60 job_gone "$again"
expect_eq "$(job_tasks "$again" | tr '\n' ' ')" "0:COMPLETED:0:0 1:COMPLETED:0:0 " "the resubmitted job's array tasks"
"$W" sweep status out >status.txt
expect_line status.txt "out: 6 points: 6 passed, 0 failed, 0 did not verify, 0 missing"
expect_line status.txt "SLURM job $again (out/slurm/job.sh)"
"$W" sweep table out 2>table.txt
expect_eq "$(column out/table.csv workload | tr '\n' ' ')" "vecadd vecadd saxpy saxpy blackscholes blackscholes " "workloads after --no-wait"
expect_eq "$(column out/table.csv status | sort | uniq -c | tr -s ' ')" " 6 pass" "statuses after --no-wait"

echo "PASS ($((SECONDS - start)) s with the cluster)"
