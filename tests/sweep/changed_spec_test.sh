#!/usr/bin/env bash
# A changed spec reruns only the points whose command changed: a changed axis value, a new
# value, a changed variant. Editing the columns of DIR/spec.toml and running `sweep table`
# retabulates without running anything.
source "$(dirname "$0")/lib.sh"

write_spec() {  # write_spec SIZES VARIANTS OVERLAY-OF-B
  cat >spec.toml <<SPEC
[axes]
workload = ["vecadd", "saxpy"]
size = [$1]
variant = [$2]
[variants.a]
[variants.b]
overlays = ["$3"]
[columns]
cycles = "totals.cycles"
SPEC
}

write_spec '1024, 2048' '"a"' lrr
sweep first.txt spec.toml --out out
expect_eq "$rc" 0 "first run"
expect_text first.txt "ran 4 points"
sweep dry1.txt spec.toml --dry-run
kept=$(id_of dry1.txt "workload=vecadd size=1024 variant=a")

# 2048 -> 4096: the two points of that size run, the others keep their results.
write_spec '1024, 4096' '"a"' lrr
sweep dry2.txt spec.toml --dry-run
expect_eq "$(id_of dry2.txt "workload=vecadd size=1024 variant=a")" "$kept" "id of an unchanged point"
touch marker
sweep second.txt spec.toml --out out
expect_eq "$rc" 0 "second run"
expect_text second.txt "4 points, 2 already passed; 2 to run"
expected=$( (id_of dry2.txt "workload=vecadd size=4096 variant=a"; id_of dry2.txt "workload=saxpy size=4096 variant=a") | sort | tr '\n' ' ')
expect_eq "$(newer_results out marker)" "$expected" "points rerun after changing a size"
expect_eq "$(awk -F, 'NR > 1 { printf "%s/%s ", $2, $3 }' out/table.csv)" \
  "vecadd/1024 vecadd/4096 saxpy/1024 saxpy/4096 " "rows after the change"
expect_eq "$(wc -l <out/points.jsonl)" 4 "points.jsonl after the change"

# A new variant value adds its points only.
write_spec '1024, 4096' '"a", "b"' lrr
touch marker
sweep third.txt spec.toml --out out
expect_text third.txt "8 points, 4 already passed; 4 to run"
expect_eq "$(newer_results out marker | wc -w)" 4 "points run for a new variant"

# Changing what variant b does reruns b's points only.
write_spec '1024, 4096' '"a", "b"' two-level
sweep dry3.txt spec.toml --dry-run
touch marker
sweep fourth.txt spec.toml --out out
expect_text fourth.txt "8 points, 4 already passed; 4 to run"
expected=$(grep 'variant=b' dry3.txt | awk '{ print $1 }' | sort | tr '\n' ' ')
expect_eq "$(newer_results out marker)" "$expected" "points rerun after changing variant b"

# New columns from the results already there.
sed -i 's/^cycles = "totals.cycles"$/cycles = "totals.cycles"\nwarps = "totals.warp_instructions"/' out/spec.toml
touch marker
"$W" sweep table out 2>table.txt
expect_eq "$(head -1 out/table.csv)" "id,workload,size,variant,status,wall_seconds,cycles,warps" "header after adding a column"
column out/table.csv warps | grep -qvx '[1-9][0-9]*' && fail "warps are not whole numbers"
expect_eq "$(newer_results out marker)" "" "points run by sweep table"
echo PASS
