#!/usr/bin/env bash
# `warpsim report` on the hand-made sweep of report/fixture (7 points, one failed; its table made
# by `warpsim sweep table`): the exact page without and with --baseline and through a template,
# PNG files identical byte for byte across two runs, and each error one line with exit status 1.
# Skipped (77) where no Python 3.11+ with matplotlib is installed.
source "$(dirname "$0")/lib.sh"
data=$here/report

found=""
for python in ${WARPSIM_PYTHON:-python3 /usr/bin/python3}; do
  if command -v "$python" >/dev/null && "$python" -c 'import tomllib, matplotlib' 2>/dev/null; then
    found=$python
    break
  fi
done
[[ -n "$found" ]] || { echo "SKIP: no Python 3.11+ with matplotlib"; exit 77; }

cp -r "$data/fixture" sweep
# report LOG ARGS...: runs `warpsim report ARGS` with stdout and stderr in LOG; its exit status in rc.
report() {
  local log=$1
  shift
  rc=0
  "$W" report "$@" >"$log" 2>&1 || rc=$?
}
# expect_same EXPECTED ACTUAL: the files are identical (the diff is shown when not).
expect_same() {
  diff -u "$1" "$2" >&2 || fail "$2 differs from $1"
}
# one_line LOG LINE: LOG is exactly LINE, and the run's exit status was 1.
one_line() {
  expect_eq "$rc" 1 "exit status of the run that wrote '$2'"
  expect_eq "$(cat "$1")" "$2" "message"
}

# The generic page: exact text, and the PNGs it names and no others.
report a.txt sweep --out a/page.md
expect_eq "$rc" 0 "report exit status"
expect_eq "$(cat a.txt)" "report: wrote a/page.md" "report output"
expect_same "$data/expected.md" a/page.md
expect_eq "$(cd a && ls | tr '\n' ' ')" \
  "page-cycles-by-size.png page-cycles.png page-speedup-by-size.png page-speedup.png page.md " \
  "files beside the page"
for png in a/*.png; do
  expect_eq "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a "$png signature"
  grep -q 'Software\|Creation Time\|matplotlib' "$png" && fail "$png has software or date metadata"
done

# Again, elsewhere: the same bytes.
report b.txt sweep --out b/page.md
expect_eq "$rc" 0 "second report exit status"
for file in page.md page-cycles.png page-cycles-by-size.png page-speedup.png page-speedup-by-size.png; do
  cmp -s "a/$file" "b/$file" || fail "$file differs between two runs"
done

# --baseline: the normalised tables, and plots of the normalised values.
report c.txt sweep --out c/page.md --baseline size=1024
expect_eq "$rc" 0 "report --baseline exit status"
expect_same "$data/expected-baseline.md" c/page.md
cmp -s a/page-cycles.png c/page-cycles.png && fail "--baseline did not change the cycles plot"
cmp -s a/page-speedup.png c/page-speedup.png || fail "--baseline changed a derived column's plot"

# A template: its page, its plot, a module beside it; no __pycache__ anywhere.
report t.txt sweep --out t/page.md --template "$data/template.py"
expect_eq "$rc" 0 "report --template exit status"
expect_same "$data/expected-template.md" t/page.md
[[ -s t/template.png ]] || fail "the template's plot was not written"
report t2.txt sweep --out t2/page.md --template "$data/template.py"
cmp -s t/template.png t2/template.png || fail "the template's plot differs between two runs"
[[ -z "$(find "$data" "$here/../../scripts/report" -name __pycache__)" ]] ||
  fail "__pycache__ written beside the report scripts or the template"

# The default page: DIR/report.md.
report d.txt sweep
expect_eq "$rc" 0 "report without --out"
[[ -f sweep/report.md && -f sweep/report-cycles.png ]] || fail "no sweep/report.md and its plots"

# Errors: one line each, exit status 1.
report e.txt nowhere
one_line e.txt "warpsim: error: report: nowhere is not a sweep directory (no points.jsonl)"
cp -r sweep untabled && rm untabled/table.jsonl
report e.txt untabled
one_line e.txt "warpsim: error: report: untabled has no table.jsonl (\`warpsim sweep table untabled\` writes it)"
report e.txt sweep --baseline scheduler=lrr
one_line e.txt "warpsim: error: report: --baseline 'scheduler=lrr': the sweep has no axis 'scheduler' (axes: workload, size, variant)"
report e.txt sweep --baseline size=2048
one_line e.txt "warpsim: error: report: --baseline 'size=2048': '2048' is not a value of axis size (values: 1024, 4096)"
report e.txt sweep --baseline variant
one_line e.txt "warpsim: error: report: --baseline 'variant': expected AXIS=VALUE"
report e.txt sweep --baseline variant=base --baseline variant=lrr
one_line e.txt "warpsim: error: report: --baseline 'variant=lrr': axis 'variant' given twice"
report e.txt sweep --template no-such-template.py
one_line e.txt "warpsim: error: report: --template no-such-template.py: no such file"
WARPSIM_PYTHON=$tmp/no/python3 report e.txt sweep
one_line e.txt "warpsim: error: report: WARPSIM_PYTHON=$tmp/no/python3: no such program"
printf '#!/bin/sh\nexit 1\n' >nomatplotlib && chmod +x nomatplotlib
WARPSIM_PYTHON=$tmp/nomatplotlib report e.txt sweep
one_line e.txt "warpsim: error: report: WARPSIM_PYTHON=$tmp/nomatplotlib: cannot import matplotlib, or older than Python 3.11 (Debian: apt-get install python3-matplotlib)"
printf 'PAGE = "no function"\n' >norender.py
report e.txt sweep --template norender.py
one_line e.txt "warpsim: error: report: --template norender.py: defines no function render(report)"
# A template that raises: its traceback for its author, then one line.
printf 'def render(report):\n    raise RuntimeError("boom")\n' >raises.py
report e.txt sweep --template raises.py
expect_eq "$rc" 1 "exit status of a template that raises"
expect_eq "$(tail -n 1 e.txt)" "warpsim: error: report: raises.py failed: RuntimeError: boom" "last line"
expect_text e.txt "Traceback (most recent call last):"
echo "PASS"
