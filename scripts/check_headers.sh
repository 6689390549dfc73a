#!/bin/sh
# check_headers.sh SRCDIR: every header under SRCDIR compiles on its own,
# the first thing a file includes: a subject's header includes what it
# needs, so a file includes the subjects it uses and nothing else for
# them (no umbrella that pulls in its neighbours' names). A header an
# assembler file includes is checked as assembler. Fails, naming each
# header and the compiler's first line about it.
set -e
src=$(cd "$1" && pwd)
cc=${CC:-cc}
bad=$(mktemp)
trap 'rm -f "$bad"' EXIT
n=0
for h in $(find "$src" -name '*.h' | sort); do
	n=$((n + 1))
	lang=c
	if grep -rqs --include='*.S' "$(basename "$h")\"" "$src"; then
		lang=assembler-with-cpp
	fi
	if ! out=$(printf '#include "%s"\n' "$h" |
		LC_ALL=C $cc -std=c17 -D_GNU_SOURCE -Wall -Werror -fsyntax-only -x $lang - 2>&1); then
		echo "check-layers: ${h#"$src"/} does not compile on its own:" \
			"$(printf '%s\n' "$out" | grep -m1 'error')" >>"$bad"
	fi
done
if [ -s "$bad" ]; then
	cat "$bad"
	exit 1
fi
echo "check-layers: $n headers, each compiles on its own"
