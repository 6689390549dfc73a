# PLT stubs are named from the GOT slot each jumps through, matched to the
# relocation at that slot, as objdump does (tests/fixtures/so/plt.S): in
# .plt, .plt.sec and .plt.got, JUMP_SLOT and IRELATIVE in any order,
# GLOB_DAT for .plt.got; AArch64's adrp/ldr/add/br stubs. $TOOLS/plt_dump
# prints them in objdump's `<name@plt>:` format.

plt_expect() {	# LABEL FILE EXPECTED (stubs separated by spaces)
	run "$TOOLS/plt_dump" "$2"
	expect_eq "plt $1: exit 0" "$RC" 0
	expect_eq "plt $1: stubs" "$(printf '%s\n' "$OUT" | sed 's/^0*//; s/@plt>:$//; s/ </=/' | tr '\n' ' ')" "$3"
}

# Stubs second, choose, pick, first, exit: ld writes the two IRELATIVE
# relocations after the three JUMP_SLOTs (relocation i is not stub i).
plt_expect lazy "$FIXTURES/so/plt.so" \
	"1010=second 1020=*ABS*+0x2009 1030=*ABS*+0x2001 1040=first 1050=exit 1060=_ZSt9terminatev "
plt_expect ibt "$FIXTURES/so/plt-ibt.so" \
	"1060=_ZSt9terminatev 1070=second 1080=*ABS*+0x2009 1090=*ABS*+0x2001 10a0=first 10b0=exit "
plt_expect arm64 "$FIXTURES/so/plt-arm64.so" \
	"290=second 2a0=first 2b0=exit 2c0=*ABS*+0x200c 2d0=*ABS*+0x2004 "

# exit@plt (.plt, .plt.sec) and _ZSt9terminatev@plt (.plt.got) never return:
# the loop is natural, no irreducible cycle through the call.
plt_loops() {	# LABEL FILE EXPECTED
	run "$STRADDLE" scan --json --all --no-source "$2"
	expect_eq "plt $1: loops" "$(jq_of '[.files[0].functions[] | select(.name | startswith("loop"))
		| "\(.name):\([.loops[] | "\(.start)-\(.end)/\(.irreducible)"] | join(","))/\(.irreducible | length)"] | join(" ")')" "$3"
}
plt_loops lazy "$FIXTURES/so/plt.so" "loopf:0x2038-0x2044/false/0 loopg:0x2057-0x2063/false/0"
plt_loops ibt "$FIXTURES/so/plt-ibt.so" "loopf:0x2038-0x2044/false/0 loopg:0x2057-0x2063/false/0"
plt_loops arm64 "$FIXTURES/so/plt-arm64.so" "loopf:0x2034-0x2048/false/0"

# Against objdump itself, on the fixtures and on this machine's libraries.
for f in "$FIXTURES/so/plt.so" "$FIXTURES/so/plt-ibt.so" /lib/x86_64-linux-gnu/libc.so.6 \
	 /usr/lib/x86_64-linux-gnu/libstdc++.so.6 "$FIXTURES/so/plt-arm64.so" \
	 /usr/aarch64-linux-gnu/lib/libc.so.6; do
	[ -f "$f" ] || continue
	case "$f" in *arm64*|*aarch64*) od=aarch64-linux-gnu-objdump ;; *) od=objdump ;; esac
	"$od" -d "$f" | grep '@plt>:$' | sort >"$TMP/plt.od"
	"$TOOLS/plt_dump" "$f" >"$TMP/plt.ours"
	expect_eq "plt $f: as objdump ($(wc -l <"$TMP/plt.od") stubs)" \
		"$(diff "$TMP/plt.od" "$TMP/plt.ours" | grep -c '^[<>]')" 0
done

# PLT stubs are not functions for entry or loop hazards: the
# stripped PIE's .plt (its FDE: fde@0x1020, 48 bytes across the line at
# 0x1040) and .plt.got are decoded but flag nothing; .text's still do.
run $STRADDLE scan --uarch zen1 --all --json $FIXTURES/so/pltpie
expect_eq "pltpie: functions, sections, hazards, loops" \
	"$(jq_of '[.files[0].functions[]|"\(.name) \(.section) \(.size) \(.hazards|length) \(.loops|length)"]|join(",")')" \
	"fde@0x1020 .plt 48 0 0,fde@0x1050 .plt.got 8 0 0,fde@0x1060 .text 54 1 0,fde@0x10a0 .text 34 1 0"
run $STRADDLE scan --uarch zen1 $FIXTURES/so/pltpie
expect_eq "pltpie text: two entry rows, none in .plt" "$(printf '%s\n' "$OUT" | grep -c 'entry-misaligned') $(printf '%s\n' "$OUT" | grep -c '\.plt')" "2 0"
