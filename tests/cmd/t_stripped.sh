# A stripped shared object (tests/fixtures/so/stripped.S, built by
# tests/fixtures/extra.mk with .text at 0x2000): .symtab is gone, .dynsym
# names so_exported only, and the two local functions come from their
# .eh_frame FDEs as fde@0x....

SO="$FIXTURES/so/stripped.so"
run "$STRADDLE" scan --json --all --uarch generic-x86 "$SO"
expect_eq "stripped: exit 0" "$RC" 0
expect_eq "stripped: elf_type" "$(jq_of '.files[0].elf_type')" dyn
expect_eq "stripped: three functions" "$(jq_of '.files[0].functions_total')" 3
expect_eq "stripped: names, ranges, sources" \
	"$(jq_of '[.files[0].functions[] | "\(.name)@\(.addr)+\(.size)/\(.from)"] | join(" ")')" \
	"so_exported@0x2000+16/dynsym fde@0x2040@0x2040+68/eh_frame fde@0x20c0@0x20c0+32/eh_frame"
# fde@0x2040 holds the seed 000 "after" loop at [0x2074, 0x2083): 16 B
# windows 0x2070/0x2080, lines 0x2040-7f/0x2080-bf: 2/1 each. Fix: 0x2074
# is 4-aligned; .p2align 8 -> 0x2078 still spans 0x2080; 16 -> 0x2080 (+12).
expect_eq "stripped: loop" \
	"$(jq_of '[.files[0].functions[] | select(.name == "fde@0x2040") | .loops[] | "\(.start)-\(.end)"] | join(" ")')" \
	"0x2074-0x2083"
expect_eq "stripped: hazards" \
	"$(jq_of '[.files[0].functions[] | select(.name == "fde@0x2040") | .loops[].hazards[] | "\(.rule)/\(.window)/\(.certain)/\(.fix.align)+\(.fix.pad)"] | sort | join(" ")')" \
	"loop-straddles-window/16/true/16+12 loop-straddles-window/64/true/16+12"
# --func matches the generated names too.
run "$STRADDLE" scan --json --all --uarch generic-x86 --func 'fde@*' "$SO"
expect_eq "stripped: --func fde@*" "$(jq_of '[.files[0].functions[].name] | join(" ")')" "fde@0x2040 fde@0x20c0"

# Not stripped: every function has its symbol; the FDEs add nothing.
run "$STRADDLE" scan --json --all --uarch generic-x86 "$FIXTURES/so/unstripped.so"
expect_eq "unstripped: names" \
	"$(jq_of '[.files[0].functions[] | "\(.name)@\(.addr)+\(.size)/\(.from)"] | join(" ")')" \
	"so_exported@0x2000+16/symtab local_clear@0x2040+68/symtab local_small@0x20c0+32/symtab"
