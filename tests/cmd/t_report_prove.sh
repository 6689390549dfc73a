# straddle report of a prove document: a section with prove's
# own table, row for row. tests/fixtures/report/prove.json is make run's
# prove file (build/run-prove.json, goldencove, clear_loop measured) with
# two layout controls and three loops added by hand: one inconclusive whose measured slowdown is
# null (results_prove writes INFINITY so), one prove could not move, one
# the model says costs and the measurement says not; tail_loop replayed
# (its loop's own verdict where the program's time has none), copy_loop's
# replay refused. Each cell below is
# worked from the file: 133 of 145 samples is 91.7%; a program ratio of
# 0.94920 [0.93743, 0.96111] is -5.1% [-6.3, -3.9]; controls at 1.012 and
# 0.991 moved it by up to 1.2%, 2 of them.
CELLS="python3 tests/cmd/html_cells.py"
P=tests/fixtures/report/prove.json

run "$STRADDLE" report -o "$TMP/prove.html" "$P"
expect_eq "prove page: exit 0" "$RC" 0
$CELLS "$TMP/prove.html" >"$TMP/prove.cells"
expect_eq "prove page: one prove section" "$(grep '^section' "$TMP/prove.cells")" \
	"section prove-1 result prove"
expect_eq "prove page: prove's columns" "$(grep '^row prove-1 prove 0 ' "$TMP/prove.cells")" \
	"row prove-1 prove 0 samples % | loop | function | predicted | moved | loop replayed | program at best | layout moves | loop from the program | measured | model"
expect_eq "prove page: the measured loop" "$(grep '^row prove-1 prove 1 ' "$TMP/prove.cells")" \
	"row prove-1 prove 1 91.7 | clear:0x1272 | clear_loop | 1.050x front-end | 50 -> 0 | - | -5.1% [-6.3, -3.9] | +-1.2% (2) | 1.059x [1.043, 1.078] | costs | agree"
# tail_loop: inconclusive by the program's time (slowdown null), its
# replay conclusive: the verdict and the agreement are the replay's
expect_eq "prove page: replayed, the program's time inconclusive" "$(grep '^row prove-1 prove 2 ' "$TMP/prove.cells")" \
	"row prove-1 prove 2 6.2 | clear:0x12c0 | tail_loop | 1.200x latency | 48 -> 16 | 1.210x [1.150, 1.270] | +0.2% [-0.9, +1.3] | - | more than its share | costs | agree"
expect_eq "prove page: not measured, why" "$(grep '^row prove-1 prove 3 ' "$TMP/prove.cells")" \
	"row prove-1 prove 3 2.1 | libc.so.6:0x1a2b40 | __memset_avx2 | 1.500x front-end | - | - | - | - | - | not relocatable: a jump table reaches into it | -"
expect_eq "prove page: the model disagreeing" "$(grep '^row prove-1 prove 4 ' "$TMP/prove.cells")" \
	"row prove-1 prove 4 0.0 | clear:0x1300 | copy_loop | 1.050x front-end | 50 -> 0 | not replayed | +0.0% [-0.2, +0.2] | - | 1.000x [0.970, 1.030] | nothing | DISAGREE"
expect_eq "prove page: 4 rows" "$(grep -c '^row prove-1 prove [1-9]' "$TMP/prove.cells")" 4
# the rows' verdicts counted, as prove's text counts them: clear_loop and
# tail_loop (by its replay) agree, copy_loop does not
expect_eq "prove page: the agreement" "$(grep -o '<p class="summary">[^<]*' "$TMP/prove.html")" \
	'<p class="summary">Profile goldencove; the model and the measurement agree on 2 of 3 loops measured conclusively.'
expect_eq "prove page: nothing reaches outside" "$(grep -c '^external\|svg .* bad' "$TMP/prove.cells")" 0

# A prove file beside the others of make run: its section in the order given.
run "$STRADDLE" report -o "$TMP/mix.html" tests/fixtures/report/sweep.json "$P"
expect_eq "prove with a sweep: exit 0" "$RC" 0
expect_eq "prove with a sweep: the sections" \
	"$(grep -o '<section class="result [a-z]*"' "$TMP/mix.html" | cut -d' ' -f3 | tr '\n' ' ')" 'sweep" prove" '

# A prove document without its loops is refused whole.
echo '{"schema":1,"command":"prove","profile":"zen4"}' >"$TMP/noloops.json"
run "$STRADDLE" report -o "$TMP/bad.html" "$TMP/noloops.json"
expect_eq "prove without loops: exit 2" "$RC" 2
expect_eq "prove without loops: said" "$ERR" "straddle: $TMP/noloops.json: a prove result without \"loops\""
expect_eq "prove without loops: no page" "$(ls "$TMP" | grep -c '^bad\.html')" 0
