#!/usr/bin/env bash
# A local sweep of 6 points: the table's rows, columns and derived values, the output directory's
# files, a rerun that runs nothing, `sweep status` and `sweep table`.
source "$(dirname "$0")/lib.sh"

cat >spec.toml <<'SPEC'
name = "local"
[axes]
workload = ["vecadd", "saxpy"]
size = [1024, 2048]
variant = ["base", "lrr"]
[variants.base]
[variants.lrr]
overlays = ["lrr"]
[[exclude]]
workload = "saxpy"
size = 2048
[columns]
cycles = "totals.cycles"
kernel = "kernels[0].name"
missing = "totals.no_such_statistic"
[derived.speedup]
ratio = "cycles"
baseline = { variant = "base" }
SPEC

sweep dry.txt spec.toml --dry-run
expect_eq "$rc" 0 "--dry-run exit status"
expect_eq "$(grep -c '^[0-9a-f]\{16\}  ' dry.txt)" 6 "points listed by --dry-run"
expect_line dry.txt "$(id_of dry.txt 'workload=vecadd size=2048 variant=lrr')  workload=vecadd size=2048 variant=lrr  warpsim run vecadd --size 2048 --overlay lrr"
expect_line dry.txt "sweep: 6 points (--dry-run: nothing run)"
[[ ! -e out ]] || fail "--dry-run wrote files"

sweep run.txt spec.toml --out out --jobs 2
expect_eq "$rc" 0 "sweep exit status"
expect_text run.txt "sweep local: 6 points, 0 already passed; 6 to run, 2 at a time; results in $tmp/out"
expect_text run.txt "sweep local: ran 6 points in "
expect_text run.txt "; 6 points: 6 passed, 0 failed, 0 did not verify, 0 missing; table: $tmp/out/table.csv"
expect_line run.txt "sweep: warning: column 'missing' is in no point's statistics (its cells are empty)"
expect_eq "$(grep -c '^\[[1-6]/6\] pass ' run.txt)" 6 "per-point lines"

# The table: a header, then one row per point in grid order (the first axis outermost).
expect_line out/table.csv "id,workload,size,variant,status,wall_seconds,cycles,kernel,missing,speedup"
expect_eq "$(wc -l <out/table.csv)" 7 "table.csv lines"
expect_eq "$(awk -F, 'NR > 1 { printf "%s/%s/%s ", $2, $3, $4 }' out/table.csv)" \
  "vecadd/1024/base vecadd/1024/lrr vecadd/2048/base vecadd/2048/lrr saxpy/1024/base saxpy/1024/lrr " \
  "rows in grid order"
expect_eq "$(column out/table.csv id | tr '\n' ' ')" "$(awk '/^[0-9a-f]+  / { printf "%s ", $1 }' dry.txt)" "ids"
expect_eq "$(column out/table.csv status | sort -u)" pass "statuses"
expect_eq "$(column out/table.csv kernel | tr '\n' ' ')" "vecadd vecadd vecadd vecadd saxpy saxpy " "kernel column"
expect_eq "$(column out/table.csv missing | sort -u)" "" "missing column"
column out/table.csv cycles | grep -qvx '[1-9][0-9]*' && fail "cycles are not whole numbers"
# speedup = cycles of the base point / cycles of this point.
awk -F, 'NR > 1 { key = $2 "/" $3; if ($4 == "base") base[key] = $7; row[NR] = $0 }
         END { for (r in row) { split(row[r], f, ","); want = base[f[2] "/" f[3]] / f[7]
                 if (f[10] + 0 == 0 || (f[10] - want) ^ 2 > 1e-24) { print "bad speedup: " row[r]; exit 1 } } }' \
  out/table.csv || fail "speedup column"
expect_eq "$(awk -F, '$4 == "base" { print $10 }' out/table.csv | sort -u)" 1 "speedup of the baselines"
expect_eq "$(wc -l <out/table.jsonl)" 6 "table.jsonl lines"
expect_text out/table.jsonl '"workload":"vecadd","size":1024,"variant":"base","status":"pass"'

# The directory: the spec, the points, each point's files, nothing half-written.
cmp -s spec.toml out/spec.toml || fail "out/spec.toml is not the spec"
expect_eq "$(wc -l <out/points.jsonl)" 6 "points.jsonl lines"
expect_text out/points.jsonl '"axes":{"workload":"vecadd","size":2048,"variant":"lrr"},"argv":["run","vecadd","--size","2048","--overlay","lrr"]}'
for id in $(column out/table.csv id); do
  for f in result.json stats.json stderr.log; do
    [[ -f out/points/$id/$f ]] || fail "out/points/$id/$f missing"
  done
  expect_text "out/points/$id/result.json" '"status": "pass"'
done
[[ -z "$(find out -name '*.tmp')" ]] || fail "temporary files left: $(find out -name '*.tmp')"

# A rerun finds everything done.
touch marker
sweep again.txt spec.toml --out out
expect_eq "$rc" 0 "rerun exit status"
expect_text again.txt "sweep local: 6 points, 6 already passed; 0 to run"
expect_text again.txt "sweep local: ran 0 points in "
expect_eq "$(newer_results out marker)" "" "results rewritten by the rerun"

"$W" sweep status out >status.txt
expect_line status.txt "out: 6 points: 6 passed, 0 failed, 0 did not verify, 0 missing"

# `sweep table` rebuilds the same table from the point files.
mv out/table.csv table-before.csv
rm out/table.jsonl
"$W" sweep table out 2>table.txt
cmp -s table-before.csv out/table.csv || fail "sweep table wrote a different table.csv"
[[ -f out/table.jsonl ]] || fail "sweep table wrote no table.jsonl"
expect_line table.txt "sweep: out/table.csv (6 rows; 6 points: 6 passed, 0 failed, 0 did not verify, 0 missing)"
echo PASS
