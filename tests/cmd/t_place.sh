# straddle place: the fixture's `work` (a loop, a jump table, a call out, a
# RIP-relative load, a tail call) moved to every offset of a line in a PIE,
# a fixed-address executable and a shared object. The fixture logs whether
# the code running `work` is the file's own or a copy, so the counts of
# runs that ran the copy are exact; every run's output must equal the
# unmoved program's. Then every bad input: one line, exit 2, no file.
P=$FIXTURES/place
LZMA=/usr/lib/x86_64-linux-gnu/liblzma.so.5

place_all() {
	name=$1 file=$2
	shift 2
	rm -f "$TMP/log"
	FIXTURE_LOG=$TMP/log run "$STRADDLE" place --file "$file" --func work --offsets 0..63 \
		--runs 2 -o "$TMP/$name.json" -- "$@"
	expect_eq "place $name: exit 0" "$RC" 0
	# 2 first unmoved runs + 2 rounds of (unmoved + control + 63 offsets;
	# the loop's own offset is the control's)
	expect_eq "place $name: runs that ran the original" "$(grep -c '^in place$' "$TMP/log")" 4
	expect_eq "place $name: runs that ran the copy" "$(grep -c '^moved$' "$TMP/log")" 128
	OUT=$(cat "$TMP/$name.json")
	expect_eq "place $name: output check" "$(jq_of '"\(.output_check.runs) \(.output_check.identical)"')" \
		"131 131"
	expect_eq "place $name: arms and samples" \
		"$(jq_of '"\(.metrics | length) \([.metrics[].samples | length] | add)"')" "65 130"
	expect_eq "place $name: every offset once" \
		"$(jq_of '[.metrics[] | select(.arm != "unmoved") | .offset] | sort | unique | length')" 64
	expect_eq "place $name: moved" "$(jq_of '"\(.command) \(.moved.functions) \(.moved.refused)"')" \
		"place 1 {}"
}

place_all pie "$P/moved-pie" "$P/moved-pie" 1000
place_all nopie "$P/moved-nopie" "$P/moved-nopie" 1000
place_all lib "$P/libmoved.so" "$P/moved-lib" 1000

# compare and report read a place file as a sweep's
run "$STRADDLE" compare "$TMP/pie.json" "$TMP/pie.json"
expect_eq "compare place A/A: exit 0" "$RC" 0
expect_eq "compare place: a row per arm" "$(printf '%s\n' "$OUT" | grep -c 'median-work@')" 65
run "$STRADDLE" report -o "$TMP/place.html" "$TMP/pie.json"
expect_eq "report place: exit 0" "$RC" 0
expect_eq "report place: the section, its rows" \
	"$(grep -c '<section class="result place" id="place-1">' "$TMP/place.html") $(sed -n '/<section/,/<\/section>/p' "$TMP/place.html" | grep -c '<tr><td>')" \
	"1 65"

# a library loaded late, by dlopen after main starts: moved after the dlopen
rm -f "$TMP/log"
FIXTURE_LOG=$TMP/log run "$STRADDLE" place --file "$P/libmoved.so" --func work --offsets 0..3 --runs 2 \
	-o "$TMP/dl.json" -- "$P/moved-dl" 100 "$P/libmoved.so"
expect_eq "place dlopen: exit 0" "$RC" 0
expect_eq "place dlopen: runs that ran the copy" "$(grep -c '^moved$' "$TMP/log")" \
	"$(jq '[.metrics[] | select(.arm != "unmoved") | .samples | length] | add' "$TMP/dl.json")"
expect_eq "place dlopen: runs that ran the original" "$(grep -c '^in place$' "$TMP/log")" 4

# --plot: the control and each offset, one point each
run "$STRADDLE" place --func work --offsets 0..7 --runs 2 --plot "$TMP/p.svg" -- "$P/moved-pie" 10
expect_eq "place --plot: exit 0" "$RC" 0
expect_eq "place --plot: an SVG" "$(head -c 4 "$TMP/p.svg")" "<svg"
# the loop's own offset (the control) and 0..7, in order along the line
expect_eq "place --plot: 9 points" "$(grep -o "<polyline[^>]*points='[^']*'" "$TMP/p.svg" | sed "s/.*points='//; s/'$//" | wc -w)" 9
# --precision stops the rounds, and says so (on --metric, the number the
# program prints: the same every run, so no machine's noise decides it)
run "$STRADDLE" place --func work --offsets 0 --runs 1000 --precision 0.01 --metric '^([0-9]+) ' \
	-o "$TMP/prec.json" -- "$P/moved-pie" 10
expect_eq "place --precision: stopped by it after 5 rounds" \
	"$(jq -r '"\(.place.stopped_by) \(.place.rounds) \(.place.measure) \(.metrics[0].median)"' "$TMP/prec.json")" \
	"precision 5 ^([0-9]+)  $("$P/moved-pie" 10 | cut -d' ' -f1)"

# --verbose names each refused function and its reason
run "$STRADDLE" place --file "$LZMA" --func 'lzma_index_stream_*' --verbose --offsets 0 --runs 2 -- true
expect_eq "place --verbose: the refused one named" \
	"$(printf '%s\n' "$ERR" | grep -c 'lzma_index_stream_count not moved: shorter than the entry jump (at 0x63b0)')" 1

# a function that runs off its end into the next: its copy ends with a jump
# there, at every offset
for f in moved-pie moved-nopie; do
	run "$STRADDLE" place --func fall_in --offsets 0..63 --runs 2 -o "$TMP/fall.json" -- "$P/$f" 5
	expect_eq "place fall_in ($f): exit 0" "$RC" 0
	OUT=$(cat "$TMP/fall.json")
	expect_eq "place fall_in ($f): output identical" "$(jq_of '"\(.output_check.runs) \(.output_check.identical)"')" \
		"131 131"
done
expect_eq "moved-pie 5: fall_in as built" "$("$P/moved-pie" 5 | cut -d' ' -f2-)" "14 44"

# the default file is the command's executable; the loop found alone
run "$STRADDLE" place --func fill --offsets 0 --runs 2 -- "$P/fill" 10
expect_eq "place fill: exit 0" "$RC" 0
expect_eq "place fill: the loop" "$(printf '%s\n' "$OUT" | sed -n 2p | cut -d, -f1)" \
	"$(printf 'fill: loop 0x%x..0x%x' \
	  $(objdump -d "$P/fill" | awk '/<fill>:/,/ret/' | grep -m1 -B0 'jne\|jb\|ja' | sed 's/.*jne *\([0-9a-f]*\).*/0x\1/') \
	  $(( $(objdump -d "$P/fill" | awk '/<fill>:/,/ret/' | grep -m1 'jne' | sed 's/^ *\([0-9a-f]*\):.*/0x\1/') + 2 )))"

# two files at once, the program and its library: the counts are both
# files' (2 of moved-lib's, 4 of libmoved.so's), and the line names both
run "$STRADDLE" place --file "$P/moved-lib" --file "$P/libmoved.so" --func '*' --offsets random \
	--runs 2 -- "$P/moved-lib" 10
expect_eq "place two files: exit, both named, both counted" "$RC:$(printf '%s\n' "$OUT" | sed -n 1p)" \
	"0:$P/moved-lib, $P/libmoved.so: 6 functions moved"

# a whole real library at random offsets, all at once: xz's round trip
head -c 200000 "$LZMA" >"$TMP/in"
run "$STRADDLE" place --file "$LZMA" --func '*' --offsets random --runs 2 -o "$TMP/lzma.json" \
	-- sh -c "xz -6 -c $TMP/in | xz -dc | md5sum"
expect_eq "place liblzma: exit 0" "$RC" 0
OUT=$(cat "$TMP/lzma.json")
expect_eq "place liblzma: identical output" "$(jq_of '.output_check.runs == .output_check.identical')" true
expect_eq "place liblzma: most functions moved" "$(jq_of '.moved.functions > 300')" true

# bad input: one line, exit 2, no result file
place_err() {
	name=$1 want=$2
	shift 2
	run "$STRADDLE" place -o "$TMP/bad.json" "$@"
	expect_eq "place $name: exit 2" "$RC" 2
	expect_eq "place $name: the line" "$ERR" "$want"
	expect_eq "place $name: no result file" "$(ls "$TMP/bad.json" 2>/dev/null)" ""
}
place_err "unknown function" "straddle: nosuch: no function of $P/moved-pie matches" \
	--func nosuch -- "$P/moved-pie"
WORK=$(nm "$P/moved-pie" | awk '$3 == "work" {print $1}')
LOOP=$("$PLAIN" scan --all --func work --json "$P/moved-pie" | jq -r '.files[0].functions[0].loops[0].start')
place_err "no loop there" \
	"straddle: $WORK: no loop of work starts there (it has 1 loop, the first at $LOOP)" \
	--loop "$WORK" -- "$P/moved-pie"
run "$STRADDLE" place --loop "$LOOP" --offsets 0 --runs 2 -- "$P/moved-pie" 10
expect_eq "place --loop: exit 0" "$RC" 0
expect_eq "place --loop: the loop's span" "$(printf '%s\n' "$OUT" | sed -n 2p | cut -d, -f1)" \
	"work: loop $LOOP..$("$PLAIN" scan --all --func work --json "$P/moved-pie" | jq -r '.files[0].functions[0].loops[0].end')"
place_err "refused" "straddle: lzma_index_stream_count: cannot be moved: shorter than the entry jump (at 0x63b0)" \
	--file "$LZMA" --func lzma_index_stream_count -- true
place_err "static" "straddle: $P/static: a static executable: the preload library cannot enter it" \
	--func fill -- "$P/static"
place_err "no command" "straddle: no-such-command: no such command in PATH" \
	--func work -- no-such-command
place_err "empty --file" "straddle: --file: an empty path" --file "" --func work -- "$P/moved-pie"
place_err "nothing to move" "straddle: place: name what to move: --func GLOB or --loop ADDR" \
	-- "$P/moved-pie"
# a plan no process applied: exit 2, its status said, and the result file
# holds what is known (a failed experiment's -o)
run "$STRADDLE" place -o "$TMP/never.json" --file "$LZMA" --func lzma_code --offsets 0 -- true
expect_eq "place never loaded: exit 2, the line" "$RC $ERR" \
	"2 straddle: control: the plan of $LZMA was not applied: no process of 'true' loaded it (or the build-id differs); it ended with exit 0"
expect_eq "place never loaded: the result file says so" \
	"$(jq -r '"\(.failure.arm) \(.failure.status) \(.moved.functions) \(.metrics | length)"' "$TMP/never.json")" \
	"control exit 0 1 0"

# The copy's bytes against the assembler's build of the same function at
# that address: gcc's assembly of moved.c once as it is (A), once with a
# second copy of `work` (tests/place/copyfn.sh: its labels renamed, its
# jump table after it) in a section .copy of its own linked after .bss at
# the address the plan gives the copy (B). The plan's arena bytes of A,
# every fix-up applied, must be B's .copy byte for byte. At the function's
# own offset in its line, so gcc's .p2align padding inside it is the same.
asm_check() {
	name=$1 cflags=$2 ldflags=$3
	gcc -O2 -S $cflags -o "$TMP/$name.s" tests/place/moved.c
	gcc -c -o "$TMP/$name-a.o" "$TMP/$name.s"
	gcc $ldflags -Wl,--build-id -o "$TMP/$name-A" "$TMP/$name-a.o" 2>/dev/null
	at=$(nm "$TMP/$name-A" | awk '$3 == "work" {print $1}')
	out=$("$TOOLS/reloc_image" "$TMP/$name-A" work $(( 0x$at % 64 )) 0x800000 "$TMP/$name-img")
	addr=${out% *}
	sh tests/place/copyfn.sh work "$TMP/$name.s" | cat "$TMP/$name.s" - >"$TMP/$name-b.s"
	gcc -c -o "$TMP/$name-b.o" "$TMP/$name-b.s" 2>/dev/null
	printf 'SECTIONS { .copy %s : { *(.copy) } } INSERT AFTER .bss;\n' "$addr" >"$TMP/$name.ld"
	gcc $ldflags -Wl,--build-id -o "$TMP/$name-B" "$TMP/$name-b.o" -Wl,-T,"$TMP/$name.ld" 2>/dev/null
	objcopy -O binary --only-section=.copy "$TMP/$name-B" "$TMP/$name-copy"
	expect_eq "place $name: the copy at $addr is the assembler's, byte for byte" \
		"$(cmp "$TMP/$name-img" "$TMP/$name-copy" 2>&1 && wc -c <"$TMP/$name-img")" \
		"$(wc -c <"$TMP/$name-copy")"
}
asm_check nopie "-fno-pic" "-no-pie"
asm_check pie "-fpie" "-pie"
asm_check so "-fPIC -DWORK_LIB" "-shared"

# the cost model's prediction beside each placement, with no back end
# (lib.sh: STRADDLE_LLVM_MCA=none): clear.c's 15-byte loop at 50 of its line
# touches 2 lines where 1 would do (goldencove measured 0.35 cycle for the
# second) and its jne crosses the line (0.45 more): 1.8x; at 49 it ends on
# the line's last byte, at 0 it starts one (1x each)
run "$STRADDLE" place --func clear_loop --offsets 0,49 --runs 2 --uarch goldencove -o "$TMP/clear.json" \
	-- "$P/clear" 1000
expect_eq "place clear: exit 0" "$RC" 0
expect_eq "place clear: the loop's offset today" "$(jq -r .place.current "$TMP/clear.json")" 50
expect_eq "place clear: predicted per arm" \
	"$(jq -r '[.metrics[] | "\(.arm):\(.offset):\(.predicted_slowdown)"] | join(" ")' "$TMP/clear.json")" \
	"unmoved:0:0 control:50:1.78 0:0:1 49:49:1"
expect_eq "place clear: the back end" "$(jq -r '.place.back_end | "\(.cycles) \(.source)"' "$TMP/clear.json")" \
	"0 none"
# icelake's loop buffer (35 instructions) holds the 4-instruction loop: no
# straddle hazard at 50, so no slowdown predicted there either (as scan's
# cost says: loop-buffer)
run "$STRADDLE" place --func clear_loop --offsets 0 --runs 2 --uarch icelake -o "$TMP/clear-icl.json" \
	-- "$P/clear" 1000
expect_eq "place clear icelake: predicted per arm" \
	"$(jq -r '[.metrics[] | "\(.arm):\(.offset):\(.predicted_slowdown)"] | join(" ")' "$TMP/clear-icl.json")" \
	"unmoved:0:0 control:50:1 0:0:1"

# --offsets random: a new layout every run, and the band it spans (the
# fixture prints where in its line its code runs, so the metric moves with
# the layout): the control keeps the program's own offset in every run,
# the random layouts do not; with a metric no layout moves, no band
FIXTURE_PC=1 run "$STRADDLE" place --func work --offsets random --runs 8 --metric 'pc ([0-9]+)' \
	--no-output-check -o "$TMP/noise.json" -- "$P/moved-pie" 10
OWN=$(FIXTURE_PC=1 "$P/moved-pie" 10 | sed -n 's/^pc //p')
OUT=$(cat "$TMP/noise.json")
expect_eq "place random: the control's every run at the program's own offset" \
	"$(jq_of '[.metrics[] | select(.arm == "control") | .samples[]] | unique | map(tostring) | join(" ")')" "$OWN"
expect_eq "place random: the layouts moved it" \
	"$(jq_of '[.metrics[] | select(.arm == "random") | .samples[]] | unique | length > 2')" true
expect_eq "place random: a band around the control" \
	"$(jq_of '.layout_noise | .band_pct > 0 and .low_pct <= 0 and .high_pct >= 0 and .runs == 8')" true
run "$STRADDLE" place --file "$P/libmoved.so" --func '*' --offsets random --runs 4 --metric '^([0-9]+) ' \
	-o "$TMP/noise0.json" -- "$P/moved-lib" 10
expect_eq "place random: a metric no layout moves has no band" \
	"$(jq -r '.layout_noise | "\(.band_pct) \(.runs)"' "$TMP/noise0.json")" "0 4"

# Profilers see the copy: a program run with a plan (written by place_plan,
# applied by the preload library as place applies it) and recorded; every
# sample lands in a file, those of the copy counted for the original's
# loop (clear.c spends its time in clear_loop's loop, at offset 0 here).
"$TOOLS/place_plan" "$P/clear" clear_loop 0 "$TMP/rec.plan" >/dev/null
run "$STRADDLE" record -o "$TMP/rec.json" -- sh -c 'echo $$ >"$0"; exec env LD_PRELOAD="$1" STRADDLE_PLAN="$2" "$3" 3000000' \
	"$TMP/rec.pid" "$(dirname "$PLAIN")/libstraddle-place.so" "$TMP/rec.plan" "$P/clear"
# the map the program made (record reads it), removed: tests leave nothing in /tmp
expect_eq "record of a moved program: its perf map, made by it" \
	"$(stat -c '%F %h' "/tmp/perf-$(cat "$TMP/rec.pid").map")" "regular file 1"
rm -f "/tmp/perf-$(cat "$TMP/rec.pid").map"
expect_eq "record of a moved program: exit 0" "$RC" 0
expect_eq "record of a moved program: no sample outside a file" \
	"$(printf '%s\n' "$ERR" | grep -o '[0-9]* in no file')" "0 in no file"
CLEAR_LOOP=$("$PLAIN" scan --all --func clear_loop --json "$P/clear" | jq -r '.files[0].functions[0].loops[0].start')
run "$PLAIN" scan --hot "$TMP/rec.json" --all --func clear_loop --json
expect_eq "record of a moved program: the copy's samples in the original's loop" \
	"$(printf '%s' "$OUT" | jq -r --arg l "$CLEAR_LOOP" '[.files[] | select(.path | endswith("/clear")) | .functions[0].loops[0] | .samples > 0 and .start == $l] | .[0]')" true

# a program whose own output differs from run to run: said so, not blamed
# on a placement
run "$STRADDLE" place --file "$P/moved-pie" --func work --offsets 0 --runs 2 -- sh -c 'echo $$'
expect_eq "place, output unstable unmoved: exit 1, the line" "$RC $ERR" \
	"1 straddle: sh: the program's own output differs from run to run, unmoved: nothing to compare a placement's with (--no-output-check)"

# ---- what the program is given: input, environment, directory ----

printf 'ab\nb\na\nxa\n' >"$TMP/in"
WANT_COUNT=$("$P/count" 1 <"$TMP/in")
expect_eq "count, as built: lines holding an a" "$WANT_COUNT" 3
place_count() {
	run "$STRADDLE" place --func count_lines --offsets 0 --runs 2 --metric '^([0-9]+)' \
		-o "$TMP/count.json" "$@"
	expect_eq "place count $NAME: exit 0" "$RC" 0
	expect_eq "place count $NAME: every run read the input" \
		"$(jq -r '[.metrics[].samples[]] | unique | map(tostring) | join(" ")' "$TMP/count.json")" \
		"$WANT_COUNT"
}
NAME="--stdin FILE" place_count --stdin "$TMP/in" -- "$P/count" 2
NAME="< FILE" place_count -- "$P/count" 2 <"$TMP/in"
run sh -c 'cat "$1" | "$2" place --func count_lines --offsets 0 --runs 2 --metric "^([0-9]+)" -o "$3" -- "$4" 2' \
	sh "$TMP/in" "$STRADDLE" "$TMP/pipe.json" "$P/count"
expect_eq "place count from a pipe: read once, every run given it" \
	"$RC $(jq -r '[.metrics[].samples[]] | unique | map(tostring) | join(" ")' "$TMP/pipe.json")" "0 $WANT_COUNT"
run "$STRADDLE" place --func count_lines --offsets 0 --runs 2 --metric '^([0-9]+)' --stdin - \
	-o "$TMP/null.json" -- "$P/count" 2
expect_eq "place count --stdin -: /dev/null, the program's failure said, measured" \
	"$RC $(jq -r '"\(.output_check.stdin) \(.unmoved_note | startswith("ends with exit 1 unmoved")) \([.metrics[].samples[]] | unique)"' "$TMP/null.json" | tr -d ' \n')" \
	"0 /dev/nulltrue[0]"
place_err "--stdin missing" "straddle: --stdin: $TMP/nosuch: No such file or directory" \
	--func count_lines --stdin "$TMP/nosuch" -- "$P/count"
place_err "--stdin a directory" "straddle: --stdin: $TMP: a directory, not an input" \
	--func count_lines --stdin "$TMP" -- "$P/count"

mkdir -p "$TMP/cwd"
(ABS=$(readlink -f "$STRADDLE") PIE=$(readlink -f "$P/moved-pie") && cd "$TMP/cwd" &&
	FIXTURE_FOO=42 "$ABS" place --file "$PIE" --func work --offsets 0 --runs 2 --metric 'foo=([0-9]+)' \
	-o "$TMP/env.json" -- sh -c 'echo foo=$FIXTURE_FOO; pwd >>where; exec "$0" 10' "$PIE" >/dev/null 2>&1)
expect_eq "place: the program's environment is the user's" \
	"$(jq -r '[.metrics[].samples[]] | unique | map(tostring) | join(" ")' "$TMP/env.json")" 42
expect_eq "place: its directory too, in every run" "$(sort -u "$TMP/cwd/where")" "$TMP/cwd"

# ---- nothing hidden, nothing written where it must not be ----

# a placement that crashes: --no-output-check still compares how runs end
FIXTURE_ABORT_MOVED=1 run "$STRADDLE" place --func work --offsets 0,8 --runs 3 --no-output-check \
	-o "$TMP/crash.json" -- "$P/moved-pie" 100
expect_eq "place --no-output-check, a crashing arm: exit 1, said" "$RC $ERR" \
	"1 straddle: control: the program noticed: its status differs (killed by SIGABRT) where unmoved it gave exit 0"
expect_eq "place --no-output-check, a crashing arm: -o says what it knows" \
	"$(jq -r '"\(.failure.arm)|\(.failure.status)|\(.failure.stderr)|\(.moved.functions)|\(.output_check.identical)"' "$TMP/crash.json")" \
	"control|killed by SIGABRT|moved: a copy ran, and dies as asked|1|null"
run "$STRADDLE" compare "$TMP/crash.json" "$TMP/crash.json"
expect_eq "compare of a failed place: exit 2, one line" "$RC $ERR" \
	"2 straddle: $TMP/crash.json: a place that failed (control: the program noticed: its status differs (killed by SIGABRT) where unmoved it gave exit 0): nothing measured to read"
run "$STRADDLE" place --func work --offsets 0 --runs 2 --no-output-check -o "$TMP/nocheck.json" -- "$P/moved-pie" 100
expect_eq "place --no-output-check: no run counted identical, each status compared" \
	"$(jq -r '.output_check | "\(.runs) \(.identical) \(.same_status) \(.checked)"' "$TMP/nocheck.json")" "7 null 7 false"

# another's name at the child's perf map: a link is not followed, a file
# with another link not emptied; each left alone and said
echo precious >"$TMP/target"
ln "$TMP/target" "$TMP/hard"
: >"$TMP/pids"
run "$STRADDLE" place --file "$P/moved-pie" --func work --offsets 0 --runs 2 -o "$TMP/taken.json" \
	-- sh -c 'echo $$ >>"$0"; case $(( $$ % 2 )) in 0) ln -s "$1" /tmp/perf-$$.map;; *) ln "$1" /tmp/perf-$$.map;; esac; exec "$2" 10' \
	"$TMP/pids" "$TMP/target" "$P/moved-pie"
expect_eq "place, perf map names taken: exit 0" "$RC" 0
expect_eq "place, perf map names taken: the file they name untouched" "$(cat "$TMP/target")" precious
expect_eq "place, perf map names taken: each moved run said it had no map" \
	"$(jq -r '.output_check.runs_without_perf_map' "$TMP/taken.json")" 4
expect_eq "place, perf map names taken: the line" \
	"$(printf '%s\n' "$ERR" | grep -c 'found /tmp/perf-PID.map taken by another file and left it alone')" 1
left=0
for pid in $(cat "$TMP/pids"); do
	[ -L "/tmp/perf-$pid.map" ] || [ "$(stat -c %i "/tmp/perf-$pid.map" 2>/dev/null)" = "$(stat -c %i "$TMP/target")" ] &&
		left=$((left + 1))
	rm -f "/tmp/perf-$pid.map"
done
expect_eq "place, perf map names taken: every planted name still the planter's" "$left" 8

# a signal: the running program ends, its map goes, it is said, 128+N
: >"$TMP/pids"
"$STRADDLE" place --file "$P/clear" --func clear_loop --offsets 0 --runs 50 -o "$TMP/int.json" \
	-- sh -c 'echo $$ >>"$0"; exec "$1" 6000000' "$TMP/pids" "$P/clear" >"$TMP/out" 2>"$TMP/err" &
SPID=$!
n=0
while [ "$(wc -l <"$TMP/pids")" -lt 3 ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
kill -INT $SPID
wait $SPID
expect_eq "place interrupted: 130, said, nothing written" "$? $(cat "$TMP/err") $(ls "$TMP/int.json" 2>&1 | grep -c 'No such')" \
	"130 straddle: place: interrupted by SIGINT after 0 rounds: no result written 1"
# the run in progress (the earlier runs' pids may be another's by now)
last=$(tail -1 "$TMP/pids")
expect_eq "place interrupted: the running program ended, its perf map removed" \
	"$(grep -qs clear "/proc/$last/cmdline" && echo running) $(ls "/tmp/perf-$last.map" 2>/dev/null | wc -l)" " 0"

# the loader drops LD_PRELOAD for a set-user-ID program: refused, one line
cp "$P/moved-pie" "$TMP/suid"
chmod u+s "$TMP/suid"
place_err "setuid" "straddle: $TMP/suid: a set-user-ID or set-group-ID program: the loader drops LD_PRELOAD for it, so no plan could be applied" \
	--func work -- "$TMP/suid" 10
