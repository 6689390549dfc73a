# Every reader as guarded as the ELF reader: one regression test
# per finding of the robustness campaign, each with the exact line, status
# and value it must give.

GD="$TMP/guarded"
rm -rf "$GD"
mkdir -p "$GD"
G000="$FIXTURES/x86/seed000_after"

# ---- 8: the installed binary obeys no test hook ----
# build/straddle ($PLAIN) has none compiled in: the hook that makes the
# test build truncate its input leaves the file whole (a mode 0444 copy as
# root too), the signal hook raises nothing, and the hooks' names are not
# in the binary's bytes (scripts/check_test_hooks.sh, also in make check).
if [ -n "$PLAIN" ]; then
	cp "$G000" "$GD/victim"
	chmod 0444 "$GD/victim"
	size=$(wc -c <"$G000" | tr -d ' ')
	STRADDLE_TEST_TRUNCATE_AFTER_OPEN=0:$GD/victim run "$PLAIN" scan --uarch generic-x86 "$GD/victim"
	expect_eq "8: plain build, truncate hook: exit 0, no error" "$RC:$ERR" "0:"
	expect_eq "8: plain build, truncate hook: the file whole" "$(wc -c <"$GD/victim" | tr -d ' ')" "$size"
	STRADDLE_TEST_SIGNAL_IN_WRITE=11 run "$PLAIN" scan --dump-vdso "$GD/v.so"
	expect_eq "8: plain build, signal hook: exit 0, the file written" "$RC:$(test -s "$GD/v.so" && echo written)" "0:written"
	run sh scripts/check_test_hooks.sh "$PLAIN"
	expect_eq "8: check-test-hooks passes the plain build" "$RC:$OUT" "0:check-test-hooks: 1 binaries, no test hook in them"
	# the test build has them: the check must see them there
	run sh scripts/check_test_hooks.sh "$STRADDLE"
	expect_eq "8: check-test-hooks fails the test build" "$RC:$OUT" \
		"1:check-test-hooks: $STRADDLE reads test hooks: STRADDLE_TEST_ STRADDLE_TEST_TRUNCATE_AFTER_OPEN"
	rm -f "$GD/victim"
else
	fail "8: PLAIN (build/straddle) not set"
fi

# ---- 1: JSON is valid UTF-8 whatever bytes a name or a path holds ----
# A surrogate (ED A0 80) as a symbol name and in the path: each byte one
# U+FFFD, the path still written; report reads the document back.
SUR=$(printf '\355\240\200')
objcopy --redefine-sym "clear_user_after=$SUR" "$FIXTURES/x86/seed000_after.o" "$GD/p$SUR.o"
run "$STRADDLE" scan --json --all --uarch generic-x86 "$GD/p$SUR.o"
expect_eq "1: scan --json of a surrogate: exit 0" "$RC" 0
printf '%s' "$OUT" >"$GD/sur.json"
expect_eq "1: strict UTF-8, the path and the name kept as U+FFFD" \
	"$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1], encoding="utf-8", errors="strict"))["files"][0]; print(ascii(f["path"][-5:]), ascii(f["functions"][0]["name"]))' "$GD/sur.json")" \
	"'\\ufffd\\ufffd\\ufffd.o' '\\ufffd\\ufffd\\ufffd'"
run "$STRADDLE" report -o "$GD/sur.html" "$GD/sur.json"
expect_eq "1: report reads it: exit 0" "$RC:$ERR" "0:"

# ---- 2: a FIFO or a device is refused by every reader, never waited on ----
# timeout 20: before the fix each of these ran until killed (status 124).
mkfifo "$GD/fifo"
for c in "report -o $GD/r.html $GD/fifo" "scan --uarch $GD/fifo $G000" \
	 "sweep --uarch $GD/fifo --offsets 0 --time 0.05 clear_movq_imm" "calibrate --from $GD/fifo" \
	 "scan --hot $GD/fifo $G000" "diff --hot $GD/fifo $G000 $G000" \
	 "scan --perf-script $GD/fifo $G000" "compare $GD/fifo $GD/fifo"; do
	run timeout 20 "$STRADDLE" $c
	case $c in calibrate*) want="straddle: --from: $GD/fifo: is a FIFO, not a regular file" ;;
		   *) want="straddle: $GD/fifo: is a FIFO, not a regular file" ;; esac
	expect_eq "2: ${c%% *} ${c#* }: exit 2, the line" "$RC:$ERR" "2:$want"
done
run timeout 20 "$STRADDLE" scan --perf-script /dev/zero "$G000"
expect_eq "2: --perf-script /dev/zero: exit 2, the line" "$RC:$ERR" \
	"2:straddle: /dev/zero: is a character device, not a regular file"
# a FIFO where this host's calibrated profile would be
HOSTFILE=$("$STRADDLE" uarch --json | jq -r '.host | [.vendor, .family, .model, .stepping] | @tsv' |
	awk -F'\t' '{ printf "%s-%x-%x-%x.json", $1, $2, $3, $4 }')
mkdir -p "$GD/xdg/straddle/profiles"
mkfifo "$GD/xdg/straddle/profiles/$HOSTFILE"
run env XDG_DATA_HOME="$GD/xdg" timeout 20 "$STRADDLE" scan "$G000"
expect_eq "2: a FIFO at the host profile's path: scan exits 2, the line" "$RC:$ERR" \
	"2:straddle: $GD/xdg/straddle/profiles/$HOSTFILE: is a FIFO, not a regular file"
run env XDG_DATA_HOME="$GD/xdg" timeout 20 "$STRADDLE" uarch
expect_eq "2: a FIFO at the host profile's path: uarch says it" "$RC:$ERR" \
	"0:straddle: uarch: $GD/xdg/straddle/profiles/$HOSTFILE: is a FIFO, not a regular file"

# ---- 3: a result file is read in blocks, not a byte per read() ----
# The sweep fixture (a few kB) read by compare: strace counts the reads of
# its file descriptor. jansson's json_loadfd made one read per byte.
SW="$FIXTURES/../../tests/fixtures/report/sweep.json"
[ -f "$SW" ] || SW=tests/fixtures/report/sweep.json
strace -f -e trace=openat,read,close -o "$GD/trace" "$STRADDLE" compare "$SW" "$SW" >/dev/null 2>&1
# the reads between each open of the file and its close
reads=$(awk '/sweep.json"/ && !/ENOENT/ { fd = $NF; on = 1; next }
	on && $2 ~ "^read\\(" fd "," { n++ }
	on && $2 ~ "^close\\(" fd "\\)" { on = 0 }
	END { print n + 0 }' "$GD/trace")
expect_eq "3: compare reads a $(wc -c <"$SW" | tr -d ' ')-byte file in 2 reads (its size, then end of file), per side" \
	"$reads" 4
# too big to read whole: refused by its size (a sparse file: no disk used)
truncate -s 1073741825 "$GD/big.json"
run "$STRADDLE" compare "$GD/big.json" "$GD/big.json"
expect_eq "3: a file over 1 GiB: exit 2, the line" "$RC:$ERR" \
	"2:straddle: $GD/big.json: is 1073741825 bytes, more than the 1073741824 this reads"
rm -f "$GD/big.json"

# ---- 6: an empty file is "empty file", not "changed while reading" ----
: >"$GD/empty"
run "$STRADDLE" scan --uarch generic-x86 "$GD/empty" "$G000"
expect_eq "6: scan of an empty file: exit 2, the line" "$RC:$ERR" "2:straddle: $GD/empty: empty file"
run "$STRADDLE" diff "$GD/empty" "$G000"
expect_eq "6: diff of an empty file: exit 2, the line" "$RC:$ERR" "2:straddle: $GD/empty: empty file"

# ---- 4: samples too large for their statistics are refused ----
# Every sample of a metric 1e308: the median was inf, the change -nan%,
# and compare --format json wrote "metrics": [] with exit 0.
SW=tests/fixtures/report/sweep.json
jq '.metrics[0].samples |= map(1e308)' "$SW" >"$GD/huge.json"
NAME=$(jq -r '.metrics[0].name' "$SW")
for f in text json; do
	run "$STRADDLE" compare --format $f "$SW" "$GD/huge.json"
	expect_eq "4: compare --format $f, samples of 1e308: exit 2, the line, nothing out" "$RC:$ERR:$OUT" \
		"2:straddle: $GD/huge.json: metric 0 ($NAME): sample 0 is 1e+308, more than 1e+15 (no time or rate straddle measures comes near it):"
done
jq '.metrics[0].samples[0] = 1e15' "$SW" >"$GD/edge.json"
run "$STRADDLE" compare --format json "$SW" "$GD/edge.json"
expect_eq "4: a sample of exactly 1e15 is read" "$RC:$ERR" "0:"

# ---- 11: --offsets refuses what does not fit, before anything runs ----
# "-1" as a step wrapped and measured offset 0 alone with exit 0;
# 4294967296 became a step of 0 ("more than 1024 kernel placements").
off_err() {
	run "$STRADDLE" sweep --offsets "$1" --time 0.05 --min-rounds 1 clear_movq_imm
	expect_eq "11: --offsets $1: exit 2, the line" "$RC:$ERR" "2:straddle: --offsets: '$1'$2"
}
for o in 0..63:-1 -1 0..63:+8 1..2..3 0:3; do
	off_err "$o" " is not A..B[:STEP] or A"
done
for o in 0..63:4294967296 0..18446744073709551617 0..4095:4096; do
	off_err "$o" ": need 0 <= A <= B <= 4095 and 1 <= STEP <= 4095"
done

# ---- 5: a sweep's offsets out of their range are refused by the reader ----
# +-2^63 overflowed in the report's arithmetic (UBSan, html_measure.c).
NAME=$(jq -r '.metrics[0].name' "$SW")
for v in 9223372036854775807 -9223372036854775808 4096 -1; do
	python3 -c 'import re, sys; s = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(re.sub(r"\"offset\": *[0-9]+", "\"offset\": " + sys.argv[3], s, count=1))' \
		"$SW" "$GD/off.json" "$v"
	run "$STRADDLE" report -o "$GD/off.html" "$GD/off.json"
	expect_eq "5: report of a sweep offset $v: exit 2, the line, no page" \
		"$RC:$ERR:$(test -e "$GD/off.html" && echo page)" \
		"2:straddle: report: $GD/off.json: metric 0 ($NAME): \"offset\" is not an integer from 0 to 4095:"
done
jq '.metrics[0].loop_offset = 64' "$SW" >"$GD/off.json"
run "$STRADDLE" compare "$GD/off.json" "$GD/off.json"
expect_eq "5: compare of a loop_offset 64: exit 2, the line" "$RC:$ERR" \
	"2:straddle: $GD/off.json: metric 0 ($NAME): \"loop_offset\" is not an integer from 0 to 63"

# ---- 7: record never leaves its program behind ----
# SIGTERM or SIGHUP to record: passed to the program, which ends; its
# record is written (its exit status 128+N), then record dies of the same
# signal. A SIGKILL, which record cannot catch, ends the program too
# (PR_SET_PDEATHSIG). Before: exit 143 with the program left running.
cp /bin/sleep "$GD/sleepy"
child_of() {    # the program record started, once it has exec'd
	for _ in $(seq 200); do
		c=$(ps -o pid= --ppid "$1" | tr -d ' ')
		if [ -n "$c" ] && [ "$(readlink "/proc/$c/exe")" = "$GD/sleepy" ]; then
			echo "$c"
			return
		fi
		sleep 0.05
	done
}
for sig in TERM:143 HUP:129 KILL:137; do
	name=${sig%%:*}
	"$STRADDLE" record -o "$GD/rec-$name.json" -- "$GD/sleepy" 37 2>/dev/null &
	rp=$!
	cp_=$(child_of $rp)
	kill -"$name" $rp
	wait $rp
	rc=$?
	gone=running
	for _ in $(seq 100); do
		kill -0 "$cp_" 2>/dev/null || { gone=gone; break; }
		sleep 0.05
	done
	[ -n "$cp_" ] || gone="never started"
	expect_eq "7: SIG$name to record: its status, the program gone" "$rc:$gone" "${sig#*:}:gone"
	[ "$gone" = running ] && kill -KILL "$cp_"
	if [ "$name" != KILL ]; then
		expect_eq "7: SIG$name: the record written, the program's status in it" \
			"$(jq -r '.exit_status' "$GD/rec-$name.json")" "${sig#*:}"
	fi
done

# ---- 8 (under record): a recorded file that changes is an error entry ----
# The test build's hook truncates the program after record opened it:
# "changed while reading", not an entry of 0 functions.
cp "$FIXTURES/x86/hotcold" "$GD/hc"
STRADDLE_TEST_TRUNCATE_AFTER_OPEN=4096:$GD/hc run "$STRADDLE" record -o "$GD/hc.json" -- "$GD/hc" a b
expect_eq "8: record of a program truncated while read: its status" "$RC" 3
expect_eq "8: the entry says it changed, no functions" \
	"$(jq -r '.files[0] | "\(.path) \(.error) \(.functions | length)"' "$GD/hc.json")" "$GD/hc changed while reading 0"
expect_eq "8: the line on stderr" "$(printf '%s\n' "$ERR" | grep -c "^straddle: $GD/hc: changed while reading; its [0-9]* samples are not placed in loops\$")" 1

# ---- 10: a long $XDG_DATA_HOME is used whole or refused, never cut ----
# 608 bytes: the profile there is found (the path was cut at 511 bytes,
# so it was not, and calibrate made the cut directory).
LONG="$GD/$(printf 'd%.0s' $(seq 250))/$(printf 'e%.0s' $(seq 250))/$(printf 'f%.0s' $(seq 100))"
mkdir -p "$LONG/straddle/profiles"
cp tests/fixtures/calibrate/zen5-quick.json "$LONG/straddle/profiles/$HOSTFILE"
run env XDG_DATA_HOME="$LONG" "$STRADDLE" uarch --json
expect_eq "10: a ${#LONG}-byte \$XDG_DATA_HOME: the calibrated profile found there" \
	"$(jq_of '[.profiles[] | select(.file) | .file] | join(",")')" "$LONG/straddle/profiles/$HOSTFILE"
# longer than a path may be: refused before anything is measured or made
HUGE=$GD/h
while [ ${#HUGE} -lt 4200 ]; do HUGE="$HUGE/$(printf 'g%.0s' $(seq 200))"; done
run env XDG_DATA_HOME="$HUGE" timeout 60 "$STRADDLE" calibrate --quick
expect_eq "10: calibrate under a ${#HUGE}-byte \$XDG_DATA_HOME: exit 2, the line, nothing made" \
	"$RC:$ERR:$(ls -A "$GD" | grep -c '^h$')" \
	"2:straddle: calibrate: the profile's path under \$XDG_DATA_HOME is $((${#HUGE} + 19 + ${#HOSTFILE})) bytes, more than the 4095 a path may have: say where with -o:0"

# ---- 9: bytes from a file reach the terminal escaped ----
# a result's "command", a metric name, a path: a newline is \x0a, ESC
# \x1b, a C1 CSI (U+009B) \u009b; each error stays one line.
jq '.command = "sw\u001b[31meep\nx"' "$SW" >"$GD/cmd.json"
run "$STRADDLE" compare "$GD/cmd.json" "$GD/cmd.json"
expect_eq "9: a command with ESC and a newline: one escaped line" "$RC:$ERR" \
	"2:straddle: $GD/cmd.json: a sw\\x1b[31meep\\x0ax result, not a bench, sweep, place or ab result"
jq '.metrics[0].name = "a\u001b]0;title\u0007\u009bb"' "$SW" >"$GD/name.json"
run "$STRADDLE" compare "$GD/name.json" "$GD/name.json"
expect_eq "9: a metric name with OSC and CSI: its row escaped" \
	"$(printf '%s\n' "$OUT" | grep -c '^Time median-a\\x1b\]0;title\\x07\\u009bb  ')" 1
expect_eq "9: no ESC byte on stdout" "$(printf '%s' "$OUT" | tr -cd '\033' | wc -c | tr -d ' ')" 0
NL="$GD/new
line"
run "$STRADDLE" scan "$NL"
expect_eq "9: a path with a newline: one line" "$RC:$ERR" \
	"2:straddle: $GD/new\\x0aline: cannot open: No such file or directory"
# a recorded path in record's error line (the test build's hook makes one)
EP="$GD/h$(printf '\033')[2Jc"
cp "$FIXTURES/x86/hotcold" "$EP"
STRADDLE_TEST_TRUNCATE_AFTER_OPEN=4096:$EP run "$STRADDLE" record -o "$GD/ep.json" -- "$EP" a b
expect_eq "9: a recorded path with ESC in record's error: escaped, one line" \
	"$(printf '%s\n' "$ERR" | grep -c "^straddle: $GD/h\\\\x1b\[2Jc: changed while reading; its [0-9]* samples are not placed in loops\$"):$(printf '%s' "$ERR" | tr -cd '\033' | wc -c | tr -d ' ')" "1:0"

# ---- and the three smaller ones ----
# calibrate --plot DIR makes DIR only when it writes the plots: a run ended
# by a signal left the empty DIR it had made before measuring.
run timeout -s TERM 3 "$STRADDLE" calibrate --quick -o "$GD/cal.json" --plot "$GD/plots"
expect_eq "calibrate --plot, ended by SIGTERM: no DIR, no profile" \
	"$RC:$(ls -A "$GD" | grep -cx 'plots\|cal.json')" "124:0"
run "$STRADDLE" calibrate --from tests/fixtures/calibrate/zen5-quick.json -o "$GD/cal.json" --plot "$GD/plots"
expect_eq "calibrate --from --plot: DIR made, one plot per experiment" \
	"$RC:$(ls "$GD/plots" | grep -c '\.svg$')" "0:$(jq '.experiments | length' tests/fixtures/calibrate/zen5-quick.json)"
run "$STRADDLE" calibrate --quick --plot "$GD/no/such/plots"
expect_eq "calibrate --plot under a missing directory: refused before measuring" "$RC:$ERR" \
	"2:straddle: $GD/no/such/plots: cannot make the plot directory: $GD/no/such is not a writable directory"
# a path of 300+ characters, named whole in both places (not cut at a buffer's size)
LONG=$GD/no/$(printf 'p%.0s' $(seq 1 150))/$(printf 'q%.0s' $(seq 1 150))
run "$STRADDLE" calibrate --quick --plot "$LONG/plots"
expect_eq "calibrate --plot under a missing 300+ character path: the line whole" "$RC:$ERR" \
	"2:straddle: $LONG/plots: cannot make the plot directory: $LONG is not a writable directory"
# sweep on a full disk: -o fails, so --plot is not written either (a tmpfs
# of 4 KiB, filled; root only, as mount is)
mkdir -p "$GD/full"
if mount -t tmpfs -o size=4k tmpfs "$GD/full" 2>/dev/null; then
	dd if=/dev/zero of="$GD/full/fill" bs=4096 count=2 2>/dev/null
	run "$STRADDLE" sweep --offsets 0 --time 0.05 --min-rounds 1 -o "$GD/full/sw.json" \
		--plot "$GD/sw.svg" clear_movq_imm
	expect_eq "sweep -o on a full disk: exit 2, the line, no plot" \
		"$RC:$(printf '%s\n' "$ERR" | grep -c "^straddle: $GD/full/sw.json: cannot write: No space left on device\$"):$(test -e "$GD/sw.svg" && echo plot)" "2:1:"
	umount "$GD/full"
else
	ok "sweep -o on a full disk: skipped, no tmpfs mount here (not root)"
fi
# a profile's name from a calibrate file, in scan's header line
jq '.profile.name = "cal\u001b[31mred"' tests/fixtures/calibrate/zen5-quick.json >"$GD/redp.json"
run "$STRADDLE" scan --uarch "$GD/redp.json" "$G000"
expect_eq "9: a profile named with ESC: scan's header escaped" "$(printf '%s\n' "$OUT" | head -n 1)" \
	"$G000: x86_64 exec, 1 functions, 49 instructions, 1 loops; profile cal\\x1b[31mred"

# ---- found by fuzz_report: a compare document without its run counts ----
# A missing "base_runs" became NaN and then a size_t (UBSan in the page).
"$STRADDLE" compare --format json "$SW" "$SW" >"$GD/cmp.json"
jq 'del(.metrics[1].new[0].base_runs)' "$GD/cmp.json" >"$GD/cmp-cut.json"
run "$STRADDLE" report -o "$GD/cmp.html" "$GD/cmp-cut.json"
expect_eq "fuzz: compare document without base_runs: exit 2, the line, no page" \
	"$RC:$ERR:$(test -e "$GD/cmp.html" && echo page)" \
	"2:straddle: report: $GD/cmp-cut.json: metric 1, comparison 0: \"base_runs\" and \"runs\" are not counts:"
run "$STRADDLE" report -o "$GD/cmp.html" "$GD/cmp.json"
expect_eq "fuzz: the whole compare document: a page" "$RC:$ERR:$(test -s "$GD/cmp.html" && echo page)" "0::page"

# ---- 1 (the command line): an argument that is not UTF-8 is kept ----
# json_string refused it and the argument was dropped from "command_line".
run "$STRADDLE" record -o "$GD/argv.json" -- /bin/true "$(printf 'a\377b')"
expect_eq "1: record's command_line keeps a non-UTF-8 argument as U+FFFD" \
	"$(python3 -c 'import json, sys; print(ascii(json.load(open(sys.argv[1], encoding="utf-8"))["command_line"][4:]))' "$GD/argv.json")" \
	"['/bin/true', 'a\\ufffdb']"

# ---- 2 (record): a FIFO at the program's /tmp/perf-PID.map ----
# record reads that file (straddle place's copies) when the program forks;
# anyone can make it a FIFO, and record waited for a writer forever.
run timeout -k 5 60 "$STRADDLE" record -o "$GD/fifo-rec.json" -- \
	sh -c 'echo $$ >"$1"; mkfifo /tmp/perf-$$.map; (true) & wait' sh "$GD/shpid"
expect_eq "2: record of a program with a FIFO at its perf map: exit 0, the record written" \
	"$RC:$(jq -r .command "$GD/fifo-rec.json" 2>/dev/null)" "0:record"
rm -f "/tmp/perf-$(cat "$GD/shpid").map"
