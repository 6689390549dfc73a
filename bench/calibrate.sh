#!/bin/sh
# make bench-calibrate: issue 11's held-out check and issue 22's "the same
# answer twice", on this machine.
#  1. straddle calibrate (default budget, at most 5 minutes) CAL_RUNS times
#     in a row (default 3) into profile files of this run (the user's saved
#     profile is not touched); the profile lines side by side;
#  2. every placed x86-64 kernel of `straddle kernels` swept over 64 offsets,
#     predicted by the host's built-in profile and by each calibrated one in
#     the same run (one measurement, every prediction);
#  3. the table: kernel, agreement of each profile with the measured slow
#     marks, and the CPU. Goal: every calibrated profile agrees on >= 95% of
#     offsets, kernel by kernel, and the runs fit the same profile. None of
#     these kernels is a calibrate experiment: they are held out from the
#     fit.
#   bench/calibrate.sh BUILD_DIR    (CAL_RUNS=N, CAL_TIME=S, SWEEP_TIME=S)
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
	"$b/straddle" calibrate "$@" -o "$out/calibrated-$r.json" --plot "$out/plots-$r" >"$out/calibrate-$r.txt"
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
printf '%-16s %s  %s\n' kernel "$heads" cpu
for k in $kernels; do
	"$b/straddle" sweep --time "${SWEEP_TIME:-20}" --uarch "$profiles" \
		-o "$out/sweep-$k.json" --plot "$out/sweep-$k.svg" "$k" >/dev/null
	jq -r --arg cpu "$cpu" --arg k "$k" '
		def pct: "\(.agree)/\(.offsets) \((.agree * 1000 / .offsets | round) / 10)%";
		[.agreement[] | select(.kernel == $k)] as $a
		| "\($k | . + " " * (16 - length)) \([$a[] | pct | " " * (18 - length) + .] | join(""))  \($cpu)"' \
		"$out/sweep-$k.json"
done
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  goal: every calibrated profile >= 95% on every kernel; files in $out"
