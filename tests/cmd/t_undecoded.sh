# AArch64 words Capstone 4 cannot decode (tests/fixtures/arm64/undecoded.S:
# an SVE ld1b and an MTE ldg inside a loop) are plain instructions: the
# loop is found whole and the file line counts them.

run "$STRADDLE" scan --json --all --no-source "$FIXTURES/arm64/undecoded"
expect_eq "undecoded: exit 0" "$RC" 0
expect_eq "undecoded: loop" \
	"$(jq_of '[.files[0].functions[].loops[] | "\(.start)-\(.end)/\(.bytes)/\(.instructions)/\(.irreducible)"] | join(" ")')" \
	"0x400004-0x400018/20/5/false"
expect_eq "undecoded: words counted (JSON)" "$(jq_of '.files[0].undecoded_words')" 2
expect_eq "undecoded: instructions" "$(jq_of '.files[0].instructions')" 7

run "$STRADDLE" scan --all --no-source --uarch generic-arm64 "$FIXTURES/arm64/undecoded"
expect_eq "undecoded: file line" "$(printf '%s\n' "$OUT" | grep "^$FIXTURES/")" \
	"$FIXTURES/arm64/undecoded: aarch64 exec, 1 functions, 7 instructions, 1 loops, 2 undecoded words, 0 jump tables, 0 indirect jumps unresolved; profile generic-arm64"
