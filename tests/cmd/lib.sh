# Helpers for command tests. Each check prints one line and counts.
# The rules' tests judge geometry on nop-filled fixtures, which LLVM's
# models rightly call issue-bound: their scans price straddles by the
# profile's bound alone. The cost model's own tests (t_cost.sh) name the
# llvm-mca they run.
export STRADDLE_LLVM_MCA=none
PASSED=0
FAILED=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# straddle's data (calibrated profiles, the drift bench keeps per host)
# is the test's own: none of the user's is read, nothing of a test's kept
export XDG_DATA_HOME="$TMP/xdg"

ok()   { PASSED=$((PASSED + 1)); echo "  ok   $1"; }
fail() { FAILED=$((FAILED + 1)); echo "  FAIL $1"; }

# expect_eq DESCRIPTION ACTUAL EXPECTED
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: got '$2', want '$3'"; fi
}

# run CMD...: runs it, keeps stdout in $OUT, stderr in $ERR, status in $RC.
run() {
	"$@" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	OUT=$(cat "$TMP/out")
	ERR=$(cat "$TMP/err")
}

# jq_of FILTER: applies a jq filter to the last $OUT.
jq_of() { printf '%s' "$OUT" | jq -r "$1"; }
