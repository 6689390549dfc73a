# straddle prove: record, scan --hot with the cost model, place the hot
# straddling loops at their best and back, and the prediction beside the
# measurement. What a run measures is noise and is not asserted; what it
# chose, predicted, ran and wrote is exact. The judgement itself is
# test_proof's.
P=$FIXTURES/place

# clear.c: seed 000's 15-byte store loop at 50 of its line, ~all of the
# program's time, its jne [63, 65) across the line. goldencove (no back
# end: lib.sh's STRADDLE_LLVM_MCA=none) prices its second line at 0.35
# cycle and the jne's bubble at 0.45 on top: 1.8x, "costs" at --material 3%.
mkdir -p "$TMP/tmpd"
TMPDIR=$TMP/tmpd run "$STRADDLE" prove --uarch goldencove --runs 3 --snapshots 120 --top 1 -o "$TMP/prove.json" \
	-- "$P/clear" 3000000
expect_eq "prove clear: exit 0" "$RC" 0
LOOP=$("$PLAIN" scan --all --func clear_loop --json "$P/clear" | jq -r '.files[0].functions[0].loops[0].start')
expect_eq "prove clear: its temporary directory removed" "$(ls -A "$TMP/tmpd")" ""
OUT=$(cat "$TMP/prove.json")
expect_eq "prove clear: the file" "$(jq_of '"\(.schema) \(.command) \(.profile) \(.loops | length)"')" \
	"1 prove goldencove 1"
expect_eq "prove clear: the loop chosen" \
	"$(jq_of '.loops[0] | "\(.function) \(.start) \(.file | split("/") | last)"')" "clear_loop $LOOP clear"
expect_eq "prove clear: predicted" \
	"$(jq_of '.loops[0] | "\(.cost.slowdown) \(.cost.bound) \(.cost.at_most) \(.predicted)"')" "1.78 front-end true costs"
expect_eq "prove clear: placed from 50 to 0, 3 rounds, place's model the scan's" \
	"$(jq_of '.loops[0].measured | "\(.current) \(.best) \(.program.rounds) \(.control.rounds) \(.place_predicted)"')" \
	"50 0 3 3 1.78"
expect_eq "prove clear: a measured verdict" \
	"$(jq_of '.loops[0].measured.verdict | IN("costs", "nothing", "inconclusive")')" true
expect_eq "prove clear: its share of the samples, and the share's interval around it" \
	"$(jq_of '.loops[0] | (.share == .samples / .run_samples) and .share > 0.5 and .share_ci[0] < .share and .share < .share_ci[1]')" true

# the table: the row's fixed cells, and the agreement line
TMPDIR=$TMP/tmpd run "$STRADDLE" prove --uarch goldencove --runs 2 --snapshots 120 --top 1 --keep "$TMP/kept" \
	-o "$TMP/kept.json" -- "$P/clear" 3000000
expect_eq "prove text: exit 0" "$RC" 0
# no back end here (lib.sh's STRADDLE_LLVM_MCA=none): the price is the
# profile's bound, printed as one
expect_eq "prove text: the row" \
	"$(printf '%s\n' "$OUT" | awk '$2 ~ /^clear:/ { print $2, $3, $4, $5, $6, $7, $8 }')" \
	"clear:$LOOP clear_loop <=1.780x front-end 50 -> 0"
expect_eq "prove text: the agreement line" \
	"$(printf '%s\n' "$OUT" | tail -1 | sed 's/[0-9]* of [0-9]*/N of M/; s/ ([0-9]* by replaying the loop)//; s/; .*//')" \
	"the model and the measurement agree on N of M loops measured conclusively"
# A replay is judged only with two rounds (test_proof): a loaded machine
# can deny it, and the row then says so and is the program's time's.
# These assertions hold either way; the judgement's own values are
# test_proof's.
REPLAYED='if .by == "replay" then .replay.snapshots > 0 else (.replay.not_replayed | test("^its A/A, a second copy at today.s offset|^its replay held")) end'
expect_eq "prove text: the verdict the replayed loop's (or why not), the program's time its check" \
	"$(jq -r ".loops[0].measured | \"\\($REPLAYED) \\(.program_verdict | IN(\"costs\", \"nothing\", \"inconclusive\"))\"" "$TMP/kept.json")" \
	"true true"
# each replayed control judged against the model, which prices it as
# today (test_proof has the judgement's values): its verdict, whether the
# model missed it, the misses counted, the row's agreement none missed
expect_eq "prove -o: each replayed control judged, the misses counted" \
	"$(jq -r '.loops[0].measured.replay | if .not_replayed then true else ([.controls[] | (.verdict | IN("costs", "nothing", "inconclusive", "slower at best")) and (.missed == (.verdict | IN("costs", "slower at best")))] | all) and .controls_missed == ([.controls[] | select(.missed)] | length) and ((.agree | not) or (.controls_missed == 0)) end' "$TMP/kept.json")" true
# each placement replayed at five copies: the spread of the controls',
# best's and today's copies (4 degrees of freedom a placement) is what
# judges them, and there is no A/A arm: today's five copies are one
expect_eq "prove -o: the replay's copies, five a placement, their spread's degrees of freedom, no A/A" \
	"$(jq -r '.loops[0].measured.replay | if .not_replayed then "5 true true" else "\(.copies.each) \(.copies.df == 4 * (2 + (.controls | length))) \(.aa == null)" end' "$TMP/kept.json")" "5 true true"
expect_eq "prove --keep: today's five copies in place's file, at today's offset, no aa" \
	"$(jq -r '[.replay.copies[] | select(.arm == "aa" or .arm == "control") | .offset] | "\(length) \(unique | length) \(.[0])"' "$TMP/kept/place-1-replay.json")" "5 1 50"
expect_eq "prove --keep: place --replay asked for prove's snapshots and five copies" \
	"$(jq -r '.command_line | "\(.[index("--snapshots") + 1]) \(.[index("--copies") + 1])"' "$TMP/kept/place-1-replay.json")" "120 5"
expect_eq "prove --keep: the record and the place files, the replay's beside the program's" \
	"$(ls "$TMP/kept")" "place-1-replay.json
place-1.json
record.json"
expect_eq "prove --keep: place moved the loop prove chose" \
	"$(jq -r '"\(.command) \(.place.loop | split("..") | .[0]) \([.metrics[].name | sub(".*@"; "")] | join(" "))"' "$TMP/kept/place-1.json")" \
	"place $LOOP unmoved control 0 52"
# the layout controls: offsets that keep the loop's priced front end,
# 2 lines and a branch of the dec/jne pair [o+11, o+15) across 64: 52
# (the dec across); 51 splits the pair (the line between the two, a
# smaller price), 53..63 have it whole
expect_eq "prove -o: the layout controls' offsets" \
	"$(jq -c '[.loops[0].measured.layout.controls[].offset]' "$TMP/kept.json")" "[52]"
expect_eq "prove -o: each control paired over the rounds" \
	"$(jq -c '[.loops[0].measured.layout.controls[].rounds]' "$TMP/kept.json")" "[2]"

# a replayed loop's program check runs only where its shortest pilot
# fits what the replay left of the loop's --time: the unmoved program
# twice and two rounds of unmoved, control, best and the one control (10
# runs of clear's ~1 s) do not fit in --time 6, half of it the replay's.
# A loaded machine may deny the replay its two rounds: the program's
# time is then the row's, measured.
run "$STRADDLE" prove --uarch goldencove --runs 2 --snapshots 120 --top 1 --time 6 --keep "$TMP/short" \
	-o "$TMP/short.json" -- "$P/clear" 3000000
U=$(jq -r '.replay.unmoved_s' "$TMP/short/place-1-replay.json")
WANT="the program's time was not measured beside the replay: its shortest check, 10 runs of ~$(printf '%.1f' "$U") s, needs ~$(awk -v u="$U" 'BEGIN { printf "%.0f", 10 * u }') s, and"
expect_eq "prove --time 6: exit 0; replayed, the check not run and why, the row says so, no place file of it" \
	"$RC $(jq -r --arg w "$WANT" '.loops[0].measured | if .by == "replay" then "\(.program_not_measured | startswith($w)) \(.program) \(.program_verdict)" else "true null null" end' "$TMP/short.json") $(if jq -e '.loops[0].measured.by == "replay"' "$TMP/short.json" >/dev/null; then printf '%s\n' "$OUT" | awk '$2 ~ /^clear:/' | grep -c ' not measured ' | tr '\n' ' '; ls "$TMP/short" | tr '\n' ' '; else echo "1 place-1-replay.json record.json "; fi)" \
	"0 true null null 1 place-1-replay.json record.json "
expect_eq "prove --time 6: the note names the time the loop had" \
	"$(jq -r '.loops[0].measured | if .by == "replay" then (.program_not_measured | test("s of the loop.s --time 6 were left \\(--time [0-9]+ measures it\\)$")) else true end' "$TMP/short.json")" true

# bounds.c's chain and divide loops straddle a line as fe's does (LLVM
# 14's alderlake model: 3.077 cycles of imul chain, 76.077 of divq,
# t_cost): the divide hides it, the chain keeps goldencove's 0.03 of it,
# 3.107 / 3.077 = 1.01x, under prove's 3% mark: nothing (prove simulates, where a whole-file scan gives
# the width's bound); prove measures them all the same, with the same
# placements (56 -> 0; the controls 63, 62 keep 2 lines); pairchain's
# chain also hides its decl across the line, at 32
# (each run long enough for the 400 samples a loop of 5% needs 20 of)
for kind in chain:1.01:latency:nothing:400000 divide:1:divide:nothing:100000 \
	    pairchain:1.01:latency:nothing:400000; do
	k=${kind%%:*} rest=${kind#*:}
	run "$STRADDLE" prove --uarch goldencove --llvm-mca llvm-mca-14 --runs 2 --snapshots 120 --top 1 \
		-o "$TMP/prove-$k.json" -- "$P/bounds" "$k" "${rest##*:}"
	OUT=$(cat "$TMP/prove-$k.json")
	expect_eq "prove bounds $k: predicted, and why" \
		"$(jq_of '.loops[0] | "\(.function):\(.cost.slowdown):\(.cost.bound):\(.predicted)"')" \
		"$k:${rest%:*}"
	at=56
	[ "$k" = pairchain ] && at=32
	expect_eq "prove bounds $k: measured at the best and the controls" \
		"$(jq_of '.loops[0].measured | "\(.current) \(.best) \([.layout.controls[].offset])"')" \
		"$at 0 [63,62]"
done

# bounds.c's pair: fe's loop at 33, its decl/jnz pair [63, 67) across the
# line: the bubble priced (LLVM 14's alderlake: 1.25 cycles, t_cost's
# branchcost pair, (1 + 0.03 + 0.75) / 1.25 = 1.424x); the best (0) has one line and the pair whole,
# the controls keep two lines and the pair across: 31 (the jne across;
# 32 splits the pair between the lines, a smaller price)
run "$STRADDLE" prove --uarch goldencove --llvm-mca llvm-mca-14 --runs 2 --snapshots 120 --top 1 \
	-o "$TMP/prove-pair.json" -- "$P/bounds" pair 1000000
OUT=$(cat "$TMP/prove-pair.json")
expect_eq "prove bounds pair: predicted, the bubble in it" \
	"$(jq_of '.loops[0] | "\(.function) \(.cost.slowdown) \(.cost.bound) \(.cost.branch) \(.predicted)"')" \
	"pair 1.424 front-end 0.75 costs"
expect_eq "prove bounds pair: the controls keep the pair across" \
	"$(jq_of '.loops[0].measured | "\(.current) \(.best) \([.layout.controls[].offset])"')" \
	"33 0 [31]"

# replay.c's outer_loop: its header at 50, 45 bytes across two lines,
# getppid every round: its replay is refused, and its inner loop [64, 75)
# (2000 iterations a round) is replayed in its stead at the same
# placements of the function: the outer's 0 and controls 63..58 put the
# inner loop, 14 bytes on, at 14 and 13..8; the program's time keeps
# the outer loop and its first two controls
R=$P/replay
run "$STRADDLE" prove --uarch goldencove --runs 2 --snapshots 120 --top 1 --time 20 --keep "$TMP/outerk" \
	-o "$TMP/outer.json" -- "$R" outer 100000
TEXT=$OUT OUT=$(cat "$TMP/outer.json")
LOOPS=$("$PLAIN" scan --all --func outer_loop --json "$R" | jq -r '[.files[0].functions[0].loops[] | .start] | sort | join(" ")')
OUTER=${LOOPS%% *} INNER=${LOOPS##* }
expect_eq "prove outer: exit 0, the outer loop chosen" "$RC $(jq_of '.loops[0] | "\(.function) \(.start)"')" \
	"0 outer_loop $OUTER"
expect_eq "prove outer: judged by its inner loop's replay" \
	"$(jq_of '.loops[0].measured | if .by == "replay" then "replay \(.replay.inner.start) \(.replay.inner.outer_refused)" else (.replay.not_replayed | capture("^(?<o>.*); its inner loop (?<i>0x[0-9a-f]+): (its A/A|its replay held)") | "replay \(.i) \(.o)") end')" \
	"replay $INNER the loop makes a system call (getppid, 110), which a replay cannot repeat without its side effects"
expect_eq "prove outer: six controls replayed, two for the program's time" \
	"$(jq_of '.loops[0].measured | "\(.current) \(.best) \([.replay.controls[].offset]) \([.layout.controls[].offset])"')" \
	"50 0 [63,62,61,60,59,58] [63,62]"
expect_eq "prove outer: the inner loop placed where the function's placements put it" \
	"$(jq -r '"\(.place.loop | split("..") | .[0]) \([.metrics[].name | sub(".*@"; "")] | join(" "))"' "$TMP/outerk/place-1-replay-inner.json")" \
	"$INNER control 14 13 12 11 10 9 8"
expect_eq "prove outer: the note says so" \
	"$(printf '%s\n' "$TEXT" | grep -c "^note: outer_loop's loop $OUTER was not replayed: the loop makes a system call (getppid, 110), which a replay cannot repeat without its side effects; its inner loop $INNER (")" 1

# records that cannot tell which loops are hot: said, exit 1, never the
# all-clear ("no loop ... straddles") a record of nothing would give
cannot_tell() {
	name=$1 want=$2
	shift 2
	run "$STRADDLE" prove -o "$TMP/none.json" "$@"
	expect_eq "prove, $name: exit 1, no all-clear, no result" \
		"$RC $(printf '%s\n' "$OUT" | grep -c 'straddles a window') $(ls "$TMP/none.json" 2>/dev/null | wc -l)" "1 0 0"
	expect_eq "prove, $name: why" "$(printf '%s\n' "$ERR" | grep '^straddle: prove: ' | sed 's/[0-9][0-9]*/N/g')" "$want"
}
cannot_tell "a program too short for a sample" \
	"straddle: prove: only N samples (N Hz): a loop with N% of the time would hold ~N of them, too few to tell it; run the program longer" \
	-- true
cannot_tell "a program that fails" \
	"straddle: prove: sh ended with exit N under record (its standard error is above): its profile is of a run that failed, not of the one meant" \
	-- sh -c 'exit 3'
cannot_tell "its time in code made at run time" \
	"straddle: prove: N% of the samples are in no file (code made at run time, a JIT's): prove judges only code read from files" \
	-- "$P/jit" 600000000

# the program's standard input is what prove's was redirected from, its
# output is read: count.c stops at its first match on /dev/null, as GNU
# grep -c does, and a record of that would have nothing in it
yes 'ab' | head -c 200000 >"$TMP/lines"
"$STRADDLE" record -o "$TMP/null-out.json" --stdin "$TMP/lines" -- "$P/count" 4000 >/dev/null 2>&1
expect_eq "record, the program's output on /dev/null: it stopped at once" \
	"$? $(jq -r '.samples.total < 20' "$TMP/null-out.json")" "0 true"
run "$STRADDLE" prove --uarch goldencove --runs 2 --snapshots 120 --top 1 --keep "$TMP/counted" -- "$P/count" 4000 <"$TMP/lines"
expect_eq "prove, input redirected: exit 0" "$RC" 0
expect_eq "prove, input redirected: the record saw the work (its output read, not on /dev/null)" \
	"$(jq -r '"\(.exit_status) \(.samples.total > 400)"' "$TMP/counted/record.json")" "0 true"
expect_eq "prove, input redirected: kept for every step, as given" "$(cmp "$TMP/counted/stdin" "$TMP/lines" && echo same)" same

# bad input: one line, exit 2, no result file
prove_err() {
	name=$1 want=$2
	shift 2
	run "$STRADDLE" prove -o "$TMP/bad.json" "$@"
	expect_eq "prove $name: exit 2" "$RC" 2
	expect_eq "prove $name: the line" "$ERR" "$want"
	expect_eq "prove $name: no result file" "$(ls "$TMP/bad.json" 2>/dev/null)" ""
}
prove_err "no command" "straddle: prove: name the command to run after --"
prove_err "unknown command" "straddle: no-such-command: no such command in PATH" -- no-such-command
prove_err "--top 0" "straddle: --top: '0' is not a number from 1 to 16" --top 0 -- true
prove_err "--snapshots 2" "straddle: --snapshots: '2' is not a number from 4 to 100000" \
	--snapshots 2 -- true
prove_err "--min-share" "straddle: --min-share: '2' is not from 0.01% to 100%" \
	--min-share 2 -- true
prove_err "-o in a missing directory" \
	"straddle: $TMP/no/such.json: its directory $TMP/no does not exist" \
	-o "$TMP/no/such.json" -- true

# SIGINT to prove alone (not its terminal's process group) ends the step
# it runs too: no place left running into the directory removed
mkdir -p "$TMP/sigd"
TMPDIR=$TMP/sigd "$STRADDLE" prove --uarch goldencove --runs 200 --time 600 --top 1 \
	-o "$TMP/sig.json" -- "$P/clear" 3000000 >/dev/null 2>"$TMP/sig.err" &
pid=$!
tries=0
until [ -n "$(ps -o pid= --ppid $pid)" ] && grep -q "placing" "$TMP/sig.err" || [ $tries -ge 600 ]; do
	sleep 0.1
	tries=$((tries + 1))
done
kid=$(ps -o pid= --ppid $pid | tr -d ' ')
kill -INT $pid
wait $pid
rc=$?
expect_eq "prove interrupted: reached place" "$([ $tries -lt 600 ] && [ -n "$kid" ] && echo yes)" yes
expect_eq "prove interrupted: dies of SIGINT" "$rc" 130
expect_eq "prove interrupted: its place ended too" "$([ -d "/proc/$kid" ] && echo running)" ""
expect_eq "prove interrupted: its directory removed, no result" "$(ls -A "$TMP/sigd") $(ls "$TMP" | grep -c '^sig.json')" " 0"
