# The back-end bound: a loop whose own work takes as long as
# fetching the line it straddles pays nothing for it (measured on Zen 5 by
# straddle calibrate: tests/fixtures/calibrate/zen5-backend.json). The
# fixture's loops are in tests/fixtures/x86/backend.S.

backend_rows() {
	jq_of '[.files[0].functions[] | .name as $n | .loops[]
		| "\($n):\(.start):\(.bytes):\(.instructions):\(.back_end_bound):\([.hazards[] | "\(.window)/\(.fix.align)+\(.fix.pad)"] | join("+"))"]
		| join(" ")'
}

BE="$FIXTURES/x86/backend"
# zen5: 10 instructions, 2 stores a cycle. st4's 4 stores and nop20's 20
# instructions cover the 2 lines they touch, copy's 8 stores its 3; st3
# (3 stores) and nop19 (19 instructions) do not. st3's 1.5 cycles (3 stores
# at 2 a cycle) pay the 0.15 cycle zen5 measured for a line more: at most 1.10x
# (the measured rates are a floor of its back end: a bound, "<=").
run "$STRADDLE" scan --json --all --uarch zen5 "$BE"
expect_eq "back end zen5: exit 0" "$RC" 0
expect_eq "back end zen5: rows" "$(backend_rows)" \
	"st4:0x401038:19:7:true: st3:0x401138:16:6:false:64/16+8 copy:0x401231:80:21:true: nop20:0x401338:22:20:true: nop19:0x401438:21:19:false:64/32+8"
# zen4 has no bound measured: every loop across the line is a hazard
run "$STRADDLE" scan --json --all --uarch zen4 "$BE"
expect_eq "back end zen4: rows" "$(backend_rows)" \
	"st4:0x401038:19:7:false:64/32+8 st3:0x401138:16:6:false:64/16+8 copy:0x401231:80:21:false:64/16+15 nop20:0x401338:22:20:false:64/32+8 nop19:0x401438:21:19:false:64/32+8"
run "$STRADDLE" scan --uarch zen5 "$BE"
expect_eq "back end zen5 text: the two hazards" "$(printf '%s\n' "$OUT" | tail -1)" \
	"2 hazards: 2 loops, 0 function entries"
expect_eq "back end zen5 text: st3" "$(printf '%s\n' "$OUT" | sed -n 3p | tr -s ' ')" \
	"medium st3 .text 0x401138 - 16 64 2/1 loop-straddles-window zen5 certain <=1.10x .p2align 4 (+8 B)"

# the fit of a quiet --quick run: 2 stores a cycle from the store loops
# (2 stores paid, 4 and 8 did not); 10 instructions the largest width its
# nop loops allow, of 6 to 10 (a range where the evidence leaves
# one); four nop loops faster across a line than inside one
CAL_BE=tests/fixtures/calibrate/zen5-backend.json
[ -f "$CAL_BE" ] || CAL_BE=$(dirname "$0")/../fixtures/calibrate/zen5-backend.json
run "$STRADDLE" calibrate --from "$CAL_BE" -o "$TMP/be.json"
expect_eq "calibrate back end: exit 0" "$RC" 0
expect_eq "calibrate back end: the line" "$(printf '%s\n' "$OUT" | grep '^back end:')" \
	"back end: 6 to 10 instructions a cycle, taken: the largest (paid up to 5.50 per line fetched, 11 loops; free from 10.00, 1); 2 stores a cycle (paid up to 1.00 per line fetched, 4 loops; free from 2.00, 2); left out: 4 loops faster across a line, 0 paying 2.5% to 5%"
expect_eq "calibrate back end: the profile line" "$(printf '%s\n' "$OUT" | grep '^profile:')" \
	"profile: fetch 32, uop window 64, line 64; straddles: 64; branch rule: -; loop buffer: 0; back end: 10 a cycle, 2 stores"
OUT=$(cat "$TMP/be.json")
expect_eq "calibrate back end: file" \
	"$(jq_of '"\(.profile.issue_width) \(.profile.stores_per_cycle) \(.back_end.issue_width) \(.back_end.stores_per_cycle)"')" \
	"10 2 10 2"
expect_eq "calibrate back end: the store experiments" \
	"$(jq_of '[.experiments[] | select(.nstore > 1) | "\(.name):\(.ninsn):\(.nstore)"] | join(" ")')" \
	"store-x2-24:7:2 store-x4-24:8:4 store-x8-32:12:8"
# the calibrated file scans the fixture as the built-in does
run "$STRADDLE" scan --json --all --uarch "$TMP/be.json" "$BE"
expect_eq "back end calibrated file: rows" "$(backend_rows)" \
	"st4:0x401038:19:7:true: st3:0x401138:16:6:false:64/16+8 copy:0x401231:80:21:true: nop20:0x401338:22:20:true: nop19:0x401438:21:19:false:64/32+8"
# a file from before the bound: none, and nothing hidden
jq 'del(.profile.issue_width, .profile.stores_per_cycle)' "$TMP/be.json" >"$TMP/old.json"
run "$STRADDLE" scan --json --all --uarch "$TMP/old.json" "$BE"
expect_eq "back end old file: every loop a hazard" \
	"$(jq_of '[.files[0].functions[].loops[] | .hazards | length] | join(",")')" "1,1,1,1,1"
jq '.profile.stores_per_cycle = 99' "$TMP/be.json" >"$TMP/bad.json"
run "$STRADDLE" scan --uarch "$TMP/bad.json" "$BE"
expect_eq "back end bad file: exit 2" "$RC" 2
expect_eq "back end bad file: the line" "$ERR" \
	"straddle: $TMP/bad.json: profile: \"stores_per_cycle\" is not a whole number from 0 to 64"
# a store's data to its load: given only where measured; 0 (renamed) is a
# measured figure, not an absent one
run "$STRADDLE" uarch --json
expect_eq "uarch: store to load where measured" \
	"$(jq_of '[.profiles[] | select(.store_load_cycles != null) | "\(.name):\(.store_load_cycles)"] | join(" ")')" \
	"haswell:5.25 skylake:4.43 icelake:0.58 goldencove:0 zen2:1"
jq '.profile.store_load_cycles = 0' "$TMP/be.json" >"$TMP/sl0.json"
run "$STRADDLE" uarch "$TMP/sl0.json"
expect_eq "uarch FILE: a renamed store to load read back" \
	"$(printf '%s\n' "$OUT" | grep '^store to load' | tr -s ' ')" \
	"store to load 0.00 cycles from a store's data to its load"
jq '.profile.store_load_cycles = 17' "$TMP/be.json" >"$TMP/sl17.json"
run "$STRADDLE" scan --uarch "$TMP/sl17.json" "$BE"
expect_eq "store to load out of range: exit 2, the line" "$RC|$ERR" \
	"2|straddle: $TMP/sl17.json: profile: \"store_load_cycles\" is not a number from 0 to 16"
run env -u COLUMNS "$STRADDLE" uarch
expect_eq "uarch: zen5's bound (insn/st)" "$(printf '%s\n' "$OUT" | grep '^zen5 ' | tr -s ' ' | cut -d' ' -f7-8)" \
	"- 10/2"
# no line longer than the terminal (80 when there is none; one
# evidence line was 1,277 characters), the rest behind uarch NAME
expect_eq "uarch: no line over 80 characters" "$(printf '%s\n' "$OUT" | awk 'length > 80' | wc -l)" 0
expect_eq "uarch: a table per architecture" "$(printf '%s\n' "$OUT" | grep -c '^[a-z0-9_]*:$')" 2
expect_eq "uarch: what a profile covers only where it fits" "$(printf '%s\n' "$OUT" | grep -c 'Intel SKL')" 0
run env COLUMNS=120 "$STRADDLE" uarch
expect_eq "uarch at 120 columns: skylake covers, whole" \
	"$(printf '%s\n' "$OUT" | grep '^skylake ' | sed 's/.*  //')" "Intel SKL, SKX, KBL, CFL, CML, CLX"
expect_eq "uarch at 120 columns: no line over 120" "$(printf '%s\n' "$OUT" | awk 'length > 120' | wc -l)" 0
run env -u COLUMNS "$STRADDLE" uarch zen5
expect_eq "uarch zen5: exit 0, one profile" "$RC $(printf '%s\n' "$OUT" | sed -n 1p)" "0 profile         zen5 (x86_64)"
expect_eq "uarch zen5: its bound" "$(printf '%s\n' "$OUT" | grep '^back end')" \
	"back end        10 instructions, 2 stores a cycle"
expect_eq "uarch zen5: its evidence, whole, wrapped at 80" \
	"$(printf '%s\n' "$OUT" | sed -n '/^evidence/,$p' | cut -c17- | tr '\n' ' ' | sed 's/ $//')" \
	"$("$STRADDLE" uarch --json | jq -r '.profiles[] | select(.name == "zen5") | .evidence')"
expect_eq "uarch zen5: no line over 80" "$(printf '%s\n' "$OUT" | awk 'length > 80' | wc -l)" 0
run "$STRADDLE" uarch goldencove
WC=$("$STRADDLE" uarch --json | jq -r '.profiles[] | select(.name == "goldencove") | .window_cycles')
expect_eq "uarch goldencove: what a window more costs, measured" "$(printf '%s\n' "$OUT" | grep '^a window more')" \
	"a window more   $(printf '%.2f' "$WC") cycles an iteration (measured)"
expect_eq "uarch goldencove: what of it a chain leaves, measured" \
	"$(printf '%s\n' "$OUT" | grep '^behind a chain') $("$STRADDLE" uarch --json | jq -r '.profiles[] | select(.name == "goldencove") | .latency_window_cycles')" \
	"behind a chain  0.03 cycles of it stay (measured) 0.03"
run "$STRADDLE" uarch skylake
expect_eq "uarch skylake: a window more, not measured" "$(printf '%s\n' "$OUT" | grep '^a window more')" \
	"a window more   1 cycle an iteration (not measured: a window a cycle)"
expect_eq "uarch skylake: behind a chain, not measured" "$(printf '%s\n' "$OUT" | grep '^behind a chain')" \
	"behind a chain  hidden (not measured)"
expect_eq "uarch skylake: the rule in words" "$(printf '%s\n' "$OUT" | grep '^branch rule')" \
	"branch rule     jcc-erratum: branch or fused pair crossing or ending on 32"
run "$STRADDLE" uarch zen5,skylake
expect_eq "uarch of two: exit 2, the line" "$RC $ERR" \
	"2 straddle: uarch: 'zen5,skylake': one profile, a name, host or a calibrate file"
run "$STRADDLE" uarch zen9
expect_eq "uarch of an unknown name: exit 2, the line" "$RC $ERR" \
	"2 straddle: --uarch: no profile named 'zen9' (see 'straddle uarch')"
run "$STRADDLE" uarch zen5 zen4
expect_eq "uarch of two words: exit 2" "$RC $ERR" "2 straddle: uarch: unexpected argument 'zen4' (one NAME at most)"
run "$STRADDLE" uarch "$TMP/be.json"
expect_eq "uarch FILE: the calibrated profile of a file" "$RC $(printf '%s\n' "$OUT" | sed -n 1p)" \
	"0 profile         calibrated (x86_64)"
# --all says why a loop across a line has no hazard
run "$STRADDLE" scan --all --no-source --uarch zen5 "$BE"
expect_eq "back end --all: st4's row" "$(printf '%s\n' "$OUT" | grep '^st4 ' | tr -s ' ')" \
	"st4 0x401038 0x40104b 19 1 7 1 yes no one 2/2 2/1 2/1 0 (back end)"
run "$STRADDLE" scan --all --no-source --uarch haswell --func st4 "$BE"
expect_eq "--all: a loop in haswell's loop buffer" "$(printf '%s\n' "$OUT" | grep '^st4 ' | tr -s ' ')" \
	"st4 0x401038 0x40104b 19 1 7 1 yes no one 2/2 2/1 2/1 0 (loop buffer)"
