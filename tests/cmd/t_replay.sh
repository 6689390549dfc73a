# straddle place --replay: the loop timed by itself from the program's own
# state at its header, at every offset (tests/place/replay.c's loops).
# What a replay measures is noise and is not asserted; what it took, ran,
# refused, counted and left behind is exact.
P=$FIXTURES/place
# the fixture run from a name of this test's own: a perf map (/tmp/perf-PID.map,
# perf's convention) names the file its copies came from, so any map naming
# it, of the program, of a process it made or of a replay's child, is this
# test's, and none may outlive a run
cp "$P/replay" "$TMP/replay"
R=$TMP/replay
maps_left() {
	grep -l -F "$R+" /tmp/perf-*.map 2>/dev/null | wc -l
}

# how many children a replay made, and waited for: every snapshot that
# reached its timed copies made one probe and one child a copy; one whose
# probe failed, the probe alone
children_of() {
	jq -r '.replay as $r | ($r.copies | length) as $k
		| ([$r.snapshots[]] | length) * (1 + $k)
		+ $r.lost.probe_late + $r.lost.probe_killed + $r.lost.probe_signal
		| "\(.) \($r.children) \($r.reaped)"' "$1"
}

# sum_loop (2048 iterations a call): replayed at today's offset and 32, one
# copy each and the A/A copy
run "$STRADDLE" place --replay --copies 1 --func sum_loop --offsets current,32 --snapshots 20 --runs 6 \
	-o "$TMP/sum.json" -- "$R" sum 20000
expect_eq "replay sum: exit 0, no perf map left of its runs or their children" "$RC $(maps_left)" "0 0"
# the program's one line (its checksum), which place reads for its output
# check, reaches neither of place's outputs, from a run or a replay's child
SUM=$("$R" sum 20000)
expect_eq "replay sum: the program's output in neither of place's" \
	"$(cat "$TMP/out" "$TMP/err" | grep -c -F "$SUM")" 0
OUT=$(cat "$TMP/sum.json")
# the A/A arm: a second copy at today's offset, another address
expect_eq "replay sum: measured so, in cycles or ns, the three copies' arms, the A/A's last" \
	"$(jq_of '"\(.place.measure) \([.metrics[].arm] | join(",")) \([.metrics[].unit] | unique | .[0] | IN("cycles", "ns"))"')" \
	"replay control,32,aa true"
expect_eq "replay sum: every snapshot timed at the three copies, none lost" \
	"$(jq_of '.replay | "\([.snapshots[].ticks | length] | unique) \(.lost | [.[]] | add)"')" "[3] 0"
expect_eq "replay sum: the children, one probe and one a copy each snapshot, all waited for" \
	"$(children_of "$TMP/sum.json" | awk '{ print ($1 == $2 && $2 == $3) }')" 1
expect_eq "replay sum: the copies the plan made" \
	"$(jq_of '[.replay.copies[] | "\(.arm)@\(.offset)"] | join(" ")')" \
	"control@$(jq_of '.place.current') 32@32 aa@$(jq_of '.place.current')"
expect_eq "replay sum: the program's output as unmoved in every run" \
	"$(jq_of '.output_check | .identical == .runs and .runs == .runs')" true
expect_eq "replay sum: its text says what it replayed" \
	"$(printf '%s\n' "$(cat "$TMP/out")" | sed -n 3p | cut -d';' -f1)" \
	"measured: the loop, replayed from the program's state at its header at every offset"

# each offset at two copies: laid arm by arm, then again; no A/A arm (the
# copies of today's are one); each arm's round its copies' geometric mean
run "$STRADDLE" place --replay --copies 2 --func sum_loop --offsets current,32 --snapshots 12 \
	--runs 6 -o "$TMP/copies.json" -- "$R" sum 20000
CUR=$(jq -r '.place.current' "$TMP/copies.json")
expect_eq "replay copies: exit 0, the arms without aa, the copies the plan made" \
	"$RC $(jq -r '"\([.metrics[].arm] | join(",")) \([.replay.copies[] | "\(.arm)@\(.offset)"] | join(" "))"' "$TMP/copies.json")" \
	"0 control,32 control@$CUR 32@32 control@$CUR 32@32"
expect_eq "replay copies: every snapshot timed at the four, every copy a sample a round" \
	"$(jq -r '. as $d | "\([.replay.snapshots[].ticks | length] | unique) \([.replay.copies[].rounds | length] | unique == [$d.place.rounds]) \(.replay.copies_each)"' "$TMP/copies.json")" \
	"[4] true 2"
expect_eq "replay copies: each arm's rounds its copies' geometric mean" \
	"$(jq -r '. as $d | [.metrics[] | .arm as $a | .samples as $s | [$d.replay.copies[] | select(.arm == $a) | .rounds] as $c
		| range(0; $s | length) | (($c[0][.] * $c[1][.]) | sqrt) / $s[.] - 1 | fabs < 1e-9] | all' "$TMP/copies.json")" true
expect_eq "replay copies: the text says how the copies spread and what counts it" \
	"$(grep -c "^copies: each offset timed at 2 copies of the code, at 2 addresses; a copy's cycles spread [0-9.]*% (sd, 2 degrees of freedom) around its offset's mean, and every interval against today's counts it$" "$TMP/out")" 1
run "$STRADDLE" place --replay --copies 2 --func sum_loop --offsets 0..63 --runs 2 -- "$R" sum 20000
expect_eq "replay copies: more than a plan holds, one line, exit 2" "$RC $ERR" \
	"2 straddle: 64 placements at 2 copies each: at most 80 timed copies at once"

# a system call in the loop: refused, named, the program's time the way
run "$STRADDLE" place --replay --func syscall_loop --offsets current --runs 3 -o "$TMP/sys.json" \
	-- "$R" syscall 2000
expect_eq "replay syscall: exit 2" "$RC" 2
expect_eq "replay syscall: the line" "$ERR" \
	"straddle: syscall_loop: its loop is refused for replay: the loop makes a system call (getppid, 110), which a replay cannot repeat without its side effects; place without --replay measures the program's time"
expect_eq "replay syscall: the file says why, one probe made and waited for, no timed child" \
	"$(jq -r '.replay | "\(.refused | split(",")[0]) \(.children) \(.reaped) \(.snapshots | length)"' "$TMP/sys.json")" \
	"the loop makes a system call (getppid 1 1 0"

# a loop writing a file through stdio: no child writes a byte of it
"$R" stdio "$TMP/alone.txt" 3000 >/dev/null
run "$STRADDLE" place --replay --func stdio_loop --offsets current,0 --snapshots 8 --runs 8 \
	-o "$TMP/stdio.json" -- "$R" stdio "$TMP/moved.txt" 3000
expect_eq "replay stdio: exit 0, replayed" "$RC $(jq -r '.replay.children > 0' "$TMP/stdio.json")" "0 true"
expect_eq "replay stdio: the file holds the program's bytes alone" \
	"$(wc -c <"$TMP/moved.txt") $(cmp "$TMP/alone.txt" "$TMP/moved.txt" && echo same)" "60000 same"

# a loop that never leaves in a replay when its flag is another thread's to
# set: those probes killed at the bound, counted; the rest replayed
run "$STRADDLE" place --replay --func spin_loop --offsets current --snapshots 12 --runs 3 \
	--replay-bound 0.1 -o "$TMP/spin.json" -- "$R" spin 200
expect_eq "replay spin: exit 0, some probes killed past the bound, some replayed" \
	"$RC $(jq -r '.replay | "\(.lost.probe_late > 0) \(.complete > 0)"' "$TMP/spin.json")" "0 true true"
expect_eq "replay spin: every child waited for, none left" \
	"$(children_of "$TMP/spin.json" | awk '{ print ($1 == $2 && $2 == $3) }')" 1
expect_eq "replay spin: said" \
	"$(printf '%s\n' "$OUT" | grep -c "^snapshots lost: [1-9][0-9]* whose loop had not left after 0.1 s (killed)")" 1

# the loop in a child the program forks: not reached where the plan was
# applied, both said; three runs, then it stops
run "$STRADDLE" place --replay --func sum_loop --offsets current -- "$R" fork 2000
expect_eq "replay fork: exit 2, the two lines" "$RC
$ERR" "2
straddle: $R: the loop ran in 3 processes the program forked: snapshots are taken only in the process the plan was applied in
straddle: sum_loop: the loop was not reached: the trap on its header, armed in 3 runs, never fired"

# the loop in a second thread: replayed from it
run "$STRADDLE" place --replay --func sum_loop --offsets current --snapshots 10 -o "$TMP/thr.json" \
	-- "$R" thread 20000
expect_eq "replay thread: exit 0, at least the 10 snapshots asked replayed to the loop's exit, none lost" \
	"$RC $(jq -r '.replay | "\([.snapshots[] | select(.complete)] | length >= 10) \(.lost | [.[]] | add)"' "$TMP/thr.json")" "0 true 0"

# a loop run once a call: every replay one iteration, its fixed cost not
# to be told from the loop's (prove does not judge such a loop by it)
run "$STRADDLE" place --replay --func once_loop --offsets current,0 --snapshots 8 \
	-o "$TMP/once.json" -- "$R" once 300000
expect_eq "replay once: exit 0, one iteration a replay, the fixed cost not known, said" \
	"$RC $(jq -c '.replay | [.iterations, .fixed_known]' "$TMP/once.json") $(grep -c 'iterations a replay; the iterations did not vary' "$TMP/out")" \
	"0 [[1,1],false] 1"

# no usable TSC (a host that traps rdtsc, its read timed): clock_gettime
STRADDLE_TEST_TRAPPED_TSC_NS=1500 run "$STRADDLE" place --replay --func sum_loop \
	--offsets current --snapshots 6 -o "$TMP/clk.json" -- "$R" sum 20000
expect_eq "replay, rdtsc trapped: exit 0, said, in ns" \
	"$RC $(printf '%s\n' "$OUT" | grep '^clock:') $(jq -r '"\(.replay.clock) \(.metrics[0].unit)"' "$TMP/clk.json")" \
	"0 clock: clock_gettime, not the TSC: rdtsc traps here: a read takes 1500 ns (measured) clock_gettime ns"

# refused before anything runs: one line, exit 2, no file
replay_err() {
	name=$1 want=$2
	shift 2
	run "$STRADDLE" place --replay -o "$TMP/bad.json" "$@"
	expect_eq "replay $name: exit 2" "$RC" 2
	expect_eq "replay $name: the line" "$ERR" "$want"
	expect_eq "replay $name: no result file" "$(ls "$TMP/bad.json" 2>/dev/null)" ""
}
replay_err "a function that cannot be copied" \
	"straddle: goto_loop: cannot be moved: an indirect jump not resolved as a table (at 0x$(objdump -d --no-show-raw-insn "$R" | awk '/<goto_loop>:/,/^$/' | awk '/jmp +\*/ { sub(":", "", $1); print $1; exit }'))" \
	--func goto_loop -- "$R" refused 10
replay_err "a call where the counter goes" \
	"straddle: callfirst_loop: its loop cannot be replayed: a call, an indirect branch or a return lies in the first 5 bytes of its header, where the jump to its iteration counter goes" \
	--func callfirst_loop -- "$R" refused 10
# abort_loop: its error path calls abort and falls into code that jumps
# back to the header. The loop starting at the header, as prove names it
# (--loop START), is the scan's natural loop, 18 bytes: place's CFG, as
# the scan's, ends a path at a call that never returns (abort@plt), where
# it once saw a cycle entered twice and refused it as irreducible.
run "$PLAIN" scan --all --json --no-source "$R"
ABORT_LOOP=$(jq_of '.files[0].functions[] | select(.name == "abort_loop") | .loops[]
	| "\(.start) \(.end) \(.bytes) \(.irreducible)"')
expect_eq "abort_loop: the scan's one loop, natural, 18 bytes" "${ABORT_LOOP#* }" \
	"0x$(printf '%x' $((${ABORT_LOOP%% *} + 18))) 18 false"
set -- $ABORT_LOOP
run "$STRADDLE" place --replay --copies 1 --file "$R" --loop "$1" --offsets current,32 --snapshots 20 \
	--runs 6 -o "$TMP/abort.json" -- "$R" abort 20000
expect_eq "abort_loop: replayed, exit 0" "$RC" 0
expect_eq "abort_loop: place's loop is the scan's" \
	"$(printf '%s\n' "$OUT" | grep -o 'abort_loop: loop 0x[0-9a-f]*\.\.0x[0-9a-f]*, [0-9]* bytes')" \
	"abort_loop: loop $1..$2, 18 bytes"
expect_eq "abort_loop: every snapshot replayed" \
	"$(jq -r '.replay.complete >= 1 and .replay.refused == null' "$TMP/abort.json")" true
# irr_loop: two blocks in a cycle, each entered from the first block:
# irreducible, the scan's cycle entered at its add (the retreating
# edge's target, from the dec/jnz block). Replayed from there: every
# trip around passes it, and a replay ends where the cycle is left, so
# the other entry is never taken inside one; n = 200, so at most 200
# iterations a replay.
run "$PLAIN" scan --all --json --no-source "$R"
IRR=$(jq_of '.files[0].functions[] | select(.name == "irr_loop")
	| "\([.loops[] | "\(.start) \(.end) \(.bytes) \(.irreducible)"] | join(",")) \([.irreducible[] | "\(.entry)<-\(.from)"] | join(","))"')
set -- $IRR
IRR_FN=$(( $1 - 7 ))
expect_eq "irr_loop: one cycle, irreducible, 12 bytes from the add at +7, entered again from +14" 	"$IRR" "$(printf '0x%x 0x%x 12 true 0x%x<-0x%x' $((IRR_FN + 7)) $((IRR_FN + 19)) $((IRR_FN + 7)) $((IRR_FN + 14)))"
run "$STRADDLE" place --replay --copies 1 --file "$R" --loop "$1" --offsets current,32 --snapshots 20 \
	--runs 6 -o "$TMP/irr.json" -- "$R" irr 20000
expect_eq "irr_loop: replayed, exit 0, place's loop the scan's cycle" \
	"$RC $(printf '%s\n' "$OUT" | grep -o 'irr_loop: loop 0x[0-9a-f]*\.\.0x[0-9a-f]*, [0-9]* bytes')" \
	"0 irr_loop: loop $1..$2, 12 bytes"
expect_eq "irr_loop: snapshots replayed at every offset, none lost, 1..200 iterations a replay" \
	"$(jq -r '.replay | "\(.refused) \(.complete >= 1) \(.lost | [.[]] | add) \(.iterations[0] >= 1 and .iterations[1] <= 200)"' "$TMP/irr.json")" \
	"null true 0 true"
expect_eq "irr_loop: the program's output as unmoved in every run" \
	"$(jq -r '.output_check | .identical == .runs' "$TMP/irr.json")" true
replay_err "no loop" "straddle: --replay: needs one loop: name its function (--func) or the loop (--loop)" \
	--func main -- "$R" refused 10
replay_err "--metric" "straddle: --replay: times the loop in cycles: not with --metric" \
	--metric 'x' --func sum_loop -- "$R" sum 10
replay_err "both" "straddle: --replay: and --no-replay: one or the other" \
	--no-replay --func sum_loop -- "$R" sum 10

expect_eq "replay: no perf map of any process a replay ran left behind" "$(maps_left)" 0
# every run, probe and timed child ran $R (a child is the program's
# clone, its command line the program's): none is left running
expect_eq "replay: no process of the fixture left running" \
	"$(ps -eo args= | awk -v r="$R " 'index($0, r) == 1' | wc -l)" 0
