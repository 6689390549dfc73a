# Loop structure (tests/fixtures/x86/loops.S): nesting depth, innermost,
# has_call, an irreducible cycle, and a rotated loop whose range covers the
# latch placed before its header.

lp_loops() {
	jq_of "[.files[0].functions[] | select(.name == \"$1\") | .loops[]
		| select(.irreducible | not) | $2] | join(\" \")"
}

LP="$FIXTURES/x86/loops"
run "$STRADDLE" scan --json --all --uarch generic-x86 "$LP"
expect_eq "loops: exit 0" "$RC" 0

# nested: outer [0x401006, 0x401018) = mov ecx; (inner); call; dec; jnz:
# 6 instructions, depth 1, not innermost, contains the call. Inner
# [0x40100b, 0x40100f) = dec; jnz: depth 2, innermost, no call.
expect_eq "nested: ranges" "$(lp_loops nested '"\(.start)-\(.end)"')" "0x401006-0x401018 0x40100b-0x40100f"
expect_eq "nested: depth" "$(lp_loops nested '.depth | tostring')" "1 2"
expect_eq "nested: innermost" "$(lp_loops nested '.innermost | tostring')" "false true"
expect_eq "nested: has_call" "$(lp_loops nested '.has_call | tostring')" "true false"
expect_eq "nested: instructions" "$(lp_loops nested '.instructions | tostring')" "6 2"
expect_eq "nested: back-edge branches" "$(lp_loops nested '.branch')" "0x401016 0x40100d"
# outer: 18 B, 16: 0x401000/10 = 2 = ceil(18/16); 32, 64: 1/1. inner 4 B: 1/1.
expect_eq "nested: no hazards" "$(jq_of '[.files[0].functions[] | select(.name == "nested") | .loops[].hazards[]] | length')" 0
expect_eq "nested: no irreducible cycle" "$(jq_of '[.files[0].functions[] | select(.name == "nested") | .irreducible[]] | length')" 0

# nested_call_inner: outer [0x401086, 0x40109d): mov, 5 nops, call, dec,
# jnz, dec, jnz = 11; inner [0x401090, 0x401099): call, dec, jnz = 3.
expect_eq "call inner: ranges" "$(lp_loops nested_call_inner '"\(.start)-\(.end)"')" "0x401086-0x40109d 0x401090-0x401099"
expect_eq "call inner: depth" "$(lp_loops nested_call_inner '.depth | tostring')" "1 2"
expect_eq "call inner: innermost" "$(lp_loops nested_call_inner '.innermost | tostring')" "false true"
expect_eq "call inner: has_call" "$(lp_loops nested_call_inner '.has_call | tostring')" "true true"
expect_eq "call inner: instructions" "$(lp_loops nested_call_inner '.instructions | tostring')" "11 3"

# The loop buffer holds innermost call-free loops only: on haswell, only
# nested's inner loop.
run "$STRADDLE" scan --json --all --uarch haswell "$LP"
expect_eq "loop buffer: nested" "$(lp_loops nested '.in_loop_buffer | tostring')" "false true"
expect_eq "loop buffer: call inner" "$(lp_loops nested_call_inner '.in_loop_buffer | tostring')" "false false"

# irreducible: blocks E [0x401100, 0x401104) -> A (fall-through) and B (jz);
# A [0x401104, 0x401106) -> B; B [0x401106, 0x40110a) -> A (jnz) and out.
# Neither A nor B dominates the other: the backward jnz from B enters the
# cycle at A. Reported as an irreducible cycle, not as a natural loop.
run "$STRADDLE" scan --json --all --uarch generic-x86 "$LP"
expect_eq "irreducible: entry/from" \
	"$(jq_of '[.files[0].functions[] | select(.name == "irreducible") | .irreducible[] | "\(.entry)<-\(.from)"] | join(" ")')" \
	"0x401104<-0x401106"
expect_eq "irreducible: no natural loop" "$(lp_loops irreducible .start)" ""

# rotated: jmp to the test at 0x4011a0; the body [0x40119c, 0x4011a0) is
# the latch, falling into the header [0x4011a0, 0x4011a4). The range spans
# both: [0x40119c, 0x4011a4), 8 B: add, dec, test, jnz; the closing branch
# is the header's jnz at 0x4011a2.
expect_eq "rotated: range" "$(lp_loops rotated '"\(.start)-\(.end)/\(.bytes)"')" "0x40119c-0x4011a4/8"
expect_eq "rotated: instructions" "$(lp_loops rotated '.instructions | tostring')" 4
expect_eq "rotated: branch" "$(lp_loops rotated .branch)" 0x4011a2
expect_eq "rotated: depth/innermost" "$(lp_loops rotated '"\(.depth) \(.innermost)"')" "1 true"
# 16: 0x401190 and 0x4011a0: 2/1; 32: 0x401180-9f and 0x4011a0-bf: 2/1; 64: 1/1
# (the header block alone would fit everything).
expect_eq "rotated: touched/best" \
	"$(lp_loops rotated '"\(.windows["16"].touched)/\(.windows["16"].best) \(.windows["32"].touched)/\(.windows["32"].best) \(.windows["64"].touched)/\(.windows["64"].best)"')" \
	"2/1 2/1 1/1"
# generic-x86: fetch 16 straddled. Fix: 0x40119c is 4-aligned; .p2align 8
# -> 0x4011a0 (+4): [0x4011a0, 0x4011a8) in one window.
expect_eq "rotated: hazards" \
	"$(lp_loops rotated '[.hazards[] | "\(.profile)/\(.rule)/\(.window)/\(.fix.align)+\(.fix.pad)"] | join(" ")')" \
	"generic-x86/loop-straddles-window/16/8+4"
# skylake: test+jnz fuse: the pair [0x4011a0, 0x4011a4) crosses nothing and
# ends at 0x4011a3, not a window's last byte; 16 and 32 are straddled.
run "$STRADDLE" scan --json --all --uarch skylake "$LP"
expect_eq "rotated: skylake" \
	"$(lp_loops rotated '[.hazards[] | "\(.rule)/\(.window)/\(.fix.align)+\(.fix.pad)"] | sort | join(" ")')" \
	"loop-straddles-window/16/8+4 loop-straddles-window/32/8+4"
