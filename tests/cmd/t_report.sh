# straddle report: one self-contained HTML page of result files.
# The result files are made here from fixtures whose addresses are known
# (x86/branches, x86/hotcold, x86/diff000_*, a function with a hostile
# name assembled below), then the page is read back structurally by
# html_cells.py: the sections, every table's cells, every SVG parsed as
# XML, anything that would reach outside the page.
X=$FIXTURES/x86
FIXABS=$(cd "$FIXTURES" && pwd)
CELLS="python3 tests/cmd/html_cells.py"
R="$STRADDLE report"

# ---- the result files ----
"$STRADDLE" scan --json --uarch zen4,skylake "$X/branches" >"$TMP/scan.json"
"$STRADDLE" scan --uarch zen4,skylake "$X/branches" >"$TMP/scan.txt"
sed "s|/FIXTURES|$FIXABS|" tests/fixtures/record/hotcold.perf-script >"$TMP/hotcold.txt"
"$STRADDLE" scan --json --uarch zen1 --perf-script "$TMP/hotcold.txt" "$X/hotcold" >"$TMP/hot.json"
"$STRADDLE" diff --json --uarch zen1 --no-source "$X/diff000_before" "$X/diff000_after" >"$TMP/diff.json"
expect_eq "diff before->after: exit 1 (the gate the page must show)" "$?" 1
"$STRADDLE" diff --json --uarch zen1 --no-source --fail-on branch-crosses-window \
	"$X/diff000_before" "$X/diff000_after" >"$TMP/diff_pass.json"
expect_eq "diff --fail-on branch-crosses-window: exit 0" "$?" 0
"$STRADDLE" diff --json --uarch zen1 --no-source "$X/diff000_after" "$X/diff000_fixed" >"$TMP/fixed.json"
"$STRADDLE" record --uarch zen1 -o "$TMP/rec.json" -- "$FIXABS/x86/hotcold" a b 2>/dev/null

# A function named evil<&"'x whose 4-byte loop 0x40103e..0x401042 spans
# 0x401040: its name must reach the page escaped, never as markup.
cat >"$TMP/evil.S" <<'EOF'
	.text
	.globl	"evil<&\"'x"
	.type	"evil<&\"'x", @function
"evil<&\"'x":
	.skip	62, 0x90
1:	dec	%eax
	jnz	1b
	ret
	.size	"evil<&\"'x", .-"evil<&\"'x"
EOF
gcc -c -o "$TMP/evil.o" "$TMP/evil.S" && ld -o "$TMP/evil" -e 0x401000 -Ttext=0x401000 --build-id=none "$TMP/evil.o"
"$STRADDLE" scan --json --uarch zen1 "$TMP/evil" >"$TMP/evil.json"

# ---- the page of them all ----
run $R -o "$TMP/page.html" "$TMP/scan.json" "$TMP/hot.json" "$TMP/diff.json" "$TMP/diff_pass.json" \
	"$TMP/fixed.json" "$TMP/rec.json" "$TMP/evil.json"
expect_eq "report: exit 0" "$RC" 0
expect_eq "report: nothing on stdout or stderr" "$OUT$ERR" ""
$CELLS "$TMP/page.html" >"$TMP/cells"
cells() { grep "$1" "$TMP/cells"; }
row() { grep "^row $1 $2 $3 " "$TMP/cells" | sed "s/^row $1 $2 $3 //"; }

expect_eq "every section, in order, with its kind's 1-based id" \
	"$(cells '^section' | tr '\n' ';')" \
	"section scan-1 result scan;section scan-2 result scan;section diff-1 result diff;section diff-2 result diff;section diff-3 result diff;section record-1 result record;section scan-3 result scan;"
expect_eq "each section starts with its h2" "$(cells '^h2' | grep -c "^h2 [a-z]*-[0-9] [a-z]*: $TMP/")" 7
expect_eq "the contents link every section" \
	"$(grep -o '<li><a href="#[a-z]*-[0-9]">' "$TMP/page.html" | wc -l)" 7
expect_eq "no external reference, script or handler" "$(cells '^external' | wc -l)" 0
expect_eq "no <script> at all" "$(grep -ci '<script' "$TMP/page.html")" 0
expect_eq "no URL anywhere in the page" "$(grep -cE 'https?:|@import|url\([^#]' "$TMP/page.html")" 0
expect_eq "every SVG well-formed, role=img, titled" "$(cells '^svg ' | grep -vc ' ok ')" 0
expect_eq "SVGs: the layout of scan-1, scan-2, diff-1, diff-2, scan-3 and record-1's loops" \
	"$(cells '^svg ' | awk '{ print $2 }' | tr '\n' ' ')" "scan-1 scan-2 diff-1 diff-2 record-1 scan-3 "
expect_eq "every SVG followed by its table (the text alternative)" \
	"$(cells '^svg-alt' | tr '\n' ';')" "svg-alt scan-1 ok;svg-alt scan-2 ok;svg-alt diff-1 ok;svg-alt diff-2 ok;svg-alt record-1 ok;svg-alt scan-3 ok;"

# ---- header: the machine and the command lines ----
MODEL=$(jq -r .machine.model_name "$TMP/scan.json")
expect_eq "header: the machine named once, from the files" \
	"$(grep -c "<li>$MODEL (" "$TMP/page.html")" 1
expect_eq "header: scan's command line and time" \
	"$(row - files 1 | awk -F ' [|] ' '{ print $3 " @ " $4 }')" \
	"straddle scan --json --uarch zen4,skylake $X/branches @ $(jq -r .time "$TMP/scan.json")"
expect_eq "header: diff's command line" "$(row - files 3 | awk -F ' [|] ' '{ print $3 }')" \
	"straddle diff --json --uarch zen1 --no-source $X/diff000_before $X/diff000_after"

# ---- scan: worst first, exact cells, as scan's own table ----
expect_eq "scan: the worst hazard's row" "$(row scan-1 hazards 1)" \
	"high | many_back | .text | 0x401110 | - | 40 | 32 | jcc 0x40111f | branch-crosses-window | skylake | certain | <=2.00x | .p2align 6 (+48 B)"
expect_eq "scan: one row per loop and rule, its profiles and windows named, one fix for all" "$(row scan-1 hazards 3)" \
	"medium | fwd_cross | .text | 0x40122c | - | 40 | 16,64 | 4/3,2/1 | loop-straddles-window | zen4,skylake | certain | <=2.00x | .p2align 6 (+20 B)"
expect_eq "scan: every row as scan's text table has it, in its order" \
	"$(grep '^row scan-1 hazards [1-9]' "$TMP/cells" | sed 's/^row scan-1 hazards [0-9]* //')" \
	"$(sed -n '3,$p' "$TMP/scan.txt" | grep -v '^[0-9]* hazards' | sed -E 's/ {2,}/ | /g')"
expect_eq "scan: counts by rule" "$(grep '^row scan-1 by-rule' "$TMP/cells" | cut -d' ' -f5- | tr '\n' ';')" \
	"rule | hazards | high | medium | low;branch-crosses-window | 2 | 2 | 0 | 0;loop-straddles-window | 5 | 0 | 4 | 1;"
expect_eq "scan: counts by rule add up to the JSON's hazards" \
	"$(jq '[.files[].functions[] | (.loops[].hazards[]), .hazards[]] | length' "$TMP/scan.json")" 7
expect_eq "scan: counts by profile" "$(grep '^row scan-1 by-profile' "$TMP/cells" | cut -d' ' -f5- | tr '\n' ';')" \
	"profile | hazards | high | medium | low;skylake | 5 | 2 | 2 | 1;zen4 | 2 | 0 | 2 | 0;"
expect_eq "scan: counts by section" "$(row scan-1 by-section 1)" ".text | 7 | 2 | 4 | 1"
expect_eq "scan: the layout's table, the worst loop first" "$(row scan-1 layout 1)" \
	"many_back | 0x401110 | 0x401138 | 40 | 3/3 | 2/2 | 1/1 | branch-crosses-window 32 B | 0x40111f"
expect_eq "scan: the layout draws 3 loops over the 64 B lines they touch (1+2+2: 2+3+3 thick boundaries)" \
	"$(sed -n '/id="scan-1"/,/<\/section>/p' "$TMP/page.html" | grep -c 'class="lay-w64"')" 8

# --hot: the hottest first, the exact share of the perf script's samples
PS_TOTAL=$(grep -c . "$TMP/hotcold.txt")
PS_HOT=$(awk '$1 ~ /^40107[a-f]$|^40108[0-2]$/' "$TMP/hotcold.txt" | grep -c .)
PS_HOT_PCT=$(awk -v a="$PS_HOT" -v b="$PS_TOTAL" 'BEGIN { printf "%.1f", 100 * a / b }')
expect_eq "scan --hot: a samples column, the hot loop first with its share" \
	"$(row scan-2 hazards 1 | awk -F ' [|] ' '{ print $1, $4, $6, $11 }')" \
	"$PS_HOT_PCT hot 0x40107a loop-straddles-window"

# ---- escaping ----
expect_eq "hostile name: escaped in its cells (its one row, the layout's table)" \
	"$(grep -c '<td[^>]*>evil&lt;&amp;&quot;&#39;x</td>' "$TMP/page.html")" 2
expect_eq "hostile name: escaped in the SVG's label" \
	"$(grep -c '<text x="324" y="52" class="lay-lbl">evil&lt;&amp;&quot;&#39;x 0x40103e</text>' "$TMP/page.html")" 1
expect_eq "hostile name: reads back as itself" "$(row scan-3 hazards 1 | cut -d'|' -f2)" " evil<&\"'x "
expect_eq "hostile name: never raw" "$(grep -c "evil<&" "$TMP/page.html")" 0
expect_eq "hostile name: its loop 0x40103e spans 0x401040" "$(row scan-3 hazards 1)" \
	"medium | evil<&\"'x | .text | 0x40103e | - | 4 | 16,64 | 2/1,2/1 | loop-straddles-window | zen1 | certain | <=2.00x | .p2align 2 (+2 B)"

# ---- diff: the verdict on top, what changed ----
expect_eq "diff: the gate's verdict first" "$(cells '^verdict diff-1')" \
	"verdict diff-1 fail The gate fails (exit status 1): 1 new hazard row of a selected rule and cause."
expect_eq "diff: the verdict comes before every table of its section" \
	"$(sed -n '/id="diff-1"/,/<\/section>/p' "$TMP/page.html" | grep -m1 -o 'class="verdict\|<table' )" 'class="verdict'
expect_eq "diff: the worst new hazard with old and new address and bytes, as diff's text" "$(row diff-1 added 1)" \
	"medium | __clear_user | changed | 0x401034 -> 0x401034 | - | 10 -> 15 | 16,64 | 1/1,1/1 -> 2/1,2/1 | loop-straddles-window | zen1 | <=2.00x | .p2align 4 (+12 B)"
expect_eq "diff: the 16 B hazard in the same row" "$(grep -c '^row diff-1 added [1-9]' "$TMP/cells")" 1
expect_eq "diff: the summary's counts" "$(row diff-1 summary 1) / $(row diff-1 summary 3)" \
	"new hazards | 2 / loops resized | 1"
expect_eq "diff: the changed loop drawn old above new, 10 then 15 bytes from 0x401034" \
	"$(grep '^row diff-1 layout [12]' "$TMP/cells" | cut -d' ' -f5- | tr '\n' ';')" \
	"__clear_user | old | 0x401034 | 0x40103e | 10 | 1/1 | 1/1 | 1/1 | - | -;__clear_user | new | 0x401034 | 0x401043 | 15 | 2/1 | 2/1 | 2/1 | loop-straddles-window 64 B | -;"
expect_eq "diff --fail-on another rule: the gate passes" "$(cells '^verdict diff-2')" \
	"verdict diff-2 pass The gate passes (exit status 0): no new hazard of a selected rule and cause."
expect_eq "diff after->fixed: the hazards listed as fixed, one row" "$(grep -c '^row diff-3 removed [1-9]' "$TMP/cells")" 1
expect_eq "diff after->fixed: nothing new" "$(grep -c '^row diff-3 added' "$TMP/cells")" 0

# ---- record: the hottest loops, their share and hazards ----
REC_TOTAL=$(jq .samples.total "$TMP/rec.json")
HOT_N=$(jq '.files[0].loops[] | select(.start == "0x40107a") | .samples' "$TMP/rec.json")
HOT_PCT=$(awk -v a="$HOT_N" -v b="$REC_TOTAL" 'BEGIN { printf "%.1f", 100 * a / b }')
expect_eq "record: the hot loop first, its samples and exact share" \
	"$(row record-1 loops 1 | cut -d'|' -f2-8)" " hot | 0x40107a | 0x401083 | 9 | 1 | $HOT_N | $HOT_PCT "
expect_eq "record: the hot loop's hazards and their fix (zen1)" "$(row record-1 loops 1 | cut -d'|' -f10)" \
	" loop-straddles-window 16 B (zen1): .p2align 4 (+6 B); .p2align 3 (+6 B) holds only here; loop-straddles-window 64 B (zen1): .p2align 4 (+6 B); .p2align 3 (+6 B) holds only here"
expect_eq "record: then the cold loop" "$(row record-1 loops 2 | cut -d'|' -f2,3)" " cold | 0x4010fa "
expect_eq "record: the bar plot names the hot loop first" \
	"$(sed -n '/id="record-1"/,/<\/section>/p' "$TMP/page.html" | grep -m1 -o 'class="rec-lbl">[^<]*')" 'class="rec-lbl">hot 0x40107a'

# ---- a scan of several files: one row each, then the files with hazards ----
"$STRADDLE" scan --json --uarch zen1 "$X/branches" "$X/jcc" "$TMP/nonexistent" >"$TMP/two.json" 2>/dev/null
run $R -o "$TMP/two.html" "$TMP/two.json"
$CELLS "$TMP/two.html" >"$TMP/two.cells"
expect_eq "several files: a row each with its hazards by severity (as scan counts them: 3 and 0)" \
	"$(grep '^row scan-1 scanned [12]' "$TMP/two.cells" | cut -d' ' -f5- | tr '\n' ';')" \
	"$X/branches | x86_64 | 3 | 3 | 3 | 0 | 2 | 1;$X/jcc | x86_64 | 6 | 6 | 0 | 0 | 0 | 0;"
expect_eq "several files: only the one with hazards detailed" \
	"$(grep -c '<h3 class="file path">' "$TMP/two.html")" 1
expect_eq "several files: the file that could not be scanned, and why" \
	"$(grep -c "<li><span class=\"path\">$TMP/nonexistent</span>: cannot open: No such file or directory</li>" "$TMP/two.html")" 1

# ---- cut tables say how many rows are left out ----
python3 - "$TMP/scan.json" "$TMP/many.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
f = d["files"][0]["functions"]
d["files"][0]["functions"] = [dict(f[0], name="f%d" % i) for i in range(60)]
json.dump(d, open(sys.argv[2], "w"))
EOF
run $R -o - "$TMP/many.json"
expect_eq "-o -: the page on stdout" "$(printf '%s\n' "$OUT" | tail -n 1)" "</html>"
MANY=$(jq '[.files[0].functions[] | (.loops[].hazards[]), .hazards[]] | length' "$TMP/many.json")
printf '%s\n' "$OUT" >"$TMP/many.html"
expect_eq "a long table: 50 rows, then how many more" \
	"$(grep -c '^row scan-1 hazards [1-9]' "$($CELLS "$TMP/many.html" >"$TMP/mc"; echo "$TMP/mc")") $(grep '^more' "$TMP/mc")" \
	"50 more scan-1 $((MANY - 50)) more hazard rows not shown ($MANY in all)."

# ---- bad input: one line, exit 2, no page ----
printf 'not json' >"$TMP/bad.json"
echo '{"schema":1}' >"$TMP/nocmd.json"
echo '{"schema":1,"command":"uarch"}' >"$TMP/uarch.json"
echo '{"schema":1,"command":"scan"}' >"$TMP/nofiles.json"
for bad in "$TMP/missing.json" "$TMP/bad.json" "$TMP/nocmd.json" "$TMP/nofiles.json" "$TMP/uarch.json"; do
	run $R -o "$TMP/bad.html" "$TMP/scan.json" "$bad"
	expect_eq "bad input $(basename "$bad"): exit 2" "$RC" 2
	expect_eq "bad input $(basename "$bad"): one line naming it" \
		"$(printf '%s\n' "$ERR" | grep -c "^straddle: $bad: ")/$(printf '%s\n' "$ERR" | wc -l)" "1/1"
	expect_eq "bad input $(basename "$bad"): no page, no temporary" \
		"$(ls "$TMP" | grep -c '^bad\.html')" 0
done
expect_eq "bad input: what is wrong said" "$ERR" \
	"straddle: $TMP/uarch.json: a uarch result, not a scan, diff, record, bench, sweep, place, ab, prove, calibrate or compare result"
run $R -o "$TMP/bad.html" "$TMP/nofiles.json"
expect_eq "a scan result without its files" "$ERR" "straddle: $TMP/nofiles.json: a scan result without \"files\""

# nonsense inside a well-formed document (a hazard of window 0, a loop of
# 10^15 bytes at the top of the address space, hazards that are numbers):
# a page, no crash, no hang, the absurd loop left out of the picture
python3 - "$TMP/scan.json" "$TMP/weird.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
fs = d["files"][0]["functions"]
fs[0]["loops"][0].update(bytes=10**15, start="0xffffffffffffffff")
fs[1]["loops"] = [{"hazards": [{"rule": "x", "severity": "high", "window": 0, "fix": 5},
                               {"rule": "loop-straddles-window", "severity": "high", "window": 0}]}]
fs.append({"loops": "no", "hazards": [1, 2, {}]})
json.dump(d, open(sys.argv[2], "w"))
EOF
run $R -o "$TMP/weird.html" "$TMP/weird.json"
expect_eq "nonsense values: exit 0" "$RC" 0
$CELLS "$TMP/weird.html" >"$TMP/weird.cells"
expect_eq "nonsense values: the window-0 hazard's detail is '-'" \
	"$(grep -c '^row scan-1 hazards [0-9]* low | fwd_cross | - | 0x0 | - | 0 | 0 | - | loop-straddles-window |' "$TMP/weird.cells")" 1
expect_eq "nonsense values: a hazard of a rule straddle does not know is no row" \
	"$(grep -c '^row scan-1 hazards [0-9]* .* | x |' "$TMP/weird.cells")" 0
expect_eq "nonsense values: the 10^15-byte loop is not drawn" \
	"$(grep -c '^row scan-1 layout [0-9]* many_back' "$TMP/weird.cells")" 0

run $R -o "$TMP/none.html"
expect_eq "no result file: exit 2" "$RC" 2

# ---- the page of make run, under 1 MB ----
# make run's steps (Makefile: run), shorter: the default scan (this
# machine's vDSO and C library), seed 000's loop swept, the same loop in a
# user program moved by place (make run's comes from prove --keep, a place
# file the same); one page of the three.
"$STRADDLE" scan --json >"$TMP/run-scan.json"
"$STRADDLE" sweep --time 2 -o "$TMP/run-sweep.json" clear_movq_imm >/dev/null 2>&1
"$STRADDLE" place --func clear_loop --runs 2 -o "$TMP/run-place.json" -- "$FIXTURES/place/clear" 1000 \
	>/dev/null 2>&1
run $R -o "$TMP/run.html" "$TMP/run-scan.json" "$TMP/run-sweep.json" "$TMP/run-place.json"
expect_eq "make run's page: exit 0" "$RC" 0
expect_eq "make run's page: its sections" "$(grep -o '<section class="result [a-z]*"' "$TMP/run.html" | cut -d' ' -f3 | tr '\n' ' ')" \
	'scan" sweep" place" '
expect_eq "make run's page: under 1 MB" "$(($(wc -c <"$TMP/run.html") < 1000000))" 1
