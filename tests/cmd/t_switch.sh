# Loops that close through a switch (tests/fixtures/*/switch.S): the
# dispatch's table is read and its targets become the indirect jump's
# successors, so the loop is natural, with its exact span; an indirect
# jump without a table is counted as unresolved, for its function and the
# file, except a tail call through a pointer slot (`jmp *slot(%rip)`).
# $TOOLS/jump_dump prints what each indirect jump resolves to.

sw_check() {	# ARCH JUMP-LINES LOOP FILE-LINE-TAIL PROFILE FUNCTIONS
	run "$TOOLS/jump_dump" "$FIXTURES/$1/switch"
	expect_eq "switch $1: table targets" "$(printf '%s\n' "$OUT" | tr '\n' ';')" "$2"
	run "$STRADDLE" scan --json --all --no-source "$FIXTURES/$1/switch"
	expect_eq "switch $1: natural loop" \
		"$(jq_of '[.files[0].functions[] | select(.name == "interp") | .loops[]
			| "\(.start)-\(.end)/\(.bytes)/\(.instructions)/\(.irreducible)"] | join(" ")')" "$3"
	expect_eq "switch $1: no irreducible cycle" "$(jq_of '[.files[0].functions[].irreducible[]] | length')" 0
	expect_eq "switch $1: per function" \
		"$(jq_of '[.files[0].functions[] | "\(.name):\(.jump_tables)/\(.indirect_jumps_unresolved)"] | join(" ")')" \
		"$6"
	expect_eq "switch $1: per file" \
		"$(jq_of '"\(.files[0].jump_tables)/\(.files[0].indirect_jumps_unresolved)"')" "1/1"
	run "$STRADDLE" scan --all --no-source --uarch "$5" "$FIXTURES/$1/switch"
	expect_eq "switch $1: file line" "$(printf '%s\n' "$OUT" | grep "^$FIXTURES/")" "$FIXTURES/$1/switch: $4"
	expect_eq "switch $1: function line" "$(printf '%s\n' "$OUT" | grep '^indirect jumps')" \
		"indirect jumps unresolved in unknown: 1"
}

# x86: cmp $3 + ja: 4 entries, case 3 = the header (-0xffe from the table).
# The loop: header 0x401002 .. the last case's jmp back, 0x40102c.
sw_check x86 "40101c interp: 401002 40101e 401023 401028;40102d unknown: unresolved;40102f viaslot: slot;" \
	"0x401002-0x40102c/42/14/false" \
	"x86_64 exec, 3 functions, 18 instructions, 1 loops, 1 jump tables, 1 indirect jumps unresolved; profile generic-x86" \
	generic-x86 "interp:1/0 unknown:0/1 viaslot:0/0"
# AArch64: ldrb entries 00 02 04 f7 from adr 0x400028, sxtb #2: 0x400028,
# 0x400030, 0x400038 and 0x400028 - 36 = 0x400004 (the header).
sw_check arm64 "400024 interp: 400004 400028 400030 400038;400044 unknown: unresolved;" \
	"0x400004-0x400040/60/15/false" \
	"aarch64 exec, 2 functions, 18 instructions, 1 loops, 0 undecoded words, 1 jump tables, 1 indirect jumps unresolved; profile generic-arm64" \
	generic-arm64 "interp:1/0 unknown:0/1"

# The other shapes GCC emits (tests/fixtures/x86/switch2.S): a byte table
# before the word table (6 bytes, largest 2: 3 entries) with a base label
# of its own; the bound compared in memory; the index copied before the
# loop from the register compared inside it; an absolute table; a byte
# compared in memory, then loaded with movzbl; a dispatch block after a ret
# and a nop (parse_arith in libc: the walk back to the bound went into the
# nop, left the switch unread, and its loop unfound). The hoisted loop's
# span stops at the ret after its first latch: case 1's block past it is
# out of line. afterpad's header run is its header block alone,
# 0x4010ce..0x4010d3, which the ret after it ends; the dispatch block
# dominates both latches, so every iteration runs it: its run, the
# dispatch and case 1 (0x4010d7..0x4010ef), is the loop's second piece,
# 5 + 24 = 29 B, and only case 2's jmp (2 B) is out of line.
run "$TOOLS/jump_dump" "$FIXTURES/x86/switch2"
expect_eq "switch2: table targets" "$(printf '%s\n' "$OUT" | tr '\n' ';')" \
	"401028 twolevel: 40102a 401030 401036;401056 inmemory: 401058 40105e 401064;40107f hoisted: 401081 401087;401094 absolute: 40109b 4010a1;4010bf inbyte: 4010c1 4010c6;4010e8 afterpad: 4010ea 4010f0;"
run "$STRADDLE" scan --json --all --no-source "$FIXTURES/x86/switch2"
expect_eq "switch2: hoisted and afterpad loops" \
	"$(jq_of '[.files[0].functions[].loops[] | "\(.start)-\(.end)/\(.irreducible)/\(.cold_blocks)/\(.cold_bytes)"] | join(" ")')" \
	"0x401070-0x401086/false/1/5 0x4010ce-0x4010ef/false/1/2"
expect_eq "switch2: afterpad's pieces" \
	"$(jq_of '[.files[0].functions[] | select(.name == "afterpad") | .loops[].pieces[] | "\(.start)-\(.end)"] | join(" ")')" \
	"0x4010ce-0x4010d3 0x4010d7-0x4010ef"
expect_eq "switch2: per file" \
	"$(jq_of '"\(.files[0].jump_tables)/\(.files[0].indirect_jumps_unresolved)"')" "6/0"

# A switch whose cases all lie in the function's cold part
# (tests/fixtures/x86/switchcold.S): the table at 0x401015 is read, no
# target is inside hotpart, so it is a table with no successor here, not
# an unresolved jump, and no loop.
run "$TOOLS/jump_dump" "$FIXTURES/x86/switchcold"
expect_eq "switchcold: a table without targets in the function" "$OUT" "401015 hotpart:"
run "$STRADDLE" scan --json --all --no-source "$FIXTURES/x86/switchcold"
expect_eq "switchcold: tables/unresolved/loops" \
	"$(jq_of '"\(.files[0].jump_tables)/\(.files[0].indirect_jumps_unresolved)/\([.files[0].functions[].loops[]] | length)"')" "1/0/0"

# An irreducible cycle that closes only through a switch
# (tests/fixtures/x86/switchcycle.S): entered at the top 0x401006 (falling
# in) and at the middle 0x401026 (jnz from the entry block); the top's
# dispatch at 0x40101c goes to case 0 (0x40101e) and case 1 (0x401023), both
# on to the middle, whose jnz at 0x401029 goes back to the top. Its body is
# the top, the dispatch, both cases and the middle: 0x401006..0x40102b, 37 B,
# 12 instructions, nothing out of line. The search of what the entry reaches
# followed two successors a block and stopped at the jmp *: the top alone,
# 0x401006..0x40100e, 8 B, the middle out of line, no closing branch.
run "$TOOLS/jump_dump" "$FIXTURES/x86/switchcycle"
expect_eq "switchcycle: table targets" "$OUT" "40101c swcycle: 40101e 401023"
run "$STRADDLE" scan --json --all --no-source "$FIXTURES/x86/switchcycle"
expect_eq "switchcycle: the irreducible cycle's entry" \
	"$(jq_of '[.files[0].functions[0].irreducible[] | "\(.entry)<-\(.from)"] | join(" ")')" "0x401006<-0x401026"
expect_eq "switchcycle: its span, instructions, out of line, branch" \
	"$(jq_of '[.files[0].functions[0].loops[]
		| "\(.start)-\(.end)/\(.bytes)/\(.instructions)/\(.cold_blocks)/\(.cold_bytes)/\(.branch)/\(.irreducible)"] | join(" ")')" \
	"0x401006-0x40102b/37/12/0/0/0x401029/true"
