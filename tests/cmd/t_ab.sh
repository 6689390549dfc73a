# straddle ab on builds with a known difference (tests/ab/twin.c) and a
# metric the program prints that depends on the layout alone (clear-at:
# 110 when hot's loop runs in the second half of its line, else 100) or on
# the code alone (chain-at: its WORK), so every verdict, change and band
# here is exact and no machine's noise decides one (the timed runs of the
# same fixtures are in doc/ab.md). twin-a and twin-b differ by the padding
# in front of hot only (its loop at 27 and at 51 of its line); twin-w does
# 3% more work. Then the file, compare and report, and every bad input:
# one line, no result file.
T=$FIXTURES/ab
M='metric ([0-9]+)'

ab() {
	rm -f "$TMP/log"
	TWIN_LOG=$TMP/log run "$STRADDLE" ab "$@"
	OUT_TEXT=$OUT
}

# a layout change: B +10%; moving the functions alone moves it by as
# much (within layout noise); aligned, it is gone: layout
ab --runs 8 --metric "$M" --no-output-check --align-all 64 -o "$TMP/shift.json" \
	-- "$T/twin-a" clear-at -- "$T/twin-b" clear-at
expect_eq "ab shift: exit 0" "$RC" 0
OUT=$(cat "$TMP/shift.json")
expect_eq "ab shift: the change, exact" "$(jq_of '.change | "\(.pct * 100 | round) \(.ci_pct | map(. * 100 | round))"')" \
	"1000 [1000,1000]"
expect_eq "ab shift: the verdict" "$(jq_of '"\(.verdict): \(.reason)"')" \
	"layout: the change was layout: aligned, it vanishes"
expect_eq "ab shift: aligned, no change" "$(jq_of '.aligned | "\(.align) \(.change.pct) \(.change.ci_pct)"')" \
	"64 0 [0,0]"
expect_eq "ab shift: the band holds the change" \
	"$(jq_of '.layout_band | .low_pct < 0 and .high_pct > 10 and .a.runs == 8 and .b.runs == 8')" true
# A's layouts: 100 or 110 over its control's 100, B's: 100 or 110 over its 110
expect_eq "ab shift: what the layouts made" \
	"$(jq_of '[.metrics[] | select(.arm == "random") | .samples | unique | map(tostring) | join(",")] | join(" ")')" \
	"100,110 100,110"
expect_eq "ab shift: the controls and aligned arms, each at one place" \
	"$(jq_of '[.metrics[] | select(.arm != "random") | "\(.name)=\(.samples | unique | map(tostring) | join(","))"] | join(" ")')" \
	"A=100 A@control=100 A@aligned=100 B=110 B@control=110 B@aligned=100"
# every arm once a round: 8 rounds of 4 arms, 2 builds; 2 first runs each
expect_eq "ab shift: arms and samples" \
	"$(jq_of '"\(.metrics | length) \([.metrics[].samples | length] | unique) \(.ab.rounds) \(.ab.stopped_by)"')" \
	"8 [8] 8 runs"
# the runs that moved code ran the copy: control, random and aligned, 8
# rounds of each, both builds; the unmoved ones the file's own (and the
# 2 first runs of each build)
expect_eq "ab shift: the copies ran" "$(grep -c '^moved$' "$TMP/log") $(grep -c '^in place$' "$TMP/log")" \
	"48 20"
expect_eq "ab shift: what it said" \
	"$(printf '%s\n' "$OUT_TEXT" | grep -E '^(B is|moving|aligned|verdict)' | sed 's/(p [^)]*)//g')" \
	"B is +10.0% [+10.0, +10.0] against A : worse; the noise: B over A varies by 0.00% from round to round
moving the builds' functions alone moves B over A by $(jq_of '.layout_band | "\(.low_pct * 10 | round / 10 | if . > 0 then "+\(.)" else tostring end)% to +\(.high_pct * 10 | round / 10)%"') (95%; A's $(jq_of '.layout_band.a | "\(.low_pct * 10 | round / 10)..+\(.high_pct * 10 | round / 10)"'), B's $(jq_of '.layout_band.b | "\(.low_pct * 10 | round / 10)..+\(.high_pct * 10 | round / 10)"')): within layout noise
aligned (every function at offset 0 of a 64-byte block), B is +0.0% [+0.0, +0.0] ; the change unaligned over aligned +10.0% 
verdict: layout (the change was layout: aligned, it vanishes)"

# the same builds against the band alone: within it, no verdict
ab --runs 8 --metric "$M" --no-output-check -o "$TMP/shift-band.json" \
	-- "$T/twin-a" clear-at -- "$T/twin-b" clear-at
expect_eq "ab shift, band only: the verdict" \
	"$(jq -r '"\(.verdict): \(.reason) \(.aligned)"' "$TMP/shift-band.json")" \
	"inconclusive: within layout noise null"
# and no layout arm at all: nothing tells layout from code
ab --runs 4 --metric "$M" --no-output-check --no-layout -o "$TMP/shift-none.json" \
	-- "$T/twin-a" clear-at -- "$T/twin-b" clear-at
expect_eq "ab shift, no layout: the verdict, the arms" \
	"$(jq -r '"\(.verdict): \(.reason) \(.layout_band) \([.metrics[].name] | join(","))"' "$TMP/shift-none.json")" \
	"inconclusive: no layout arm: nothing tells layout from code null A,B"

# a change of the code: +3% whatever the layout: beyond layout noise,
# and it survives alignment
ab --runs 6 --metric "$M" --no-output-check --align-all 64 -o "$TMP/work.json" \
	-- "$T/twin-a" chain-at -- "$T/twin-w" chain-at
OUT=$(cat "$TMP/work.json")
expect_eq "ab work: the verdict" "$(jq_of '"\(.verdict): \(.reason)"')" \
	"real: the change is the code: it survives alignment"
expect_eq "ab work: the change and the aligned one" \
	"$(jq_of '"\(.change.pct * 100 | round) \(.aligned.change.pct * 100 | round) \(.layout_band.band_pct)"')" "300 300 0"
ab --runs 6 --metric "$M" --no-output-check -o "$TMP/work-band.json" \
	-- "$T/twin-a" chain-at -- "$T/twin-w" chain-at
expect_eq "ab work, band only: the verdict" "$(jq -r '"\(.verdict): \(.reason)"' "$TMP/work-band.json")" \
	"real: beyond layout noise"

# A/A: no change
ab --runs 6 --metric "$M" --no-output-check --align-all 64 -o "$TMP/aa.json" \
	-- "$T/twin-a" clear-at -- "$T/twin-a" clear-at
expect_eq "ab A/A: the verdict" "$(jq -r '"\(.verdict): \(.reason) \(.change.pct) \(.change.p)"' "$TMP/aa.json")" \
	"none: no change 0 1"

# outputs checked: the builds' outputs the same, every run's as its first
# (each build: its 2 first runs, 2 rounds of 3 arms; checked, all but the
# very first)
ab --runs 2 -o "$TMP/timed.json" -- "$T/twin-a" clear 20 -- "$T/twin-b" clear 20
expect_eq "ab timed: exit 0" "$RC" 0
expect_eq "ab timed: the output check" \
	"$(jq -r '.output_check | "\(.checked) \(.runs) \(.identical)"' "$TMP/timed.json")" "true 14 14"
expect_eq "ab timed: seconds, CPU time" \
	"$(jq -r '"\(.ab.measure) \([.metrics[].unit] | unique)"' "$TMP/timed.json")" 'cpu ["s"]'
expect_eq "ab timed: said" "$(printf '%s\n' "$OUT_TEXT" | sed -n 5p | sed 's/([0-9.]* s)/(S)/')" \
	"measured: CPU time (user + system); stopped by runs after 2 rounds (S); output identical in 14 of 14 runs, A's and B's the same"

# --precision: a metric that never varies is known at once: 5 rounds
ab --runs 1000 --precision 0.01 --metric "$M" --no-output-check --no-layout -o "$TMP/prec.json" \
	-- "$T/twin-a" chain-at -- "$T/twin-w" chain-at
expect_eq "ab --precision: stopped by it" \
	"$(jq -r '"\(.ab.stopped_by) \(.ab.rounds)"' "$TMP/prec.json")" "precision 5"

# --stdin: every run reads the file from its start
printf 'abcdefghij' >"$TMP/in"
ab --runs 3 --no-layout --metric '([0-9]+)' --stdin "$TMP/in" -o "$TMP/stdin.json" -- wc -c -- wc -c
expect_eq "ab --stdin: every run read it whole" \
	"$(jq -r '"\(.ab.stdin) \([.metrics[].samples[]] | unique)"' "$TMP/stdin.json")" "$TMP/in [10]"

# a static build: no layout arm, said; the A/B still runs
ab --runs 5 --metric "$M" --no-output-check --align-all 64 -o "$TMP/static.json" \
	-- "$T/twin-static" clear-at -- "$T/twin-a" clear-at
expect_eq "ab static: exit 0" "$RC" 0
expect_eq "ab static: said" "$ERR" \
	"straddle: A: $T/twin-static: a static executable: the preload library cannot enter it: no layout arm; the A/B runs"
expect_eq "ab static: its arms" \
	"$(jq -r '"\([.metrics[].name] | join(",")) \(.builds[0].layout) \(.builds[1].layout) \(.aligned)"' "$TMP/static.json")" \
	"A,B,B@control,B@random false true null"
expect_eq "ab static: the band is B's alone" \
	"$(jq -r '"\(.layout_band.a) \(.layout_band.b.runs)"' "$TMP/static.json")" "null 5"

# compare reads ab's file as place's; report shows it
run "$STRADDLE" compare "$TMP/shift.json" "$TMP/shift.json"
expect_eq "compare ab A/A: exit 0, a row per arm" "$RC $(printf '%s\n' "$OUT" | grep -c 'median-[AB]')" "0 8"
run "$STRADDLE" report -o "$TMP/ab.html" "$TMP/shift.json" "$TMP/work.json"
expect_eq "report ab: exit 0" "$RC" 0
expect_eq "report ab: a section each, its verdict in one line" \
	"$(grep -c '<section class="result ab"' "$TMP/ab.html") $(grep -o '<p class="verdict [a-z]*">[a-z]*: [^<]*' "$TMP/ab.html" | sed 's/ B is.*//' | tr '\n' '|')" \
	"2 <p class=\"verdict pass\">layout: the change was layout: aligned, it vanishes:|<p class=\"verdict fail\">real: the change is the code: it survives alignment:|"
expect_eq "report ab: both distributions, every arm a row" \
	"$(sed -n '/id="ab-1"/,/<\/svg>/p' "$TMP/ab.html" | grep -c "<g class='run'")" 8
expect_eq "report ab: the bands" \
	"$(grep -o "the layouts&#39; band (new random offsets of the same code, 95%): B over A from [^<]*" "$TMP/ab.html" | sed 's/.*from //' | tr '\n' '|')" \
	"$(jq -r '.layout_band | "\(.low_pct * 100 | round / 100)% to +\(.high_pct * 100 | round / 100)%"' "$TMP/shift.json")|+0.00% to +0.00%|"

# bad input: one line, exit 2 (1 for outputs that differ), no result file
ab_err() {
	name=$1 rc=$2 want=$3
	shift 3
	run "$STRADDLE" ab -o "$TMP/bad.json" "$@"
	expect_eq "ab $name: exit $rc" "$RC" "$rc"
	expect_eq "ab $name: the line" "$ERR" "$want"
	expect_eq "ab $name: no result file" "$(ls "$TMP/bad.json" 2>/dev/null)" ""
}
ab_err "outputs differ" 1 \
	"straddle: B's output differs from A's: the builds do not do the same work (--no-output-check when their output may differ)" \
	--runs 2 -- "$T/twin-a" clear-at -- "$T/twin-b" clear-at
ab_err "a command that fails" 2 \
	"straddle: A: 'sh' ends with exit 3 (stderr: oops): ab measures commands that succeed" \
	--runs 2 --no-layout -- sh -c 'echo oops >&2; exit 3' -- true
ab_err "B fails" 2 "straddle: B: 'false' ends with exit 1 (stderr: ): ab measures commands that succeed" \
	--runs 2 --no-layout -- true -- false
ab_err "a metric never matched" 2 \
	"straddle: --metric: 'nothing ([0-9]+)' matches nothing in the output of '$T/twin-a'" \
	--runs 2 --metric 'nothing ([0-9]+)' -- "$T/twin-a" clear-at -- "$T/twin-a" clear-at
ab_err "no such command" 2 "straddle: no-such-command: no such command in PATH" \
	-- "$T/twin-a" clear-at -- no-such-command
ab_err "no B" 2 "straddle: ab: name B's command after a second --" -- "$T/twin-a" clear-at
ab_err "no B after --" 2 "straddle: ab: name B's command after a second --" -- "$T/twin-a" clear-at --
ab_err "no A" 2 "straddle: ab: name A's command after --" -- -- "$T/twin-a"
ab_err "a named file that cannot move" 2 \
	"straddle: $T/twin-static: a static executable: the preload library cannot enter it" \
	--file-a "$T/twin-static" -- "$T/twin-a" clear-at -- "$T/twin-a" clear-at
ab_err "align-all not a power of two" 2 "straddle: --align-all: 48 is not a power of two" \
	--align-all 48 -- true -- true
ab_err "no stdin" 2 "straddle: --stdin: $TMP/nope: No such file or directory" \
	--stdin "$TMP/nope" -- true -- true
