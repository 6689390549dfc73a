#!/bin/sh
# make bench-agree: the in-process back end against llvm-mca's simulation
# of the same instructions (bench/sched_agree.c), 100 innermost loops that
# call nothing from each of libc, libLLVM-14 and a kernel (the vmlinux
# make kernel-proofs caches, when there), under two Intel and two AMD
# models (BENCH_CPUS). The goal: >= 90% within 10% of the simulation's
# steady state; the share within 10% of its Total Cycles / 100 at 100
# iterations (the pipeline's filling counted in) is printed beside it.
# Each loop's line goes to build/bench/agree-CPU.txt.
set -eu
b=${1:-build}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/straddle/kernels
files="/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libLLVM-14.so.1"
[ -r "${BENCH_VMLINUX:-$cache/vmlinux-6.1}" ] && files="$files ${BENCH_VMLINUX:-$cache/vmlinux-6.1}"
for cpu in ${BENCH_CPUS:-alderlake skylake znver3 znver4}; do
	"$b/bench/sched_agree" "$cpu" "${BENCH_SAMPLES:-100}" $files >"$b/bench/agree-$cpu.txt"
	grep '^all under' "$b/bench/agree-$cpu.txt" | awk '{
		print; split($0, a, "steady state "); split(a[2], p, "[(%]")
		print "  goal >= 90%:", (p[2] >= 90 ? "met" : "MISSED") }'
done
