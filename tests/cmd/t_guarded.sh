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
