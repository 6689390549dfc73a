# --limit N (tests/fixtures/x86/sections.S): the table shows the first N
# rows of the full ranking, in its order, and says "... and more" when rows
# were left out. Without samples the rows are selected, not all sorted:
# every N must give the head of --limit 0. Under skylake and
# zen1 the 22 hazards are 8 rows, one per loop or entry and rule, 5 of
# them under both profiles.

SC="$FIXTURES/x86/sections"
# the rows' cells, one row a line (column widths follow the rows shown)
rows() { printf '%s\n' "$OUT" | awk '$1 ~ /^(high|medium|low)$/ { $1 = $1; print }'; }

run "$STRADDLE" scan --no-source --uarch skylake,zen1 --limit 0 "$SC"
expect_eq "limit 0: exit 0" "$RC" 0
ALL=$(rows)
expect_eq "limit 0: 8 rows" "$(printf '%s\n' "$ALL" | wc -l)" 8
expect_eq "limit 0: 5 rows name both profiles" "$(printf '%s\n' "$ALL" | grep -c 'skylake,zen1')" 5
expect_eq "limit 0: no '... and more'" "$(printf '%s\n' "$OUT" | grep -c 'and more')" 0
expect_eq "limit 0: first and last rows" \
	"$(printf '%s\n' "$ALL" | sed -n '1p;$p' | cut -d' ' -f1-4,8 | paste -sd/)" \
	"high hot .text 0x40103c jcc/low hot.cold .text 0x4010a0 2/1"

for n in 1 2 3 7 8 9; do
	run "$STRADDLE" scan --no-source --uarch skylake,zen1 --limit $n "$SC"
	want=$(printf '%s\n' "$ALL" | head -n $n)
	expect_eq "limit $n: the first rows of the full ranking" "$(rows)" "$want"
	more=$([ $n -lt 8 ] && echo 1 || echo 0)
	expect_eq "limit $n: '... and more' $more" "$(printf '%s\n' "$OUT" | grep -c '^\.\.\. and more')" $more
	expect_eq "limit $n: every row counted" "$(printf '%s\n' "$OUT" | grep ' hazards: ')" \
		"8 hazards: 3 loops, 2 function entries"
done
