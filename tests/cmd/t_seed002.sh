# Seed 002 in AArch64: the str xzr loop (16 bytes) inside one 32 B block and
# straddling two (tests/fixtures/arm64/seed002.S gives every address).

s2_loop() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[0] | $2] | .[0]"
}
s2_hz() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[0].hazards[]
		| select(.profile == \"$2\")
		| \"\(.rule)/\(.window)/\(.certain)/\(.fix.align)+\(.fix.pad)\"] | sort | join(\" \")"
}
s2_tb() {
	s2_loop "$1" "\"\\(.windows[\"$2\"].touched)/\\(.windows[\"$2\"].best)\""
}

S2="$FIXTURES/arm64/seed002"
run "$STRADDLE" scan --json --all --uarch all "$S2"
expect_eq "002: exit 0" "$RC" 0
expect_eq "002: arch" "$(jq_of '.files[0].arch')" aarch64
expect_eq "002: elf_type" "$(jq_of '.files[0].elf_type')" exec
expect_eq "002: three functions" "$(jq_of '[.files[0].functions[].name] | join(",")')" \
	clear_aligned,clear_inblock,clear_straddle
expect_eq "002: addresses" "$(jq_of '[.files[0].functions[] | "\(.addr)+\(.size)"] | join(",")')" \
	0x400000+52,0x400040+56,0x400080+44
expect_eq "002: no entry hazards (each function within one line)" \
	"$(jq_of '[.files[0].functions[].hazards[]] | length')" 0

# clear_aligned: [0x400020, 0x400030): 1/1 at 16, 32, 64; clean.
expect_eq "002 aligned: range" "$(s2_loop clear_aligned '"\(.start)-\(.end)/\(.bytes)/\(.instructions)"')" \
	0x400020-0x400030/16/4
expect_eq "002 aligned: branch" "$(s2_loop clear_aligned .branch)" 0x40002c
for w in 16 32 64; do expect_eq "002 aligned: $w" "$(s2_tb clear_aligned $w)" 1/1; done
expect_eq "002 aligned: clean" "$(s2_loop clear_aligned '.hazards | length')" 0

# clear_inblock: [0x400064, 0x400074): 16 B windows 0x400060/0x400070: 2/1;
# 32 B block 0x400060-7f: 1/1; line 0x400040-7f: 1/1.
expect_eq "002 inblock: range" "$(s2_loop clear_inblock '"\(.start)-\(.end)"')" 0x400064-0x400074
expect_eq "002 inblock: 16" "$(s2_tb clear_inblock 16)" 2/1
expect_eq "002 inblock: 32" "$(s2_tb clear_inblock 32)" 1/1
expect_eq "002 inblock: 64" "$(s2_tb clear_inblock 64)" 1/1
# hip08 (fetch 32, line 64): absent.
expect_eq "002 inblock: hip08 absent" "$(s2_hz clear_inblock hip08)" ""
# generic-arm64 (fetch 16): present. Fix: 0x400064 is 4-aligned (.p2align
# 2/4 no-ops); 8 -> 0x400068, [0x68, 0x78) spans 0x400070; 16 -> 0x400070
# (+12): [0x70, 0x80) in one window.
expect_eq "002 inblock: generic-arm64" "$(s2_hz clear_inblock generic-arm64)" \
	"loop-straddles-window/16/true/16+12"
for p in neoverse-n1 neoverse-v1 neoverse-n2; do
	expect_eq "002 inblock: $p absent" "$(s2_hz clear_inblock $p)" ""
done

# clear_straddle: [0x400098, 0x4000a8): 16: 0x400090/0x4000a0 2/1; 32:
# 0x400080-9f/0x4000a0-bf 2/1; 64: 0x400080-bf 1/1.
expect_eq "002 straddle: range" "$(s2_loop clear_straddle '"\(.start)-\(.end)"')" 0x400098-0x4000a8
expect_eq "002 straddle: 16" "$(s2_tb clear_straddle 16)" 2/1
expect_eq "002 straddle: 32" "$(s2_tb clear_straddle 32)" 2/1
expect_eq "002 straddle: 64" "$(s2_tb clear_straddle 64)" 1/1
# hip08: present at 32. Fix: 0x400098 is 8-aligned; .p2align 16 -> 0x4000a0
# (+8): [0xa0, 0xb0) inside the block 0x4000a0-bf.
expect_eq "002 straddle: hip08 present" "$(s2_hz clear_straddle hip08)" \
	"loop-straddles-window/32/true/16+8"
expect_eq "002 straddle: generic-arm64" "$(s2_hz clear_straddle generic-arm64)" \
	"loop-straddles-window/16/true/16+8"
for p in neoverse-n1 neoverse-v1 neoverse-n2; do
	expect_eq "002 straddle: $p" "$(s2_hz clear_straddle $p)" "loop-straddles-window/32/true/16+8"
done
# No x86 profile applies to an AArch64 image: 1 + 2 + 3 hazards in all.
expect_eq "002: hazards in all" "$(jq_of '[.files[0].functions[].loops[].hazards[]] | length')" 6

# --uarch with only x86 profiles on an AArch64 file falls back to generic-arm64.
run "$STRADDLE" scan --json --uarch zen1 "$S2"
expect_eq "002: x86-only --uarch falls back to generic-arm64" \
	"$(jq_of '[.files[0].functions[].loops[].hazards[].profile] | unique | join(",")')" generic-arm64
run "$STRADDLE" scan --json --uarch hip08 --fail-on loop-straddles-window "$S2"
expect_eq "002: hip08 gate fails" "$RC" 1
run "$STRADDLE" scan --json --uarch hip08 --func 'clear_[ai]*' --fail-on loop-straddles-window "$S2"
expect_eq "002: hip08 gate passes without clear_straddle" "$RC" 0
