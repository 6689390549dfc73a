# Source lines of a relocatable object (tests/fixtures/rel/lines.S, built
# with -g): .debug_line is read with .rela.debug_line applied, and an
# address is an offset in its function's section. Both loops start at
# offset 0x2, one in .text (line 14), one in .text.unlikely (line 26);
# objdump -dl says the same.

run "$STRADDLE" scan --json --all "$FIXTURES/rel/lines.o"
expect_eq "rel lines: exit 0" "$RC" 0
expect_eq "rel lines: loop sources" \
	"$(jq_of '[.files[0].functions[] | "\(.name)@\(.section):\([.loops[] | "\(.start)-\(.end)=\(.source)"] | join(","))"] | join(" ")')" \
	"hot@.text:0x2-0x9=lines.S:14 cold@.text.unlikely:0x2-0x7=lines.S:26"
run "$STRADDLE" scan --json --all --no-source "$FIXTURES/rel/lines.o"
expect_eq "rel lines: --no-source" "$(jq_of '[.files[0].functions[].loops[] | .source // "none"] | join(" ")')" "none none"
