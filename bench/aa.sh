#!/bin/sh
# make bench-aa: issue 5's truth test. Two back-to-back runs of
# `bench pread-zero read1` are compared; no metric may be flagged as a
# regression in at least 19 of 20 repetitions (false-positive rate <= 5%).
# Shortened runs (BENCH_AA_ARGS) keep it near ten minutes; say so with the
# figure.
#   bench/aa.sh BUILD_DIR
set -u
b=${1:-build}
reps=${BENCH_AA_REPS:-20}
args=${BENCH_AA_ARGS:---duration 3 --tasks 1 --mode processes}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "bench-aa: $reps pairs of 'straddle bench pread-zero read1 $args', compared"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
flagged=0
i=1
while [ "$i" -le "$reps" ]; do
	# shellcheck disable=SC2086
	"$b/straddle" bench pread-zero read1 $args -o "$tmp/a.json" >/dev/null &&
	"$b/straddle" bench pread-zero read1 $args -o "$tmp/b.json" >/dev/null || exit 2
	"$b/straddle" compare "$tmp/a.json" "$tmp/b.json" >"$tmp/c.txt"
	rc=$?
	[ "$rc" -eq 2 ] && exit 2
	if [ "$rc" -eq 1 ]; then
		flagged=$((flagged + 1))
		echo "  pair $i flagged:"
		grep '\*' "$tmp/c.txt" | sed 's/^/    /'
	fi
	i=$((i + 1))
done
echo "  pairs with a metric flagged as a regression: $flagged of $reps"
awk -v f="$flagged" -v n="$reps" 'BEGIN { printf "  false-positive rate %.0f%%, goal <= 5%%: %s\n",
	100 * f / n, f / n <= 0.05 ? "met" : "MISSED" }'
"$b/straddle" compare "$tmp/a.json" "$tmp/b.json" | sed 's/^/  last pair: /'
