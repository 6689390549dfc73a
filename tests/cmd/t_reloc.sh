# Placement certainty in a relocatable object (tests/fixtures/x86/reloc.S):
# .text has sh_addralign 16, so a loop at offset o lies, modulo W, at
# o mod 16 + 16k for k < W/16. A verdict about W <= 16 is certain; others
# count the hazardous placements among the W/16 possible ones.

rl_hz() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[0].hazards[]
		| select(.profile == \"$2\")
		| \"\(.rule)/\(.window)/\(.certain)/\(.placements.hazardous)of\(.placements.possible)/\(.fix.align)+\(.fix.pad)\"]
		| sort | join(\" \")"
}
rl_loop() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[0] | $2] | .[0]"
}

RO="$FIXTURES/x86/reloc.o"
run "$STRADDLE" scan --json --all --uarch generic-x86,zen2 "$RO"
expect_eq "reloc .o: exit 0" "$RC" 0
expect_eq "reloc .o: elf_type" "$(jq_of '.files[0].elf_type')" rel
expect_eq "reloc .o: functions at section offsets" \
	"$(jq_of '[.files[0].functions[] | "\(.name)@\(.addr)+\(.size)"] | join(",")')" \
	"reloc_seed000@0x0+68,reloc_forty@0x80+65"
# entry_align is bounded by what the section guarantees: 16.
expect_eq "reloc .o: entry_align" "$(jq_of '[.files[0].functions[].entry_align] | join(",")')" 16,16
expect_eq "reloc .o: seed000 loop" "$(rl_loop reloc_seed000 '"\(.start)-\(.end)"')" 0x34-0x43

# reloc_seed000, loop [0x34, 0x43), 15 B, offset mod 16 = 4.
#  16: certain: [0x34, 0x43) spans 0x40. Fix as in seed 000: .p2align 8 ->
#      0x38 still spans 0x40; .p2align 16 -> 0x40 (+12).
#  64: starts 4, 20, 36, 52: only [52, 67) spans 64: 1 of 4. Fix: .p2align 8
#      -> 0x38: starts 8, 24, 40, 56: [56, 71) spans; .p2align 16 -> 0x40:
#      starts 0, 16, 32, 48: all fit (+12).
#  32 (zen2): starts 4, 20: [20, 35) spans 32: 1 of 2. Fix: 8 -> starts 8,
#      24: [24, 39) spans; 16 -> 0, 16: fit (+12).
expect_eq "reloc .o seed000: generic-x86" "$(rl_hz reloc_seed000 generic-x86)" \
	"loop-straddles-window/16/true/1of1/16+12 loop-straddles-window/64/false/1of4/16+12"
expect_eq "reloc .o seed000: zen2" "$(rl_hz reloc_seed000 zen2)" \
	"loop-straddles-window/32/false/1of2/16+12 loop-straddles-window/64/false/1of4/16+12"

# reloc_forty, loop [0x98, 0xc0), 40 B, offset mod 16 = 8.
#  16: certain: 0x98/16 = 9 .. 0xbf/16 = 11: 3 = ceil(40/16): no hazard.
#  32: starts 8, 24: [8, 48) and [24, 64) touch 2 = ceil(40/32): none.
#  64: starts 8, 24, 40, 56: [40, 80) and [56, 96) touch two lines: 2 of 4.
#      Fix: 0x98 is 8-aligned; .p2align 16 -> 0xa0: starts 0, 16, 32, 48,
#      [32, 72) spans; .p2align 32 -> 0xa0: starts 0, 32, [32, 72) spans;
#      .p2align 64 -> 0xc0 (+40): certain, [0xc0, 0xe8) in one line.
# At its own offset in the file it fits the line 0x80-0xbf: 1/1.
expect_eq "reloc .o forty: windows at its offset" \
	"$(rl_loop reloc_forty '"\(.windows["16"].touched)/\(.windows["16"].best) \(.windows["64"].touched)/\(.windows["64"].best)"')" "3/3 1/1"
expect_eq "reloc .o forty: generic-x86" "$(rl_hz reloc_forty generic-x86)" \
	"loop-straddles-window/64/false/2of4/64+40"
expect_eq "reloc .o forty: zen2" "$(rl_hz reloc_forty zen2)" \
	"loop-straddles-window/64/false/2of4/64+40"
# The table says "N of M" instead of "certain".
run "$STRADDLE" scan --uarch generic-x86 --no-source "$RO"
expect_eq "reloc .o: table placement column" \
	"$(printf '%s\n' "$OUT" | grep 'reloc_forty' | grep -c '2 of 4')" 1

# The same code linked at 0x401000: certain everywhere. reloc_seed000 at
# 0x401034 straddles 16 and 64 as in seed 000; reloc_forty [0x401098,
# 0x4010c0) lies in the line 0x401080-bf: no 64 B hazard.
run "$STRADDLE" scan --json --all --uarch generic-x86 "$FIXTURES/x86/reloc"
expect_eq "reloc exec: seed000" "$(rl_hz reloc_seed000 generic-x86)" \
	"loop-straddles-window/16/true/1of1/16+12 loop-straddles-window/64/true/1of1/16+12"
expect_eq "reloc exec: forty clean" "$(rl_loop reloc_forty '.hazards | length')" 0
expect_eq "reloc exec: entry_align" "$(jq_of '[.files[0].functions[].entry_align] | join(",")')" 4096,128

# Branch rules are placement-dependent too. reloc_seed000's decl/jnz pair is
# at loop offsets 0xb..0xf. skylake, W = 32, starts 4 and 20: pair [15, 19)
# clear, [31, 35) spans 32: 1 of 2; it never ends on a window (ends 18, 34).
# goldencove, W = 64, starts 4, 20, 36, 52: the decl [63, 65) spans 64 at
# 52 only: 1 of 4. Fix: .p2align 8 -> 0x38: starts 8 and 24 (mod 32) put the
# pair at [19, 23) and [35, 39); starts 8..56 (mod 64) put the decl at
# 19, 35, 51, 67 and the jnz at 21, 37, 53, 69: clear (+4).
run "$STRADDLE" scan --json --all --uarch skylake,goldencove "$RO"
expect_eq "reloc .o seed000: skylake branch" \
	"$(rl_hz reloc_seed000 skylake | tr ' ' '\n' | grep '^branch' | tr '\n' ' ')" \
	"branch-crosses-window/32/false/1of2/8+4 "
expect_eq "reloc .o seed000: goldencove branch" \
	"$(rl_hz reloc_seed000 goldencove | tr ' ' '\n' | grep '^branch' | tr '\n' ' ')" \
	"branch-crosses-window/64/false/1of4/8+4 "

# seed000_fixed.o: `.align 16` gives .text sh_addralign 16 and the loop
# offset 0x40. At 0, 16, 32, 48 (mod 64) the 15 bytes fit every window; the
# pair at s+11..s+15 never spans 32 or 64 nor ends on a window: clean for
# every profile at every placement.
run "$STRADDLE" scan --json --all --uarch all "$FIXTURES/x86/seed000_fixed.o"
expect_eq "seed000_fixed.o: clean at every placement" \
	"$RC $(jq_of '[.files[0].functions[].loops[] | "\(.start):\(.hazards | length)"] | join(",")')" "0 0x40:0"

# seed000_after.o has no alignment directive: sh_addralign 1, so the loop at
# 0x34 may start at any s mod W. 15 bytes span a 16 B boundary for s = 2..15:
# 14 of 16; a 64 B one for s = 50..63: 14 of 64. Fix: .p2align 2 and 4 keep
# s even / a multiple of 4 mod 16, still crossing at 2 or 4; .p2align 8 ->
# 0x38, s = 0 or 8, crossing at 8; .p2align 16 -> 0x40 (+12): certain and
# clear, for both windows.
run "$STRADDLE" scan --json --all --uarch generic-x86 "$FIXTURES/x86/seed000_after.o"
expect_eq "seed000_after.o: generic-x86" "$(rl_hz clear_user_after generic-x86)" \
	"loop-straddles-window/16/false/14of16/16+12 loop-straddles-window/64/false/14of64/16+12"
