#!/bin/sh
# make bench-record: issue 13's cost of watching. A CPU-bound program
# (bench/spin.c; its own wall and CPU time measured inside it, so record's
# start-up and scan are not counted) run plain, under 'straddle record' at
# the default rate (4000 Hz) and at 1000 and 250 Hz, and under 'perf record'
# at 4000 Hz as the reference for what the kernel's sampling itself costs
# here, in turn, `pairs` rounds. Slowdown: the median of a way's runs over
# the median of the plain ones, CPU time and wall time. Goal: at most 2% at
# the default rate.
#   bench/record.sh BUILD_DIR
set -eu
b=${1:-build}
rounds=${BENCH_RECORD_PAIRS:-7}
n=${BENCH_RECORD_ROUNDS:-400000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "bench-record: $b/bench/spin $n, plain and sampled, $rounds rounds"
echo "  cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), family/model $(grep -m1 'cpu family' /proc/cpuinfo | awk '{ print $NF }')/$(grep -m1 '^model[^ ]*:' /proc/cpuinfo | awk '{ print $NF }'), $(nproc) CPUs, kernel $(uname -r)"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$b/straddle" record -o "$tmp/r.json" -- true 2>/dev/null
echo "  event: $(jq -r '.event + (if (.notes | length) > 0 then " (" + .notes[0] + ")" else "" end)' "$tmp/r.json")"
ways="plain rec4000 rec1000 rec250"
command -v perf >/dev/null 2>&1 && ways="$ways perf4000"
i=1
while [ "$i" -le "$rounds" ]; do
	for w in $ways; do
		case $w in
		plain) "$b/bench/spin" "$n" ;;
		rec*) "$b/straddle" record -F "${w#rec}" -o "$tmp/r.json" -- "$b/bench/spin" "$n" 2>/dev/null ;;
		perf*) perf record -q -e cpu-clock -F "${w#perf}" -o "$tmp/perf.data" -- "$b/bench/spin" "$n" 2>/dev/null ;;
		esac >>"$tmp/$w"
	done
	i=$((i + 1))
done
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
pw=$(cut -d' ' -f1 "$tmp/plain" | median)
pc=$(cut -d' ' -f2 "$tmp/plain" | median)
printf '  %-28s cpu %7.1f ms  wall %7.1f ms  (medians)\n' "plain" "$(echo "$pc" | awk '{ print $1 / 1e6 }')" "$(echo "$pw" | awk '{ print $1 / 1e6 }')"
for w in $ways; do
	[ "$w" = plain ] && continue
	case $w in
	rec4000) name="straddle record (default)" ;;
	rec*) name="straddle record -F ${w#rec}" ;;
	perf*) name="perf record -F ${w#perf}" ;;
	esac
	wc=$(cut -d' ' -f2 "$tmp/$w" | median)
	ww=$(cut -d' ' -f1 "$tmp/$w" | median)
	awk -v name="$name" -v c="$wc" -v w="$ww" -v pc="$pc" -v pw="$pw" 'BEGIN {
		printf "  %-28s cpu %7.1f ms  wall %7.1f ms  slowdown: cpu %+.1f%%, wall %+.1f%%\n",
			name, c / 1e6, w / 1e6, 100 * (c / pc - 1), 100 * (w / pw - 1) }'
done
echo "  goal: at most 2% at the default rate (cpu)"
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
