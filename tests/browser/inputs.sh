#!/bin/sh
# One result file of every kind `straddle report` shows, written to DIR,
# for the browser test (tests/cmd/t_browser.sh) and `make screenshots`.
# A kind with a file recorded once (tests/fixtures/report/KIND.json: the
# measured kinds, whose numbers would differ at every run) takes it; the
# others are made here by straddle from the fixtures, so a new kind or a new
# recorded file is picked up by both without touching them.
#   STRADDLE=... FIXTURES=... sh tests/browser/inputs.sh DIR
# Prints the files made, one a line, in the order the page shows them.
set -eu
: "${STRADDLE:?set STRADDLE to the binary}"
: "${FIXTURES:?set FIXTURES to the built fixtures}"
d=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
rec=$top/tests/fixtures/report
x=$FIXTURES/x86
mkdir -p "$d"
d=$(cd "$d" && pwd)
case $STRADDLE in /*) ;; *) STRADDLE=$(pwd)/$STRADDLE ;; esac

# make_one KIND [STATUS...] -- CMD...: CMD's standard output (or its -o
# file) is DIR/KIND.json, unless a recorded one exists; STATUS: the exit
# statuses that mean "written" (default 0; diff and compare exit 1 on a
# regression).
make_one() {
	kind=$1
	shift
	ok=" "
	while [ "$1" != -- ]; do ok="$ok$1 "; shift; done
	shift
	[ "$ok" != " " ] || ok=" 0 "
	if [ -f "$rec/$kind.json" ]; then
		cp "$rec/$kind.json" "$d/$kind.json"
	else
		rc=0
		"$@" >"$d/$kind.out" 2>"$d/$kind.err" || rc=$?
		case "$ok" in *" $rc "*) ;; *)
			echo "inputs.sh: $kind: exit $rc: $(head -n 1 "$d/$kind.err")" >&2
			exit 2 ;;
		esac
		[ -s "$d/$kind.json" ] || mv "$d/$kind.out" "$d/$kind.json"
		rm -f "$d/$kind.out" "$d/$kind.err"
	fi
	echo "$d/$kind.json"
}

# The fixtures t_report.sh reads cell by cell: branches' hazards on two
# CPUs, seed 000's loop grown past a window (diff's gate fails: exit 1).
make_one scan -- "$STRADDLE" scan --json --uarch zen4,skylake "$x/branches"
make_one diff 1 -- "$STRADDLE" diff --json --uarch zen1 --no-source "$x/diff000_before" "$x/diff000_after"
# hotcold exits with its argc (3): the program's status, passed on.
make_one record 3 -- "$STRADDLE" record --uarch zen1 -o "$d/record.json" -- "$x/hotcold" a b
make_one sweep 0 -- "$STRADDLE" sweep --offsets 28..36:4 --size 256 --time 0.3 --min-rounds 2 \
	--uarch zen5 -o "$d/sweep.json" clear_movq_imm
make_one calibrate -- cp "$top/tests/fixtures/calibrate/zen5-quick.json" "$d/calibrate.json"
# Two bench runs of the same workloads, before and after, and their compare.
make_one bench -- cp "$top/tests/fixtures/compare/base.json" "$d/bench.json"
make_one bench2 -- cp "$top/tests/fixtures/compare/slow.json" "$d/bench2.json"
# From DIR, so the comparison names the files as the page does.
in_dir() { (cd "$d" && "$@"); }
# Each file is one invocation: a verdict needs the drift between
# invocations; an A/A pair of bench.json that did not drift.
mkdir -p "$d/aa"
cp "$d/bench.json" "$d/aa/1.json"
cp "$d/bench.json" "$d/aa/2.json"
make_one compare 1 -- in_dir "$STRADDLE" compare --drift aa --format json bench.json bench2.json
