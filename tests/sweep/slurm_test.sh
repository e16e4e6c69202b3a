#!/usr/bin/env bash
# The SLURM executor against fake-slurm/ (sbatch runs the array tasks locally, one after
# another): the job script, the task lists, waiting for the results, --no-wait with `sweep
# status` and `sweep table` afterwards, a task that never ran, and sbatch that is missing or
# refuses the job.
source "$(dirname "$0")/lib.sh"
export FAKE_SLURM_STATE=$tmp/slurm-state
mkdir -p "$FAKE_SLURM_STATE"
fake=$here/fake-slurm/sbatch

cat >spec.toml <<'SPEC'
name = "onslurm"
[axes]
workload = ["vecadd"]
size = [1024, 2048, 4096, 8192, 16384]
[columns]
cycles = "totals.cycles"
SPEC
slurm=(--executor slurm --sbatch "$fake" --max-parallel 2 --partition debug --time 00:10:00
       --mem 1G --poll 0.1)

sweep run.txt spec.toml --out out "${slurm[@]}" --chunk 2
expect_eq "$rc" 0 "exit status"
expect_line "$FAKE_SLURM_STATE/calls" "--parsable $tmp/out/slurm/job.sh"
expect_text run.txt "sweep onslurm: 5 points, 0 already passed; 5 to run on SLURM"
expect_line run.txt "sweep: submitted SLURM job 4242: 5 points in 3 array tasks ($tmp/out/slurm/job.sh)"
expect_eq "$(grep -c '^\[[1-5]/5\] pass ' run.txt)" 5 "per-point lines"
expect_text run.txt "5 points: 5 passed, 0 failed, 0 did not verify, 0 missing"
expect_text "$FAKE_SLURM_STATE/squeue-calls" "squeue -h -j 4242 -o %i"
expect_line out/slurm/job-id 4242
job=out/slurm/job.sh
for line in "#SBATCH --job-name=warpsim-sweep-onslurm" "#SBATCH --array=0-2%2" \
    "#SBATCH --output=$tmp/out/slurm/task-%A_%a.out" "#SBATCH --chdir=$tmp" \
    "#SBATCH --cpus-per-task=1" "#SBATCH --partition=debug" "#SBATCH --time=00:10:00" \
    "#SBATCH --mem=1G" "exec $W sweep point $tmp/out --task \"\$SLURM_ARRAY_TASK_ID\" --jobs 1"; do
  expect_line "$job" "$line"
done
# Tasks of two points, two and one, in grid order.
expect_eq "$(awk '{ printf "%d ", NF }' out/slurm/tasks.txt)" "2 2 1 " "points per task"
expect_eq "$(tr '\n' ' ' <out/slurm/tasks.txt | tr -s ' ')" "$(awk -F, 'NR > 1 { printf "%s ", $1 }' out/table.csv)" "task points"
job_over() { [[ ! -e $FAKE_SLURM_STATE/running ]]; }
wait_for 20 job_over  # the sweep is done when the results are; the tasks' last words may follow
for task in 0 1 2; do
  expect_text "out/slurm/task-4242_$task.out" "sweep task $task: "
done
expect_line out/slurm/task-4242_2.out "sweep task 2: 1 point: 1 passed, 0 did not pass"
expect_eq "$(column out/table.csv status | sort -u)" pass "statuses"
"$W" sweep status out >status.txt
expect_line status.txt "out: 5 points: 5 passed, 0 failed, 0 did not verify, 0 missing"
expect_line status.txt "SLURM job 4242 (out/slurm/job.sh)"

# --no-wait: submit two new points and return; a second sweep while the job runs is refused;
# `sweep status` and `sweep table` once it has ended.
sed -i 's/16384]/16384, 32768, 65536]/' spec.toml
FAKE_SLURM_DELAY=1 sweep nowait.txt spec.toml --out out "${slurm[@]}" --chunk 2 --no-wait
expect_eq "$rc" 0 "exit status with --no-wait"
expect_line nowait.txt "sweep: submitted SLURM job 4243: 2 points in 1 array task ($tmp/out/slurm/job.sh)"
expect_text nowait.txt "sweep: not waiting (--no-wait)"
sweep busy.txt spec.toml --out out "${slurm[@]}" --chunk 2
expect_eq "$rc" 1 "exit status while the job runs"
expect_line busy.txt "warpsim: error: sweep: SLURM job 4243 of $tmp/out is still running (squeue); wait for it or cancel it (scancel 4243)"
wait_for 20 job_over
"$W" sweep status out >status.txt
expect_line status.txt "out: 7 points: 7 passed, 0 failed, 0 did not verify, 0 missing"
expect_line status.txt "SLURM job 4243 (out/slurm/job.sh)"
"$W" sweep table out 2>table.txt
expect_eq "$(column out/table.csv size | tr '\n' ' ')" "1024 2048 4096 8192 16384 32768 65536 " "sizes in the table"
expect_eq "$(column out/table.csv status | sort -u)" pass "statuses after --no-wait"

# A task that never runs: squeue says the job ended, its points are reported without a result.
rm -rf out
FAKE_SLURM_SKIP=1 sweep lost.txt spec.toml --out out "${slurm[@]}" --chunk 3
expect_eq "$rc" 3 "exit status with a lost task"
expect_text lost.txt "7 points: 4 passed, 0 failed, 0 did not verify, 3 missing"
expect_line lost.txt "sweep: 3 points have no result although SLURM job 4244 ended (see $tmp/out/slurm/task-4244_*.out); run the sweep again to resubmit them"
sweep resubmit.txt spec.toml --out out "${slurm[@]}" --chunk 2
expect_eq "$rc" 0 "exit status of the resubmission"
expect_line resubmit.txt "sweep: submitted SLURM job 4245: 3 points in 2 array tasks ($tmp/out/slurm/job.sh)"

# sbatch missing or refusing.
mkdir -p nobin; PATH=$tmp/nobin sweep nosbatch.txt spec.toml --out out2 --executor slurm
expect_eq "$rc" 1 "exit status without sbatch"
expect_eq "$(cat nosbatch.txt)" "warpsim: error: sweep: sbatch not found on \$PATH (give --sbatch PATH, or run with --executor local)" "no sbatch"
sweep nosbatch.txt spec.toml --out out2 --executor slurm --sbatch /nonexistent/sbatch
expect_eq "$(tail -1 nosbatch.txt)" "warpsim: error: sweep: --sbatch '/nonexistent/sbatch' is not an executable" "bad --sbatch"
FAKE_SBATCH_FAIL=1 sweep refused.txt spec.toml --out out2 "${slurm[@]}"
expect_eq "$rc" 1 "exit status when sbatch fails"
expect_line refused.txt "sweep: $fake failed (exit status 1): sbatch: error: Batch job submission failed: Invalid partition name specified"
echo PASS
