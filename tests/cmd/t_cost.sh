# The cost model: a loop's predicted slowdown is the larger of
# the windows it fetches and its back end's cycles, today against its best
# placement. tests/fixtures/x86/cost.S holds one 26-40 B loop across a
# 64 B line seven ways (x87 and avx512: loops llvm-mca cannot price, each
# dropped from the one run, which goes on for the others). The back end is LLVM 14's znver3 model (llvm-mca-14,
# Debian's llvm, scripts/deps.sh): its figures are that model's, exactly.
COST="$FIXTURES/x86/cost"
MCA14=llvm-mca-14

cost_rows() {
	jq_of '[.files[0].functions[] | .name as $n | .loops[]
		| "\($n):\(.cost.slowdown):\(.cost.bound):\(.cost.back_end):\(.cost.back_end_source):\(.span_certain):\([.hazards[] | .slowdown] | join("+"))"]
		| join(" ")'
}

# ---- llvm-mca: each loop's bound, and only fe's straddle costs ----
# fe: 5 independent instructions, 1.75 cycles an iteration in the steady
# state (1.833 over mca.c's 3 iterations, the pipeline's filling in them):
# 2 lines fetched where 1 would do, 2 / 1.75 = 1.143x. chain: imul's 3-cycle chain
# (3.154); divide: a 64-bit div (17.077); stores: 8 stores (8.074, one a
# cycle in the model): each covers the 2 cycles the lines take, no hazard.
# (3 iterations of each body, a small one repeated to 86 instructions: mca.c)
run "$STRADDLE" scan --json --all --uarch zen3 --llvm-mca "$MCA14" "$COST"
expect_eq "cost llvm-mca-14 zen3: exit 0" "$RC" 0
expect_eq "cost llvm-mca-14 zen3: the back end named" "$(jq_of '.files[0].back_end.zen3')" \
	"llvm-mca 14.0.6 -mcpu=znver3"
expect_eq "cost llvm-mca-14 zen3: every loop's cost and bound" "$(cost_rows)" \
	"fe:1.143:front-end:1.75:llvm-mca:true:1.143 chain:1:latency:3.154:llvm-mca:true: divide:1:divide:17.077:llvm-mca:true: stores:1:store:8.074:llvm-mca:true: uncertain:1.143:front-end:1.75:llvm-mca:false:1.143 x87:2:front-end:0.667:llvm-mca-width:true:2+2 avx512:2:front-end:0.667:llvm-mca-width:true:2+2 strings:2:front-end:0.667:llvm-mca-width:true:2+2"
# SARIF carries the same cost per result ("the predicted cost once
# it exists"); the loops with no hazard have no result
run "$STRADDLE" scan --format sarif --uarch zen3 --llvm-mca "$MCA14" "$COST"
expect_eq "cost: SARIF's predictedSlowdown per result" \
	"$(jq_of '[.runs[0].results[] | "\(.properties.function):\(.properties.predictedSlowdown.ratio):\(.properties.predictedSlowdown.atMost)"] | sort | join(" ")')" \
	"avx512:2:true fe:1.1429:false strings:2:true uncertain:1.1429:false x87:2:true"
run "$STRADDLE" scan --json --all --uarch zen3 --llvm-mca "$MCA14" "$COST"
expect_eq "cost: ... and in JSON" \
	"$(jq_of '[.files[0].functions[] | .name as $n | .loops[] | select(.hazards[0].slowdown_at_most) | $n] | join(" ")')" \
	"x87 avx512 strings"
expect_eq "cost: fe's front end, today and at best, on the line" \
	"$(jq_of '.files[0].functions[0].loops[0].cost | "\(.window) \(.front_end) \(.front_end_best) \(.profile)"')" \
	"64 2 1 zen3"
run "$STRADDLE" scan --no-source --uarch zen3 --llvm-mca "$MCA14" "$COST"
expect_eq "cost text: the file line names the back end" "$(printf '%s\n' "$OUT" | head -1)" \
	"$COST: x86_64 exec, 8 functions, 473 instructions, 8 loops; profile zen3; back end zen3: llvm-mca 14.0.6 -mcpu=znver3"
expect_eq "cost text: fe's row with its cost" "$(printf '%s\n' "$OUT" | grep '^medium *fe ' | tr -s ' ')" \
	"medium fe .text 0x401038 - 34 64 2/1 loop-straddles-window zen3 certain 1.14x .p2align 6 (+8 B); .p2align 4 (+8 B) holds only here"
expect_eq "cost text: a slowdown by the model's width alone is a bound" \
	"$(printf '%s\n' "$OUT" | grep '^medium *x87 ' | tr -s ' ' | cut -d' ' -f11-12)" "certain <=2.00x"
expect_eq "cost text: the hidden ones are no rows" "$(printf '%s\n' "$OUT" | tail -1)" \
	"5 hazards: 5 loops, 0 function entries"
run "$STRADDLE" scan --all --no-source --uarch zen3 --llvm-mca "$MCA14" "$COST"
expect_eq "cost --all: the divide loop says why it has none" \
	"$(printf '%s\n' "$OUT" | grep '^divide ' | tr -s ' ')" \
	"divide 0x401238 0x401260 40 1 7 1 yes no one 3/3 2/2 2/1 0 (back end)"

# ---- a measured profile is believed over the model for rates ----
# zen5 (10 instructions, 2 stores a cycle, calibrate): LLVM 14 has no
# znver5, so znver3 stands in; its chain and divide still hide the line,
# its rates do not: fe (0.5 cycle by the profile) pays the 0.15 cycle zen5
# measured for one line more, 1.15x; the 8 stores hide it by the profile's
# 2 a cycle (4 cycles). --exact-cost: a whole-file scan would give the
# measured window's bound instead (below, goldencove)
run "$STRADDLE" scan --json --all --uarch zen5 --llvm-mca "$MCA14" --exact-cost "$COST"
expect_eq "cost zen5: znver3 stands in" "$(jq_of '.files[0].back_end.zen5')" "llvm-mca 14.0.6 -mcpu=znver3"
expect_eq "cost zen5: the measured rates with the model's chains" "$(cost_rows)" \
	"fe:1.15:front-end:0.5:profile:true:1.15 chain:1:latency:3.154:llvm-mca:true: divide:1:divide:17.077:llvm-mca:true: stores:1:store:4:profile:true: uncertain:1.15:front-end:0.5:profile:false:1.15 x87:1.15:front-end:0.5:profile:true:1.15 avx512:1.15:front-end:0.5:profile:true:1.15 strings:1.15:front-end:0.5:profile:true:1.15"

# goldencove: one window more costs 0.03 cycle, 0.03 behind a chain (its
# evidence in profiles.c). A whole-file scan gives the measured window's
# bound at the model's width, never simulated (cost.c: simulating sent
# 19,915 of libLLVM-14's loops to llvm-mca, 13x): "<=1.03x", the stores
# (1.5 cycles at the width) 1.53 / 1.5 = 1.02x. --exact-cost (prove's
# way) simulates: fe (1.25 cycles by LLVM 14) 1.28 / 1.25 = 1.024x; the imul
# chain (3.077) keeps the line's 0.03, 3.107 / 3.077 = 1.01x, latency; the
# divide and the 8 stores hide it all. What llvm-mca cannot model (x87,
# AVX-512 here, string instructions) keeps the width's bound either way.
run "$STRADDLE" scan --json --all --uarch goldencove --llvm-mca "$MCA14" "$COST"
expect_eq "cost goldencove: a whole file, the measured window's bound" "$(cost_rows)" \
	"fe:1.03:front-end:0.667:llvm-mca-width:true:1.03 chain:1.03:front-end:1:llvm-mca-width:true:1.03 divide:1.03:front-end:1:llvm-mca-width:true:1.03 stores:1.02:front-end:1.5:llvm-mca-width:true:1.02 uncertain:1.03:front-end:0.667:llvm-mca-width:false:1.03 x87:1.03:front-end:0.667:llvm-mca-width:true:1.03 avx512:1.03:front-end:0.667:llvm-mca-width:true:1.03 strings:1.03:front-end:0.667:llvm-mca-width:true:1.03"
run "$STRADDLE" scan --json --all --uarch goldencove --llvm-mca "$MCA14" --exact-cost "$COST"
expect_eq "cost goldencove --exact-cost: a chain keeps the line's 0.03, stores and a divide hide it" "$(cost_rows)" \
	"fe:1.024:front-end:1.25:llvm-mca:true:1.024 chain:1.01:latency:3.077:llvm-mca:true:1.01 divide:1:divide:76.077:llvm-mca:true: stores:1:store:8.111:llvm-mca:true: uncertain:1.024:front-end:1.25:llvm-mca:false:1.024 x87:1.03:front-end:0.667:llvm-mca-width:true:1.03 avx512:1.03:front-end:0.667:llvm-mca-width:true:1.03 strings:1.03:front-end:0.667:llvm-mca-width:true:1.03"
expect_eq "cost goldencove --exact-cost: the simulated chain's price is no bound, x87's is" \
	"$(jq_of '[.files[0].functions[] | select(.name == "chain" or .name == "x87") | .loops[0].hazards[0].slowdown_at_most | tostring] | join(" ")')" "null true"

# ---- without llvm-mca: the profile's bound, honestly named ----
run "$STRADDLE" scan --json --all --uarch zen3 --llvm-mca none "$COST"
expect_eq "cost none zen3: no back end, every straddle 2x" "$(cost_rows)" \
	"fe:2:front-end:null:none:true:2 chain:2:front-end:null:none:true:2 divide:2:front-end:null:none:true:2 stores:2:front-end:null:none:true:2 uncertain:2:front-end:null:none:false:2 x87:2:front-end:null:none:true:2+2 avx512:2:front-end:null:none:true:2+2 strings:2:front-end:null:none:true:2+2"
expect_eq "cost none zen3: the back end said" "$(jq_of '.files[0].back_end.zen3')" "none"
run "$STRADDLE" scan --json --all --uarch zen5 --llvm-mca none "$COST"
expect_eq "cost none zen5: the profile's bound alone" "$(cost_rows)" \
	"fe:1.15:front-end:0.5:profile:true:1.15 chain:1.15:front-end:0.7:profile:true:1.15 divide:1.15:front-end:0.7:profile:true:1.15 stores:1:store:4:profile:true: uncertain:1.15:front-end:0.5:profile:false:1.15 x87:1.15:front-end:0.5:profile:true:1.15 avx512:1.15:front-end:0.5:profile:true:1.15 strings:1.15:front-end:0.5:profile:true:1.15"
STRADDLE_LLVM_MCA=$MCA14 run "$STRADDLE" scan --json --uarch zen3 "$COST"
expect_eq "cost: STRADDLE_LLVM_MCA is --llvm-mca's default" "$(jq_of '.files[0].back_end.zen3')" \
	"llvm-mca 14.0.6 -mcpu=znver3"
run "$STRADDLE" scan --uarch zen3 --llvm-mca "$TMP/no-such-mca" "$COST"
expect_eq "cost: a named llvm-mca that does not run: exit 2" "$RC" 2
expect_eq "cost: ... one line" "$ERR" "straddle: --llvm-mca: '$TMP/no-such-mca' is not an llvm-mca that runs here"
expect_eq "cost: ... no partial output" "$OUT" ""

# ---- span certainty: an unresolved jmp *%rdx in the loop's function ----
run "$STRADDLE" scan --no-source --uarch zen3 --llvm-mca "$MCA14" --func uncertain "$COST"
expect_eq "span uncertain: never certain in the row" "$(printf '%s\n' "$OUT" | sed -n 3p | tr -s ' ')" \
	"medium uncertain .text 0x401438 - 34 64 2/1 loop-straddles-window zen3 placement certain, span uncertain 1.14x .p2align 6 (+8 B); .p2align 4 (+8 B) holds only here"
run "$STRADDLE" scan --uarch zen3 --llvm-mca "$MCA14" --func uncertain --fail-on any "$COST"
expect_eq "span uncertain: --fail-on does not gate on it" "$RC" 0
run "$STRADDLE" scan --uarch zen3 --llvm-mca "$MCA14" --func uncertain --fail-on any --fail-on-uncertain "$COST"
expect_eq "span uncertain: --fail-on-uncertain does" "$RC" 1
run "$STRADDLE" scan --uarch zen3 --llvm-mca "$MCA14" --func fe --fail-on any "$COST"
expect_eq "span certain: --fail-on gates as ever" "$RC" 1

# ---- a branch hazard's price: the front end's bubble ----
# tests/fixtures/x86/branchcost.S under goldencove (a pair across the line
# 0.45 cycle on top of the line's 0.35, the line between its two
# instructions 0.1): the front end fetches max(windows, the model's width)
# and the bubble on top; the back end hides it only with cycles of its
# own, and a chain leaves a line's 0.2. A whole-file scan gives bounds
# (the pair's branch <=1.45x: 1 + 0.45 at the width); --exact-cost has LLVM
# 14 simulate: pair 1.25 cycles, (1.35 + 0.45) / 1.25 = 1.44x, its straddle (1.25 +
# 0.35) / 1.25 = 1.28x, its branch alone (1 + 0.45) / 1.25 = 1.16x;
# pairchain's 3.077-cycle chain hides the bubble and pays the line's 0.2,
# 3.277 / 3.077 = 1.065x; split's (1 + 0.1) / 1.25 is hidden, its straddle
# 1.28x; inside: at its best; outer: its decl across the line runs once
# every 10 iterations of its inner loop: the rule's row at 1x; its
# straddle too: an outer loop's time is its inner loops', each priced on
# its own (cost.c, outer_straddle_price; sum's fread loop measured 0.994x
# and 1.002x where its span read 1.07x). Without a back end every bubble is paid: pair 1 + 0.03 + 0.75 =
# 1.78x, split 1 + 0.03 + 0.03 = 1.06x. With LLVM 14's 1.25 cycles the
# pair is 1.78 / 1.25 = 1.424x.
BRANCH="$FIXTURES/x86/branchcost"
branch_rows() {
	jq_of '[.files[0].functions[] | .name as $n | .loops[]
		| "\($n):\(.cost.slowdown):\(.cost.bound):\(.cost.back_end):\(.cost.branch):\([.hazards[] | "\(.rule)=\(.slowdown)"] | join("+"))"]
		| join(" ")'
}
run "$STRADDLE" scan --json --all --uarch goldencove --llvm-mca "$MCA14" --exact-cost "$BRANCH"
expect_eq "branch cost goldencove: each loop's price and its hazards'" "$(branch_rows)" \
	"pair:1.424:front-end:1.25:0.75:loop-straddles-window=1.024+branch-crosses-window=1.4 pairchain:1.01:latency:3.077:0.75:loop-straddles-window=1.01 split:1.024:front-end:1.25:0.03:loop-straddles-window=1.024 inside:1:at-best:0.667:null: outer:1:issue:8.167:null:loop-straddles-window=1+branch-crosses-window=1 outer:1:at-best:0.167:null:"
run "$STRADDLE" scan --no-source --uarch goldencove --llvm-mca "$MCA14" "$BRANCH"
expect_eq "branch cost text: a whole file, the pair's row a bound" \
	"$(printf '%s\n' "$OUT" | grep '^high *pair ' | tr -s ' ')" \
	"high pair .text 0x401021 - 34 64 jcc 0x401041 pair 0x40103f branch-crosses-window goldencove certain <=1.75x .p2align 6 (+31 B); .p2align 1 (+1 B) holds only here"
expect_eq "branch cost text: the outer loops' rows cost nothing, folded" \
	"$(printf '%s\n' "$OUT" | grep '^high *outer ')$(printf '%s\n' "$OUT" | grep 'cost nothing')" \
	"2 hazards that cost nothing here (of loops with loops in them, or run from the loop buffer): --all lists them"
# without a back end nothing hides the bubble: the profile's bound
run "$STRADDLE" scan --json --all --uarch goldencove --llvm-mca none "$BRANCH"
expect_eq "branch cost none: every bubble paid" "$(branch_rows)" \
	"pair:1.78:front-end:null:0.75:loop-straddles-window=1.03+branch-crosses-window=1.75 pairchain:1.78:front-end:null:0.75:loop-straddles-window=1.03+branch-crosses-window=1.75 split:1.06:front-end:null:0.03:loop-straddles-window=1.03+branch-crosses-window=1.03 inside:1:at-best:null:null: outer:1:front-end:null:null:loop-straddles-window=1+branch-crosses-window=1 outer:1:at-best:null:null:"
# a profile that measured no price pays a cycle (skylake: the JCC erratum
# at 32 B; the pair's decl crosses 0x401040)
run "$STRADDLE" scan --json --all --uarch skylake --llvm-mca none --func pair "$BRANCH"
expect_eq "branch cost skylake: an unmeasured bubble is a cycle" \
	"$(jq_of '[.files[0].functions[0].loops[0] | .cost.branch, (.hazards[] | select(.rule == "branch-crosses-window") | .slowdown)] | map(tostring) | join(" ")')" \
	"1 2"

# ---- --hot: what aligning saves, and where every sample went ----
# perf 6.1's text of hotcold (tests/fixtures/record): 601 samples, 533 in
# the hot loop, 55 in the cold one, 13 in the kernel; zen1 with no back
# end prices each straddle 2x, so aligning saves half of each loop's share
FIXABS=$(cd "$FIXTURES" && pwd)
sed "s|/FIXTURES|$FIXABS|" tests/fixtures/record/hotcold.perf-script >"$TMP/hc.txt"
run "$STRADDLE" scan --uarch zen1 --llvm-mca none --perf-script "$TMP/hc.txt" "$FIXABS/x86/hotcold"
expect_eq "--hot: samples and saves, the most saved first" \
	"$(printf '%s\n' "$OUT" | awk 'NR >= 3 && NR <= 4 { printf "%s/%s/%s/%s ", $1, $2, $4, $9 }')" \
	"88.7/44.3/hot/16,64 9.2/4.6/cold/16,64 "
expect_eq "--hot: the summary accounts for the file" \
	"$(printf '%s\n' "$OUT" | sed -n '/^where this file/,/^[0-9]* hazards/p' | head -3)" \
	"where this file's 97.8% of the run went:
   88.7%  loop 0x40107a in hot (9 B): hazard: 2.00x predicted, aligning saves ~44.3% of this run
    9.2%  loop 0x4010fa in cold (9 B): hazard: 2.00x predicted, aligning saves ~4.6% of this run"
expect_eq "--hot: and for the rest of the run" "$(printf '%s\n' "$OUT" | tail -1)" \
	"the run's 601 samples: 97.8% in the files above, 2.2% in the kernel, 0.0% in files not scanned"
run "$STRADDLE" scan --uarch zen1 --llvm-mca none --perf-script "$TMP/hc.txt" --min-share 0.1 "$FIXABS/x86/hotcold"
expect_eq "--hot --min-share 0.1: the cold loop among the small" \
	"$(printf '%s\n' "$OUT" | grep 'in loops of less than')" "    9.2%  in loops of less than 10% each"

# record/cost.perf-script: 100 samples by hand, 40 in fe's loop, 30 in
# chain's, 15 in uncertain's, 10 at stores' entry and 5 at fe's (no loop)
sed "s|/FIXTURES|$FIXABS|" tests/fixtures/record/cost.perf-script >"$TMP/cost.txt"
run "$STRADDLE" scan --no-source --uarch zen3 --llvm-mca "$MCA14" --perf-script "$TMP/cost.txt" "$FIXABS/x86/cost"
expect_eq "--hot: fe saves 40% of (1 - 1/1.143), ranked by it" \
	"$(printf '%s\n' "$OUT" | awk 'NR >= 3 && NR <= 4 { printf "%s/%s/%s ", $1, $2, $4 }')" \
	"40.0/5.0/fe 15.0/1.9/uncertain "
expect_eq "--hot: every sample judged: hazard, fine, cannot be judged, no loop" \
	"$(printf '%s\n' "$OUT" | sed -n '/^where this file/,/^[0-9]* hazards/p' | sed '$d')" \
	"where this file's 100.0% of the run went:
   40.0%  loop 0x401038 in fe (34 B): hazard: 1.14x predicted, aligning saves ~5.0% of this run
   30.0%  loop 0x401138 in chain (35 B): fine: it straddles, but is latency-bound
   15.0%  loop 0x401438 in uncertain (34 B): cannot be judged: span uncertain (1 indirect jump unresolved in its function)
   15.0%  in no loop (straight-line code)"
run "$STRADDLE" scan --uarch zen3 --llvm-mca "$MCA14" --perf-script "$TMP/cost.txt" --json "$FIXABS/x86/cost"
expect_eq "--hot --json: what aligning fe saves, as the table's 5.0" \
	"$(jq_of '.files[0].functions[0].loops[0].cost.saves')" "0.05"
expect_eq "--hot --json: the loops with no hazard are there, priced" \
	"$(jq_of '[.files[0].functions[] | .loops[] | "\(.samples):\(.cost.bound)"] | join(" ")')" \
	"40:front-end 30:latency 0:divide 0:store 15:front-end 0:front-end 0:front-end 0:front-end"

# ---- llvm-mca's input: one region for loops whose text differs only in
# its labels; the steady state from the same run where it can ----
# cost_labels.S: the same loop in near and far, its exit 40 bytes further
# on in far: "jz .Lb29" against "jz .Lb69", which llvm-mca reads as the same
# instruction, so one region L0 prices both. Its 6 instructions are
# repeated 15 times (mca.c), a multiple of the 3 iterations: the region S0
# over its first 5 copies is the one-iteration run the steady state takes
# (mca_steady), in the first run. seven's 7 instructions, 13 copies, need
# the second run. An llvm-mca that logs its input shows which regions each
# run held; every loop is priced as with the earlier two runs a loop
# (the figures below, straddle before these changes) and as when scanned
# alone (--func): near 2 lines for 1.667 cycles, seven for 1.769.
LABELS="$FIXABS/x86/cost_labels"
printf '#!/bin/sh\necho run >>"%s"\ntee -a "%s" | exec %s "$@"\n' "$TMP/mca.in" "$TMP/mca.in" \
	"$MCA14" >"$TMP/mca-log"
chmod +x "$TMP/mca-log"
label_rows() {
	jq_of '[.files[0].functions[] | .name as $n | .loops[]
		| "\($n):\(.cost.slowdown):\(.cost.bound):\(.cost.back_end):\(.cost.back_end_source)"] | join(" ")'
}
mca_runs() {
	awk '/^run$/ { if (s != "") printf "%s%s", n++ ? " | " : "", s; s = "" }
	     /^# LLVM-MCA-BEGIN/ { s = s (s == "" ? "" : " ") $3 }
	     END { if (s != "") printf "%s%s", n ? " | " : "", s }' "$TMP/mca.in"
}
run "$STRADDLE" scan --json --all --uarch zen3 --llvm-mca "$TMP/mca-log" "$LABELS"
expect_eq "cost labels: each loop priced" "$(label_rows)" \
	"near:1.2:front-end:1.667:llvm-mca far:1.2:front-end:1.667:llvm-mca seven:1.13:front-end:1.769:llvm-mca"
expect_eq "cost labels: the regions of each run" "$(mca_runs)" "L0 S0 L1 | L0"
for f in near far seven; do
	run "$STRADDLE" scan --json --all --uarch zen3 --llvm-mca "$MCA14" --func "$f" "$LABELS"
	expect_eq "cost labels: $f alone, as with the others" "$(label_rows)" \
		"$(printf '%s\n' near:1.2:front-end:1.667:llvm-mca far:1.2:front-end:1.667:llvm-mca \
			seven:1.13:front-end:1.769:llvm-mca | grep "^$f:")"
done

# ---- a long report: libLLVM-14's 10,567 regions under goldencove come
# back in 2.2 MB, which once aborted the scan (the reader's buffer was a
# strbuf's, big_realloc'd from 4 MiB, and free()d); 5 MB of blanks after
# llvm-mca-14's own report here: the same prices ----
printf '#!/bin/sh\n%s "$@"; rc=$?\nhead -c 5000000 /dev/zero | tr "\\\\0" " "\nexit $rc\n' "$MCA14" >"$TMP/mca-long"
chmod +x "$TMP/mca-long"
run "$STRADDLE" scan --json --all --uarch zen3 --llvm-mca "$TMP/mca-long" "$LABELS"
expect_eq "cost: a 5 MB report, exit 0" "$RC" 0
expect_eq "cost: a 5 MB report, the same prices" "$(label_rows)" \
	"near:1.2:front-end:1.667:llvm-mca far:1.2:front-end:1.667:llvm-mca seven:1.13:front-end:1.769:llvm-mca"

# ---- batches: cost_many.S holds fe's loop 520 times, each a region of
# its own with its nested steady-state region, 1,040 in all: llvm-mca reads
# them in 2 runs of at most 1,000 regions (its time grows with regions x
# lines: mca.c, MCA_BATCH), and every loop is priced as fe ----
printf '#!/bin/sh\necho run >>"%s"\ntee -a "%s" | exec %s "$@"\n' "$TMP/many.in" "$TMP/many.in" \
	"$MCA14" >"$TMP/mca-many"
chmod +x "$TMP/mca-many"
run "$STRADDLE" scan --json --all --uarch zen3 --llvm-mca "$TMP/mca-many" "$FIXABS/x86/cost_many"
expect_eq "cost batches: 520 loops, each priced as fe" \
	"$(jq_of '[.files[0].functions[] | .loops[] | "\(.cost.slowdown):\(.cost.bound):\(.cost.back_end):\(.cost.back_end_source)"] | group_by(.) | map("\(length)x \(.[0])") | join(" ")')" \
	"520x 1.143:front-end:1.75:llvm-mca"
expect_eq "cost batches: the loops of each run (regions L, each with its S)" \
	"$(awk '/^run$/ { if (n) printf "%s ", n; n = 0 } /^# LLVM-MCA-BEGIN L/ { n++ } END { if (n) printf "%s", n }' "$TMP/many.in")" \
	"260 260"

# ---- in process (the default): LLVM 19's models read by sched/ ----
# LLVM 19.1.7's tables, exactly (test_sched checks the bounds one by one).
# zen5: fe's 1-cycle loop pays the 0.15 cycle zen5 measured for a line,
# 1.15x; chain's 3-cycle imul chain and divide's 17-cycle div hide it
# (no hazard, their bound named); stores keeps the profile's measured
# store rate (4 cycles for 8 stores at 2), which its model's ports do
# not override; strings, a string instruction no model holds, and the
# x87 and avx512 loops the measured width prices alone are bounds.
run "$STRADDLE" scan --json --all --uarch zen5 --llvm-mca in-process "$COST"
expect_eq "in process zen5: exit 0, nothing on stderr" "$RC:$ERR" "0:"
expect_eq "in process zen5: the back end named" "$(jq_of '.files[0].back_end.zen5')" \
	"LLVM 19.1.7 znver5, in process"
expect_eq "in process zen5: every loop's cost" "$(jq_of '[.files[0].functions[] | .name as $n | .loops[]
		| "\($n):\(.cost.slowdown):\(.cost.bound):\(.cost.back_end):\(.cost.back_end_source):\(.cost.at_most)"] | join(" ")')" \
	"fe:1.15:front-end:1:llvm-model:null chain:1:latency:3:llvm-model:null divide:1:divide:17:llvm-model:null stores:1:store:4:profile:null uncertain:1.15:front-end:1:llvm-model:null x87:1.15:front-end:1:llvm-model:null avx512:1.15:front-end:1:llvm-model:null strings:1.15:front-end:0.5:profile:true"
run "$STRADDLE" scan --no-source --uarch zen5 --llvm-mca in-process "$COST"
expect_eq "in process zen5 text: fe a price, strings a bound, chain and divide no row" \
	"$(printf '%s\n' "$OUT" | awk '$1 == "medium" && $2 != "uncertain" { print $2, $12 }' | sort | tr '\n' ';')" \
	"avx512 1.15x;fe 1.15x;strings <=1.15x;x87 1.15x;"
# goldencove (alderlake's model): the chain keeps 0.2 of the line's 0.35:
# (3 + 0.2) / 3 = 1.067x, as bounds.c's chain measured (doc/prove.md)
run "$STRADDLE" scan --json --all --uarch goldencove --llvm-mca in-process "$COST"
expect_eq "in process goldencove: every loop's cost" "$(jq_of '[.files[0].functions[] | .name as $n | .loops[]
		| "\($n):\(.cost.slowdown):\(.cost.bound):\(.cost.back_end):\(.cost.back_end_source):\(.cost.at_most)"] | join(" ")')" \
	"fe:1.03:front-end:1:llvm-model:null chain:1.01:latency:3:llvm-model:null divide:1:divide:18:llvm-model:null stores:1:store:4:llvm-model:null uncertain:1.03:front-end:1:llvm-model:null x87:1:issue:4:llvm-model:null avx512:1.03:front-end:0.667:llvm-mca-width:true strings:1.03:front-end:0.667:llvm-mca-width:true"
# --exact-cost: llvm-mca's own simulation, in process: fe's 1 cycle, the
# chain's 3 (its steady state over 100 and 200 iterations)
run "$STRADDLE" scan --json --all --uarch goldencove --llvm-mca in-process --exact-cost "$COST"
expect_eq "in process --exact-cost: simulated" "$(jq_of '[.files[0].functions[] | select(.name == "fe" or .name == "chain") | .name as $n | .loops[]
		| "\($n):\(.cost.slowdown):\(.cost.back_end):\(.cost.back_end_source)"] | join(" ")')" \
	"fe:1.03:1:llvm-mca chain:1.01:3:llvm-mca"
expect_eq "in process --exact-cost: the back end named" "$(jq_of '.files[0].back_end.goldencove')" \
	"llvm-mca 19.1.7 alderlake, in process"
# No library: one line, every loop its bound, exit 0.
STRADDLE_TEST_SCHED_LIBRARY=$TMP/no-such-lib.so run "$STRADDLE" scan --uarch zen3 --llvm-mca in-process "$COST"
expect_eq "no LLVM: exit 0" "$RC" 0
expect_eq "no LLVM: one line" "$ERR" \
	"straddle: $COST: LLVM's scheduling models are not loaded ($TMP/no-such-lib.so: cannot open shared object file: No such file or directory): loops are priced by their bounds"
expect_eq "no LLVM: every row a bound" "$(printf '%s\n' "$OUT" | awk '$1 == "medium" && $2 != "uncertain" { print $12 }' | sort -u)" "<=2.00x"
# A calibrated profile of before the base was kept names no CPU LLVM knows.
jq 'del(.profile.base)' tests/fixtures/calibrate/zen5-backend.json >"$TMP/nobase.json" 2>/dev/null ||
	jq 'del(.profile.base)' "$(dirname "$0")/../fixtures/calibrate/zen5-backend.json" >"$TMP/nobase.json"
run "$STRADDLE" scan --uarch "$TMP/nobase.json" --llvm-mca in-process "$COST"
expect_eq "profile with no model: exit 0" "$RC" 0
expect_eq "profile with no model: one line" "$ERR" \
	"straddle: $COST: LLVM knows none of calibrated's CPUs: its loops are priced by their bounds"
# A calibration measures no branch bubble: its base's (goldencove's 0.75
# and 0.03), on top of the line's price it measured (0.1 here): pair
# 1 + 0.1 + 0.75 = 1.85x, split 1 + 0.1 + 0.03 = 1.13x; with no base, a
# cycle each.
jq '.profile.base = "goldencove" | .profile.branch_rule = "pair-crosses" | .profile.branch_window = 64
	| .profile.window_cycles = 0.1 | .profile.issue_width = 0 | .profile.stores_per_cycle = 0' \
	"$TMP/nobase.json" >"$TMP/gcbase.json"
run "$STRADDLE" scan --json --all --uarch "$TMP/gcbase.json" --llvm-mca none "$BRANCH"
expect_eq "calibrated, base goldencove: the base's bubbles" \
	"$(jq_of '[.files[0].functions[] | .name as $n | .loops[] | select($n == "pair" or $n == "split") | "\($n):\(.cost.slowdown):\(.cost.branch)"] | join(" ")')" \
	"pair:1.85:0.75 split:1.13:0.03"
jq 'del(.profile.base)' "$TMP/gcbase.json" >"$TMP/gcnobase.json"
run "$STRADDLE" scan --json --all --uarch "$TMP/gcnobase.json" --llvm-mca none "$BRANCH"
expect_eq "calibrated, no base: a cycle a bubble" \
	"$(jq_of '[.files[0].functions[] | .name as $n | .loops[] | select($n == "pair" or $n == "split") | "\($n):\(.cost.slowdown):\(.cost.branch)"] | join(" ")')" \
	"pair:2.1:1 split:2.1:1"
