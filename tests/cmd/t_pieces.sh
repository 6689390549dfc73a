# Loops in pieces (tests/fixtures/x86/pieces.S, arm64/pieces.S):
# a loop whose exit the compiler laid out between its header and its body
# is judged by the bytes every iteration runs, the header's run and the
# body's, windows counted over both, best over their bytes together. Every
# address checked against objdump -d of the fixtures.

pc_loops() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[] | $2] | join(\" \")"
}
PC_PIECES='.pieces | map("\(.start)-\(.end)/\(.bytes)") | join("+")'
PC_FACTS='"\(.bytes)/\(.instructions) cold \(.cold_blocks)/\(.cold_bytes) spin \(.spin)"'
PC_WIN='"\(.windows["16"].touched)/\(.windows["16"].best) \(.windows["32"].touched)/\(.windows["32"].best) \(.windows["64"].touched)/\(.windows["64"].best)"'
# the loop hazards: window, then the fix (.p2align bytes, +padding, or layout)
PC_HAZ='[.hazards[] | "\(.window):\(if .fix.layout then "layout" elif .fix.align then "\(.fix.align)+\(.fix.pad)" else "none" end)"] | join(",")'

run "$STRADDLE" scan --json --all --uarch generic-x86 "$FIXTURES/x86/pieces"
expect_eq "pieces: exit 0" "$RC" 0

# spin_lock, pthread_spin_lock's shape: the outer loop is H [0x401070,
# 0x401075) and B with the inner loop's jmp [0x401080, 0x401089): 14 B, 6
# instructions (lock decl, jne; pause, cmpl, jg, jmp), nothing out of line.
# It was [0x401070, 0x401075), the header alone, B out of line.
expect_eq "spin_lock: pieces" "$(pc_loops spin_lock "$PC_PIECES")" \
	"0x401070-0x401075/5+0x401080-0x401089/9 0x401080-0x401089/9"
expect_eq "spin_lock: facts" "$(pc_loops spin_lock "$PC_FACTS")" \
	"14/6 cold 0/0 spin true 9/4 cold 0/0 spin true"
# 16: 0x401070, 0x401080 = 2/1; 32: 0x401060, 0x401080 = 2/1; 64: 0x401040,
# 0x401080 = 2/1. .p2align 5 puts the pieces at 0x401080 and 0x401090, one
# line; no alignment puts 5 + 9 B 16 apart in one 16 B window: the layout.
expect_eq "spin_lock: windows" "$(pc_loops spin_lock "$PC_WIN")" "2/1 2/1 2/1 1/1 1/1 1/1"
expect_eq "spin_lock: hazards and fixes" "$(pc_loops spin_lock "$PC_HAZ")" "16:layout,64:32+16 "

# two_body: header, exit, then two blocks every iteration runs (B1, B2)
# with X, run by some, between them: [0x4010c0, 0x4010c4) and [0x4010d0,
# 0x4010dc), 4 + 12 = 16 B, 8 instructions. 16: 2/1 and no alignment
# helps (28 B from the first byte to the last): the layout.
expect_eq "two_body: pieces" "$(pc_loops two_body "$PC_PIECES")" \
	"0x4010c0-0x4010c4/4+0x4010d0-0x4010dc/12"
expect_eq "two_body: facts" "$(pc_loops two_body "$PC_FACTS")" "16/8 cold 0/0 spin false"
expect_eq "two_body: windows" "$(pc_loops two_body "$PC_WIN")" "2/1 1/1 1/1"
expect_eq "two_body: hazards and fixes" "$(pc_loops two_body "$PC_HAZ")" "16:layout"

# nested: the split inner loop IH [0x401106, 0x40110a) + IB [0x401120,
# 0x401124) inside the rotated outer loop [0x401104, 0x401110), one run,
# with IB out of line (1 block, 4 B): not every outer iteration runs it.
expect_eq "nested: pieces" "$(pc_loops nested "$PC_PIECES")" \
	"0x401106-0x40110a/4+0x401120-0x401124/4 0x401104-0x401110/12"
expect_eq "nested: facts" "$(pc_loops nested "$PC_FACTS")" \
	"8/4 cold 0/0 spin false 12/6 cold 1/4 spin false"
expect_eq "nested: depth" "$(pc_loops nested '"\(.depth)"')" "2 1"
expect_eq "nested: windows" "$(pc_loops nested "$PC_WIN")" "2/1 2/1 1/1 1/1 1/1 1/1"
expect_eq "nested: hazards and fixes" "$(pc_loops nested "$PC_HAZ")" "16:layout "

# far: 4 + 6 = 10 B, one 16 B window and one line in one run, but the
# pieces 0x401140 and 0x401180 are 64 bytes apart: two lines wherever it
# is placed, so the fix is the layout's.
expect_eq "far: pieces" "$(pc_loops far "$PC_PIECES")" "0x401140-0x401144/4+0x401180-0x401186/6"
expect_eq "far: windows" "$(pc_loops far "$PC_WIN")" "2/1 2/1 2/1"
expect_eq "far: hazards and fixes" "$(pc_loops far "$PC_HAZ")" "16:layout,64:layout"

# fine: [0x4011c0, 0x4011c4) + [0x4011c8, 0x4011ce) in one 16 B window.
expect_eq "fine: pieces" "$(pc_loops fine "$PC_PIECES")" "0x4011c0-0x4011c4/4+0x4011c8-0x4011ce/6"
expect_eq "fine: windows" "$(pc_loops fine "$PC_WIN")" "1/1 1/1 1/1"
expect_eq "fine: no hazard" "$(pc_loops fine "$PC_HAZ")" ""

# The text rows name the pieces; spin_lock's outer loop, priced at nothing
# (its time is its inner spin's: cost.c, outer_straddle_price), is folded
# into one line, and --all shows it after every other row (a wait), the
# entry hazard of its function included.
run "$STRADDLE" scan --uarch generic-x86 "$FIXTURES/x86/pieces"
expect_eq "pieces: rows" \
	"$(printf '%s\n' "$OUT" | awk '$1 == "medium" || $1 == "low" { print $2, $4, $6, $7 }' | tr '\n' ';')" \
	"far 0x401140 10 16,64;nested 0x401106 8 16;two_body 0x4010c0 16 16;spin_lock 0x401070 25 64;"
expect_eq "pieces: the outer loop's row folded" "$(printf '%s\n' "$OUT" | grep 'cost nothing')" \
	"1 hazard that cost nothing here (of loops with loops in them, or run from the loop buffer): --all lists them"
run "$STRADDLE" scan --all --uarch generic-x86 "$FIXTURES/x86/pieces"
expect_eq "pieces --all: rows" \
	"$(printf '%s\n' "$OUT" | awk '$1 == "medium" || $1 == "low" { print $2, $4, $6, $7 }' | tr '\n' ';')" \
	"far 0x401140 10 16,64;nested 0x401106 8 16;two_body 0x4010c0 16 16;spin_lock 0x401070 25 64;spin_lock 0x401070 14 16,64;"
expect_eq "pieces: spin_lock's detail" \
	"$(printf '%s\n' "$OUT" | awk '$2 == "spin_lock" && $7 == "16,64" && $9 == "in" { print $8, $9, $10, $11, $12, $13, $14 }')" \
	"2/1,2/1 in 2 pieces: 0x401070/5 0x401080/9, spin"
expect_eq "pieces: the layout fix, said once for the row" \
	"$(printf '%s\n' "$OUT" | awk '$2 == "two_body"' | sed 's/.*certain *//')" \
	"<=2.00x  none by alignment: move the exit out from between the pieces (__builtin_expect, a profile, -freorder-blocks-algorithm)"

# one row, two windows, two fixes (none by alignment at 16 B): each said;
# priced at 1x: the outer loop's time is its inner spin's (cost.c,
# outer_straddle_price)
expect_eq "pieces: spin_lock's fixes, each window's" \
	"$(printf '%s\n' "$OUT" | awk '$2 == "spin_lock" && $7 == "16,64"' | sed 's/.*certain *//')" \
	"1.00x    generic-x86@16: none by alignment: move the exit out from between the pieces (__builtin_expect, a profile, -freorder-blocks-algorithm); generic-x86@64: .p2align 5 (+16 B)"

# --fail-on leaves a spin loop out unless --fail-on-spin asks.
run "$STRADDLE" scan --uarch generic-x86 --func spin_lock --fail-on loop-straddles-window "$FIXTURES/x86/pieces"
expect_eq "spin: --fail-on leaves it out" "$RC" 0
run "$STRADDLE" scan --uarch generic-x86 --func spin_lock --fail-on loop-straddles-window --fail-on-spin "$FIXTURES/x86/pieces"
expect_eq "spin: --fail-on-spin counts it" "$RC" 1
run "$STRADDLE" scan --uarch generic-x86 --func spin_lock --fail-on entry-misaligned "$FIXTURES/x86/pieces"
expect_eq "spin: its function's entry still gates" "$RC" 1

# AArch64 (generic-arm64 judges 16 and 64).
run "$STRADDLE" scan --json --all --uarch generic-arm64 "$FIXTURES/arm64/pieces"
# spin_lock: H [0x400070, 0x400078) + B [0x400080, 0x400090) (yield ...),
# 24 B. 16: 0x400070, 0x400080 = 2/2; 64: 0x400040, 0x400080 = 2/1, which
# .p2align 5 (+16 B) fixes (0x400080..0x4000a0, one line).
expect_eq "arm64 spin_lock: pieces" "$(pc_loops spin_lock "$PC_PIECES")" \
	"0x400070-0x400078/8+0x400080-0x400090/16 0x400080-0x400090/16"
expect_eq "arm64 spin_lock: facts" "$(pc_loops spin_lock "$PC_FACTS")" \
	"24/6 cold 0/0 spin true 16/4 cold 0/0 spin true"
expect_eq "arm64 spin_lock: windows" "$(pc_loops spin_lock "$PC_WIN")" "2/2 2/1 2/1 1/1 1/1 1/1"
expect_eq "arm64 spin_lock: hazards and fixes" "$(pc_loops spin_lock "$PC_HAZ")" "64:32+16 "
# two_body: 8 + 20 = 28 B; 16: 0x4000c0, 0x4000d0, 0x4000e0 = 3/2: layout.
expect_eq "arm64 two_body: pieces" "$(pc_loops two_body "$PC_PIECES")" \
	"0x4000c0-0x4000c8/8+0x4000d0-0x4000e4/20"
expect_eq "arm64 two_body: hazards and fixes" "$(pc_loops two_body "$PC_HAZ")" "16:layout"
# nested: inner [0x40010c, 0x400114) + [0x400140, 0x400148), 16 B: 16:
# 0x400100, 0x400110, 0x400140 = 3/1 (layout); 64: 0x400100, 0x400140 =
# 2/1, which .p2align 6 (+52 B) fixes (0x400140 and 0x400174, one line).
expect_eq "arm64 nested: pieces" "$(pc_loops nested "$PC_PIECES")" \
	"0x40010c-0x400114/8+0x400140-0x400148/8 0x400108-0x400120/24"
expect_eq "arm64 nested: facts" "$(pc_loops nested "$PC_FACTS")" \
	"16/4 cold 0/0 spin false 24/6 cold 1/8 spin false"
expect_eq "arm64 nested: hazards and fixes" "$(pc_loops nested "$PC_HAZ")" "16:layout,64:64+52 "
# far: 16 B 80 bytes apart: two lines whatever the alignment.
expect_eq "arm64 far: pieces" "$(pc_loops far "$PC_PIECES")" "0x400180-0x400188/8+0x4001d0-0x4001d8/8"
expect_eq "arm64 far: hazards and fixes" "$(pc_loops far "$PC_HAZ")" "16:layout,64:layout"
# fine: 20 B in 0x400200 and 0x400210 (2/2), one line.
expect_eq "arm64 fine: pieces" "$(pc_loops fine "$PC_PIECES")" "0x400200-0x400208/8+0x400210-0x40021c/12"
expect_eq "arm64 fine: windows" "$(pc_loops fine "$PC_WIN")" "2/2 1/1 1/1"
expect_eq "arm64 fine: no hazard" "$(pc_loops fine "$PC_HAZ")" ""
