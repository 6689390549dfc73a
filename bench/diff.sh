#!/bin/sh
# make bench-diff: diff's goals, measured in this one run:
#   diff OLD NEW  <= 1.3x the time of scanning both files
#   peak RSS of diff --json <= 1.3x that of diff (text): the JSON is streamed
# on libLLVM-14 against libLLVM-15 (both from Debian), one thread each; and
# how many functions are matched, against 60,901 only in -14 and 64,163 only
# in -15 when diff matched by name alone.
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
json=$("$b/bench/measure" "$runs" sh -c '"$0" diff -j 1 --no-source --json "$1" "$2" >/dev/null; [ $? -le 1 ]' \
	"$b/straddle" "$old" "$new")
echo "  scan both:    $scan"
echo "  diff:         $diff"
echo "  diff --json:  $json"
echo "  summary:      $("$b/straddle" diff -j 2 --no-source "$old" "$new" | tail -n 1)"
echo "$scan $diff" | awk '{ r = $6 / $1; rc = $10 / $5
	printf "  diff / scan both: %.2f wall, %.2f cpu   goal <= 1.3: %s\n", r, rc,
		r <= 1.3 ? "met" : "MISSED" }'
echo "$diff $json" | awk '{ r = $9 / $4
	printf "  peak RSS: diff %.0f MB, diff --json %.0f MB: %.2fx   goal <= 1.3: %s\n",
		$4 / 1024, $9 / 1024, r, r <= 1.3 ? "met" : "MISSED" }'
"$b/straddle" diff -j 2 --no-source --json "$old" "$new" | jq -r '.summary |
	"  matched: \(.functions_matched) functions (by " +
	([.matched_by | to_entries[] | "\(.key) \(.value)"] | join(", ")) +
	"); only in old \(.functions_only_old), only in new \(.functions_only_new)" +
	" (by name alone: 60901 and 64163)"' || true
