# Bad input. A file that cannot be scanned: exit 2,
# exactly one line on stderr, "straddle: FILE: reason", and the good file
# given after it (or before it) is still scanned and in files[]. A file
# that is valid but odd (bad or odd symbols, a garbage .eh_frame, an empty
# .text): scanned, exit 0, nothing on stderr. The corpus is made by
# tests/fixtures/extra.mk and tests/fixtures/malform.c.

BADDIR="$FIXTURES/malformed"
GOOD="$FIXTURES/x86/seed000_after"

# mf_bad NAME FILE REASON-REGEX: FILE cannot be scanned.
mf_bad() {
	run "$STRADDLE" scan --json --uarch generic-x86 "$2" "$GOOD"
	expect_eq "bad $1: exit 2" "$RC" 2
	expect_eq "bad $1: one line on stderr" "$(printf '%s' "$ERR" | grep -c '')" 1
	case "$ERR" in
	"straddle: $2: "?*) ok "bad $1: stderr names the file" ;;
	*) fail "bad $1: stderr names the file: got '$ERR'" ;;
	esac
	if printf '%s\n' "$ERR" | grep -Eiq "$3"; then ok "bad $1: reason"
	else fail "bad $1: reason: '$ERR' does not match /$3/"; fi
	expect_eq "bad $1: JSON errors[]" "$(jq_of '[.errors[].path] | join(",")')" "$2"
	expect_eq "bad $1: the good file is still scanned" \
		"$(jq_of '[.files[] | "\(.path):\(.functions | length)"] | join(",")')" "$GOOD:1"
	# and when the good file comes first
	run "$STRADDLE" scan --json --uarch generic-x86 "$GOOD" "$2"
	expect_eq "bad $1 (second): exit 2, good file scanned" \
		"$RC $(jq_of '[.files[].path] | join(",")')" "2 $GOOD"
}

# mf_odd NAME FILE FUNCTIONS: FILE is scanned; FUNCTIONS is its functions'
# "name@addr+size" list.
mf_odd() {
	run "$STRADDLE" scan --json --all --uarch generic-x86 "$2" "$GOOD"
	expect_eq "odd $1: exit 0" "$RC" 0
	expect_eq "odd $1: nothing on stderr" "$ERR" ""
	expect_eq "odd $1: both files scanned" "$(jq_of '[.files[].path] | join(",")')" "$2,$GOOD"
	expect_eq "odd $1: functions" \
		"$(jq_of '[.files[0].functions[] | "\(.name)@\(.addr)+\(.size)"] | join(" ")')" "$3"
}

mf_bad not-elf "$BADDIR/not-elf" 'not an ELF'
mf_bad empty "$BADDIR/empty" 'empty'
mf_bad trunc-ident "$BADDIR/trunc-ident" 'truncated|not an ELF'
mf_bad trunc-header "$BADDIR/trunc-header" 'truncated'
mf_bad trunc-shtab "$BADDIR/trunc-shtab" 'section|truncated'
mf_bad elf32 "$BADDIR/elf32.o" '32|64-bit|class'
mf_bad bigendian "$BADDIR/bigendian.o" 'endian'
mf_bad machine "$BADDIR/machine" 'machine'
mf_bad shoff-eof "$BADDIR/shoff-eof" 'section'
mf_bad symtab-size "$BADDIR/symtab-size" 'section|symbol|outside'
# .symtab's sh_link names section 0x7777 of 8: its names cannot be read;
# like the section name table index (e_shstrndx), a structural error.
mf_bad symtab-link "$BADDIR/symtab-link" 'link|string|symbol'
# A directory is walked (doc/scan.md#inputs): of the corpus, the files
# whose header straddle reads (ELF64, x86-64 or AArch64) are inputs, each
# bad one an error of one line; the others (not ELF, empty, 32-bit,
# big-endian, another machine, a header cut short) are none
run "$STRADDLE" scan --json --uarch generic-x86 "$BADDIR" "$GOOD"
expect_eq "the corpus as a directory: exit 2, its bad ELF files the errors" \
	"$RC $(jq_of '[.errors[].path] | join(",")')" \
	"2 $BADDIR/shoff-eof,$BADDIR/symtab-link,$BADDIR/symtab-size,$BADDIR/trunc-shtab"
expect_eq "the corpus as a directory: one line each, each naming its file" \
	"$(printf '%s\n' "$ERR" | grep -c "^straddle: $BADDIR/[a-z-]*: ")" 4
expect_eq "the corpus as a directory: its good files and the good one scanned" \
	"$(jq_of '[.files[].path] | join(",")')" "$BADDIR/ehframe-garbage,$BADDIR/null-offset,$GOOD"
mf_bad nonexistent "$TMP/no-such-file" 'no such file'

# Unreadable: a copy of a good file with mode 000. Root reads it anyway, so
# there it is scanned; anyone else gets one line and exit 2.
cp "$GOOD" "$TMP/unreadable"
chmod 000 "$TMP/unreadable"
if [ "$(id -u)" = 0 ]; then
	run "$STRADDLE" scan --json --uarch generic-x86 "$TMP/unreadable"
	expect_eq "unreadable (as root): scanned" "$RC $(jq_of '.files[0].functions_total')" "0 1"
else
	mf_bad unreadable "$TMP/unreadable" 'permission'
fi

# symbols.S: good (0x401000, 16), outer (0x401040, 64) overlapping inner
# (0x401050, 16), alias_a/alias_b at 0x4010c0 (16 and 32: one function of
# 32), zero_size (size 0: no range, ignored); bogus_far (0x411000) and
# bogus_size (0x4010d0 + 0x1000) lie outside .text [0x401000, 0x4010e0):
# skipped and counted.
SYM_FUNCS_EXEC="@0x401000+16 @0x401040+64 @0x401050+16 @0x4010c0+32"
run "$STRADDLE" scan --json --all --uarch generic-x86 "$FIXTURES/x86/symbols" "$GOOD"
expect_eq "odd symbols: exit 0" "$RC" 0
expect_eq "odd symbols: nothing on stderr" "$ERR" ""
expect_eq "odd symbols: functions" \
	"$(jq_of '[.files[0].functions[] | "@\(.addr)+\(.size)"] | join(" ")')" "$SYM_FUNCS_EXEC"
expect_eq "odd symbols: names" \
	"$(jq_of '[.files[0].functions[] | .name] | .[0:3] | join(" ")')" "good outer inner"
expect_eq "odd symbols: functions_total" "$(jq_of '.files[0].functions_total')" 4
expect_eq "odd symbols: symbols_skipped" "$(jq_of '.files[0].symbols_skipped')" 2
expect_eq "odd symbols: good file scanned" "$(jq_of '.files[1].path')" "$GOOD"
# The same in the relocatable object (values are section offsets).
run "$STRADDLE" scan --json --all --uarch generic-x86 "$FIXTURES/x86/symbols.o"
expect_eq "odd symbols .o" \
	"$RC $(jq_of '[.files[0].functions[] | "@\(.addr)+\(.size)"] | join(" ")') $(jq_of '.files[0].symbols_skipped')" \
	"0 @0x0+16 @0x40+64 @0x50+16 @0xc0+32 2"

# A stripped .so whose .eh_frame is garbage: the FDEs are not believed;
# so_exported (from .dynsym) is still scanned.
mf_odd ehframe-garbage "$BADDIR/ehframe-garbage" "so_exported@0x2000+16"
# Section header 0 is SHT_NULL: the ELF specification leaves its other
# fields undefined, so a wild sh_offset there is legal and must be ignored.
mf_odd null-offset "$BADDIR/null-offset" "clear_user_after@0x401000+68"
# An empty .text (the .o; the linked file has no .text at all).
mf_odd empty-text-o "$FIXTURES/x86/empty_text.o" ""
mf_odd empty-text "$FIXTURES/x86/empty_text" ""

# Several bad files and good ones in one run: every bad one named once.
run "$STRADDLE" scan --json --uarch generic-x86 "$BADDIR/not-elf" "$GOOD" "$BADDIR/empty" \
	"$FIXTURES/x86/jcc" "$BADDIR/machine"
expect_eq "mixed run: exit 2" "$RC" 2
expect_eq "mixed run: three lines" "$(printf '%s' "$ERR" | grep -c '')" 3
expect_eq "mixed run: files" "$(jq_of '[.files[].path] | join(",")')" "$GOOD,$FIXTURES/x86/jcc"
expect_eq "mixed run: errors" "$(jq_of '[.errors[].path] | join(",")')" \
	"$BADDIR/not-elf,$BADDIR/empty,$BADDIR/machine"
# Without --json too.
run "$STRADDLE" scan --uarch generic-x86 "$BADDIR/not-elf" "$GOOD"
expect_eq "text mode: exit 2, one line" "$RC $(printf '%s' "$ERR" | grep -c '')" "2 1"
if printf '%s\n' "$OUT" | grep -q 'clear_user_after.*0x401034'; then ok "text mode: good file reported"
else fail "text mode: good file reported: no clear_user_after row in '$OUT'"; fi

# Inputs the fuzzer found (tests/fixtures/fuzz/), run under the sanitizers.
# plt-reloc-bad-symbols: .rela.dyn relocations whose symbols are all out of
# .dynsym's range; the slot array grown for them leaked (LeakSanitizer).
run "$STRADDLE" scan --uarch zen1 "$dir/../fixtures/fuzz/plt-reloc-bad-symbols"
expect_eq "fuzz plt-reloc-bad-symbols: exit 0, no leak" "$RC" 0
expect_eq "fuzz plt-reloc-bad-symbols: its two entry hazards" \
	"$(printf '%s\n' "$OUT" | grep -c 'hazards: 0 loops, 2 function entries')" 1
