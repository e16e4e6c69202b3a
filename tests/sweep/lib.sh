# Helpers of the sweep shell tests (sourced). The test's argument is the warpsim binary; the test
# runs in a fresh temporary directory, removed at the end.
set -euo pipefail
W=${1:?usage: $0 WARPSIM}
W=$(cd "$(dirname "$W")" && pwd)/$(basename "$W")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sweep-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
  [[ "$1" == "$2" ]] || fail "$3: expected '$2', got '$1'"
}

# expect_prefix TEXT PREFIX WHAT
expect_prefix() {
  [[ "$1" == "$2"* ]] || fail "$3: expected '$2...', got '$1'"
}

# expect_line FILE LINE: FILE has LINE (exactly, as a whole line).
expect_line() {
  grep -qxF -- "$2" "$1" || { cat "$1" >&2; fail "$1 has no line '$2'"; }
}

# expect_text FILE TEXT: FILE contains TEXT.
expect_text() {
  grep -qF -- "$2" "$1" || { cat "$1" >&2; fail "$1 does not contain '$2'"; }
}

# sweep LOG ARGS...: runs `warpsim sweep ARGS` with stdout and stderr in LOG; its exit status in rc.
sweep() {
  local log=$1
  shift
  rc=0
  "$W" sweep "$@" >"$log" 2>&1 || rc=$?
}

# column FILE NAME: the values of a column of a CSV table (the test data has no quoted fields).
column() {
  awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
                        { print $c }' "$1"
}

# id_of DRYRUN AXES: the id of the point whose axes are AXES in a --dry-run listing.
id_of() {
  awk -v axes="$2" -F'  ' '$2 == axes { print $1 }' "$1"
}

# wait_for SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds; fails after SECONDS.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    ((SECONDS < deadline)) || fail "timed out waiting for: $*"
    sleep 0.1
  done
}

# newer_results DIR MARKER: the ids of the points whose result.json is newer than MARKER, sorted.
newer_results() {
  find "$1/points" -name result.json -newer "$2" | awk -F/ '{ print $(NF - 1) }' | sort | tr '\n' ' '
}
