#!/bin/sh
# make bench-place: what moving costs and what place can find.
# 1. start-up: a library of 1,200 functions, every one moved at once
#    (--offsets random), against the unmoved program: the wall time the
#    preload library adds to a program that does nothing else. Goal < 1 ms.
# 2. power: a 1-second program whose loop is 2% slower at offsets 32..63
#    by construction (bench/place/effect.c); place with a 60 s budget must
#    mark that placement slow (p < 0.05) and the other not.
# 3. the control's cost: the control against the unmoved program in both.
# Not a test: figures and the goals they meet or miss, with the CPU and load.
set -eu
B=${1:-build}
S=$B/straddle
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 bench/place/many.py 1200 >"$W/many.c"
gcc -O2 -fPIC -shared -Wl,--build-id -o "$W/libmany.so" "$W/many.c"
printf 'int main(void) { return 0; }\n' >"$W/main.c"
gcc -O2 -o "$W/main" "$W/main.c" -Wl,--no-as-needed -L"$W" -lmany -Wl,-rpath,"$W"
"$S" place --file "$W/libmany.so" --func '*' --offsets random --runs 200 --wall -o "$W/start.json" \
	-- "$W/main" >"$W/start.txt"
jq -r '.moved as $mv | . as $d | [.metrics[] | {(.arm): .median}] | add as $m | $d |
	"start-up: \($mv.functions) functions moved; unmoved \($m.unmoved * 1000 | . * 1000 | round / 1000) ms, " +
	"all moved (random) \($m.random * 1000 | . * 1000 | round / 1000) ms, the control \($m.control * 1000 | . * 1000 | round / 1000) ms; " +
	"the relocation itself (the preload library'"'"'s own clock) \(.place.apply_us.median | round) us median, \(.place.apply_us.max | round) us max " +
	(if .place.apply_us.median < 1000 then "(goal < 1 ms: met)" else "(goal < 1 ms: MISSED)" end)' "$W/start.json"

gcc -O2 -g -Wl,--build-id -o "$W/effect" bench/place/effect.c
# which placements of the loop put spin's `lea` (the pc it tests) in 32..63
loop=$("$S" scan --all --func spin --json "$W/effect" | jq -r '.files[0].functions[0].loops[0].start')
lea=$(objdump -d "$W/effect" | awk '/<spin>:/,/ret/' | grep -m1 'lea *0x0(%rip)' | sed 's/^ *\([0-9a-f]*\):.*/0x\1/')
d=$(( loop - lea ))
slow_at=$(( (32 + d) % 64 ))
fast_at=$(( (0 + d) % 64 ))
echo "power: the loop is $d bytes after the pc spin tests: offset $slow_at is 2% slow by construction, $fast_at is not"
"$S" place --func spin --offsets "$fast_at,$slow_at" --runs 1000 --time 55 -o "$W/effect.json" \
	-- "$W/effect" 700000000 >"$W/effect.txt"
cat "$W/effect.txt"
jq -r --arg s "$slow_at" --arg f "$fast_at" '. as $d | [.metrics[] | select(.arm != "unmoved") | {(.offset | tostring): .}] | add as $m |
	"power: offset \($s) at \($m[$s].ratio * 1000 | round / 1000)x of the best (p \($m[$s].p_vs_best)), slow \($m[$s].slow); " +
	"offset \($f) slow \($m[$f].slow); after \($d.place.rounds) rounds, \($d.place.elapsed_s | round) s " +
	(if $m[$s].slow and ($m[$f].slow | not) then "(goal: found within 60 s: met)" else "(goal: MISSED)" end)' "$W/effect.json"
