# Loops of more than one block (tests/fixtures/x86/shapes.S): two latches,
# and a loop block placed out of line.

sh_loop() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[0] | $2] | .[0]"
}

SH="$FIXTURES/x86/shapes"
run "$STRADDLE" scan --json --all --uarch skylake,goldencove,generic-x86 "$SH"
expect_eq "shapes: exit 0" "$RC" 0
# multi_latch: one loop (two back edges to one header), [0x401041, 0x40107c):
# decl, 25 nops, jnz, incq, 19 nops, decl, jnz = 49 instructions.
expect_eq "multi_latch: one loop" "$(jq_of '[.files[0].functions[] | select(.name == "multi_latch") | .loops[]] | length')" 1
expect_eq "multi_latch: range" "$(sh_loop multi_latch '"\(.start)-\(.end)/\(.bytes)/\(.instructions)"')" "0x401041-0x40107c/59/49"
# 16: 0x401040..70 = 4 = ceil(59/16); 32: 0x401040/60 = 2 = ceil(59/32); 64: 1.
expect_eq "multi_latch: touched/best" \
	"$(sh_loop multi_latch '"\(.windows["16"].touched)/\(.windows["16"].best) \(.windows["32"].touched)/\(.windows["32"].best) \(.windows["64"].touched)/\(.windows["64"].best)"')" \
	"4/4 2/2 1/1"
# skylake: latch 1's jnz [0x40105c, 0x401062) spans 0x401060; latch 2's
# pair [0x401078, 0x40107c) is clear. Fix, checking both back edges:
# .p2align 2 -> 0x401042, jnz [0x5d, 0x63) spans; 4 -> 0x401044, [0x5f, 0x65)
# spans; 8 -> 0x401048: jnz [0x63, 0x69) clear but the pair of latch 2
# [0x40107f, 0x401083) now spans 0x401080; 16 -> 0x401050 (+15): jnz
# [0x6b, 0x71), pair [0x87, 0x8b): both clear, but the 59 bytes at 0x401050
# touch 3 windows of 32 (best 2): a new skylake hazard, so the fix is not
# clean. 32 -> 0x401060 (+31): 2 lines of 64 (best 1); 64 -> 0x401080
# (+63): the jnz [0x40109b, 0x4010a1) spans 0x4010a0. No clean fix: the
# smallest that removes this jnz's hazard here is reported, .p2align 3
# (+7), marked not clean (latch 2's pair crosses instead, a new hazard). It
# holds only here: the jnz is at loop offsets 0x1b..0x21, across 32 from
# every 32-aligned start, so no .p2align holds in every build (align null).
expect_eq "multi_latch: hazards" \
	"$(sh_loop multi_latch '[.hazards[] | "\(.profile)/\(.rule)/\(.window)/\(.fix.align)+\(.fix.pad)/\(.fix.clean)~\(.fix.here_align)+\(.fix.here_pad)/\(.fix.here_clean)"] | sort | join(" ")')" \
	"skylake/branch-crosses-window/32/null+null/null~8+7/false"
# The hazard names the branch at fault: latch 1's jnz, unfused.
expect_eq "multi_latch: branch at fault" \
	"$(sh_loop multi_latch '[.hazards[] | "\(.branch)/\(.branch_kind)/\(.pair)"] | join(" ")')" \
	"0x40105c/jcc/null"

# cold_path: header [0x401140, 0x401144) and latch [0x401144, 0x401148) make
# the range [0x401140, 0x401148): decl, js, test, jnz. The block at
# 0x4011c0 (incl; jmp back to the latch, 4 B) belongs to the loop but lies
# outside the range: counted as cold, not folded in.
expect_eq "cold_path: range" "$(sh_loop cold_path '"\(.start)-\(.end)/\(.bytes)/\(.instructions)"')" "0x401140-0x401148/8/4"
expect_eq "cold_path: cold blocks" "$(sh_loop cold_path '"\(.cold_blocks)/\(.cold_bytes)"')" "1/4"
expect_eq "cold_path: branch" "$(sh_loop cold_path .branch)" 0x401146
# [0x401140, 0x401148) lies in one 16 B window; the test/jnz pair
# [0x401144, 0x401148) crosses nothing and ends at 0x401147.
expect_eq "cold_path: no hazards" "$(sh_loop cold_path '.hazards | length')" 0
