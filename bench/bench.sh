#!/bin/sh
# make bench: the speed and memory goals, all
# measured in this one run on the same file:
#   scan -j 1           <= 1.5x a bare Zydis minimal-mode decode of its bytes
#                       (and, for what the analysis costs beyond decoding,
#                       against straddle's own decode of them: the quick
#                       path of decode/x86_quick.c, Zydis for the rest)
#   objdump -d          >= 10x slower than the scan
#   scan -j 2           near 2x faster than -j 1
#   scan peak RSS       <= 2x the file size
#   scan -j 1           <= 1.5x itself with --llvm-mca none, and its peak
#                       RSS <= 1.2x (the cost model's back end, LLVM's
#                       model in process, prices every loop with a hazard:
#                       it is not the scan's cost)
# Each command runs BENCH_RUNS times (default 5; objdump BENCH_OBJDUMP_RUNS,
# default 3), stdout to /dev/null; times are medians. Wall time is what
# the goals name; CPU time (user + system) is printed beside it because it
# is steadier on a machine shared with other work (2 CPUs here): the
# single-threaded ratios are also given in CPU time, and -j 2 can only be
# judged in wall time on an otherwise idle machine (the load average is
# printed before and after).
#
#   bench/bench.sh BUILD_DIR     (make bench: BUILD_DIR=build)
# Environment: BENCH_FILE (default libLLVM-14.so.1), BENCH_RUNS,
# BENCH_OBJDUMP_RUNS, BENCH_UARCH (the scans' --uarch, default host: a
# profile whose window costs less than a cycle leaves llvm-mca fewer loops
# to simulate, so name the profile a figure came from).
set -eu
b=${1:-build}
file=${BENCH_FILE:-/usr/lib/x86_64-linux-gnu/libLLVM-14.so.1}
runs=${BENCH_RUNS:-5}
od_runs=${BENCH_OBJDUMP_RUNS:-3}
uarch=${BENCH_UARCH:-host}
measure=$b/bench/measure
straddle=$b/straddle

if [ ! -r "$file" ]; then
	echo "bench: $file is not there (Debian package libllvm14; BENCH_FILE=... for another)" >&2
	exit 2
fi
size=$(wc -c <"$file")
text=$(readelf -SW "$file" | sed -n 's/^ *\[ *[0-9]*\] \.text  *PROGBITS  *[0-9a-f]*  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
mib() { awk -v v="$1" 'BEGIN { printf "%.1f MiB", v / 1048576 }'; }
echo "bench: $file ($(mib "$size"), .text $(mib $((0x${text:-0})))), $(nproc) CPUs"
echo "  $runs runs each (objdump: $od_runs), medians; stdout to /dev/null; --uarch $uarch"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
info=$("$b/bench/zydis_walk" "$file")
echo "  zydis_walk: $info"
echo

printf '  %-14s %7s %7s %7s %7s %9s  %s\n' what wall min max cpu "peak RSS" command
# row NAME RUNS CMD...: measure CMD and print a row; sets the variables
# t_NAME (median wall seconds), m_NAME (fastest), c_NAME (median CPU
# seconds), rss_NAME (KiB).
row() {
	_name=$1
	_runs=$2
	shift 2
	_m=$("$measure" "$_runs" "$@")
	set -- "$_name" "$_m" "$@"
	_r=$(echo "$2" | awk '{ printf "%7.2f %7.2f %7.2f %7.2f %5.0f MiB", $1, $2, $3, $5, $4 / 1024 }')
	_cmd=$(shift 2; echo "$*")
	printf '  %-14s %s  %s\n' "$_name" "$_r" "$_cmd"
	eval "t_$_name=$(echo "$2" | cut -d' ' -f1)"
	eval "rss_$_name=$(echo "$2" | cut -d' ' -f4)"
	eval "c_$_name=$(echo "$2" | cut -d' ' -f5)"
	eval "m_$_name=$(echo "$2" | cut -d' ' -f2)"
}
row zydis "$runs" "$b/bench/zydis_walk" "$file"
row decode "$runs" "$b/bench/zydis_walk" --straddle "$file"
row scan_j1_json "$runs" "$straddle" scan -j 1 --no-source --uarch "$uarch" --json "$file"
row scan_j1_text "$runs" "$straddle" scan -j 1 --no-source --uarch "$uarch" "$file"
row scan_j2_json "$runs" "$straddle" scan -j 2 --no-source --uarch "$uarch" --json "$file"
row scan_j2_text "$runs" "$straddle" scan -j 2 --no-source --uarch "$uarch" "$file"
row scan_j1_nomca "$runs" "$straddle" scan -j 1 --no-source --uarch "$uarch" --llvm-mca none "$file"
row objdump "$od_runs" objdump -d "$file"

# ratio LABEL A B OP GOAL: A/B in median wall time, fastest wall time and
# median CPU time, against the goal; the verdict is on the median wall
# time, which is what the goals name. OP "-": a figure without a goal.
ratio() {
	eval "_tw=\$t_$2 _bw=\$t_$3 _tm=\$m_$2 _bm=\$m_$3 _tc=\$c_$2 _bc=\$c_$3"
	awk -v l="$1" -v a="$_tw" -v b="$_bw" -v am="$_tm" -v bm="$_bm" -v ac="$_tc" \
		-v bc="$_bc" -v op="$4" -v g="$5" 'BEGIN {
		v = b > 0 ? a / b : 0; vm = bm > 0 ? am / bm : 0; vc = bc > 0 ? ac / bc : 0
		met = (op == "<=") ? (v <= g) : (v >= g)
		if (op == "-")
			printf "  %-30s %7.2f %7.2f %7.2f   (no goal: the analysis beyond decoding)\n", l, v, vm, vc
		else
			printf "  %-30s %7.2f %7.2f %7.2f   %s %-4s %s\n", l, v, vm, vc, op, g,
				met ? "met" : "MISSED" }'
}
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '  %-30s %7s %7s %7s   %s\n' ratio wall "min" cpu goal
ratio "scan -j1 --json / zydis" scan_j1_json zydis "<=" 1.5
ratio "scan -j1 (text) / zydis" scan_j1_text zydis "<=" 1.5
ratio "scan -j1 (text) / decode" scan_j1_text decode - -
ratio "scan -j1 / --llvm-mca none" scan_j1_text scan_j1_nomca "<=" 1.5
ratio "objdump / scan -j1 --json" objdump scan_j1_json ">=" 10
ratio "objdump / scan -j1 (text)" objdump scan_j1_text ">=" 10
ratio "scan -j1 / -j2 --json" scan_j1_json scan_j2_json ">=" 1.8
ratio "scan -j1 / -j2 (text)" scan_j1_text scan_j2_text ">=" 1.8
awk -v r1="$rss_scan_j1_json" -v r2="$rss_scan_j2_json" -v s="$size" 'BEGIN {
	v = r1 * 1024 / s; w = r2 * 1024 / s
	printf "  %-30s %7.2f (-j2: %.2f)     <= 2    %s\n", "scan --json peak RSS / file", v, w,
		(v <= 2 && w <= 2) ? "met" : "MISSED" }'
awk -v a="$rss_scan_j1_text" -v b="$rss_scan_j1_nomca" 'BEGIN {
	v = b > 0 ? a / b : 0
	printf "  %-30s %7.2f                  <= 1.2  %s\n", "scan -j1 RSS / --llvm-mca none", v,
		(v <= 1.2) ? "met" : "MISSED" }'
