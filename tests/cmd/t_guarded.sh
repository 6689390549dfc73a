# Every reader as guarded as the ELF reader (issue 25): one regression test
# per finding of the robustness campaign, each with the exact line, status
# and value it must give.

GD="$TMP/guarded"
rm -rf "$GD"
mkdir -p "$GD"
G000="$FIXTURES/x86/seed000_after"

# ---- 8: the installed binary obeys no test hook ----
# build/straddle ($PLAIN) has none compiled in: the hook that makes the
# test build truncate its input leaves the file whole (a mode 0444 copy as
# root too), the signal hook raises nothing, and the hooks' names are not
# in the binary's bytes (scripts/check_test_hooks.sh, also in make check).
if [ -n "$PLAIN" ]; then
	cp "$G000" "$GD/victim"
	chmod 0444 "$GD/victim"
	size=$(wc -c <"$G000" | tr -d ' ')
	STRADDLE_TEST_TRUNCATE_AFTER_OPEN=0:$GD/victim run "$PLAIN" scan --uarch generic-x86 "$GD/victim"
	expect_eq "8: plain build, truncate hook: exit 0, no error" "$RC:$ERR" "0:"
	expect_eq "8: plain build, truncate hook: the file whole" "$(wc -c <"$GD/victim" | tr -d ' ')" "$size"
	STRADDLE_TEST_SIGNAL_IN_WRITE=11 run "$PLAIN" scan --dump-vdso "$GD/v.so"
	expect_eq "8: plain build, signal hook: exit 0, the file written" "$RC:$(test -s "$GD/v.so" && echo written)" "0:written"
	run sh scripts/check_test_hooks.sh "$PLAIN"
	expect_eq "8: check-test-hooks passes the plain build" "$RC:$OUT" "0:check-test-hooks: 1 binaries, no test hook in them"
	# the test build has them: the check must see them there
	run sh scripts/check_test_hooks.sh "$STRADDLE"
	expect_eq "8: check-test-hooks fails the test build" "$RC:$OUT" \
		"1:check-test-hooks: $STRADDLE reads test hooks: STRADDLE_TEST_ STRADDLE_TEST_TRUNCATE_AFTER_OPEN"
	rm -f "$GD/victim"
else
	fail "8: PLAIN (build/straddle) not set"
fi

# ---- 1: JSON is valid UTF-8 whatever bytes a name or a path holds ----
# A surrogate (ED A0 80) as a symbol name and in the path: each byte one
# U+FFFD, the path still written; report reads the document back.
SUR=$(printf '\355\240\200')
objcopy --redefine-sym "clear_user_after=$SUR" "$FIXTURES/x86/seed000_after.o" "$GD/p$SUR.o"
run "$STRADDLE" scan --json --all --uarch generic-x86 "$GD/p$SUR.o"
expect_eq "1: scan --json of a surrogate: exit 0" "$RC" 0
printf '%s' "$OUT" >"$GD/sur.json"
expect_eq "1: strict UTF-8, the path and the name kept as U+FFFD" \
	"$(python3 -c 'import json,sys; f=json.load(open(sys.argv[1], encoding="utf-8", errors="strict"))["files"][0]; print(ascii(f["path"][-5:]), ascii(f["functions"][0]["name"]))' "$GD/sur.json")" \
	"'\\ufffd\\ufffd\\ufffd.o' '\\ufffd\\ufffd\\ufffd'"
run "$STRADDLE" report -o "$GD/sur.html" "$GD/sur.json"
expect_eq "1: report reads it: exit 0" "$RC:$ERR" "0:"
