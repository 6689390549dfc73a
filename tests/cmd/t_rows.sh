# One row model under every renderer: the same scan and diff
# rendered as text, as the page of their JSON (read back by results/) and
# as the JSON itself list the same rows, in the same order, with the same
# values. The fixture below has a hot loop in .text (warm, 0x40103e), a
# hotter one in init text (boot_loop, 0x4010be, .init.text: cold by
# section) and one under --min-share (tepid, 0x40107f): once
# the terminal ranked boot_loop first, the page put it last and listed
# tepid, which the terminal folds. Every loop is `dec; jnz` (4 bytes)
# across a 16 and a 64 B boundary (objdump -d of the fixture).
CELLS="python3 tests/cmd/html_cells.py"

cat >"$TMP/rows.S" <<'EOF'
	.text
	.globl	warm
	.type	warm, @function
warm:
	.skip	62, 0x90
1:	dec	%eax
	jnz	1b
	ret
	.size	warm, .-warm
	.globl	tepid
	.type	tepid, @function
tepid:
	.skip	60, 0x90
1:	dec	%ecx
	jnz	1b
	ret
	.size	tepid, .-tepid
	.section .init.text, "ax", @progbits
	.globl	boot_loop
	.type	boot_loop, @function
boot_loop:
	.skip	58, 0x90
1:	dec	%edx
	jnz	1b
	ret
	.size	boot_loop, .-boot_loop
EOF
gcc -c -o "$TMP/rows.o" "$TMP/rows.S" && ld -o "$TMP/rows" -e 0x401000 -Ttext=0x401000 --build-id=none "$TMP/rows.o"
P="$TMP/rows"
# 1000 samples: 60 in boot_loop's loop, 30 in warm's, 2 in tepid's, the
# rest in no file (perf script's [unknown]: counted in the run only)
{
	i=0; while [ $i -lt 60 ]; do echo "           4010be boot_loop ($P)"; i=$((i + 1)); done
	i=0; while [ $i -lt 30 ]; do echo "           40103e warm ($P)"; i=$((i + 1)); done
	echo "           40107f tepid ($P)"; echo "           40107f tepid ($P)"
	i=0; while [ $i -lt 908 ]; do echo "           1234 [unknown] ([unknown])"; i=$((i + 1)); done
} >"$TMP/rows.txt"

# The text table's rows as the page's cells: columns two spaces apart.
text_rows() { printf '%s\n' "$1" | awk '/^(samples %|severity) / { on = 1; next }
	on && /^([0-9]+ (more|hazards)|where|\.\.\.|$)/ { exit } on' | sed -E 's/^ +//; s/ {2,}/ | /g'; }
page_rows() { grep "^row $2 $3 [1-9]" "$1" | sed -E "s/^row $2 $3 [0-9]+ //"; }

# ---- scan --hot: text, page, JSON ----
S="$STRADDLE scan --uarch zen1 --llvm-mca none --perf-script $TMP/rows.txt"
run $S "$P"
expect_eq "scan --hot: exit 0, nothing on stderr" "$RC:$ERR" "0:"
TEXT=$(text_rows "$OUT")
# an entry hazard is not priced: it ranks by its whole share (6.0), ahead
# of the loop that saves 3.0 (hazard_saves)
expect_eq "scan --hot text: the most saved first, init text or not; tepid folded" "$TEXT" \
"6.0 | - | low | boot_loop | .init.text | 0x401084 | - | 63 | 64 | 2/1 | entry-misaligned | zen1 | certain | - | .p2align 6 (+60 B)
6.0 | 3.0 | medium | boot_loop | .init.text | 0x4010be | - | 4 | 16,64 | 2/1,2/1 | loop-straddles-window | zen1 | certain | <=2.00x | .p2align 2 (+2 B)
3.0 | 1.5 | medium | warm | .text | 0x40103e | - | 4 | 16,64 | 2/1,2/1 | loop-straddles-window | zen1 | certain | <=2.00x | .p2align 2 (+2 B)"
expect_eq "scan --hot text: the folded line" "$(printf '%s\n' "$OUT" | grep '^[0-9]* more hazards')" \
	"1 more hazards in code with less than 0.5% of samples"
SUMMARY=$(printf '%s\n' "$OUT" | sed -n '/^where/,/^[0-9]* hazards/p' | sed '1d;$d' | sed -E 's/^ +//; s/%  /% /')
$S --json "$P" >"$TMP/scan.json"
"$STRADDLE" report -o "$TMP/scan.html" "$TMP/scan.json"
$CELLS "$TMP/scan.html" >"$TMP/scan.cells"
expect_eq "scan --hot page: the text's rows, order and values" \
	"$(page_rows "$TMP/scan.cells" scan-1 hazards)" "$TEXT"
expect_eq "scan --hot page: the same columns" "$(grep '^row scan-1 hazards 0 ' "$TMP/scan.cells" | cut -d' ' -f5-)" \
	"samples % | saves % | severity | function | section | address | source | bytes | window | detail | rule | profiles | placement | cost | fix"
expect_eq "scan --hot page: the folded line" \
	"$(sed -n 's/.*<p class="folded">\([^<]*\)<.*/\1/p' "$TMP/scan.html")" \
	"1 more hazards in code with less than 0.5% of samples"
expect_eq "scan --hot page: where the samples went, the text's lines" \
	"$(sed -n 's/^<li>\(.*\)<\/li>$/\1/p' "$TMP/scan.html" | grep '%' | sed 's/&#39;/'"'"'/g')" "$SUMMARY"
expect_eq "scan --hot JSON: the rows' subjects and rules, as a row each (function, address, rule)" \
	"$(jq -r '.files[0].functions[] | .name as $f | ((.loops[] | .start as $a | .hazards | map(.rule) | unique[] | "\($f) \($a) \(.)"), (.hazards | map(.rule) | unique[] | "\($f) entry \(.)"))' "$TMP/scan.json" | sort | tr '\n' ';')" \
	"boot_loop 0x4010be loop-straddles-window;boot_loop entry entry-misaligned;tepid 0x40107f loop-straddles-window;warm 0x40103e loop-straddles-window;"
expect_eq "scan --hot JSON: what the text folds, said" "$(jq .min_share "$TMP/scan.json")" 0.005

# ---- scan without samples: cold text last, on both ----
run "$STRADDLE" scan --uarch zen1,skylake "$P"
TEXT=$(text_rows "$OUT")
# skylake's JCC erratum: each dec+jnz pair crosses a 32 B boundary
# (no back end: a cycle of bubble on a 1-window loop, 2.00x)
expect_eq "scan text: hot text first, worst first; init text last" "$TEXT" \
"high | warm | .text | 0x40103e | - | 4 | 32 | jcc 0x401040 pair 0x40103e | branch-crosses-window | skylake | certain | <=2.00x | .p2align 2 (+2 B)
high | tepid | .text | 0x40107f | - | 4 | 32 | jcc 0x401081 pair 0x40107f | branch-crosses-window | skylake | certain | <=2.00x | .p2align 2 (+1 B); .p2align 1 (+1 B) holds only here
medium | warm | .text | 0x40103e | - | 4 | 16,32,64 | 2/1,2/1,2/1 | loop-straddles-window | zen1,skylake | certain | <=2.00x | .p2align 2 (+2 B)
medium | tepid | .text | 0x40107f | - | 4 | 16,32,64 | 2/1,2/1,2/1 | loop-straddles-window | zen1,skylake | certain | <=2.00x | .p2align 2 (+1 B); .p2align 1 (+1 B) holds only here
high | boot_loop | .init.text | 0x4010be | - | 4 | 32 | jcc 0x4010c0 pair 0x4010be | branch-crosses-window | skylake | certain | <=2.00x | .p2align 2 (+2 B)
medium | boot_loop | .init.text | 0x4010be | - | 4 | 16,32,64 | 2/1,2/1,2/1 | loop-straddles-window | zen1,skylake | certain | <=2.00x | .p2align 2 (+2 B)
low | boot_loop | .init.text | 0x401084 | - | 63 | 64 | 2/1 | entry-misaligned | zen1,skylake | certain | - | .p2align 6 (+60 B)"
"$STRADDLE" scan --uarch zen1,skylake --json "$P" >"$TMP/cold.json"
"$STRADDLE" report -o "$TMP/cold.html" "$TMP/cold.json"
$CELLS "$TMP/cold.html" >"$TMP/cold.cells"
expect_eq "scan page: the text's rows, order and values" "$(page_rows "$TMP/cold.cells" scan-1 hazards)" "$TEXT"

# ---- diff: text, markdown, page ----
X=$FIXTURES/x86
D="$STRADDLE diff --uarch skylake,zen5,goldencove --no-source $X/diff000_before $X/diff000_after"
run $D
expect_eq "diff: exit 1 (a new hazard)" "$RC" 1
NEW=$(printf '%s\n' "$OUT" | sed -n '/^new hazards:/,/^$/p' | sed '1,2d;$d' | sed -E 's/ {2,}/ | /g')
# seed 000: __clear_user's loop grew from 10 to 15 bytes at 0x401034
expect_eq "diff text: the new hazards, worst first" "$NEW" \
"high | __clear_user | changed | 0x401034 -> 0x401034 | - | 10 -> 15 | 32,64 | 1/1,1/1 -> 2/1,2/1 | branch-crosses-window | skylake,goldencove | <=2.00x | .p2align 3 (+4 B)
medium | __clear_user | changed | 0x401034 -> 0x401034 | - | 10 -> 15 | 16,32,64 | 1/1,1/1,1/1 -> 2/1,2/1,2/1 | loop-straddles-window | skylake,zen5,goldencove | <=2.00x | .p2align 4 (+12 B)"
run $D --format markdown
expect_eq "diff markdown: the same row" \
	"$(printf '%s\n' "$OUT" | grep '^| \(high\|medium\|low\) ' | sed 's/^| //; s/ |$//; s/`//g')" "$NEW"
$D --json >"$TMP/diff.json"
"$STRADDLE" report -o "$TMP/diff.html" "$TMP/diff.json"
$CELLS "$TMP/diff.html" >"$TMP/diff.cells"
expect_eq "diff page: the text's rows, order and values" "$(page_rows "$TMP/diff.cells" diff-1 added)" "$NEW"
expect_eq "diff JSON: one change with its hazards of the row's rule" \
	"$(jq -r '[.loops[] | select(.added | length > 0) | "\(.function) \(.new.start) \([.added[].rule] | unique | join(","))"] | join(";")' "$TMP/diff.json")" \
	"__clear_user 0x401034 branch-crosses-window,loop-straddles-window"

# ---- diff --hot: the samples % column on the page as in the text ----
# rows2: every loop aligned (skips of 64, 59 and 59: warm at 0x401040,
# tepid at 0x401080, boot_loop at 0x4010c0); diffing it to rows, each moved
# onto a boundary: three new hazards, tepid's folded (the samples are of
# rows, the new side)
sed 's/\.skip\t62/.skip\t64/; s/\.skip\t60/.skip\t59/; s/\.skip\t58/.skip\t59/' "$TMP/rows.S" >"$TMP/rows2.S"
gcc -c -o "$TMP/rows2.o" "$TMP/rows2.S" && ld -o "$TMP/rows2" -e 0x401000 -Ttext=0x401000 --build-id=none "$TMP/rows2.o"
DH="$STRADDLE diff --uarch zen1 --no-source --perf-script $TMP/rows.txt $TMP/rows2 $P"
run $DH
NEW=$(printf '%s\n' "$OUT" | sed -n '/^new hazards:/,/^$/p' | sed '1,2d;$d' | grep -v '^[0-9]* more' | sed -E 's/^ +//; s/ {2,}/ | /g')
expect_eq "diff --hot text: the new rows, the hottest first, init text or not" "$NEW" \
"6.0 | medium | boot_loop | moved | 0x4010c0 -> 0x4010be | - | 4 -> 4 | 16,64 | 1/1,1/1 -> 2/1,2/1 | loop-straddles-window | zen1 | <=2.00x | .p2align 2 (+2 B)
3.0 | medium | warm | moved | 0x401040 -> 0x40103e | - | 4 -> 4 | 16,64 | 1/1,1/1 -> 2/1,2/1 | loop-straddles-window | zen1 | <=2.00x | .p2align 2 (+2 B)"
# tepid's: its loop's new hazard, and its entry's fixed (65 bytes, more
# than a line, is no entry hazard)
expect_eq "diff --hot text: tepid folded, new and fixed" "$(printf '%s\n' "$OUT" | grep '^[0-9]* more hazards')" \
	"1 more hazards in code with less than 0.5% of samples
1 more hazards in code with less than 0.5% of samples"
$DH --json >"$TMP/dh.json"
"$STRADDLE" report -o "$TMP/dh.html" "$TMP/dh.json"
$CELLS "$TMP/dh.html" >"$TMP/dh.cells"
expect_eq "diff --hot page: the new rows with their samples %, as the text" \
	"$(page_rows "$TMP/dh.cells" diff-1 added)" "$NEW"
expect_eq "diff --hot page: the folded lines" \
	"$(sed -n 's/.*<p class="folded">\([^<]*\)<.*/\1/p' "$TMP/dh.html")" \
	"1 more hazards in code with less than 0.5% of samples
1 more hazards in code with less than 0.5% of samples"
expect_eq "diff --hot page: every fixed row folded: the line, no empty table" \
	"$(grep -c '<table class="removed"' "$TMP/dh.html")" 0
# boot_loop 0x4010c0 -> 0x4010be and warm 0x401040 -> 0x40103e: each old
# loop over the same two 64 B lines as its new one, on one scale (860 px
# for 128 B): the old at 64 B in (x 330 + 64 * 6.72), the new 2 B before
# it, each of its 4 bytes 26.9 px wide (the old drew its one line as wide
# as the new's two)
expect_eq "diff --hot page: old above new over the same lines, one scale" \
	"$(grep -o 'x="[0-9.]*" y="[0-9]*" width="[0-9.]*" height="22" class="lay-loop"' "$TMP/dh.html" | cut -d' ' -f1,3 | tr '\n' ';')" \
	'x="760.0" width="26.9";x="746.6" width="26.9";x="760.0" width="26.9";x="746.6" width="26.9";'
expect_eq "diff --hot JSON: the run's samples for the page's column" "$(jq -c .samples "$TMP/dh.json")" \
	'{"run":1000,"old":0,"new":92}'

# ---- a loop removed from a matched function: its source line is its own ----
# lo's two() has a second loop at 0x40107f (line 9 of lo.S, `2: dec %ecx`);
# ln is two() without it. The fixed row's line is lo's, where that loop
# is, on the page and in the text alike (the text once took the line of
# ln's two() entry, which has none: "-").
cat >"$TMP/lo.S" <<'EOF'
	.text
	.globl	two
	.type	two, @function
two:
	.skip	62, 0x90
1:	dec	%eax
	jnz	1b
	.skip	61, 0x90
2:	dec	%ecx
	jnz	2b
	ret
	.size	two, .-two
EOF
sed '9,10d' "$TMP/lo.S" >"$TMP/ln.S"
for s in lo ln; do
	gcc -g -c -o "$TMP/$s.o" "$TMP/$s.S" && ld -o "$TMP/$s" -e 0x401000 -Ttext=0x401000 --build-id=none "$TMP/$s.o"
done
run "$STRADDLE" diff --uarch zen1 "$TMP/lo" "$TMP/ln"
FIXED=$(printf '%s\n' "$OUT" | sed -n '/^fixed hazards:/,/^$/p' | sed '1,2d;$d' | sed -E 's/ {2,}/ | /g')
expect_eq "diff: the removed loop's row, its line in the old build" "$FIXED" \
	"medium | two | removed | 0x40107f -> - | lo.S:9 | 4 -> - | 16,64 | 2/1,2/1 -> - | loop-straddles-window | zen1 | <=2.00x | -"
"$STRADDLE" diff --uarch zen1 --json "$TMP/lo" "$TMP/ln" >"$TMP/lo.json"
"$STRADDLE" report -o "$TMP/lo.html" "$TMP/lo.json"
$CELLS "$TMP/lo.html" >"$TMP/lo.cells"
expect_eq "diff page: the same row" "$(page_rows "$TMP/lo.cells" diff-1 removed)" "$FIXED"
