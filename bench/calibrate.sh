#!/bin/sh
# make bench-calibrate: issue 11's held-out check, on this machine.
#  1. straddle calibrate (default budget, at most 5 minutes) into a profile
#     file of this run (the user's saved profile is not touched);
#  2. every placed x86-64 kernel of `straddle kernels` swept over 64 offsets,
#     predicted by the host's built-in profile and by the calibrated one in
#     the same run (one measurement, two predictions);
#  3. the table: kernel, agreement of each profile with the measured slow
#     marks, and the CPU. Goal: the calibrated profile agrees on >= 95% of
#     offsets, kernel by kernel. None of these kernels is a calibrate
#     experiment: they are held out from the fit.
#   bench/calibrate.sh BUILD_DIR    (CAL_TIME=S, SWEEP_TIME=S to change budgets)
set -eu
b=${1:-build}
out=${CAL_OUT:-$b/bench-calibrate}
mkdir -p "$out"
cpu=$("$b/straddle" uarch --json | jq -r '.host | "\(.model_name) (\(.vendor) family \(.family) model \(.model) stepping \(.stepping))"')
# the built-in profile: what host means when no calibrated file is found
builtin=$(XDG_DATA_HOME=/nonexistent "$b/straddle" uarch --json | jq -r '.host.profile // "generic-x86"')
echo "bench-calibrate on $cpu; built-in profile $builtin"
echo "  load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
set -- ${CAL_TIME:+--time "$CAL_TIME"}
start=$(date +%s)
"$b/straddle" calibrate "$@" -o "$out/calibrated.json" --plot "$out/plots" >"$out/calibrate.txt"
echo "  calibrate: $(($(date +%s) - start)) s; $(grep '^profile:' "$out/calibrate.txt")"
kernels=$("$b/straddle" kernels | awk 'NR > 1 && $4 == "x86_64" && $5 == "placed" { print $1 }')
printf '%-16s %18s %18s  %s\n' kernel "$builtin" calibrated cpu
for k in $kernels; do
	"$b/straddle" sweep --time "${SWEEP_TIME:-20}" --uarch "$builtin,$out/calibrated.json" \
		-o "$out/sweep-$k.json" --plot "$out/sweep-$k.svg" "$k" >/dev/null
	jq -r --arg cpu "$cpu" --arg k "$k" '
		def pct: "\(.agree)/\(.offsets) \((.agree * 1000 / .offsets | round) / 10)%";
		[.agreement[] | select(.kernel == $k)] as $a
		| "\($k | . + " " * (16 - length)) \($a[0] | pct | " " * (18 - length) + .) \($a[1] | pct | " " * (18 - length) + .)  \($cpu)"' \
		"$out/sweep-$k.json"
done
echo "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  goal: calibrated >= 95% on every kernel; files in $out"
