#!/bin/sh
# make bench-diff: issue 3's goal, measured in this one run:
#   diff OLD NEW  <= 1.3x the time of scanning both files
# on libLLVM-14 against libLLVM-15 (both from Debian), one thread each.
#   bench/diff.sh BUILD_DIR
set -eu
b=${1:-build}
old=${BENCH_OLD:-/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1}
new=${BENCH_NEW:-/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1}
runs=${BENCH_RUNS:-5}
for f in "$old" "$new"; do
	[ -r "$f" ] || { echo "bench-diff: $f is not there (BENCH_OLD=, BENCH_NEW=)" >&2; exit 2; }
done
echo "bench-diff: $old -> $new, $runs runs each, medians (wall, min, cpu in s)"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
scan=$("$b/bench/measure" "$runs" "$b/straddle" scan -j 1 --no-source --limit 1 "$old" "$new")
# diff exits 1 when it finds a new hazard, which these two builds have
diff=$("$b/bench/measure" "$runs" sh -c '"$0" diff -j 1 --no-source "$1" "$2" >/dev/null; [ $? -le 1 ]' \
	"$b/straddle" "$old" "$new")
echo "  scan both:  $scan"
echo "  diff:       $diff"
echo "  summary:    $("$b/straddle" diff -j 2 --no-source "$old" "$new" | tail -n 1)"
echo "$scan $diff" | awk '{ r = $6 / $1; rc = $10 / $5
	printf "  diff / scan both: %.2f wall, %.2f cpu   goal <= 1.3: %s\n", r, rc,
		r <= 1.3 ? "met" : "MISSED" }'
