# Seed 003: small functions at and off a 64 B line boundary
# (tests/fixtures/x86/seed003.S). entry-misaligned: a function of at most
# 64 bytes that touches two lines; the fix is the .p2align before it.

s3_fn() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | $2] | .[0]"
}
s3_hz() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .hazards[]
		| select(.profile == \"$2\")
		| \"\(.rule)/\(.window)/\(.certain)/\(.placements.hazardous)of\(.placements.possible)/\(.fix.align)+\(.fix.pad)\"]
		| sort | join(\" \")"
}

S3="$FIXTURES/x86/seed003"
run "$STRADDLE" scan --json --all --uarch generic-x86,zen1 "$S3"
expect_eq "003: exit 0" "$RC" 0
expect_eq "003: five functions" "$(jq_of '[.files[0].functions[] | "\(.name)@\(.addr)+\(.size)"] | join(",")')" \
	"vdso_aligned@0x401000+60,vdso_shifted@0x401048+60,fits64@0x4010c0+64,edge64@0x401101+64,big65@0x401141+65"
# entry_align: the largest power of two dividing the address, at most 4096
# (a loaded image keeps address mod 4096).
expect_eq "003: entry_align" "$(jq_of '[.files[0].functions[] | .entry_align] | join(",")')" 4096,8,64,1,1
expect_eq "003: no loops" "$(jq_of '[.files[0].functions[].loops[]] | length')" 0
# [0x401000, 0x40103c): one line.
expect_eq "003 aligned: clean" "$(s3_fn vdso_aligned '.hazards | length')" 0
# [0x401048, 0x401084) spans 0x401080. Fix: 0x401048 is 8-aligned; 16 ->
# 0x401050, [0x50, 0x8c) spans 0x80; 32 -> 0x401060, [0x60, 0x9c) spans
# 0x80; 64 -> 0x401080 (+56): one line.
expect_eq "003 shifted: generic-x86" "$(s3_hz vdso_shifted generic-x86)" "entry-misaligned/64/true/1of1/64+56"
expect_eq "003 shifted: zen1" "$(s3_hz vdso_shifted zen1)" "entry-misaligned/64/true/1of1/64+56"
# 64 bytes exactly on a line: fits.
expect_eq "003 fits64: clean" "$(s3_fn fits64 '.hazards | length')" 0
# 64 bytes one past a line: only a 64-aligned start fits: 0x401140 (+63).
expect_eq "003 edge64" "$(s3_hz edge64 generic-x86)" "entry-misaligned/64/true/1of1/64+63"
# 65 bytes can never fit a line: not an entry hazard.
expect_eq "003 big65: not a hazard" "$(s3_fn big65 '.hazards | length')" 0
# Every x86 profile has 64 B lines: 10 profiles x 2 functions.
run "$STRADDLE" scan --json --uarch all "$S3"
expect_eq "003: all x86 profiles" "$(jq_of '[.files[0].functions[].hazards[] | select(.rule == "entry-misaligned")] | length')" 20
expect_eq "003: only the two misaligned functions reported" "$(jq_of '[.files[0].functions[].name] | join(",")')" vdso_shifted,edge64
run "$STRADDLE" scan --json --uarch zen1 --fail-on entry-misaligned "$S3"
expect_eq "003: --fail-on entry-misaligned" "$RC" 1
run "$STRADDLE" scan --json --uarch zen1 --fail-on loop-straddles-window "$S3"
expect_eq "003: --fail-on another rule passes" "$RC" 0

# The relocatable object: .text has sh_addralign 1, so a 64 B verdict has
# 64 possible placements (offset mod 64 = 0..63) and entry_align is 1.
run "$STRADDLE" scan --json --all --uarch generic-x86 "$S3.o"
expect_eq "003 .o: elf_type" "$(jq_of '.files[0].elf_type')" rel
expect_eq "003 .o: offsets" "$(jq_of '[.files[0].functions[] | .addr] | join(",")')" 0x0,0x48,0xc0,0x101,0x141
expect_eq "003 .o: entry_align" "$(jq_of '[.files[0].functions[] | .entry_align] | join(",")')" 1,1,1,1,1
# 60 bytes at s: two lines when s + 59 >= 64, s = 5..63: 59 of 64.
# Fix: after .p2align 2..32 some placements still cross (e.g. s = 32),
# so it takes .p2align 6, which makes the start certain: 0x0 (+0) fits.
expect_eq "003 .o aligned" "$(s3_hz vdso_aligned generic-x86)" "entry-misaligned/64/false/59of64/64+0"
# At 0x48: .p2align 6 moves it to 0x80 (+56).
expect_eq "003 .o shifted" "$(s3_hz vdso_shifted generic-x86)" "entry-misaligned/64/false/59of64/64+56"
# 64 bytes fit only at s = 0: 63 of 64; 0xc0 is 64-aligned (+0), 0x101 -> 0x140 (+63).
expect_eq "003 .o fits64" "$(s3_hz fits64 generic-x86)" "entry-misaligned/64/false/63of64/64+0"
expect_eq "003 .o edge64" "$(s3_hz edge64 generic-x86)" "entry-misaligned/64/false/63of64/64+63"
expect_eq "003 .o big65" "$(s3_fn big65 '.hazards | length')" 0
