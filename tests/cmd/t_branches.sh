# Every branch of a loop's span, the branch at fault, and fixes that hold
# in any build (tests/fixtures/x86/branches.S; mid_entry of spans.S).

br_hz() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[0].hazards[]
		| select(.profile == \"$2\") | $3] | join(\" \")"
}
BR_FIX='"\(.rule)/\(.window)/\(.fix.align)+\(.fix.pad)/\(.fix.clean)~\(.fix.here_align)+\(.fix.here_pad)"'
BR_AT='"\(.rule)/\(.window)/\(.branch)/\(.branch_kind)/\(.pair)"'

run "$STRADDLE" scan --json --all --uarch skylake,goldencove,generic-x86 "$FIXTURES/x86/branches"
expect_eq "branches: exit 0" "$RC" 0

# many_back: seven back edges (je x6, jnz); the loop's first is 0x401112.
expect_eq "many_back: span" \
	"$(jq_of '.files[0].functions[] | select(.name == "many_back") | .loops[0] | "\(.start)-\(.end)/\(.bytes) \(.branch)"')" \
	"0x401110-0x401138/40 0x401112"
# Only the fifth, je [0x40111f, 0x401121), spans 0x401120; the je before it
# is a nop, so it is unfused. Named, not the first back edge.
expect_eq "many_back: skylake names the fifth" "$(br_hz many_back skylake "$BR_AT")" \
	"branch-crosses-window/32/0x40111f/jcc/null"
# Fix: 0x401110 is 16-aligned; .p2align 5 -> 0x401120 (+16): the je at
# 0x40112f clears 32 anywhere 32-aligned, but 40 B from 0x401120 cross the
# line 0x401140, a new hazard; .p2align 6 -> 0x401140 (+48): clean. Nothing
# smaller holds here either.
expect_eq "many_back: skylake fix" "$(br_hz many_back skylake "$BR_FIX")" \
	"branch-crosses-window/32/64+48/true~null+null"
# goldencove: the crossing je is a back edge, but 0x401120 is no line.
expect_eq "many_back: goldencove" "$(br_hz many_back goldencove "$BR_AT")" ""

# fwd_cross: the forward cmp; jne pair [0x40123d, 0x401241) spans 0x401240,
# a 32 B boundary and a line. skylake (JCC erratum: every branch) names it
# with its fused partner; goldencove's rule covers closing branches only
# (measured on a loop's back edge), so no branch hazard there.
expect_eq "fwd_cross: skylake names jne and its pair" \
	"$(br_hz fwd_cross skylake "select(.rule | startswith(\"branch\")) | $BR_AT")" \
	"branch-crosses-window/32/0x40123f/jcc/0x40123d"
expect_eq "fwd_cross: goldencove, no branch rule" \
	"$(br_hz fwd_cross goldencove "select(.rule | startswith(\"branch\")) | .rule")" ""
# .p2align 3 -> 0x401230 (+4): the pair at loop offsets 0x11..0x15 spans no
# 32 B boundary from any multiple of 8.
expect_eq "fwd_cross: skylake fix" \
	"$(br_hz fwd_cross skylake "select(.rule | startswith(\"branch\")) | $BR_FIX")" \
	"branch-crosses-window/32/8+4/true~null+null"

# line44: 44 B at 0x401330 (48 mod 64) across the line 0x401340. .p2align 4:
# already so aligned; .p2align 5 -> 0x401340 (+16) fits here, but 44 B from
# 32 mod 64 cross a line: only .p2align 6 (+16) holds in every build.
expect_eq "line44: fix holds anywhere" "$(br_hz line44 generic-x86 "$BR_FIX")" \
	"loop-straddles-window/64/64+16/true~32+16"
run "$STRADDLE" scan --uarch generic-x86 --no-source --func line44 "$FIXTURES/x86/branches"
expect_eq "line44: text fix" "$(printf '%s\n' "$OUT" | grep -c '\.p2align 6 (+16 B); \.p2align 5 (+16 B) holds only here')" 1

# skylake covers every branch: in spans.S's mid_entry the forward test; jz
# pair [0x40103c, 0x401040) ends on the last byte of the 32 B window
# 0x401020-3f. .p2align 3 -> 0x401040 (+6): the pair ends at loop offset 6,
# never the end of a 32 B window from a multiple of 8.
run "$STRADDLE" scan --json --all --uarch skylake "$FIXTURES/x86/spans"
expect_eq "mid_entry: skylake names the forward jz" \
	"$(br_hz mid_entry skylake "select(.rule | startswith(\"branch\")) | $BR_AT + \"/\" + (.fix.align | tostring)")" \
	"branch-ends-window/32/0x40103e/jcc/0x40103c/8"
run "$STRADDLE" scan --uarch skylake --no-source --func mid_entry "$FIXTURES/x86/spans"
expect_eq "mid_entry: text detail" "$(printf '%s\n' "$OUT" | grep -c 'jcc 0x40103e pair 0x40103c  *branch-ends-window')" 1
