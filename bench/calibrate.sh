#!/bin/sh
# make bench-calibrate: calibrate's held-out check and "the same answer
# twice", on this machine.
#  1. straddle calibrate (default budget, at most 5 minutes) CAL_RUNS times
#     in a row (default 3) into profile files of this run (the user's saved
#     profile is not touched); the profile lines side by side;
#  2. every placed x86-64 kernel of `straddle kernels` swept over 64 offsets
#     at two lengths a call (SWEEP_SIZE, default 4096, and four times it),
#     predicted by the host's built-in profile and by each calibrated one in
#     the same run (one measurement, every prediction);
#  3. the table: kernel, agreement of each profile with the measured slow
#     marks, and the CPU. Goal: every calibrated profile agrees on >= 95% of
#     offsets, kernel by kernel, and the runs fit the same profile. None of
#     these kernels is a calibrate experiment: they are held out from the
#     fit.
#   bench/calibrate.sh BUILD_DIR    (CAL_RUNS=N, CAL_TIME=S, SWEEP_TIME=S,
#                                    SWEEP_SIZE=BYTES: the short length,
#                                    CAL_FROM=DIR: refit DIR's calibrated-N.json
#                                    with this build instead of measuring)
set -eu
b=${1:-build}
out=${CAL_OUT:-$b/bench-calibrate}
runs=${CAL_RUNS:-3}
mkdir -p "$out"
cpu=$("$b/straddle" uarch --json | jq -r '.host | "\(.model_name) (\(.vendor) family \(.family) model \(.model) stepping \(.stepping))"')
# the built-in profile: what host means when no calibrated file is found
builtin=$(XDG_DATA_HOME=/nonexistent "$b/straddle" uarch --json | jq -r '.host.profile // "generic-x86"')
echo "bench-calibrate on $cpu; built-in profile $builtin; $runs calibrations in a row"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
set -- ${CAL_TIME:+--time "$CAL_TIME"}
profiles=$builtin
heads=$(printf '%18s' "$builtin")
r=1
while [ "$r" -le "$runs" ]; do
	start=$(date +%s)
	if [ -n "${CAL_FROM:-}" ]; then  # refit those recordings, measure nothing
		"$b/straddle" calibrate --from "$CAL_FROM/calibrated-$r.json" -o "$out/calibrated-$r.json" \
			>"$out/calibrate-$r.txt"
	else
		"$b/straddle" calibrate "$@" -o "$out/calibrated-$r.json" --plot "$out/plots-$r" \
			>"$out/calibrate-$r.txt"
	fi
	echo "  calibrate $r: $(($(date +%s) - start)) s, load $(cut -d' ' -f1 /proc/loadavg); $(grep '^profile:' "$out/calibrate-$r.txt")"
	echo "    back end: $(jq -r .back_end.why "$out/calibrated-$r.json")"
	echo "    claimed: $(jq -r '[.rules[] | select(.claimed) | "\(.rule) \(.window) \(.ratio * 100 | round / 100)x"] | join(", ") | if . == "" then "none" else . end' "$out/calibrated-$r.json")"
	profiles="$profiles,$out/calibrated-$r.json"
	heads="$heads$(printf '%18s' "calibrated $r")"
	r=$((r + 1))
done
same=$(for r in $(seq 1 "$runs"); do jq -c '.profile | del(.evidence, .cpus)' "$out/calibrated-$r.json"; done | sort -u | wc -l)
echo "  distinct profiles among the $runs: $same (goal: 1)"
kernels=$("$b/straddle" kernels | awk 'NR > 1 && $4 == "x86_64" && $5 == "placed" { print $1 }')
# Two sweeps a kernel, of SWEEP_SIZE bytes a call and of four times that.
# The model's rules are front-end cycles an iteration; a
# placement that costs the same nanoseconds a call at any length is not
# one of them. On the Intel guest of 2026-12-02 copy_unrolled's 64-byte
# loop took 4.7 ns more a call at 53 of 64 offsets, the same 4.7 ns at 2,
# 3, 4 and 8 KiB a call and none at 1 and 16 KiB: a mispredicted exit
# (about 18 cycles) of a loop of 32 to 128 iterations, not a straddle. A
# placement is slow an iteration when it is slow at both lengths; the
# goal is judged on that, and the one-length table is printed beside it.
size=${SWEEP_SIZE:-4096}
long=$((size * 4))
printf '%-16s %s  %s\n' kernel "$heads" "per iteration: slow at $size and $long bytes a call"
for k in $kernels; do
	for n in "$size" "$long"; do
		"$b/straddle" sweep --time "${SWEEP_TIME:-20}" --size "$n" --uarch "$profiles" \
			-o "$out/sweep-$k-$n.json" --plot "$out/sweep-$k-$n.svg" "$k" >/dev/null
	done
	jq -r -n --arg k "$k" --slurpfile one "$out/sweep-$k-$size.json" \
		--slurpfile four "$out/sweep-$k-$long.json" '
		def slow($d): [$d[0].metrics[] | select(.kernel == $k and .slow) | .offset];
		def pct: "\(.agree)/\(.offsets) \((.agree * 1000 / .offsets | round) / 10)%";
		(slow($one) - (slow($one) - slow($four))) as $both
		| [$one[0].metrics[] | select(.kernel == $k) | .offset] as $offs
		| [$one[0].agreement[] | select(.kernel == $k)
		   | .predicted as $p
		   | { agree: [$offs[] | select((. as $o | $both | index($o) != null)
					  == (. as $o | $p | index($o) != null))] | length,
		       offsets: ($offs | length) }] as $a
		| "\($k | . + " " * (16 - length)) \([$a[] | pct | " " * (18 - length) + .] | join(""))"'
done
echo "at $size bytes a call alone (slow at one length: per call or per iteration):"
for k in $kernels; do
	jq -r --arg k "$k" --slurpfile four "$out/sweep-$k-$long.json" '
		def pct: "\(.agree)/\(.offsets) \((.agree * 1000 / .offsets | round) / 10)%";
		[.agreement[] | select(.kernel == $k)] as $a
		| [.metrics[] | select(.kernel == $k and .slow) | .offset] as $s
		| ($s - [$four[0].metrics[] | select(.kernel == $k and .slow) | .offset]) as $call
		| "\($k | . + " " * (16 - length)) \([$a[] | pct | " " * (18 - length) + .] | join(""))  slow only at this length: \($call | length)"' \
		"$out/sweep-$k-$size.json"
done
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  goal: every calibrated profile >= 95% per iteration on every kernel; CPU: $cpu; files in $out"
