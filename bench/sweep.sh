#!/bin/sh
# make bench-sweep: the sweep's goals, on this machine:
#  - a 64-offset sweep of clear_movq_imm on 4 KiB finds the offsets where the
#    fused decl/jnz pair crosses the 64 B line about 2x slower, the same
#    offsets run after run, within 20 s, every median's CI half-width <= 1%;
#  - clear_rep_stosb placed by the arena against libc's memset at 64 KiB,
#    within 5%.
#   bench/sweep.sh BUILD_DIR
set -eu
b=${1:-build}
runs=${BENCH_SWEEP_RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "bench-sweep: clear_movq_imm, offsets 0..63, 4 KiB, $runs runs"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=1
while [ "$i" -le "$runs" ]; do
	start=$(date +%s.%N)
	"$b/straddle" sweep --time 20 -o "$tmp/s$i.json" clear_movq_imm >/dev/null
	end=$(date +%s.%N)
	jq -r --arg t "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')" '
		[.metrics[] | select(.slow) | .offset] as $slow
		| ([.metrics[] | (.ci[1] - .ci[0]) / 2 / .median] | max) as $hw
		| ([.metrics[] | .ratio] | max) as $worst
		| "  run \($t) s: stopped by \(.sweep.stopped_by), widest CI half-width \($hw * 10000 | round / 100)%, slow offsets \($slow | map(tostring) | join(" ")), worst \($worst * 100 | round / 100)x"' "$tmp/s$i.json"
	i=$((i + 1))
done
same=$(for f in "$tmp"/s*.json; do jq -c '[.metrics[] | select(.slow) | .offset]' "$f"; done | sort -u | wc -l)
echo "  the same slow offsets in every run: $([ "$same" -eq 1 ] && echo yes || echo no)"
"$b/straddle" sweep --size 64K --offsets 0 --time 20 clear_rep_stosb memset | tail -n 2 |
	sed 's/^/ /'
echo "  goal: memset within 5% of clear_rep_stosb (the ratio above)"
