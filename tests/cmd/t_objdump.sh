# Instruction boundaries agree with objdump -d on every function of the C
# library (issue 2, What to build 3). Sourced by run.sh: lib.sh's helpers,
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

od_lib=/lib/x86_64-linux-gnu/libc.so.6
od_addrs() { sed -n 's/^ *\([0-9a-f][0-9a-f]*\):\t.*/\1/p'; }

if [ ! -r "$od_lib" ]; then
	echo "  skip $od_lib absent: no objdump comparison"
elif ! command -v objdump >/dev/null; then
	echo "  skip objdump absent: no objdump comparison"
elif [ -z "${TOOLS:-}" ] || [ ! -x "$TOOLS/insn_dump" ]; then
	fail "objdump comparison: \$TOOLS/insn_dump not built (make test builds it)"
else
	objdump -d -z --no-show-raw-insn "$od_lib" | od_addrs >"$TMP/od.addrs"
	run "$TOOLS/insn_dump" --compare "$TMP/od.addrs" "$od_lib"
	expect_eq "insn_dump --compare libc.so.6: exit status" "$RC" 0
	od_summary=$(printf '%s\n' "$OUT" | tail -n 1)
	od_n=$(printf '%s\n' "$od_summary" | sed -n 's/^compared \([0-9]*\) functions, \([0-9]*\) mismatched$/\1/p')
	od_bad=$(printf '%s\n' "$od_summary" | sed -n 's/^compared \([0-9]*\) functions, \([0-9]*\) mismatched$/\2/p')
	echo "  libc.so.6: $od_summary"
	if [ "${od_n:-0}" -ge 1000 ]; then
		ok "objdump comparison covers $od_n functions of libc.so.6"
	else
		fail "objdump comparison covers '${od_n}' functions of libc.so.6, want >= 1000"
	fi
	printf '%s\n' "$OUT" | grep '^mismatch ' >"$TMP/od.mismatch"
	# Each differing function again, objdump starting at its start.
	od_dec=0
	od_seen=0
	while read -r _ od_name od_s od_e _; do
		od_seen=$((od_seen + 1))
		[ "$od_seen" -gt 50 ] && break
		objdump -d -z --no-show-raw-insn --start-address="0x$od_s" \
			--stop-address="0x$od_e" "$od_lib" | od_addrs >"$TMP/od.one"
		"$TOOLS/insn_dump" --compare "$TMP/od.one" "$od_lib" "$od_s" >"$TMP/od.out"
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
	expect_eq "decoder agrees with objdump from each function's start (libc.so.6)" \
		"$od_dec" 0
	expect_eq "functions of libc.so.6 whose instruction starts differ from objdump -d" \
		"${od_bad:-none}" 0
fi
