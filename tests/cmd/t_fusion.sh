# Macro-fusion classes (tests/fixtures/x86/fusion.S): a compare-like
# instruction before a 32 B boundary and its jcc after it. skylake flags the
# pair only when the two fuse. Fix for a fused pair at loop offsets
# 0x1d/0x1e..0x21 of a loop at base + 0xc1: .p2align 2 -> +1 still spans
# base + 0xe0; .p2align 2 -> base + 0xc4 (+3): the pair starts at or after
# base + 0xe0. That holds only here: from any 32-aligned start the pair at
# offsets 0x1d..0x21 spans 32, so no .p2align holds in every build.

fu_hz() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[0].hazards[]
		| \"\(.profile)/\(.rule)/\(.window)/\(.fix.align)+\(.fix.pad)\(if .fix.here_align then \"~\(.fix.here_align)+\(.fix.here_pad)\" else \"\" end)\"] | sort | join(\" \")"
}

FU="$FIXTURES/x86/fusion"
run "$STRADDLE" scan --json --all --uarch skylake,goldencove "$FU"
expect_eq "fusion: exit 0" "$RC" 0
for f in f_test_js f_and_jo f_cmpri_jne f_add_jb; do
	expect_eq "fusion: $f fuses" "$(fu_hz $f)" "skylake/branch-crosses-window/32/null+null~4+3"
done
for f in f_cmpmi_jne f_sub_js f_inc_jb f_mov_jne; do
	expect_eq "fusion: $f does not fuse" "$(fu_hz $f)" ""
done
# Every loop is [base + 0xc1, base + 0xe2): 3/3, 2/2, 1/1.
expect_eq "fusion: loops fit their windows" \
	"$(jq_of '[.files[0].functions[].loops[] | "\(.windows["16"].touched)\(.windows["16"].best)\(.windows["32"].touched)\(.windows["32"].best)\(.windows["64"].touched)\(.windows["64"].best)"] | unique | join(",")')" \
	332211
