# Seed 000: __clear_user's 8-byte store loop, before (10 bytes, fits),
# after (15 bytes at the same start 0x401034, straddles 0x401040) and fixed
# (.align 16 moves it to 0x401040). Every value below is computed by hand
# from the layout documented in tests/fixtures/x86/seed000_*.S with
#   touched = (end-1)/W - start/W + 1,  best = ceil(bytes/W).

# s0_loop FUNC FILTER: FILTER applied to the first loop of FUNC in $OUT.
s0_loop() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[0] | $2] | .[0]"
}
# s0_hz FUNC PROFILE: that profile's hazards on FUNC's first loop, sorted,
# as rule/window/certain/fix-align+fix-pad.
s0_hz() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[0].hazards[]
		| select(.profile == \"$2\")
		| \"\(.rule)/\(.window)/\(.certain)/\(.fix.align)+\(.fix.pad)\"] | sort | join(\" \")"
}

# ---- before: loop [0x401034, 0x40103e), 10 bytes -----------------------
run "$STRADDLE" scan --json --all --uarch all "$FIXTURES/x86/seed000_before"
expect_eq "000 before: exit 0" "$RC" 0
expect_eq "000 before: arch" "$(jq_of '.files[0].arch')" x86_64
expect_eq "000 before: elf_type" "$(jq_of '.files[0].elf_type')" exec
expect_eq "000 before: one loop" "$(jq_of '.files[0].loops_total')" 1
expect_eq "000 before: start" "$(s0_loop clear_user_before .start)" 0x401034
expect_eq "000 before: end" "$(s0_loop clear_user_before .end)" 0x40103e
expect_eq "000 before: bytes" "$(s0_loop clear_user_before .bytes)" 10
expect_eq "000 before: instructions" "$(s0_loop clear_user_before .instructions)" 4
expect_eq "000 before: back-edge branch" "$(s0_loop clear_user_before .branch)" 0x40103c
# 16: 0x40103d/16 - 0x401034/16 + 1 = 0x40103 - 0x40103 + 1 = 1; ceil(10/16) = 1
expect_eq "000 before: 16 touched/best" \
	"$(s0_loop clear_user_before '"\(.windows["16"].touched)/\(.windows["16"].best)"')" 1/1
# 32: both ends in 0x401020-3f
expect_eq "000 before: 32 touched/best" \
	"$(s0_loop clear_user_before '"\(.windows["32"].touched)/\(.windows["32"].best)"')" 1/1
# 64: both ends in 0x401000-3f
expect_eq "000 before: 64 touched/best" \
	"$(s0_loop clear_user_before '"\(.windows["64"].touched)/\(.windows["64"].best)"')" 1/1
# No window straddled; the decl/jnz pair [0x40103a, 0x40103e) crosses no
# 32 B boundary and ends at 0x40103d, not a window's last byte (0x40103f):
# no hazard for any profile, and the 63-byte function lies in one line.
expect_eq "000 before: no loop hazard" "$(s0_loop clear_user_before '.hazards | length')" 0
expect_eq "000 before: no entry hazard" "$(jq_of '.files[0].functions[0].hazards | length')" 0
run "$STRADDLE" scan --json --uarch all "$FIXTURES/x86/seed000_before"
expect_eq "000 before: nothing reported without --all" "$(jq_of '.files[0].functions | length')" 0

# ---- after: loop [0x401034, 0x401043), 15 bytes ------------------------
run "$STRADDLE" scan --json --uarch all "$FIXTURES/x86/seed000_after"
expect_eq "000 after: exit 0 (hazards do not fail without --fail-on)" "$RC" 0
expect_eq "000 after: start" "$(s0_loop clear_user_after .start)" 0x401034
expect_eq "000 after: end" "$(s0_loop clear_user_after .end)" 0x401043
expect_eq "000 after: bytes" "$(s0_loop clear_user_after .bytes)" 15
expect_eq "000 after: depth" "$(s0_loop clear_user_after .depth)" 1
expect_eq "000 after: innermost" "$(s0_loop clear_user_after .innermost)" true
expect_eq "000 after: has_call" "$(s0_loop clear_user_after .has_call)" false
expect_eq "000 after: back-edge branch" "$(s0_loop clear_user_after .branch)" 0x401041
# 16: 0x401042/16 = 0x40104, 0x401034/16 = 0x40103: touched 2; ceil(15/16) = 1
expect_eq "000 after: 16 touched/best" \
	"$(s0_loop clear_user_after '"\(.windows["16"].touched)/\(.windows["16"].best)"')" 2/1
# 32: 0x401020-3f and 0x401040-5f: 2; best 1
expect_eq "000 after: 32 touched/best" \
	"$(s0_loop clear_user_after '"\(.windows["32"].touched)/\(.windows["32"].best)"')" 2/1
# 64: lines 0x401000-3f and 0x401040-7f: 2; best 1
expect_eq "000 after: 64 touched/best" \
	"$(s0_loop clear_user_after '"\(.windows["64"].touched)/\(.windows["64"].best)"')" 2/1
# Fixes. Loop straddles W (any W of 16/32/64): .p2align 2 and 4 are no-ops
# (0x401034 is 4-aligned); .p2align 8 moves it to 0x401038, [0x38, 0x47)
# still spans 0x401040; .p2align 16 moves it to 0x401040 (+12): fixed.
# The fused decl/jnz pair sits at loop offset 0xb..0xf: at 0x401038 it is
# [0x401043, 0x401047), crossing no 32 B or 64 B boundary: .p2align 8 (+4).
# generic-x86: fetch 16, line 64.
expect_eq "000 after: generic-x86" "$(s0_hz clear_user_after generic-x86)" \
	"loop-straddles-window/16/true/16+12 loop-straddles-window/64/true/16+12"
# haswell: 4 instructions, innermost, no call: runs from the 28-entry loop
# buffer (seed 000: "doesn't affect Haswell"); no branch rule.
expect_eq "000 after: haswell (loop buffer)" "$(s0_hz clear_user_after haswell)" ""
expect_eq "000 after: in_loop_buffer" "$(s0_loop clear_user_after .in_loop_buffer)" true
# skylake: 16, 32, 64 all straddled; JCC erratum: the fused pair
# [0x40103f, 0x401043) spans the 32 B boundary 0x401040; it does not end
# on one (0x401043 % 32 = 3).
expect_eq "000 after: skylake" "$(s0_hz clear_user_after skylake)" \
	"branch-crosses-window/32/true/8+4 loop-straddles-window/16/true/16+12 loop-straddles-window/32/true/16+12 loop-straddles-window/64/true/16+12"
# icelake: loop buffer (35).
expect_eq "000 after: icelake (loop buffer)" "$(s0_hz clear_user_after icelake)" ""
# goldencove: only 64 B straddles count (measured on EMR: across a 32 B
# fetch window no cost); the loop spans the line, and the decl
# [0x40103f, 0x401041) spans it: branch-crosses-window 64.
expect_eq "000 after: goldencove" "$(s0_hz clear_user_after goldencove)" \
	"branch-crosses-window/64/true/8+4 loop-straddles-window/64/true/16+12"
# zen1: fetch 16, op cache 64, line 64 (counted once): seed 000's -40%.
expect_eq "000 after: zen1" "$(s0_hz clear_user_after zen1)" \
	"loop-straddles-window/16/true/16+12 loop-straddles-window/64/true/16+12"
# zen2/zen3: fetch 32, 64: both straddled. zen4 and zen5: measured, only
# the line counts and no loop buffer hides the loop.
for p in zen2 zen3; do
	expect_eq "000 after: $p" "$(s0_hz clear_user_after $p)" \
		"loop-straddles-window/32/true/16+12 loop-straddles-window/64/true/16+12"
done
for p in zen4 zen5; do
	expect_eq "000 after: $p (measured: the line)" "$(s0_hz clear_user_after $p)" \
		"loop-straddles-window/64/true/16+12"
done
# generic 2, haswell 0, skylake 4, icelake 0, goldencove 2, zen1 2, zen2 2,
# zen3 2, zen4 1, zen5 1 = 16 hazards; arm64 profiles do not apply.
expect_eq "000 after: hazard count" "$(s0_loop clear_user_after '.hazards | length')" 16
expect_eq "000 after: placements exact" \
	"$(s0_loop clear_user_after '[.hazards[] | "\(.placements.hazardous)/\(.placements.possible)"] | unique | join(",")')" 1/1
# 68-byte function: larger than a line, never entry-misaligned.
expect_eq "000 after: no entry hazard" "$(jq_of '.files[0].functions[0].hazards | length')" 0
run "$STRADDLE" scan --json --uarch zen1 "$FIXTURES/x86/seed000_after"
expect_eq "000 after: zen1 alone, not in a loop buffer" "$(s0_loop clear_user_after .in_loop_buffer)" false
# The text table names the fix as a directive.
run "$STRADDLE" scan --uarch zen1 --no-source "$FIXTURES/x86/seed000_after"
expect_eq "000 after: table fix, one row for the 16 B window and the line" \
	"$(printf '%s\n' "$OUT" | grep -c 'clear_user_after.*0x401034.*16,64.*loop-straddles-window.*zen1.*certain.*\.p2align 4 (+12 B)')" 1

# ---- fixed: loop [0x401040, 0x40104f), 15 bytes ------------------------
run "$STRADDLE" scan --json --all --uarch all "$FIXTURES/x86/seed000_fixed"
expect_eq "000 fixed: exit 0" "$RC" 0
expect_eq "000 fixed: start" "$(s0_loop clear_user_fixed .start)" 0x401040
expect_eq "000 fixed: end" "$(s0_loop clear_user_fixed .end)" 0x40104f
for w in 16 32 64; do
	expect_eq "000 fixed: $w touched/best" \
		"$(s0_loop clear_user_fixed "\"\\(.windows[\"$w\"].touched)/\\(.windows[\"$w\"].best)\"")" 1/1
done
expect_eq "000 fixed: clean for every profile" "$(s0_loop clear_user_fixed '.hazards | length')" 0
