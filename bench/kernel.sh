#!/bin/sh
# make bench-kernel: the cost model's price on a kernel, every loop priced
# under every profile against the same commands with --llvm-mca none:
#   scan --all --json --uarch all VMLINUX     <= 3x  (wall and CPU)
#   diff --uarch zen1,skylake,goldencove,zen5 OLD NEW   <= 3x
#   peak RSS of each                          <= 1.2x
# The kernels are Debian's -dbg vmlinux files that `make kernel-proofs`
# caches (6.1 and 6.12); BENCH_VMLINUX and BENCH_VMLINUX_NEW name others.
# Medians of BENCH_RUNS runs (default 3), stdout to /dev/null.
set -eu
b=${1:-build}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/straddle/kernels
old=${BENCH_VMLINUX:-$cache/vmlinux-6.1}
new=${BENCH_VMLINUX_NEW:-$cache/vmlinux-6.12}
runs=${BENCH_RUNS:-3}
measure=$b/bench/measure
straddle=$b/straddle

for f in "$old" "$new"; do
	if [ ! -r "$f" ]; then
		echo "bench-kernel: $f is not there (make kernel-proofs fetches Debian's; BENCH_VMLINUX=...)" >&2
		exit 2
	fi
done
echo "bench-kernel: $old, $new; $(nproc) CPUs; $runs runs each, medians"
echo "  CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ') model $(grep -m1 '^model[^ ]*:' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %-16s %7s %7s %9s  %s\n' what wall cpu "peak RSS" command
row() {
	_name=$1
	shift
	_m=$("$measure" "$runs" "$@")
	printf '  %-16s %s  %s\n' "$_name" "$(echo "$_m" | awk '{ printf "%7.2f %7.2f %5.0f MiB", $1, $5, $4 / 1024 }')" "$*"
	eval "t_$_name=$(echo "$_m" | cut -d' ' -f1) c_$_name=$(echo "$_m" | cut -d' ' -f5) r_$_name=$(echo "$_m" | cut -d' ' -f4)"
}
row scan_none "$straddle" scan -j 1 --no-source --all --json --uarch all --llvm-mca none "$old"
row scan_model "$straddle" scan -j 1 --no-source --all --json --uarch all "$old"
# diff exits 1 when its gate finds a new hazard: a run that worked
gated='"$@"; [ $? -le 1 ]'
row diff_none sh -c "$gated" diff "$straddle" diff -j 1 --no-source --llvm-mca none \
	--uarch zen1,skylake,goldencove,zen5 "$old" "$new"
row diff_model sh -c "$gated" diff "$straddle" diff -j 1 --no-source \
	--uarch zen1,skylake,goldencove,zen5 "$old" "$new"
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
ratio() {
	eval "_t=\$t_$2 _tb=\$t_$3 _c=\$c_$2 _cb=\$c_$3 _r=\$r_$2 _rb=\$r_$3"
	awk -v l="$1" -v t="$_t" -v tb="$_tb" -v c="$_c" -v cb="$_cb" -v r="$_r" -v rb="$_rb" 'BEGIN {
		w = t / tb; u = c / cb; m = r / rb
		printf "  %-34s wall %5.2f (<= 3 %s), CPU %5.2f, RSS %5.2f (<= 1.2 %s)\n", l, w,
			w <= 3 ? "met" : "MISSED", u, m, m <= 1.2 ? "met" : "MISSED" }'
}
ratio "scan --uarch all / --llvm-mca none" scan_model scan_none
ratio "diff 4 profiles / --llvm-mca none" diff_model diff_none
