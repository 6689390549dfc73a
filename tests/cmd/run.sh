#!/bin/sh
# Runs every tests/cmd/t_*.sh with the helpers of lib.sh and prints the
# total as "N passed, N failed". Exit 1 if anything failed.
: "${STRADDLE:?set STRADDLE to the binary under test}"
: "${FIXTURES:?set FIXTURES to the built fixtures}"
export STRADDLE FIXTURES
dir=$(dirname "$0")
. "$dir/lib.sh"
for t in "$dir"/t_*.sh; do
	echo "== $t"
	. "$t"
done
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
