#!/bin/sh
# Runs the command tests and prints the total as "N passed, N failed"; exit
# 1 if anything failed. Each tests/cmd/t_*.sh runs in a shell of its own
# with lib.sh's helpers and its own $TMP, so none leans on another's
# variables or files. Arguments name the tests to run (t_diff or
# t_diff.sh; `make check T=t_diff`); none: all of them.
: "${STRADDLE:?set STRADDLE to the binary under test}"
: "${FIXTURES:?set FIXTURES to the built fixtures}"
export STRADDLE FIXTURES
dir=$(dirname "$0")
tests=""
for name in "$@"; do
	t="$dir/${name%.sh}.sh"
	[ -f "$t" ] || { echo "run.sh: no test $t" >&2; exit 2; }
	tests="$tests $t"
done
[ -n "$tests" ] || tests=$(ls "$dir"/t_*.sh)
counts=$(mktemp)
trap 'rm -f "$counts"' EXIT
passed=0
failed=0
for t in $tests; do
	echo "== $t"
	: >"$counts"
	# the counts' file in the environment: a test may reuse $1.. (set --)
	# no terminal's or runner's input: place and prove read what they are
	# given to its end
	RUN_COUNTS=$counts sh -c 'dir=$1; . "$dir/lib.sh"; . "$2"; echo "$PASSED $FAILED" >"$RUN_COUNTS"' \
		sh "$dir" "$t" </dev/null
	if read -r p f <"$counts"; then
		passed=$((passed + p))
		failed=$((failed + f))
	else
		echo "  FAIL $t stopped before its end"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
