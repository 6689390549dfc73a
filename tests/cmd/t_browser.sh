# straddle report in a real browser: a page of one result file
# of every kind (tests/browser/inputs.sh) loaded in headless Chromium from
# Debian's package (make deps installs it; without it this test fails, it
# does not skip), at 1280 px, then in print media in grey scale, and
# printed to PDF (tests/browser/page.py drives it). A page of deliberate
# defects (tests/browser/broken.html) goes through the same checks first:
# each check is seen to fail on it.
BR=tests/browser
[ -f "$BR/page.py" ] || BR=$(cd "$(dirname "$STRADDLE")/../.." && pwd)/tests/browser

# browse PAGE...: page.py's JSON in $OUT; Chromium never outlives it
# (page.py kills its process group; timeout kills page.py).
browse() {
	run timeout -k 5 60 python3 "$BR/page.py" "$@"
	expect_eq "browser: ran${ERR:+ ($ERR)}" "$RC" 0
}

# q FILTER: jq_of, but a filter that fails (a page missing from $OUT) is
# its error, never "" (which would read as "no offender").
q() {
	printf '%s' "$OUT" | jq -r "$1" 2>&1 || echo "(jq failed)"
}

# offenders PAGE LIST FILTER: the ids of the sections of page PAGE (0-based)
# in LIST (sections, print_sections) for which FILTER holds, comma-
# separated; "" when none.
offenders() {
	q "[.pages[$1].$2[] | select($3) | .id] | join(\",\")"
}

# What a section's screenshot must be: a PNG of the section's own box (its
# CSS size at 1280 px, scale 1), inside the window, with drawing on it: the
# text of a heading alone is a few percent of a section's pixels, a blank
# one is one colour and 0%.
NOT_DRAWN='(.shot.png | not) or .shot.width != .box.width or .shot.height != .box.height
	or .box.x < 0 or .box.x + .box.width > 1280 or .shot.colours < 8 or .shot.ink < 0.01'
# In print, read from one picture of the page at a quarter of its size:
# drawn (a section print hides has no box, hence no picture), whatever its size.
PRINT_NOT_DRAWN='(.shot.png | not) or .shot.colours < 8 or .shot.ink < 0.01'
# A plot folded in a closed <details> (calibrate's experiments no rule was
# claimed from) is not drawn until it is opened: it must still be titled.
PRINT_PLOT_NOT_DRAWN='any(.plots[] | select(.folded | not); (.shot.png | not) or .shot.colours < 3 or .shot.ink < 0.005)'
PLOT_NOT_DRAWN='any(.plots[]; .title == "") or any(.plots[] | select(.folded | not); (.shot.png | not)
	or .shot.width != .box.width or .shot.height != .box.height or .shot.colours < 3 or .shot.ink < 0.005)'

# The screenshots' decoder on a PNG made with each of the five filters: 10 x 5
# pixels, 6 of them in 3 colours, the rest white.
run python3 "$BR/page.py" --self-test
expect_eq "page.py: PNG decoded, every filter" "$OUT" \
	'{"png": true, "width": 10, "height": 5, "rows_step": 1, "colours": 4, "ink": 0.12}'

# ---- a page of one result file of every kind ----
if sh "$BR/inputs.sh" "$TMP/in" >"$TMP/inputs" 2>"$TMP/inputs.err"; then
	ok "inputs: one result file of every kind"
else
	fail "inputs: $(cat "$TMP/inputs.err")"
fi
# The kinds, as the page numbers them: KIND-N, N counting that kind's files.
WANT=$(for f in $(cat "$TMP/inputs"); do jq -r .command "$f"; done |
	awk '{ n[$1]++; printf "%s%s-%d", sep, $1, n[$1]; sep = "," }')
expect_eq "inputs: every kind" "$(printf '%s\n' "$WANT" | tr , '\n' | sed 's/-[0-9]*$//' | sort -u | tr '\n' ' ')" \
	"bench calibrate compare diff record scan sweep "
# shellcheck disable=SC2046 # one file a line, no spaces in $TMP
run "$STRADDLE" report -o "$TMP/page.html" $(cat "$TMP/inputs")
expect_eq "report: exit 0" "$RC" 0
HTML_IDS=$(grep -o '<section class="result [a-z-]*" id="[a-z-]*-[0-9]*"' "$TMP/page.html" |
	sed 's/.*id="\(.*\)"/\1/' | tr '\n' ',' | sed 's/,$//')
# A section for each file, numbered by kind; bench runs may share one
# (bench-2.. aside), and sections of more than one file (bench-compare: two
# bench runs compared) are the page's own, not counted here.
one_bench() {
	printf '%s\n' "$1" | tr , '\n' | grep -v -e '^bench-[2-9]' -e '^bench-compare-' | sort | tr '\n' ' '
}
expect_eq "report: a section for each file" "$(one_bench "$HTML_IDS")" "$(one_bench "$WANT")"

# One browser for both pages: Chromium takes seconds to start. Without a
# page from report, the broken one alone (the page's checks fail below).
if [ -f "$TMP/page.html" ]; then
	browse "$BR/broken.html" "$TMP/page.html"
else
	browse "$BR/broken.html"
fi

# ---- the checks fail where they should: a page of defects ----
expect_eq "broken page: its request to the network seen" \
	"$(q '.pages[0].requests[1:] | join(",")')" "http://straddle.invalid/plot.png"
expect_eq "broken page: and failed" "$(q '.pages[0].failed | length')" 1
expect_eq "broken page: console error and exception seen" \
	"$(q '[.pages[0].errors[] | select(test("broken on purpose|TypeError"))] | length')" 2
expect_eq "broken page: wider than the window" "$(q '.pages[0].page.width')" 2000
expect_eq "broken page: the blank section" "$(offenders 0 sections "$NOT_DRAWN")" "scan-1"
expect_eq "broken page: the section without its heading first" \
	"$(offenders 0 sections '.first != "H2"')" "diff-1"
expect_eq "broken page: the plot without title or size" "$(offenders 0 sections "$PLOT_NOT_DRAWN")" "diff-1"
expect_eq "broken page: the section print hides" \
	"$(offenders 0 print_sections "$PRINT_NOT_DRAWN")" "scan-1,diff-1"

# ---- the real page ----
P=1
expect_eq "page: Chromium" "$(q '.chromium | test("^(Headless)?Chrome/[0-9]+[.]")')" true
expect_eq "page: it requested nothing but itself" "$(q ".pages[$P].requests | join(\",\")")" \
	"file://$TMP/page.html"
expect_eq "page: no failed or blocked request" "$(q ".pages[$P].failed | join(\",\")")" ""
expect_eq "page: no console error" "$(q ".pages[$P].errors | join(\",\")")" ""
expect_eq "page: fits 1280 px (no sideways scrolling)" "$(q ".pages[$P].page.width")" 1280
expect_eq "page: the sections the browser shows are the page's" \
	"$(q "[.pages[$P].sections[].id] | join(\",\")")" "$HTML_IDS"
expect_eq "page: each section's class is its kind" \
	"$(offenders $P sections '.cls != "result " + (.id | sub("-[0-9]+$"; ""))')" ""
expect_eq "page: each section starts with its <h2>" \
	"$(offenders $P sections '.first != "H2" or (.h2 | length) == 0')" ""
# The top rows as the browser renders them (innerText: what a reader
# sees), against the CLI's own: scan's table, and compare's changes in
# its sign (+ is better).
SCAN_CLI=$("$STRADDLE" scan --uarch zen4,skylake "$FIXTURES/x86/branches" | sed -n '3,$p' |
	grep -v -e '^[0-9]* hazards' -e '^$' | head -5 | sed -E 's/ {2,}/ | /g' | tr '\n' ';')
expect_eq "page: scan's top rows in the browser are the CLI's" \
	"$(q "[.pages[$P].sections[] | select(.id == \"scan-1\") | .top[]] | join(\";\")");" "$SCAN_CLI"
ABS=$(cd "$(dirname "$STRADDLE")" && pwd)/$(basename "$STRADDLE")
CMP_CLI=$(cd "$TMP/in" && "$ABS" compare --format csv bench.json bench2.json 2>/dev/null |
	awk -F, 'NR > 1 { printf "%s %.2f;", $1, $9 }')
expect_eq "page: the bench comparison's changes in the browser are compare's" \
	"$(q "[.pages[$P].sections[] | select(.id == \"bench-compare-1\") | .top[]] | join(\";\")" |
	   tr ';' '\n' | awk -F ' [|] ' '{ printf "%s %.2f;", $1, $6 }')" "$CMP_CLI"
expect_eq "page: each section's screenshot is its size, drawn" "$(offenders $P sections "$NOT_DRAWN")" ""
expect_eq "page: every section as wide as the first (one column)" \
	"$(q ".pages[$P].sections as \$s | [\$s[] | select(.box.width != \$s[0].box.width) | .id] | join(\",\")")" ""
expect_eq "page: each plot titled, its screenshot its size, drawn" \
	"$(offenders $P sections "$PLOT_NOT_DRAWN")" ""
# Folded, shown: calibrate's one plot of the experiment a rule was claimed
# from (zen5-quick.json: store-reg-10), its other 14 in a closed <details>;
# nothing else on the page is folded.
expect_eq "page: calibrate's plots shown and folded" \
	"$(q "[.pages[$P].sections[] | select(.id == \"calibrate-1\") | .plots[] | .folded] |
	   \"\\(map(select(not)) | length) \\(map(select(.)) | length)\"")" "1 14"
expect_eq "page: no other plot folded" \
	"$(q "[.pages[$P].sections[] | select(.id != \"calibrate-1\") | .plots[] | select(.folded)] | length")" 0
expect_eq "print (grey): calibrate's plots shown and folded" \
	"$(q "[.pages[$P].print_sections[] | select(.id == \"calibrate-1\") | .plots[] | .folded] |
	   \"\\(map(select(not)) | length) \\(map(select(.)) | length)\"")" "1 14"
expect_eq "print (grey): the same sections" "$(q "[.pages[$P].print_sections[].id] | join(\",\")")" "$HTML_IDS"
expect_eq "print (grey): no section lost or blank" "$(offenders $P print_sections "$PRINT_NOT_DRAWN")" ""
expect_eq "print (grey): each plot drawn" "$(offenders $P print_sections "$PRINT_PLOT_NOT_DRAWN")" ""
expect_eq "print: a PDF of one page or more" "$(q ".pages[$P].print | .pdf and .pages >= 1")" true
echo "  (browser: $(q '.chromium') $(q "[.pages[$P].sections[] | .plots | length] | add") plots ($(q "[.pages[$P].sections[] | .plots[] | select(.folded)] | length") folded) in $(q "[.pages[$P].sections[]] | length") sections $(q ".pages[$P].sections[0].box.width") px wide, $(q ".pages[$P].print.pages") PDF pages; Chromium: $(q .seconds) s, $(q .cpu_seconds) s of CPU)"
