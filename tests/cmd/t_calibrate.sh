# straddle calibrate: the profile file fitted again from a run recorded on
# this project's Zen 5 (tests/fixtures/calibrate/zen5-quick.json), its
# contents, --uarch FILE.json and host, uarch's row, and every bad input
# (one line, exit 2). Nothing here measures: --from fits the recording.
CAL_FIX=tests/fixtures/calibrate/zen5-quick.json
[ -f "$CAL_FIX" ] || CAL_FIX=$(dirname "$0")/../fixtures/calibrate/zen5-quick.json

cal_err() {
	name=$1
	shift
	run "$@"
	expect_eq "calibrate $name: exit 2" "$RC" 2
	expect_eq "calibrate $name: one line on stderr" "$(printf '%s\n' "$ERR" | grep -c .)" 1
	expect_eq "calibrate $name: the line" "$ERR" "$CAL_WANT"
}

run "$STRADDLE" calibrate --from "$CAL_FIX" -o "$TMP/cal.json"
expect_eq "calibrate --from: exit 0" "$RC" 0
expect_eq "calibrate --from: the claimed rule" \
	"$(printf '%s\n' "$OUT" | grep '^loop-straddles-window *64')" \
	"loop-straddles-window       64  1.50x [1.47, 1.51], halves 1.48x 1.49x, p 3.1e-67 (nop-8)"
expect_eq "calibrate --from: the profile line" "$(printf '%s\n' "$OUT" | grep '^profile:')" \
	"profile: fetch 32, uop window 64, line 64; straddles: 32 64; branch rule: -; loop buffer: 0; back end: 10 a cycle, 0 stores"
expect_eq "calibrate --from: saved" "$(printf '%s\n' "$OUT" | tail -1)" "saved: $TMP/cal.json"

OUT=$(cat "$TMP/cal.json")
expect_eq "profile file: schema and command" "$(jq_of '"\(.schema) \(.command)"')" "1 calibrate"
expect_eq "profile file: the machine" \
	"$(jq_of '"\(.machine.vendor) \(.machine.family) \(.machine.model) \(.machine.stepping)"')" \
	"AuthenticAMD 26 2 1"
# whole: microcode, features and kernel are the recording's, not this
# host's, with the file it came from; this host is calibrated_on
expect_eq "profile file: the recording's machine, whole" \
	"$(printf '%s' "$OUT" | jq -c '.machine | del(.recorded_in)')" "$(jq -c .machine "$CAL_FIX")"
expect_eq "profile file: recorded in" "$(jq_of .machine.recorded_in)" "$CAL_FIX"
expect_eq "profile file: calibrated on this host" \
	"$(jq_of '"\(.calibrated_on.vendor) \(.calibrated_on.family) \(.calibrated_on.model)"')" \
	"$("$STRADDLE" uarch --json | jq -r '"\(.host.vendor) \(.host.family) \(.host.model)"')"
expect_eq "profile file: profile fields" \
	"$(jq_of '.profile | "\(.name) \(.arch) \(.fetch) \(.uop_window) \(.line) \(.straddle_windows) \(.branch_rule) \(.branch_window) \(.loop_buffer)"')" \
	"calibrated x86_64 32 64 64 [32,64] none 0 0"
expect_eq "profile file: cpus" "$(jq_of .profile.cpus)" \
	"Oxide Virtual Turin-like Processor (AuthenticAMD family 0x1a model 0x2 stepping 0x1)"
expect_eq "profile file: evidence names the measurement" \
	"$(jq_of '.profile.evidence | test("^measured by straddle calibrate on Oxide .*; loop-straddles-window 64: 1.50x \\[1.47, 1.51\\] \\(nop-8\\);")')" true
expect_eq "profile file: 12 rules, 3 claimed" "$(jq_of '"\(.rules | length) \([.rules[] | select(.claimed)] | length)"')" "12 3"
expect_eq "profile file: the claimed rule" \
	"$(jq_of '[.rules[] | select(.claimed)][1] | "\(.rule) \(.window) \(.ratio) \(.ci) \(.halves) \(.placements.with) \(.placements.without) \(.experiment)"')" \
	"loop-straddles-window 64 1.5 [1.469,1.508] [1.482,1.492] 227 319 nop-8"
expect_eq "profile file: an unclaimed rule says so with its CI" \
	"$(jq_of '.rules[] | select(.rule == "branch-crosses-window" and .window == 64) | .verdict')" \
	"no effect measured: 1.00x [0.99, 1.02], halves 1.01x 1.01x, p 0.22"
expect_eq "profile file: untested rule" \
	"$(jq_of '.rules[] | select(.rule == "entry-straddles-window" and .window == 16) | "\(.tested) \(.ratio) \(.verdict)"')" \
	"false null not tested: too few placements (0 with, 0 without)"
expect_eq "profile file: every point's floor inside its 95% CI" \
	"$(jq_of '[.experiments[].points[] | .floor_ci[0] <= .floor and .floor <= .floor_ci[1]] | all')" true
expect_eq "profile file: loop buffer" "$(jq_of '.loop_buffer | "\(.instructions) \(.claimed)"')" "0 false"
# the 40-byte loops of 20 and 38 nops paid nothing, the 11-nop one paid:
# the back end hides a line from 10 instructions a line fetched; this
# loaded run had no store loop of more than one store
expect_eq "profile file: back end" \
	"$(jq_of '"\(.back_end.issue_width) \(.back_end.stores_per_cycle) \(.profile.issue_width) \(.profile.stores_per_cycle)"')" "10 0 10 0"
expect_eq "profile file: back end, why" "$(jq_of .back_end.why)" \
	"6 to 10 instructions a cycle, taken: the largest (paid up to 5.50 per line fetched, 10 loops; free from 10.00, 2); stores: no store loop was bounded by its stores"
expect_eq "profile file: back end, the ranges" \
	"$(jq_of '"\(.back_end.issue_width_range) \(.back_end.stores_per_cycle_range)"')" "[6,10] [0,0]"
expect_eq "profile file: 15 experiments of 64 points, 40 samples each" \
	"$(jq_of '"\(.experiments | length) \([.experiments[].points | length] | unique) \([.experiments[].points[].samples | length] | unique)"')" \
	"15 [64] [40]"
expect_eq "profile file: seed 000's loop" \
	"$(jq_of '.experiments[0] | "\(.name) \(.bytes) \(.ninsn) \(.pair) \(.branch) \(.end) \(.entry)"')" \
	"store-imm-15 15 4 11 13 15 false"

# each experiment's machine state goes with the ratio it gave;
# the recording above has none (older), so it said nothing. The same
# recording with a state on every experiment: the claimed rule names it.
jq '.experiments[].state = {"seconds": 4, "load": [1.5, 1.2, 1.0], "steal_pct": 0.8,
	"others_pct": 26, "busy_pct": 60, "cpus": 2, "clocksource": "kvm-clock", "governor": null,
	"mhz": null}' "$CAL_FIX" >"$TMP/cal-state-in.json"
run "$STRADDLE" calibrate --from "$TMP/cal-state-in.json" -o "$TMP/cal-state.json"
expect_eq "calibrate --from with states: the claimed rule says its machine state" \
	"$(printf '%s\n' "$OUT" | grep '^loop-straddles-window *64')" \
	"loop-straddles-window       64  1.50x [1.47, 1.51], halves 1.48x 1.49x, p 3.1e-67 (nop-8, measured at load 1.50, steal 0.8%, other tenants 26%)"
expect_eq "calibrate --from with states: kept in the profile file" \
	"$(jq -c '[.experiments[].state | "\(.load[0]) \(.steal_pct) \(.others_pct) \(.busy_pct)"] | unique' "$TMP/cal-state.json")" \
	'["1.5 0.8 26 60"]'

# the profile in use: seed 000's 15-byte loop across a line
run "$STRADDLE" scan --uarch "$TMP/cal.json" "$FIXTURES/x86/seed000_after"
expect_eq "scan --uarch FILE.json: exit 0" "$RC" 0
expect_eq "scan --uarch FILE.json: its hazard" "$(printf '%s\n' "$OUT" | sed -n 3p | tr -s ' ')" \
	"medium clear_user_after .text 0x401034 - 15 32,64 2/1,2/1 loop-straddles-window calibrated certain <=2.00x .p2align 4 (+12 B)"
# the recorded run also claims 32 B (at the floor): the same crossing at 64
# is a 32 B window's boundary too, in the same row (one per loop and rule)
expect_eq "scan --uarch FILE.json: 1 hazard row" "$(printf '%s\n' "$OUT" | tail -1)" \
	"1 hazards: 1 loops, 0 function entries"

# --uarch host finds it under $XDG_DATA_HOME for this CPU
HOSTFILE=$("$STRADDLE" uarch --json | jq -r '.host | [.vendor, .family, .model, .stepping] | @tsv' |
	awk -F'\t' '{ printf "%s-%x-%x-%x.json", $1, $2, $3, $4 }')
mkdir -p "$TMP/xdg/straddle/profiles"
cp "$TMP/cal.json" "$TMP/xdg/straddle/profiles/$HOSTFILE"
run env XDG_DATA_HOME="$TMP/xdg" "$STRADDLE" scan --uarch host "$FIXTURES/x86/seed000_after"
expect_eq "scan --uarch host: the calibrated file" \
	"$(printf '%s\n' "$OUT" | sed -n 1p)" \
	"host: $("$STRADDLE" uarch --json | jq -r .host.detected), calibrated $TMP/xdg/straddle/profiles/$HOSTFILE"
run env XDG_DATA_HOME="$TMP/xdg" COLUMNS=1000 "$STRADDLE" uarch
expect_eq "uarch: the calibrated row, last of the x86_64 table" \
	"$(printf '%s\n' "$OUT" | sed -n '/^x86_64:/,/^$/p' | sed -n '$!p' | tail -1 | tr -s ' ' | cut -d' ' -f1-7)" \
	"calibrated 32 64 64 32,64 - -"
expect_eq "uarch: where it is" "$(printf '%s\n' "$OUT" | grep 'calibrated for this CPU')" \
	"calibrated for this CPU: $TMP/xdg/straddle/profiles/$HOSTFILE (--uarch host uses it)"
run env XDG_DATA_HOME="$TMP/xdg" "$STRADDLE" uarch --json
expect_eq "uarch --json: host uses it" "$(jq_of '.host.profile')" "calibrated"
expect_eq "uarch --json: its file" "$(jq_of '.profiles[-1].file')" \
	"$TMP/xdg/straddle/profiles/$HOSTFILE"
# without the file, the built-in again
run env XDG_DATA_HOME="$TMP/empty-xdg" "$STRADDLE" uarch --json
expect_eq "uarch --json: no file, no calibrated" "$(jq_of '[.profiles[].name] | index("calibrated")')" "null"
# the default output path: under $XDG_DATA_HOME, directories made
run env XDG_DATA_HOME="$TMP/new-xdg" "$STRADDLE" calibrate --from "$CAL_FIX"
expect_eq "calibrate default -o: exit 0" "$RC" 0
expect_eq "calibrate default -o: where" "$(printf '%s\n' "$OUT" | tail -1)" \
	"saved: $TMP/new-xdg/straddle/profiles/AuthenticAMD-1a-2-1.json"
run env -u XDG_DATA_HOME HOME="$TMP/home" "$STRADDLE" calibrate --from "$CAL_FIX"
expect_eq "calibrate default -o without XDG: ~/.local/share" "$(printf '%s\n' "$OUT" | tail -1)" \
	"saved: $TMP/home/.local/share/straddle/profiles/AuthenticAMD-1a-2-1.json"

# bad input: one line, exit 2, nothing written
CAL_WANT="straddle: $TMP/no/such/dir/p.json: its directory $TMP/no/such/dir does not exist"
cal_err "bad -o" "$STRADDLE" calibrate --from "$CAL_FIX" -o "$TMP/no/such/dir/p.json"
CAL_WANT="straddle: $TMP: is a directory, not a regular file: not replaced"
cal_err "-o a directory" "$STRADDLE" calibrate --from "$CAL_FIX" -o "$TMP"
CAL_WANT="straddle: --time: '0' is not a time in seconds (like 10 or 0.5s), at most a day"
cal_err "--time 0" "$STRADDLE" calibrate --time 0
CAL_WANT="straddle: calibrate: unexpected argument 'extra'"
cal_err "extra argument" "$STRADDLE" calibrate extra
CAL_WANT="straddle: --from: $TMP/none.json: cannot open: No such file or directory"
cal_err "--from missing" "$STRADDLE" calibrate --from "$TMP/none.json" -o "$TMP/x.json"
printf '{"schema": 1, "command": "sweep"}\n' >"$TMP/sweep.json"
CAL_WANT="straddle: $TMP/sweep.json: a sweep result, not a profile file (make one with 'straddle calibrate')"
cal_err "--uarch a sweep file" "$STRADDLE" scan --uarch "$TMP/sweep.json" "$FIXTURES/x86/seed000_after"
printf 'not json\n' >"$TMP/garbage.json"
CAL_WANT="straddle: $TMP/garbage.json: not a profile file: '[' or '{' expected near 'not' (line 1)"
cal_err "--uarch garbage" "$STRADDLE" scan --uarch "$TMP/garbage.json" "$FIXTURES/x86/seed000_after"
jq '.profile.branch_rule = "zigzag"' "$TMP/cal.json" >"$TMP/rule.json"
CAL_WANT="straddle: $TMP/rule.json: profile: branch_rule \"zigzag\" is not none, jcc-erratum or pair-crosses"
cal_err "--uarch bad branch rule" "$STRADDLE" diff --uarch "$TMP/rule.json" \
	"$FIXTURES/x86/diff000_before" "$FIXTURES/x86/diff000_after"
jq '.profile.straddle_windows = [48]' "$TMP/cal.json" >"$TMP/win.json"
CAL_WANT="straddle: $TMP/win.json: profile: straddle window 0 is not 16, 32 or 64"
cal_err "--uarch bad window" "$STRADDLE" sweep --uarch "$TMP/win.json" clear_movq_imm
jq 'del(.profile.line)' "$TMP/cal.json" >"$TMP/line.json"
CAL_WANT="straddle: $TMP/line.json: profile: \"line\" is not a whole number from 0 to 128"
cal_err "--uarch no line" "$STRADDLE" scan --uarch "$TMP/line.json" "$FIXTURES/x86/seed000_after"
jq '.experiments[0].points[3].samples[5] = -1' "$TMP/cal.json" >"$TMP/neg.json"
CAL_WANT="straddle: --from: $TMP/neg.json: experiment 0: point 3: sample 5 is not a positive number"
cal_err "--from negative sample" "$STRADDLE" calibrate --from "$TMP/neg.json" -o "$TMP/x.json"
expect_eq "no file left by the failures" "$(ls "$TMP/x.json" 2>/dev/null)" ""

# sweep predicts with several profiles at once: an agreement line each
run "$STRADDLE" sweep --uarch "zen5,$TMP/cal.json" --time 0.3 --min-rounds 1 --offsets 30..33 \
	-o "$TMP/sw.json" clear_movq_imm
expect_eq "sweep two profiles: exit 0" "$RC" 0
expect_eq "sweep two profiles: two agreement lines" \
	"$(printf '%s\n' "$OUT" | grep -c '^model (.*) and measurement agree on [0-4] of 4 offsets$')" 2
OUT=$(cat "$TMP/sw.json")
expect_eq "sweep two profiles: agreement in the file" \
	"$(jq_of '[.agreement[] | "\(.kernel) \(.profile) \(.offsets)"] | join(",")')" \
	"clear_movq_imm zen5 4,clear_movq_imm calibrated 4"
# each profile's predicted offsets: the 15-byte loop at +17 starts at 47..50
# of a line; only at 50 does it cross the line (50..64), zen5's straddle
expect_eq "sweep two profiles: zen5's predicted offsets" \
	"$(jq_of '.agreement[] | select(.profile == "zen5") | .predicted | map(tostring) | join(",")')" "33"
expect_eq "sweep two profiles: agree counts what the file's marks and predictions say" \
	"$(jq '. as $d | [.agreement[] | .predicted_slow as $p | .agree == ([$d.metrics[] |
		select((.offset as $o | $p | index($o) != null) == .slow)] | length)] | all' "$TMP/sw.json")" true

# what calibrate checks first: natively fine (a KVM guest runs the code
# itself), under qemu-user refused in one line
run "$TOOLS/native_main"
expect_eq "native check here: ok" "$RC $OUT" "0 ok"
if [ "$(uname -m)" = x86_64 ]; then
	if ! command -v qemu-aarch64 >/dev/null; then
		fail "calibrate under qemu: qemu-aarch64 missing (scripts/deps.sh installs qemu-user)"
	else
		run qemu-aarch64 "$TOOLS/native-aarch64"
		expect_eq "calibrate under qemu-aarch64: exit 2" "$RC" 2
		expect_eq "calibrate under qemu-aarch64: the line" "$ERR" \
			"refusing to calibrate under an emulator (/proc/cpuinfo has no \"CPU implementer\"): its times are the emulator's, not this CPU's"
	fi
fi
