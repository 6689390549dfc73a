# Instruction boundaries agree with objdump -d on every function of the C
# library. Sourced by run.sh: lib.sh's helpers,
# $TMP; $TOOLS holds the test tools (tests/tools/), built with ASan+UBSan.
#
# objdump decodes a section linearly and starts afresh at each symbol, so
# the set of instruction starts is compared per function range: objdump's
# starts inside [start, end) against those of insn_dump, which walks the
# function from its start as the scan does. -z: objdump otherwise skips
# blocks of zero bytes, which we decode (as objdump does with -z).
#
# Two checks, so that a failure says which side is at fault:
#  - decoder: each function that differs is disassembled again by objdump
#    from the function's own start (--start-address); any difference left
#    is a decoder disagreement;
#  - ranges: the whole-file comparison; a function that differs only there
#    starts where objdump's linear sweep is mid-instruction (a function
#    range, from a symbol or an FDE, that does not begin on an instruction).
#
# Both with and without Debian's libc6-dbg: with it, function names and
# ranges come from the debug file's .symtab (found by build-id); without
# it, from .dynsym and .eh_frame. Where the debug file is installed, the
# second case is checked too, on a copy of libc.so.6 whose build-id is
# changed so that no debug file matches it.

od_lib=/lib/x86_64-linux-gnu/libc.so.6
od_addrs() { sed -n 's/^ *\([0-9a-f][0-9a-f]*\):\t.*/\1/p'; }

# od_compare FILE LABEL
od_compare() {
	objdump -d -z --no-show-raw-insn "$1" | od_addrs >"$TMP/od.addrs"
	run "$TOOLS/insn_dump" --compare "$TMP/od.addrs" "$1"
	expect_eq "$2: insn_dump --compare exit status" "$RC" 0
	od_summary=$(printf '%s\n' "$OUT" | tail -n 1)
	od_n=$(printf '%s\n' "$od_summary" |
		sed -n 's/^compared \([0-9]*\) functions, \([0-9]*\) mismatched$/\1/p')
	od_bad=$(printf '%s\n' "$od_summary" |
		sed -n 's/^compared \([0-9]*\) functions, \([0-9]*\) mismatched$/\2/p')
	echo "  $2: $od_summary"
	if [ "${od_n:-0}" -ge 1000 ]; then
		ok "$2: objdump comparison covers $od_n functions"
	else
		fail "$2: objdump comparison covers '${od_n}' functions, want >= 1000"
	fi
	printf '%s\n' "$OUT" | grep '^mismatch ' >"$TMP/od.mismatch"
	# Each differing function again, objdump starting at its start.
	od_dec=0
	od_seen=0
	while read -r _ od_name od_s od_e _; do
		od_seen=$((od_seen + 1))
		[ "$od_seen" -gt 50 ] && break
		objdump -d -z --no-show-raw-insn --start-address="0x$od_s" \
			--stop-address="0x$od_e" "$1" | od_addrs >"$TMP/od.one"
		"$TOOLS/insn_dump" --compare "$TMP/od.one" "$1" "$od_s" >"$TMP/od.out"
		od_rc=$?
		od_line=$(grep '^mismatch ' "$TMP/od.out")
		if [ "$od_rc" -ne 0 ] || ! grep -q '^compared 1 functions' "$TMP/od.out"; then
			od_dec=$((od_dec + 1))
			echo "    insn_dump --compare ... $od_s failed (status $od_rc)"
		elif [ -n "$od_line" ]; then
			od_dec=$((od_dec + 1))
			echo "    decoder: $od_line"
		else
			echo "    range:   $(grep "^mismatch $od_name $od_s " "$TMP/od.mismatch")"
		fi
	done <"$TMP/od.mismatch"
	expect_eq "$2: decoder agrees with objdump from each function's start" "$od_dec" 0
	expect_eq "$2: functions whose instruction starts differ from objdump -d" \
		"${od_bad:-none}" 0
}

if [ ! -r "$od_lib" ]; then
	echo "  skip $od_lib absent: no objdump comparison"
elif ! command -v objdump >/dev/null; then
	echo "  skip objdump absent: no objdump comparison"
elif [ -z "${TOOLS:-}" ] || [ ! -x "$TOOLS/insn_dump" ]; then
	fail "objdump comparison: \$TOOLS/insn_dump not built (make test builds it)"
else
	od_id=$(readelf -n "$od_lib" 2>/dev/null | sed -n 's/^ *Build ID: *//p')
	od_dbg=/usr/lib/debug/.build-id/$(echo "$od_id" | cut -c1-2)/$(echo "$od_id" | cut -c3-).debug
	if [ -n "$od_id" ] && [ -r "$od_dbg" ]; then
		od_compare "$od_lib" "libc.so.6 (functions from libc6-dbg's .symtab)"
		# A copy that no debug file matches: the first 4 bytes of the
		# build-id (16 bytes into .note.gnu.build-id) zeroed.
		od_note=$(readelf -SW "$od_lib" | sed -n \
			's/^ *\[ *[0-9]*\] \.note\.gnu\.build-id  *NOTE  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p')
		if [ -n "$od_note" ]; then
			cp "$od_lib" "$TMP/libc-nodebug.so"
			printf '\000\000\000\000' | dd of="$TMP/libc-nodebug.so" bs=1 \
				seek=$((0x$od_note + 16)) conv=notrunc status=none
			od_compare "$TMP/libc-nodebug.so" "libc.so.6 without its debug file"
		else
			fail "libc.so.6: no .note.gnu.build-id section to change"
		fi
	else
		od_compare "$od_lib" "libc.so.6 (no debug file)"
	fi
fi

# The quick path (decode/x86_quick.c) gives Zydis's instruction, field by
# field, at every instruction start of the C library and of the x86
# fixtures; objdump above has already agreed on the lengths.
if [ -n "${TOOLS:-}" ] && [ -x "$TOOLS/insn_dump" ] && [ -r "$od_lib" ]; then
	for q_file in "$od_lib" "$FIXTURES"/x86/*; do
		case $q_file in *.S|*.o|*.json) continue ;; esac
		run "$TOOLS/insn_dump" --check "$q_file"
		q_line=$(printf '%s\n' "$OUT" | tail -1)
		expect_eq "$(basename "$q_file"): quick path and Zydis differ at" \
			"$(printf '%s\n' "$q_line" | sed -n 's/.*quick, \([0-9]*\) differ$/\1/p')" 0
	done
fi
