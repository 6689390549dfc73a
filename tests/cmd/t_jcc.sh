# Branch rules (tests/fixtures/x86/jcc.S): skylake's JCC erratum at 32 B,
# goldencove's fused-pair part crossing 64 B. Every loop there touches no
# more windows than it needs, so the branch rules are the only hazards.

jc_loop() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[0] | $2] | .[0]"
}
jc_hz() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[0].hazards[]
		| select(.profile == \"$2\")
		| \"\(.rule)/\(.window)/\(.certain)/\(.fix.align)+\(.fix.pad)\(if .fix.here_align then \"~\(.fix.here_align)+\(.fix.here_pad)\" else \"\" end)\"] | sort | join(\" \")"
}
jc_tb() {
	jc_loop "$1" '"\(.windows["16"].touched)/\(.windows["16"].best) \(.windows["32"].touched)/\(.windows["32"].best) \(.windows["64"].touched)/\(.windows["64"].best)"'
}

JCC="$FIXTURES/x86/jcc"
run "$STRADDLE" scan --json --all --uarch all "$JCC"
expect_eq "jcc: exit 0" "$RC" 0
expect_eq "jcc: six functions, one loop each" "$(jq_of '[.files[0].functions[] | "\(.name):\(.loops | length)"] | join(",")')" \
	"jcc_cross:1,jcc_ends:1,jcc_fused_split:1,js_unfused_split:1,gc_dec_split:1,gc_split_at_line:1"

# jcc_cross: [0x401041, 0x401062), 33 B. 16: 0x401040/50/60 = 3, ceil(33/16) = 3;
# 32: 0x401040/60 = 2, 2; 64: 1, 1.
expect_eq "jcc_cross: range" "$(jc_loop jcc_cross '"\(.start)-\(.end) \(.branch)"')" "0x401041-0x401062 0x40105c"
expect_eq "jcc_cross: touched/best" "$(jc_tb jcc_cross)" "3/3 2/2 1/1"
# jnz [0x40105c, 0x401062) spans 0x401060. Fix: .p2align 2 -> 0x401042, jnz
# [0x5d, 0x63) spans; 4 -> 0x401044, [0x5f, 0x65) spans; 8 -> 0x401048 (+7),
# [0x63, 0x69): clear here. It ends at 0x401061, not a window's last byte.
# But the jnz is at offsets 27..33 of the loop: from any 32-aligned start
# it spans the boundary at 32, so no .p2align holds in every build (fix
# align null); .p2align 3 (+7) holds only here.
expect_eq "jcc_cross: skylake" "$(jc_hz jcc_cross skylake)" "branch-crosses-window/32/true/null+null~8+7"
# 0x401060 is no 64 B boundary.
expect_eq "jcc_cross: goldencove" "$(jc_hz jcc_cross goldencove)" ""
expect_eq "jcc_cross: severity high" "$(jc_loop jcc_cross '.hazards[0].severity')" 3

# jcc_ends: [0x401184, 0x4011a0), 28 B: 16: 0x401180/90 = 2, 2; 32: 1, 1; 64: 1, 1.
expect_eq "jcc_ends: range" "$(jc_loop jcc_ends '"\(.start)-\(.end) \(.branch)"')" "0x401184-0x4011a0 0x40119e"
expect_eq "jcc_ends: touched/best" "$(jc_tb jcc_ends)" "2/2 1/1 1/1"
# The jnz's last byte 0x40119f is the last of the window 0x401180-9f.
# Fix: 0x401184 is 4-aligned. .p2align 8 -> 0x401188 (+4) would end the jnz at
# 0x4011a3 but spread the 28 bytes over 3 windows of 16 (best 2) and 2 of 32:
# a fix may not bring in a hazard of the same profile. .p2align 16 -> 0x401190
# (+12): 0x401190-0x4011ab, 2 windows of 16, but 2 of 32. .p2align 32 ->
# 0x4011a0 (+28): 2/2, 1/1, 1/1, the jnz ends at 0x4011bb: clean.
expect_eq "jcc_ends: skylake" "$(jc_hz jcc_ends skylake)" "branch-ends-window/32/true/32+28"
expect_eq "jcc_ends: goldencove (no ends rule)" "$(jc_hz jcc_ends goldencove)" ""

# jcc_fused_split: [0x4012c1, 0x4012e2), 33 B: 3/3 2/2 1/1.
expect_eq "jcc_fused_split: range" "$(jc_loop jcc_fused_split '"\(.start)-\(.end) \(.branch)"')" "0x4012c1-0x4012e2 0x4012e0"
expect_eq "jcc_fused_split: touched/best" "$(jc_tb jcc_fused_split)" "3/3 2/2 1/1"
# cmp+jnz fuse; the pair [0x4012dd, 0x4012e2) spans 0x4012e0 though the jnz
# alone does not. Fix: 2 -> 0x4012c2, pair [0xde, 0xe3) spans; 4 ->
# 0x4012c4 (+3), pair [0xe0, 0xe5): clear here only: the pair is at
# offsets 28..33, across 32 from every 32-aligned start.
expect_eq "jcc_fused_split: skylake" "$(jc_hz jcc_fused_split skylake)" "branch-crosses-window/32/true/null+null~4+3"
expect_eq "jcc_fused_split: goldencove" "$(jc_hz jcc_fused_split goldencove)" ""

# js_unfused_split: cmp does not fuse with js (sign flag); js
# [0x4013e0, 0x4013e2) crosses nothing and ends at 0x4013e1: no hazard.
expect_eq "js_unfused_split: touched/best" "$(jc_tb js_unfused_split)" "3/3 2/2 1/1"
expect_eq "js_unfused_split: no hazard" "$(jc_loop js_unfused_split '.hazards | length')" 0

# gc_dec_split: [0x401442, 0x401483), 65 B: 16: 0x401440..80 = 5, ceil(65/16) = 5;
# 32: 0x401440/60/80 = 3, 3; 64: 0x401440/80 = 2, 2.
expect_eq "gc_dec_split: range" "$(jc_loop gc_dec_split '"\(.start)-\(.end) \(.branch)"')" "0x401442-0x401483 0x401481"
expect_eq "gc_dec_split: touched/best" "$(jc_tb gc_dec_split)" "5/5 3/3 2/2"
# decl [0x40147f, 0x401481) spans the line 0x401480. Fix: 0x401442 is even;
# .p2align 4 -> 0x401444 (+2): decl at 0x401481, jnz at 0x401483.
# That holds only here: the decl is at offsets 61..63, across 64 from every
# 64-aligned start.
expect_eq "gc_dec_split: goldencove" "$(jc_hz gc_dec_split goldencove)" "branch-crosses-window/64/true/null+null~4+2"
# The pair [0x40147f, 0x401483) spans 0x401480, also a 32 B boundary.
expect_eq "gc_dec_split: skylake" "$(jc_hz gc_dec_split skylake)" "branch-crosses-window/32/true/null+null~4+2"

# gc_split_at_line: [0x401581, 0x4015c2), 65 B: 5/5 3/3 2/2.
expect_eq "gc_split_at_line: touched/best" "$(jc_tb gc_split_at_line)" "5/5 3/3 2/2"
# cmp [0x4015bd, 0x4015c0) and jnz [0x4015c0, 0x4015c2): no part spans the
# line, but the pair does span 0x4015c0, a 64 B line and a 32 B boundary:
# goldencove (measured on EMR: 1.13x with the line between decl and jnz) and
# skylake. Fix: 2 -> 0x401582, pair [0xbe, 0xc3) spans; 4 -> 0x401584 (+3):
# clear, and 65 B from 0x401584 touch 5/3/2 windows as now; only here: the
# pair is at offsets 60..65, across 64 from every 64-aligned start.
expect_eq "gc_split_at_line: goldencove" "$(jc_hz gc_split_at_line goldencove)" "branch-crosses-window/64/true/null+null~4+3"
expect_eq "gc_split_at_line: skylake" "$(jc_hz gc_split_at_line skylake)" "branch-crosses-window/32/true/null+null~4+3"

# Nothing else in the file for any x86 profile: 1+1+1+0+2+2.
expect_eq "jcc: total hazards" "$(jq_of '[.files[0].functions[].loops[].hazards[]] | length')" 7
expect_eq "jcc: only skylake and goldencove" \
	"$(jq_of '[.files[0].functions[].loops[].hazards[].profile] | unique | join(",")')" goldencove,skylake

run "$STRADDLE" scan --json --uarch skylake --fail-on branch-ends-window "$JCC"
expect_eq "jcc: --fail-on branch-ends-window" "$RC" 1
run "$STRADDLE" scan --json --uarch skylake --func 'gc_*' --fail-on branch-ends-window "$JCC"
expect_eq "jcc: --fail-on branch-ends-window, only gc_*" "$RC" 0
run "$STRADDLE" scan --json --uarch goldencove --fail-on branch-crosses-window "$JCC"
expect_eq "jcc: goldencove --fail-on branch-crosses-window" "$RC" 1
run "$STRADDLE" scan --json --uarch goldencove --func 'jcc_*' --fail-on branch-crosses-window,branch-ends-window "$JCC"
expect_eq "jcc: goldencove, jcc_* only: no branch hazard" "$RC" 0
