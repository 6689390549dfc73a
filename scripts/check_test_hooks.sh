#!/bin/sh
# check_test_hooks.sh BINARY...: fails when a product binary (build/straddle,
# what `make install` ships) holds the name of a test hook. Hooks are
# compiled only into the test build (-DSTRADDLE_TEST_HOOKS, build/san; as
# Lua's ltests.h): a hook the plain build still reads would let an
# environment variable truncate a user's file or raise a signal. The names are what getenv would be asked for, so their absence from
# the binary's bytes means no code can read them.
bad=0
for bin in "$@"; do
	names=$(grep -ao 'STRADDLE_TEST_[A-Z_]*' "$bin" | sort -u | tr '\n' ' ')
	if [ -n "$names" ]; then
		echo "check-test-hooks: $bin reads test hooks: ${names% }"
		bad=1
	fi
done
[ $bad = 0 ] && echo "check-test-hooks: $# binaries, no test hook in them"
exit $bad
