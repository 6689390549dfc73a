#!/bin/sh
# make bench-record: record's cost of watching. A CPU-bound program
# (bench/spin.c; its own wall and CPU time measured inside it, so record's
# start-up, its measuring of what a sample costs and its scan are not
# counted) run plain and, right after, under 'straddle record' at the
# DEFAULT rate (no -F: the rate record chooses for this machine), under
# 'straddle record -F 4000' (the old fixed default) and under 'perf record
# -F 4000' (what the kernel's sampling itself costs here), `rounds` times.
# The slowdown of a way is the median over rounds of its CPU time over the
# plain run's of the same round: a neighbour's load on the machine comes and
# goes over seconds, so each ratio is of runs a second apart. Goal: at most
# 2% at the default rate.
#   bench/record.sh BUILD_DIR
set -eu
b=${1:-build}
rounds=${BENCH_RECORD_PAIRS:-31}
n=${BENCH_RECORD_ROUNDS:-200000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "bench-record: $b/bench/spin $n, plain and sampled, $rounds rounds"
echo "  cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), family/model $(grep -m1 'cpu family' /proc/cpuinfo | awk '{ print $NF }')/$(grep -m1 '^model[^ ]*:' /proc/cpuinfo | awk '{ print $NF }'), $(nproc) CPUs, kernel $(uname -r)"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
ways="default rec4000"
command -v perf >/dev/null 2>&1 && ways="$ways perf4000"
i=1
while [ "$i" -le "$rounds" ]; do
	for w in $ways; do
		# plain first in odd rounds, last in even ones: a drift or an
		# effect of going second cancels out of the median
		[ $((i % 2)) = 1 ] && plain=$("$b/bench/spin" "$n")
		case $w in
		default)
			got=$("$b/straddle" record -o "$tmp/r.json" -- "$b/bench/spin" "$n" 2>/dev/null)
			jq -r '"\(.frequency) \(.sample_cost_ns)"' "$tmp/r.json" >>"$tmp/chosen" ;;
		rec*) got=$("$b/straddle" record -F "${w#rec}" -o "$tmp/r.json" -- "$b/bench/spin" "$n" 2>/dev/null) ;;
		perf*) got=$(perf record -q -e cpu-clock -F "${w#perf}" -o "$tmp/perf.data" -- "$b/bench/spin" "$n" 2>/dev/null) ;;
		esac
		[ $((i % 2)) = 0 ] && plain=$("$b/bench/spin" "$n")
		echo "$plain $got" >>"$tmp/$w"
	done
	i=$((i + 1))
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# plain wall, plain cpu, sampled wall, sampled cpu per line
pc=$(cut -d' ' -f2 "$tmp/default" | median)
pw=$(cut -d' ' -f1 "$tmp/default" | median)
printf '  %-28s cpu %7.1f ms  wall %7.1f ms  (medians)\n' "plain" "$(echo "$pc" | awk '{ print $1 / 1e6 }')" "$(echo "$pw" | awk '{ print $1 / 1e6 }')"
echo "  the default rate record chose: $(cut -d' ' -f1 "$tmp/chosen" | sort -n | uniq -c | awk '{ printf "%s%s Hz x%s", (NR > 1 ? ", " : ""), $2, $1 }');" \
	"one sample's cost it measured: median $(cut -d' ' -f2 "$tmp/chosen" | median | awk '{ printf "%.1f", $1 / 1e3 }') us," \
	"$(cut -d' ' -f2 "$tmp/chosen" | sort -g | sed -n '1p;$p' | awk '{ printf "%s%.1f", (NR > 1 ? ".." : ""), $1 / 1e3 }') us"
for w in $ways; do
	case $w in
	default) name="straddle record (default)" ;;
	rec*) name="straddle record -F ${w#rec}" ;;
	perf*) name="perf record -F ${w#perf}" ;;
	esac
	c=$(awk '{ print $4 / $2 }' "$tmp/$w" | median)
	wl=$(awk '{ print $3 / $1 }' "$tmp/$w" | median)
	# the middle half of the cpu ratios: how far one pair strays
	iqr=$(awk '{ print $4 / $2 }' "$tmp/$w" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%+.1f%%..%+.1f%%", 100 * (v[int(NR / 4) + 1] - 1), 100 * (v[NR - int(NR / 4)] - 1) }')
	awk -v name="$name" -v c="$c" -v w="$wl" -v r="$rounds" -v iqr="$iqr" 'BEGIN {
		printf "  %-28s slowdown, median of %s paired ratios: cpu %+.1f%% (middle half %s), wall %+.1f%%\n",
			name, r, 100 * (c - 1), iqr, 100 * (w - 1) }'
	[ "$w" = default ] && dc=$c
done
awk -v c="$dc" 'BEGIN { printf "  goal: at most 2%% at the default rate (cpu): %+.1f%%, %s\n",
	100 * (c - 1), c <= 1.02 ? "met" : "missed" }'
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
