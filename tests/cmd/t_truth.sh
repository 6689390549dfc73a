# The differential check (tests/truth/cycles.py): an independent cycle
# finder over objdump's text must agree exactly with scan on every fixture:
# every span equal, every straddle loop a real cycle, every cycle reported.

TRUTH="$dir/../truth/cycles.py"

# truth_of FILE: "natural+irreducible/straddle" from the report's first line.
truth_of() {
	printf '%s\n' "$OUT" | sed -n '1s/.*truth \([0-9]*\) natural loops + \([0-9]*\) irreducible cycles, straddle \([0-9]*\) loops.*/\1+\2\/\3/p'
}

for f in "$FIXTURES"/x86/* "$FIXTURES"/arm64/* "$FIXTURES"/so/*.so "$FIXTURES"/diff/*; do
	case "$f" in *.o) continue ;; esac
	run python3 "$TRUTH" --straddle "$STRADDLE" --min 100 --exact "$f"
	expect_eq "truth: $(basename "$f") agrees ($(truth_of))" "$RC" 0
	[ "$RC" = 0 ] || printf '%s\n' "$OUT"
done

# The truth finds the loops the fixtures document, so its 100% is not that
# of two empty lists: loops.S has five natural loops and an irreducible
# cycle; shapes.S two loops, one with a block out of line; seed002.S three.
run python3 "$TRUTH" --straddle "$STRADDLE" "$FIXTURES/x86/loops"
expect_eq "truth: loops.S cycles" "$(truth_of)" "5+1/6"
run python3 "$TRUTH" --straddle "$STRADDLE" "$FIXTURES/x86/shapes"
expect_eq "truth: shapes.S cycles" "$(truth_of)" "2+0/2"
run python3 "$TRUTH" --straddle "$STRADDLE" "$FIXTURES/arm64/seed002"
expect_eq "truth: seed002.S cycles" "$(truth_of)" "3+0/3"

# It fails when scan is wrong: a stand-in scan that reports cold_path's
# loop one block short (0x401140..0x401144, the header alone) and a loop
# in multi_latch's straight-line entry (0x401000..0x401041).
cat >"$TMP/fake" <<'FAKE'
#!/bin/sh
cat <<'JSON'
{"files":[{"functions":[
 {"name":"multi_latch","loops":[{"start":"0x401041","end":"0x40107c","irreducible":false},
                               {"start":"0x401000","end":"0x401041","irreducible":false}]},
 {"name":"cold_path","loops":[{"start":"0x401140","end":"0x401144","irreducible":false}]}]}]}
JSON
FAKE
chmod +x "$TMP/fake"
run python3 "$TRUTH" --straddle "$TMP/fake" --min 100 "$FIXTURES/x86/shapes"
expect_eq "truth: a wrong scan fails" "$RC" 1
expect_eq "truth: the short span is named" \
	"$(printf '%s\n' "$OUT" | grep 'span: ' | tr -s ' ')" \
	" span: cold_path header 0x401140 truth 0x401140..0x401148 straddle 0x401140..0x401144"
expect_eq "truth: the false loop is named" \
	"$(printf '%s\n' "$OUT" | grep 'precision: ' | tr -s ' ')" \
	" precision: multi_latch straddle 0x401000..0x401041: no cycle"
expect_eq "truth: the figures" \
	"$(printf '%s\n' "$OUT" | grep -o '^  [a-z]* *[0-9.]*%' | tr -s ' ' | tr '\n' ';')" \
	" span 50.00%; precision 66.67%; recall 100.00%; strict 33.33%; goal 100.0%;"
# the strict check: a span that is its header alone holds no
# edge of its cycle, nor does a span that is no loop
expect_eq "truth: the spans holding no edge of their cycle are named" \
	"$(printf '%s\n' "$OUT" | grep 'strict: ' | tr -s ' ' | tr '\n' ';')" \
	" strict: multi_latch straddle 0x401000..0x401041: no edge of the cycle; strict: cold_path straddle 0x401140..0x401144: no edge of the cycle;"
expect_eq "truth: the measures below the goal" \
	"$(printf '%s\n' "$OUT" | grep 'goal')" "  goal 100.0%: not met (span, precision, strict)"
