# straddle compare on recorded runs (tests/fixtures/compare/*.json, written
# by hand): each verdict rule, the inconclusive case, the one statistic,
# the machine's state, and every input check. Expected numbers are worked
# out in the comments (t-test p values by Simpson's rule on Student's t).
CF=tests/fixtures/compare
# Two single files are two invocations, one a side: a verdict
# needs the drift between invocations. The rules of the run-level test
# below are checked against an A/A pair that did not drift at all (two
# copies of base.json: 0% for both metrics); the drift's own rules after.
mkdir "$TMP/aa0"
cp "$CF/base.json" "$TMP/aa0/1.json"
cp "$CF/base.json" "$TMP/aa0/2.json"
C0="$STRADDLE compare"
C="$C0 --drift $TMP/aa0"
line() { printf '%s\n' "$OUT" | grep -- "$1" | tr -s ' '; }

# Regression, run against run. pread_z100k: run medians 10, 10.5, 11 (mean
# 10.5, range 1) -> 12.5, 12.7, 12.9 (mean 12.7, range 0.4): the gap 2.2
# stands out of both ranges; Welch t 7.0759, df 2.6240, p 0.0088908;
# mmtests' change 100 (10.5 - 12.7) / 10.5 = -20.95%. read1: run means
# 101, 99, 100 -> 94, 95, 96: t -6.1237, df 4, p 0.0036022, -5%.
run $C "$CF/base.json" "$CF/slow.json"
expect_eq "regression: exit 1" "$RC" 1
expect_eq "regression: the time row" "$(line 'Time median')" \
	"Time median-pread_z100k 10.500 ( 0.00%) 12.700 *-20.95%*"
expect_eq "regression: the rate row, its mean" "$(line 'Ops mean')" \
	"Ops mean-read1.per_process_ops 100.00 ( 0.00%) 95.000 * -5.00%*"
expect_eq "regression: the verdict line" "$(line '^  pread_z100k')" \
	" pread_z100k slow.json 3:3 runs t 7.08 p 0.00889 gap 2.2, ranges 1 and 0.4 REGRESSION"
run $C --format json "$CF/base.json" "$CF/slow.json"
expect_eq "regression: t, df, p" \
	"$(jq_of '.metrics[0].new[0] | [(.t * 1e4 | round), (.df * 1e4 | round), (.p * 1e7 | round)] | join(",")')" \
	"70759,26240,88908"
expect_eq "regression: rate t, df, p" \
	"$(jq_of '.metrics[1].new[0] | [(.t * 1e4 | round), (.df * 1e4 | round), (.p * 1e7 | round)] | join(",")')" \
	"-61237,40000,36022"
expect_eq "regression: the statistics" "$(jq_of '[.metrics[].stat] | join(",")')" "median,mean"
expect_eq "regression: verdicts" "$(jq_of '[.metrics[].new[0].verdict] | join(",")')" "REGRESSION,REGRESSION"
expect_eq "regression: in the document" "$(jq_of .regression)" true
run $C "$CF/slow.json" "$CF/base.json"
expect_eq "the other way: better, exit 0" "$RC" 0
expect_eq "the other way: the row" "$(line 'Time median')" \
	"Time median-pread_z100k 12.700 ( 0.00%) 10.500 * 17.32%*"

# The robot's table: %change in its sign, the runs' stddev% beside values.
# Base medians sd 0.5 of 10.5 = 4.76% (shown, above 2%), new sd 0.2 of
# 12.7 = 1.57% (not shown).
run $C --style lkp "$CF/base.json" "$CF/slow.json"
expect_eq "lkp: exit 1" "$RC" 1
expect_eq "lkp: the row" "$(line 'pread_z100k.median')" \
	" 10.500 ± 5% +21.0%* 12.700 pread_z100k.median"

# Fewer than 3 runs on a side: the change, "inconclusive", never exit 1.
run $C "$CF/base.json" "$CF/slow1.json"
expect_eq "one run: exit 0" "$RC" 0
expect_eq "one run: no star" "$(line 'Time median')" \
	"Time median-pread_z100k 10.500 ( 0.00%) 12.500 (-19.05%)"
expect_eq "one run: inconclusive" "$(line '^  pread_z100k')" \
	" pread_z100k slow1.json 3:1 runs -19.05% inconclusive: 1 run"
run $C "$CF/slow2.json" "$CF/base.json"
expect_eq "two runs: inconclusive: 2 runs" "$(line '^  read1')" \
	" read1.per_process_ops base.json 2:3 runs +5.82% inconclusive: 2 runs"
expect_eq "two runs: exit 0" "$RC" 0
run $C --format json "$CF/base.json" "$CF/slow1.json"
expect_eq "one run: json" "$(jq_of '.metrics[0].new[0] | [.enough_runs, .significant, .regression, .verdict] | join(",")')" \
	"false,false,false,inconclusive"

# The change must stand out of both sides' run-to-run range: run medians
# 10 x5 and 13 (mean 10.5, range 3) against 12 x6: t 3, df 5, p 0.0301,
# yet the gap 1.5 is inside the range 3: no verdict.
run $C --format json "$CF/wide.json" "$CF/steady.json"
expect_eq "inside the range: p below alpha" "$(jq_of '.metrics[0].new[0] | [(.t * 1e4 | round), (.df * 1e4 | round), (.p * 1e4 | round)] | join(",")')" \
	"30000,50000,301"
expect_eq "inside the range: not significant" "$(jq_of '.metrics[0].new[0] | [.stands_out, .significant, .verdict] | join(",")')" \
	"false,false,no change"
expect_eq "inside the range: exit 0" "$RC" 0

# Significant but within the threshold: 10.0067 -> 10.1067 is -0.999%.
run $C "$CF/tight.json" "$CF/small.json"
expect_eq "threshold: exit 0" "$RC" 0
expect_eq "threshold: starred" "$(line 'Time median')" \
	"Time median-pread_z100k 10.007 ( 0.00%) 10.107 * -1.00%*"
expect_eq "threshold: said so" "$(line '^  pread_z100k' | grep -c 'changed, within the threshold$')" 1
run $C --threshold 0.5% "$CF/tight.json" "$CF/small.json"
expect_eq "threshold 0.5%: a regression, exit 1" "$RC" 1

# One statistic: the medians got 20% worse (10.1 -> 12.1), the minimums
# 19.6% better (5.1 -> 4.1). The default (median) fails; --stats min
# changes the value, the %, the test and the verdict together.
run $C "$CF/flipbase.json" "$CF/flipnew.json"
expect_eq "median: exit 1" "$RC" 1
expect_eq "median: the row" "$(line 'Time')" "Time median-pread_z100k 10.100 ( 0.00%) 12.100 *-19.80%*"
run $C --stats min "$CF/flipbase.json" "$CF/flipnew.json"
expect_eq "min: exit 0" "$RC" 0
expect_eq "min: the row" "$(line 'Time')" "Time min-pread_z100k 5.1000 ( 0.00%) 4.1000 * 19.61%*"
expect_eq "min: better" "$(line '^  pread_z100k' | sed 's/.* //')" "better"

# The machine's state per run: the same samples, measured while the
# hypervisor stole 11% and others took 45%: no change, and said once.
run $C "$CF/base.json" "$CF/stolen.json"
expect_eq "state: exit 0" "$RC" 0
expect_eq "state: the warning" "$(printf '%s\n' "$OUT" | grep -c '^warning')" 1
expect_eq "state: the line" "$(printf '%s\n' "$OUT" | grep '^warning')" \
	"warning: base.json -> stolen.json: steal 0.2% -> 11.0%, other tenants' CPU 3% -> 45%, load 0.50 -> 2.50: the change may be the machine's; no verdict"

# A regression measured in another machine state is no verdict
# and no exit 1: slow.json's samples with stolen.json's states.
jq --slurpfile s "$CF/stolen.json" '.runs = $s[0].runs' "$CF/slow.json" >"$TMP/slow-stolen.json"
run $C "$CF/base.json" "$TMP/slow-stolen.json"
expect_eq "state changed: exit 0" "$RC" 0
expect_eq "state changed: the verdict" "$(line '^  pread_z100k' | grep -o 'inconclusive.*')" \
	"inconclusive: machine state changed"
run $C --format json "$CF/base.json" "$TMP/slow-stolen.json"
expect_eq "state changed: json" \
	"$(jq_of '[.metrics[].new[0] | "\(.significant) \(.state_changed) \(.regression)"] | unique | join(",")')" \
	"true true false"

# Each verdict says its noise: pooled sd of the run medians 0.5 (base) and
# 0.2 (new): sqrt((2 0.25 + 2 0.04) / 4) = 0.3808 of 10.5 = 3.63%; a 2%
# change at 3.63% needs 2 ((1.96 + 0.8416) 3.6266 / 2)^2 = 51.6, 52 runs.
# Without --drift, one invocation a side: p 0.0089, and no verdict.
run $C0 "$CF/base.json" "$CF/slow.json"
expect_eq "one invocation a side: exit 0" "$RC" 0
expect_eq "one invocation a side: the verdict" "$(line '^  pread_z100k' | grep -o 'inconclusive.*')" \
	"inconclusive: one invocation a side"
expect_eq "noise: under the verdict" "$(printf '%s\n' "$OUT" | grep -A1 '^  pread_z100k' | tail -1)" \
	"    noise 3.63% (sd of 3:3 runs); 52 runs a side resolve 2%; drift between invocations not measured (--drift DIR, or bench --invocations)"
run $C0 --format json "$CF/base.json" "$CF/slow.json"
expect_eq "one invocation a side: json" \
	"$(jq_of '[.metrics[].new[0] | "\(.significant) \(.one_invocation) \(.regression)"] | unique | join(",")')" \
	"true true false"
expect_eq "one invocation a side: the document" "$(jq_of '"\(.regression) \(.drift)"')" "false null"

# --drift: A/A invocations. Three copies of base.json, one with every
# sample x1.25: pread_z100k's invocations 10.5, 10.5, 13.125 differ by
# 2.625 / 11.375 = 23.08%, read1's 100, 100, 125 by 25 / 108.33 = 23.08%:
# slow.json's +20.95% and -5% are inside: inconclusive, exit 0. The
# invocations a side that resolve 2% at that drift: its sd 23.08 / d2(3)
# = 23.08 / 1.693 = 13.633%, 2 ((1.959964 + 0.841621) 13.633 / 2)^2 =
# 729.4: 730.
mkdir "$TMP/aa"
cp "$CF/base.json" "$TMP/aa/1.json"
cp "$CF/base.json" "$TMP/aa/2.json"
jq '.metrics[].runs[].samples |= map(. * 1.25)' "$CF/base.json" >"$TMP/aa/3.json"
run $C --drift "$TMP/aa" "$CF/base.json" "$CF/slow.json"
expect_eq "drift: exit 0" "$RC" 0
expect_eq "drift: the verdict" "$(line '^  pread_z100k' | grep -o 'inconclusive.*')" \
	"inconclusive: inside the drift between invocations"
expect_eq "drift: its size" "$(printf '%s\n' "$OUT" | grep -A1 '^  pread_z100k' | tail -1 | sed 's/.*; //')" \
	"drift between invocations 23.08% (--drift): 730 invocations a side resolve 2%"
run $C --drift "$TMP/aa" --format json "$CF/base.json" "$CF/slow.json"
expect_eq "drift: json" "$(jq_of '[.metrics[].new[0] | "\(.drift_pct * 100 | round) \(.inside_drift) \(.regression)"] | join(",")')" \
	"2308 true false,2308 true false"
# x1.1 instead: 10.5, 10.5, 11.55 differ by 1.05 / 10.85 = 9.68%; read1 by 9.68%: the
# +20.95% time is outside (REGRESSION, exit 1), the -5% rate inside
jq '.metrics[].runs[].samples |= map(. * 1.1)' "$CF/base.json" >"$TMP/aa/3.json"
run $C --drift "$TMP/aa" --format json "$CF/base.json" "$CF/slow.json"
expect_eq "drift 9.68%: exit 1" "$RC" 1
expect_eq "drift 9.68%: verdicts" "$(jq_of '[.metrics[].new[0] | "\(.drift_pct * 100 | round) \(.verdict)"] | join(",")')" \
	"968 REGRESSION,968 inconclusive: inside the drift between invocations"
CMP_ONE="straddle: --drift: $CF/base.json: 1 invocation; the drift between invocations needs 2 or more result files in a directory"
run $C --drift "$CF/base.json" "$CF/base.json" "$CF/slow.json"
expect_eq "drift of one file: exit 2, the line" "$RC $ERR" "2 $CMP_ONE"
run $C --drift "$TMP/nope" "$CF/base.json" "$CF/slow.json"
expect_eq "drift missing: exit 2, the line" "$RC $ERR" \
	"2 straddle: --drift: $TMP/nope: cannot open: No such file or directory"
run $C --drift "$CF/fast" "$CF/base.json" "$CF/slow.json"
expect_eq "drift of sweeps for bench: exit 2, the line" "$RC $ERR" \
	"2 straddle: --drift: $CF/fast: sweep results; BASE $CF/base.json is a bench one"

# A band recorded in BASE (bench --invocations writes one into each file
# of a side, tests/cmd/t_bench.sh) stands for --drift: the 23.08% and
# 9.68% of the A/A directories above, read from BASE's own file.
jq '.drift = {invocations: 3, side: "a", versus: null, band_pct: {pread_z100k: {median: 23.08,
	mean: 1}, "read1.per_process_ops": {mean: 9.68}}}' "$CF/base.json" >"$TMP/banded.json"
run $C0 --format json "$TMP/banded.json" "$CF/slow.json"
expect_eq "recorded band: exit 0, both inside" \
	"$RC $(jq_of '[.metrics[].new[0] | "\(.drift_pct) \(.verdict)"] | join(",")')" \
	"0 23.08 inconclusive: inside the drift between invocations,9.68 inconclusive: inside the drift between invocations"
run $C0 "$TMP/banded.json" "$CF/slow.json"
expect_eq "recorded band: the noise line names where the drift came from" \
	"$(printf '%s\n' "$OUT" | grep -A1 '^  pread_z100k' | tail -1 | sed 's/.*; //')" \
	"drift between invocations 23.08% (recorded in BASE by bench --invocations): 730 invocations a side resolve 2%"
run $C0 --stats mean --format json "$TMP/banded.json" "$CF/slow.json"
expect_eq "recorded band: the statistic's own band (--stats mean)" \
	"$(jq_of '[.metrics[].new[0].drift_pct] | join(",")')" "1,9.68"
jq '.drift.band_pct.pread_z100k.median = 9.68' "$TMP/banded.json" >"$TMP/banded10.json"
run $C0 --format json "$TMP/banded10.json" "$CF/slow.json"
expect_eq "recorded band 9.68%: the +20.95% is a REGRESSION" "$RC $(jq_of '.metrics[0].new[0].verdict')" \
	"1 REGRESSION"
run $C0 --drift "$TMP/aa" --format json "$TMP/banded.json" "$CF/slow.json"
expect_eq "recorded band: --drift wins" "$(jq_of '[.metrics[].new[0].drift_pct * 100 | round] | join(",")')" "968,968"
jq '.drift.invocations = 1' "$TMP/banded.json" >"$TMP/banded1.json"
run $C0 --format json "$TMP/banded1.json" "$CF/slow.json"
expect_eq "recorded band of 1 invocation: not a band" "$(jq_of '[.metrics[].new[0].one_invocation] | unique | join(",")')" "true"
jq '.drift.band_pct.pread_z100k.median = -1' "$TMP/banded.json" >"$TMP/bandedneg.json"
run $C0 --format json "$TMP/bandedneg.json" "$CF/slow.json"
expect_eq "recorded band below 0: not a band" "$(jq_of '.metrics[0].new[0].one_invocation')" "true"
run $C0 --format json "$CF/slow.json" "$TMP/banded.json"
expect_eq "a band in NEW only: not BASE's drift" "$(jq_of '.metrics[0].new[0].one_invocation')" "true"

# The drift bench --invocations keeps for this host (t_bench.sh: one
# written), host-drift.json here, measured on base.json's machine: 5% for
# pread_z100k over 5 A/A invocations, 4% for read1. Two single
# invocations of that machine get a verdict when the change is beyond it
# and no run of one is within the other's range: plus20.json is base.json
# with every time x1.2 and rate /1.2 (runs 12, 12.6, 13.2 against 10,
# 10.5, 11; rates 84.2, 82.5, 83.3 against 101, 99, 100): two REGRESSIONs,
# exit 1. The invocations a side that resolve 2%: 5 / 2.326 = 2.1496%, 2
# ((1.959964 + 0.841621) 2.1496 / 2)^2 = 18.13: 19; read1's 4% 11.6: 12.
HOSTFILE=$(uname -n | sed 's/[^A-Za-z0-9._-]/_/g')
mkdir -p "$XDG_DATA_HOME/straddle/drift"
run $C0 "$CF/base.json" "$CF/plus20.json"
expect_eq "A+20%, no band kept: exit 0, no verdict" "$RC $(line '^  pread_z100k' | grep -o 'inconclusive.*')" \
	"0 inconclusive: one invocation a side"
cp "$CF/host-drift.json" "$XDG_DATA_HOME/straddle/drift/$HOSTFILE.json"
run $C0 "$CF/base.json" "$CF/plus20.json"
expect_eq "A+20%, the host's band: exit 1" "$RC" 1
expect_eq "A+20%, the host's band: the verdicts" \
	"$(printf '%s\n' "$OUT" | grep -E '^  (pread|read1)' | grep -o 'REGRESSION' | tr '\n' ' ')" "REGRESSION REGRESSION "
expect_eq "A+20%, the host's band: where it came from, the invocations a 2% change needs" \
	"$(printf '%s\n' "$OUT" | grep -A1 -E '^  (pread|read1)' | grep noise | sed 's/.*; //' | tr '\n' '|')" \
	"drift between invocations 5.00% (this host's, kept by bench --invocations): 19 invocations a side resolve 2%|drift between invocations 4.00% (this host's, kept by bench --invocations): 12 invocations a side resolve 2%|"
run $C0 --format json "$CF/base.json" "$CF/plus20.json"
expect_eq "A+20%, the host's band: json" \
	"$(jq_of '[.metrics[].new[0] | "\(.drift_pct) \(.drift_from_host) \(.disjoint) \(.invocations_needed) \(.verdict)"] | join(",")')" \
	"5 true true 19 REGRESSION,4 true true 12 REGRESSION"
# A/A, two single invocations (again.json: base.json x1.01, its runs among
# base's): no verdict
run $C0 --format json "$CF/base.json" "$CF/again.json"
expect_eq "A/A, the host's band: exit 0, no change" \
	"$RC $(jq_of '[.metrics[].new[0] | "\(.drift_from_host) \(.verdict)"] | join(",")')" "0 true no change,true no change"
# the band of another machine (another kernel) stands for nothing here
jq '.machine.kernel = "6.12.0"' "$CF/host-drift.json" >"$XDG_DATA_HOME/straddle/drift/$HOSTFILE.json"
run $C0 --format json "$CF/base.json" "$CF/plus20.json"
expect_eq "A+20%, another machine's band: exit 0, none" \
	"$RC $(jq_of '[.metrics[].new[0].verdict] | unique | join(",")')" "0 inconclusive: one invocation a side"
cp "$CF/host-drift.json" "$XDG_DATA_HOME/straddle/drift/$HOSTFILE.json"
# runs that overlap: base 10 10 10 10 11, new 10.9 12.5 12.5 12.5 12.5
# (one sample a run): the gap 1.98 stands out of both ranges (1, 1.6),
# Welch p 0.0014, outside 5%; but 10.9 is among base's runs. Against the
# kept band, no verdict; against --drift (A/A invocations 10.2 and 10.71:
# 4.88%), measured beside them, a REGRESSION.
jq '.metrics = [.metrics[0] | .runs = ([10, 10, 10, 10, 11] | map({samples: [.]})) | del(.n)] | del(.runs)' \
	"$CF/base.json" >"$TMP/obase.json"
jq '.metrics = [.metrics[0] | .runs = ([10.9, 12.5, 12.5, 12.5, 12.5] | map({samples: [.]})) | del(.n)] | del(.runs)' \
	"$CF/base.json" >"$TMP/onew.json"
run $C0 --format json "$TMP/obase.json" "$TMP/onew.json"
expect_eq "overlapping runs, the host's band: exit 0, said" \
	"$RC $(jq_of '.metrics[0].new[0] | "\(.significant) \(.disjoint) \(.verdict)"')" "0 true false inconclusive: the runs overlap"
run $C0 "$TMP/obase.json" "$TMP/onew.json"
expect_eq "overlapping runs, the host's band: the verdict line" \
	"$(line '^  pread_z100k' | grep -o 'inconclusive.*')" "inconclusive: the runs overlap"
mkdir "$TMP/oaa"
cp "$TMP/obase.json" "$TMP/oaa/1.json"
jq '.metrics[0].runs[].samples |= map(. * 1.05)' "$TMP/obase.json" >"$TMP/oaa/2.json"
run $C0 --drift "$TMP/oaa" --format json "$TMP/obase.json" "$TMP/onew.json"
expect_eq "overlapping runs, --drift: a REGRESSION" \
	"$RC $(jq_of '.metrics[0].new[0] | "\(.drift_pct * 100 | round) \(.drift_from_host) \(.verdict)"')" "1 488 false REGRESSION"
rm "$XDG_DATA_HOME/straddle/drift/$HOSTFILE.json"

# Several invocations a side: the invocation is the unit. base.json and
# slow.json each x1, x1.02, x0.98: pread_z100k's invocations 10.5, 10.71,
# 10.29 (sd 0.21) and 12.7, 12.954, 12.446 (sd 0.254): t = 2.2 / sqrt(
# 0.0441 / 3 + 0.064516 / 3) = 11.562, df by Welch-Satterthwaite 3.8635.
mkdir "$TMP/invA" "$TMP/invB"
for k in 1:1 2:1.02 3:0.98; do
	jq --argjson x "${k#*:}" '.metrics[].runs[].samples |= map(. * $x)' "$CF/base.json" >"$TMP/invA/${k%%:*}.json"
	jq --argjson x "${k#*:}" '.metrics[].runs[].samples |= map(. * $x)' "$CF/slow.json" >"$TMP/invB/${k%%:*}.json"
done
run $C --format json "$TMP/invA" "$TMP/invB"
expect_eq "invocations: the unit, its count, t, df" \
	"$(jq_of '.metrics[0].new[0] | "\(.units) \(.base_runs):\(.runs) \(.t * 1000 | round) \(.df * 1e4 | round) \(.verdict)"')" \
	"invocations 3:3 11562 38635 REGRESSION"
expect_eq "invocations: no drift asked for (the spread is in the test)" "$(jq_of '.metrics[0].new[0].drift_pct')" "null"
run $C "$TMP/invA" "$TMP/invB"
expect_eq "invocations: the verdict line" "$(line '^  pread_z100k' | sed 's/ t .*//')" " pread_z100k invB 3:3 invocations"

# Invocations a side not taken alternately: said (a warning), not refused.
mkdir "$TMP/seqA" "$TMP/seqB" "$TMP/altB"
for k in 1 2 3; do
	jq --arg t "2026-12-02T01:0$k:00Z" '.time = $t' "$TMP/invA/$k.json" >"$TMP/seqA/$k.json"
	jq --arg t "2026-12-02T02:0$k:00Z" '.time = $t' "$TMP/invB/$k.json" >"$TMP/seqB/$k.json"
	jq --arg t "2026-12-02T01:0$k:30Z" '.time = $t' "$TMP/invB/$k.json" >"$TMP/altB/$k.json"
done
run $C0 "$TMP/seqA" "$TMP/seqB"
expect_eq "not alternated: the warning" "$(printf '%s\n' "$OUT" | grep alternated)" \
	"warning: seqA's invocations (2026-12-02T01:01:00Z to 2026-12-02T01:03:00Z) and seqB's (2026-12-02T02:01:00Z to 2026-12-02T02:03:00Z) were not alternated: a drift of the machine between them falls on one side; take them A B A B (bench --invocations N --versus)"
expect_eq "not alternated: the verdict stands" "$RC" 1
run $C0 "$TMP/seqA" "$TMP/altB"
expect_eq "alternated A B A B: no warning" "$(printf '%s\n' "$OUT$ERR" | grep -c alternated)" 0
run $C0 "$TMP/seqB" "$TMP/seqA"
expect_eq "not alternated, NEW first: the warning" "$(printf '%s\n' "$OUT" | grep -c 'were not alternated')" 1

# --layout-noise: a change no larger than what new layouts of the
# code do to the program is layout noise. The band of a place --offsets
# random run whose metric moves with the layout (the place fixture prints
# where in its line its code runs) covers the +20.95%; narrowed to 5% it
# does not.
FIXTURE_PC=1 "$STRADDLE" place --func work --offsets random --runs 4 --metric 'pc ([0-9]+)' \
	--no-output-check -o "$TMP/layout.json" -- "$FIXTURES/place/moved-pie" 10 >/dev/null
expect_eq "layout noise: a band over 21%" "$(jq '.layout_noise.band_pct > 21' "$TMP/layout.json")" true
run $C --layout-noise "$TMP/layout.json" --format json "$TMP/invA" "$TMP/invB"
expect_eq "layout noise: exit 0" "$RC" 0
expect_eq "layout noise: the verdict" "$(jq_of '.metrics[0].new[0].verdict')" "inconclusive: within layout noise"
jq '.layout_noise.band_pct = 5' "$TMP/layout.json" >"$TMP/layout5.json"
run $C --layout-noise "$TMP/layout5.json" --format json "$TMP/invA" "$TMP/invB"
expect_eq "layout noise 5%: the regression stands" "$RC $(jq_of '.metrics[0].new[0].verdict')" "1 REGRESSION"
run $C --layout-noise "$CF/base.json" "$TMP/invA" "$TMP/invB"
expect_eq "layout noise from a bench file: exit 2, the line" "$RC $ERR" \
	"2 straddle: --layout-noise: $CF/base.json: not a place --offsets random result (no layout_noise band)"

# Noise: one summary line, the details with --verbose. Base's run medians
# 10, 10.5, 11 vary by 4.76% (below 5%); wide's by 11.07%.
run $C "$CF/wide.json" "$CF/steady.json"
expect_eq "noise: one line" "$(printf '%s\n' "$OUT" | grep '^warning')" \
	"warning: 1 of 2 metrics vary by more than 5% from run to run (worst: pread_z100k in wide.json, 11.7%); --verbose for each"
run $C --verbose "$CF/wide.json" "$CF/steady.json"
expect_eq "noise: --verbose" "$(printf '%s\n' "$OUT" | grep '^  pread_z100k in')" \
	"  pread_z100k in wide.json: its runs' median varies by 11.7% (CV over 6 runs)"

# A side made of several sweeps, matched by kernel: clear_movq_imm at
# offset 0 (medians 244, 245, 243) and at 40 (356, 355, 357): -45.9%,
# t 137.17, df 4.
run $C0 "$CF/fast" "$CF/slow"
expect_eq "sweeps: exit 1" "$RC" 1
expect_eq "sweeps: the row" "$(line 'Time')" "Time median-clear_movq_imm@0 244.00 ( 0.00%) 356.00 *-45.90%*"
expect_eq "sweeps: said which placements" "$(printf '%s\n' "$OUT" | grep '^warning')" \
	"warning: clear_movq_imm@0 in fast is compared with clear_movq_imm@40 in slow: the same kernel, placed elsewhere"
run $C0 --format json "$CF/fast" "$CF/slow"
expect_eq "sweeps: runs and t" "$(jq_of '.metrics[0].new[0] | [.base_runs, .runs, (.t * 100 | round)] | join(",")')" "3,3,13717"

# CSV and markdown carry the same numbers
run $C --format csv "$CF/base.json" "$CF/slow.json"
expect_eq "csv row" "$(printf '%s\n' "$OUT" | sed -n 2p)" \
	"pread_z100k,ns,lower,$CF/slow.json,median,10.5,12.7,20.9524,-20.9524,3,3,7.07594,2.62402,0.00889076,1,1,1,REGRESSION,runs,3.6266,52,0.0000"
run $C --format markdown "$CF/base.json" "$CF/slow.json"
expect_eq "markdown row" "$(printf '%s\n' "$OUT" | sed -n 3p)" \
	"| pread_z100k | ns | median | 10.500 | 12.700 | **-20.95%** | 0.00889 | REGRESSION |"

# Bad input: one line, exit 2
cmp_bad() {
	run $C "$CF/base.json" "$2"
	expect_eq "bad $1: exit 2" "$RC" 2
	expect_eq "bad $1: one line" "$ERR" "$3"
}
B1='{"schema":1,"command":"bench","metrics":['
M1='{"name":"t","workload":"w","unit":"ns","direction":"lower"'
printf '%s%s,"runs":[{"samples":[1,-3]}]}]}' "$B1" "$M1" >"$TMP/neg.json"
cmp_bad "negative" "$TMP/neg.json" "straddle: $TMP/neg.json: metric 0 (t), run 1: sample 1 is negative (-3)"
printf '%s%s,"runs":[{"samples":[1]},{"samples":[]}]}]}' "$B1" "$M1" >"$TMP/empty.json"
cmp_bad "empty run" "$TMP/empty.json" "straddle: $TMP/empty.json: metric 0 (t), run 2: no samples (an empty list)"
printf '%s%s,"runs":[{"samples":[1,NaN]}]}]}' "$B1" "$M1" >"$TMP/nan.json"
cmp_bad "NaN" "$TMP/nan.json" "straddle: $TMP/nan.json: line 1: NaN or Infinity, not a number (a sample must be finite)"
printf '%s%s,"runs":[{"samples":[1,Infinity]}]}]}' "$B1" "$M1" >"$TMP/inf.json"
cmp_bad "Infinity" "$TMP/inf.json" "straddle: $TMP/inf.json: line 1: NaN or Infinity, not a number (a sample must be finite)"
printf '%s%s,"runs":[{"samples":[1,1e999]}]}]}' "$B1" "$M1" >"$TMP/huge.json"
cmp_bad "1e999" "$TMP/huge.json" "straddle: $TMP/huge.json: line 1: a number too large for a double (infinite)"
printf '%s%s,"runs":[{"samples":[1,"x"]}]}]}' "$B1" "$M1" >"$TMP/str.json"
cmp_bad "a string sample" "$TMP/str.json" "straddle: $TMP/str.json: metric 0 (t), run 1: sample 1 is not a number"
printf '%s%s,"runs":[{"samples":[1]}]},%s,"runs":[{"samples":[2]}]}]}' "$B1" "$M1" "$M1" >"$TMP/dup.json"
cmp_bad "duplicate metric" "$TMP/dup.json" "straddle: $TMP/dup.json: metric 1 (t): the same name as metric 0"
printf '%s%s,"samples":[1]}]}' "$B1" "$M1" >"$TMP/oldbench.json"
cmp_bad "bench metric with samples" "$TMP/oldbench.json" \
	"straddle: $TMP/oldbench.json: metric 0 (t): a bench metric without \"runs\" (an older straddle's file? run bench again)"
printf '%s{"name":"t","unit":"ns","direction":"lower","runs":[{"samples":[1]}]}]}' "$B1" >"$TMP/nowl.json"
cmp_bad "bench metric without workload" "$TMP/nowl.json" "straddle: $TMP/nowl.json: metric 0 (t): a bench metric without \"workload\""
printf '{"schema":1,"command":"sweep","metrics":[{"name":"k@0","unit":"ns","direction":"lower","samples":[1]}]}' >"$TMP/sw.json"
cmp_bad "sweep metric without kernel" "$TMP/sw.json" "straddle: $TMP/sw.json: metric 0 (k@0): a sweep metric without \"kernel\" and \"offset\""
printf '{"schema":1,"command":"scan","files":[]}' >"$TMP/scan.json"
cmp_bad "a scan result" "$TMP/scan.json" "straddle: $TMP/scan.json: a scan result, not a bench, sweep, place or ab result"
cmp_bad "bench against sweep" "$CF/fast/1.json" "straddle: $CF/fast/1.json: a sweep result; BASE $CF/base.json is a bench one"
printf '%s%s,"n":3,"runs":[{"samples":[1,2]}]}]}' "$B1" "$M1" >"$TMP/n.json"
cmp_bad "n does not match" "$TMP/n.json" "straddle: $TMP/n.json: metric 0 (t): \"n\" is 3, the samples 2"
printf '%s%s,"runs":[{"samples":[1]}]},{"name":"u","workload":"w","unit":"ns","direction":"lower","runs":[{"samples":[1]},{"samples":[1]}]}]}' "$B1" "$M1" >"$TMP/runs.json"
cmp_bad "runs differ" "$TMP/runs.json" "straddle: $TMP/runs.json: metric 1 (u): 2 runs, metric 0 1"
printf 'not json' >"$TMP/notjson.json"
cmp_bad "not JSON" "$TMP/notjson.json" \
	"straddle: $TMP/notjson.json: not a result file: '[' or '{' expected near 'not' (line 1)"
printf '{"schema":2,"metrics":[]}' >"$TMP/schema2.json"
cmp_bad "schema 2" "$TMP/schema2.json" "straddle: $TMP/schema2.json: schema 2; this straddle reads schema 1"
# every reader opens a file alike (results_open): a key twice is refused
# by compare as by report, and a record read as one
printf '{"schema":1,"schema":1,"command":"bench","metrics":[]}' >"$TMP/twice.json"
cmp_bad "a key twice" "$TMP/twice.json" \
	"straddle: $TMP/twice.json: not a result file: duplicate object key near '\"schema\"' (line 1)"
run "$STRADDLE" scan --hot "$TMP/twice.json" "$FIXTURES/x86/hotcold"
expect_eq "scan --hot: a key twice refused, one line" "$RC:$ERR" \
	"2:straddle: $TMP/twice.json: not a record: duplicate object key near '\"schema\"' (line 1)"
printf '{"schema":1,"command":"bench"}' >"$TMP/nometrics.json"
cmp_bad "no metrics" "$TMP/nometrics.json" "straddle: $TMP/nometrics.json: no \"metrics\" in a bench result"
printf '%s{"unit":"ns","direction":"lower","runs":[{"samples":[1]}]}]}' "$B1" >"$TMP/noname.json"
cmp_bad "no name" "$TMP/noname.json" "straddle: $TMP/noname.json: metric 0 has no name"
printf '%s{"name":"t","workload":"w","unit":"ns","runs":[{"samples":[1]}]}]}' "$B1" >"$TMP/nodir.json"
cmp_bad "no direction" "$TMP/nodir.json" "straddle: $TMP/nodir.json: metric 0 (t): direction is not \"lower\" or \"higher\""
printf '%s{"name":"u","workload":"w","unit":"ns","direction":"lower","runs":[{"samples":[1]}]}]}' "$B1" >"$TMP/other.json"
cmp_bad "nothing in common" "$TMP/other.json" "straddle: $TMP/other.json: no metric in common with $CF/base.json"
printf '%s{"name":"pread_z100k","workload":"w","unit":"ops/s","direction":"higher","runs":[{"samples":[1]}]}]}' "$B1" >"$TMP/flip.json"
cmp_bad "another unit and direction" "$TMP/flip.json" \
	"straddle: $TMP/flip.json: pread_z100k is ops/s, higher is better; in $CF/base.json ns, lower"
cmp_bad "missing file" "$TMP/nonexistent.json" "straddle: $TMP/nonexistent.json: cannot open: No such file or directory"
mkdir "$TMP/emptydir"
cmp_bad "empty directory" "$TMP/emptydir" "straddle: $TMP/emptydir: a directory without a .json result file"
run $C "$CF/base.json"
expect_eq "one file: exit 2" "$RC" 2
run $C --style nope "$CF/base.json" "$CF/slow.json"
expect_eq "bad style: exit 2" "$RC" 2
run $C --threshold 150% "$CF/base.json" "$CF/slow.json"
expect_eq "bad threshold: exit 2" "$RC" 2

# Any number of NEW files (it was at most 16, and the report cut the rest
# off unsaid; the text table lost its columns past 15): 17 copies of
# base.json and then slow.json, so the verdict rests on the 18th alone.
many=""
for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17; do
	cp "$CF/base.json" "$TMP/n$i.json"
	many="$many $TMP/n$i.json"
done
cp "$CF/slow.json" "$TMP/n18.json"
many="$many $TMP/n18.json"
# shellcheck disable=SC2086
run $C "$CF/base.json" $many
expect_eq "18 NEW: the 18th's regression fails the gate" "$RC" 1
expect_eq "18 NEW: a column each" "$(printf '%s\n' "$OUT" | sed -n 1p | wc -w)" 19
expect_eq "18 NEW: the last column" \
	"$(printf '%s\n' "$OUT" | sed -n 1p | awk '{ print $1, $18, $19 }')" "base.json n17.json n18.json"
expect_eq "18 NEW: the pread row's last two cells" \
	"$(printf '%s\n' "$OUT" | sed -n 2p | sed 's/.*\(10.500 (  0.00%)  12.700 \*-20.95%\*\)$/\1/')" \
	"10.500 (  0.00%)  12.700 *-20.95%*"
expect_eq "18 NEW: every verdict line" "$(printf '%s\n' "$OUT" | grep -c ' runs  ')" 36
# shellcheck disable=SC2086
run $C --format json "$CF/base.json" $many
expect_eq "18 NEW json: one entry a file, the 18th a regression" \
	"$(jq_of '[.new | length] + [.metrics[] | .new | length] + [.metrics[] | .new[17].verdict] | join(" ")')" \
	"18 18 18 REGRESSION REGRESSION"
# The report compares them all, as compare does: 2 metrics x 18 rows.
# shellcheck disable=SC2086
run "$STRADDLE" report -o "$TMP/many.html" "$CF/base.json" $many
expect_eq "18 NEW report: exit 0" "$RC" 0
python3 tests/cmd/html_cells.py "$TMP/many.html" >"$TMP/many.cells"
expect_eq "18 NEW report: a change row each" \
	"$(grep -c '^row bench-compare-1 changes [1-9]' "$TMP/many.cells")" 36
expect_eq "18 NEW report: the 18th's rows" \
	"$(grep '^row bench-compare-1 changes [1-9]' "$TMP/many.cells" | grep ' n18.json ' | cut -d'|' -f9 | tr -d ' ' | tr '\n' ' ')" \
	"inconclusive:oneinvocationaside inconclusive:oneinvocationaside "
