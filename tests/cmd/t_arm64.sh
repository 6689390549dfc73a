# AArch64 beyond seed 002 (tests/fixtures/arm64/bigloop.S): a 64-byte loop
# at 0x400010 fits its 16 B windows (4/4) but straddles 32 B blocks (3/2)
# and lines (2/1).

run "$STRADDLE" scan --json --all --uarch all "$FIXTURES/arm64/bigloop"
expect_eq "arm64 bigloop: exit 0" "$RC" 0
expect_eq "arm64 bigloop: loop" \
	"$(jq_of '[.files[0].functions[].loops[] | "\(.start)-\(.end)/\(.bytes)/\(.instructions)/\(.branch)"] | join(" ")')" \
	"0x400010-0x400050/64/16/0x40004c"
expect_eq "arm64 bigloop: touched/best" \
	"$(jq_of '[.files[0].functions[].loops[].windows | to_entries[] | "\(.key):\(.value.touched)/\(.value.best)"] | join(" ")')" \
	"16:4/4 32:3/2 64:2/1"
# Fixes. 32: 0x400010 is 16-aligned; .p2align 32 -> 0x400020 (+16):
# 0x400020/40 = 2. 64: .p2align 32 -> 0x400020, [0x20, 0x60) spans
# 0x400040; .p2align 64 -> 0x400040 (+48).
expect_eq "arm64 bigloop: hazards" \
	"$(jq_of '[.files[0].functions[].loops[].hazards[] | "\(.profile)/\(.window)/\(.fix.align)+\(.fix.pad)"] | sort | join(" ")')" \
	"generic-arm64/64/64+48 hip08/32/32+16 hip08/64/64+48 neoverse-n1/32/32+16 neoverse-n1/64/64+48 neoverse-n2/32/32+16 neoverse-n2/64/64+48 neoverse-v1/32/32+16 neoverse-v1/64/64+48"
expect_eq "arm64 bigloop: no entry hazard" "$(jq_of '[.files[0].functions[].hazards[]] | length')" 0
