# straddle compare on result files written here with known samples; every
# expected number is worked out in the comments.
cmp_file() {    # cmp_file NAME KERNEL METRICS-JSON
	printf '{"schema":1,"command":"bench","machine":{"vendor":"GenuineIntel","family":6,"model":207,"kernel":"%s"},"metrics":[%s]}\n' \
		"$2" "$3" >"$TMP/$1.json"
}
C="$STRADDLE compare"

# Seed 000's table: pread_z100k mean95 9.9195 -> 5.9856 is 39.66% better
# (mmtests' sign); one sample each: p = 1, no star, no gate.
cmp_file s0base 6.1 '{"name":"pread_z100k","unit":"ns","direction":"lower","samples":[9.9195]}'
cmp_file s0new 6.1 '{"name":"pread_z100k","unit":"ns","direction":"lower","samples":[5.9856]}'
run $C "$TMP/s0base.json" "$TMP/s0new.json"
expect_eq "seed000 row" "$(printf '%s\n' "$OUT" | sed -n 2p | tr -s ' ')" \
	"Time mean95-pread_z100k 9.9195 ( 0.00%) 5.9856 ( 39.66%)"
expect_eq "seed000: exit 0" "$RC" 0
expect_eq "seed000: fewer-than-9 warnings" "$(printf '%s\n' "$OUT" | grep -c 'fewer than 9')" 2

# Exact U test: base [1,2,3], new [4,5,6] ns. mean95 (best floor(0.95*3)=2):
# 1.5 and 4.5: +200% (robot), -200% (mmtests). U of new = 9 pairs above,
# p = 2/C(6,3) = 0.1: not significant at 0.05, significant at 0.2.
cmp_file xbase 6.1 '{"name":"t","unit":"ns","direction":"lower","samples":[1,2,3]}'
cmp_file xnew 6.1 '{"name":"t","unit":"ns","direction":"lower","samples":[4,5,6]}'
run $C --format json "$TMP/xbase.json" "$TMP/xnew.json"
expect_eq "exact: values" "$(jq_of '.metrics[0] | "\(.value) \(.new[0].value)"')" "1.5 4.5"
expect_eq "exact: changes" "$(jq_of '.metrics[0].new[0] | "\(.change_pct) \(.change_pct_mmtests)"')" "200 -200"
expect_eq "exact: U and p" "$(jq_of '.metrics[0].new[0] | "\(.u) \(.p)"')" "9 0.1"
expect_eq "exact: not significant at 0.05" "$(jq_of '.metrics[0].new[0] | "\(.significant) \(.regression)"')" "false false"
expect_eq "exact: exit 0" "$RC" 0
run $C --alpha 0.2 "$TMP/xbase.json" "$TMP/xnew.json"
expect_eq "exact: at alpha 0.2 the star" "$(printf '%s\n' "$OUT" | sed -n 2p | tr -s ' ')" \
	"Time mean95-t 1.5000 ( 0.00%) 4.5000 *-200.00%*"
expect_eq "exact: at alpha 0.2 a regression: exit 1" "$RC" 1
run $C --alpha 0.2 "$TMP/xnew.json" "$TMP/xbase.json"
expect_eq "exact: the other way an improvement: exit 0" "$RC" 0
expect_eq "exact: the other way, mmtests sign" "$(printf '%s\n' "$OUT" | sed -n 2p | tr -s ' ')" \
	"Time mean95-t 4.5000 ( 0.00%) 1.5000 * 66.67%*"

# Seed 004, the robot's way: ops/s, higher is better. base 99,100,101 x3
# (mean 100, stddev 0.87%: no +-), new 93.2,94.2,95.2 x3 (mean 94.2): -5.8%.
# Ties in each sample: normal approximation. Ranks: new 2,5,8 (x3), base
# 11,14,17 (x3); U(new) = 45 - 45 = 0, U2 = 81, mu = 40.5; ties: six of 3,
# 6*24 = 144; sigma = sqrt(81/12 (19 - 144/306)) = 11.1836277;
# z = (81 - 40.5 - 0.5)/sigma = 3.5766570, p = erfc(z/sqrt 2) = 0.000348016.
OPS='"unit":"ops/s","direction":"higher"'
cmp_file rbase 6.1 "{\"name\":\"will-it-scale.per_process_ops\",$OPS,\"samples\":[99,100,101,99,100,101,99,100,101]}"
cmp_file rnew 6.2 "{\"name\":\"will-it-scale.per_process_ops\",$OPS,\"samples\":[93.2,94.2,95.2,93.2,94.2,95.2,93.2,94.2,95.2]}"
run $C --style lkp --format json "$TMP/rbase.json" "$TMP/rnew.json"
expect_eq "robot: stat is mean" "$(jq_of .stat)" "mean"
expect_eq "robot: change" "$(jq_of '.metrics[0].new[0].change_pct * 1000 | round / 1000')" "-5.8"
expect_eq "robot: U" "$(jq_of '.metrics[0].new[0].u')" "0"
expect_eq "robot: p" "$(jq_of '.metrics[0].new[0].p * 1e9 | round')" "348016"
expect_eq "robot: CIs apart" "$(jq_of '.metrics[0].new[0].ci_overlap')" "false"
expect_eq "robot: regression" "$(jq_of '.regression')" "true"
run $C --style lkp "$TMP/rbase.json" "$TMP/rnew.json"
expect_eq "robot: exit 1" "$RC" 1
expect_eq "robot: row" "$(printf '%s\n' "$OUT" | sed -n 5p | tr -s ' ')" \
	" 100.00 -5.8%* 94.200 will-it-scale.per_process_ops"
expect_eq "robot: kernel differs, said once" "$(printf '%s\n' "$OUT" | grep '^warning' | grep -c 'kernel "6.1" vs "6.2"')" 1
expect_eq "robot: both tests under the table" \
	"$(printf '%s\n' "$OUT" | grep '^  will-it-scale' | tr -s ' ')" \
	" will-it-scale.per_process_ops rnew.json U 0 p 0.000348 CIs apart REGRESSION"
run $C --style lkp --threshold 10% "$TMP/rbase.json" "$TMP/rnew.json"
expect_eq "robot: 5.8% is within a 10% threshold: exit 0" "$RC" 0

# mean95 of a rate keeps the best 95%, the highest: floor(0.95*9) = 8, one
# lowest dropped: base (2*99 + 3*100 + 3*101)/8 = 100.125, new (2*93.2 +
# 3*94.2 + 3*95.2)/8 = 94.325; mmtests' change 100 (94.325 - 100.125) /
# 100.125 = -5.7927%
run $C --format json "$TMP/rbase.json" "$TMP/rnew.json"
expect_eq "rate mean95: values" "$(jq_of '.metrics[0] | "\(.value) \(.new[0].value * 1000 | round / 1000)"')" "100.125 94.325"
expect_eq "rate mean95: change" "$(jq_of '.metrics[0].new[0].change_pct_mmtests * 10000 | round / 10000')" "-5.7928"

# From 20 samples on the tests take the medians of 10 consecutive blocks:
# base 1,1,2,2,...,10,10 -> blocks of two, medians 1..10; new 11,11,...,20,20
# -> 11..20. U of new = 10*10 = 100, exact p = 2/C(20,10) = 1.0825e-05.
bl() { awk -v a="$1" 'BEGIN { for (i = a; i < a + 10; i++) printf "%s%d,%d", (i > a ? "," : ""), i, i }'; }
cmp_file bbase 6.1 "{\"name\":\"t\",\"unit\":\"ns\",\"direction\":\"lower\",\"samples\":[$(bl 1)]}"
cmp_file bnew 6.1 "{\"name\":\"t\",\"unit\":\"ns\",\"direction\":\"lower\",\"samples\":[$(bl 11)]}"
run $C --format json "$TMP/bbase.json" "$TMP/bnew.json"
expect_eq "blocks: 20 samples, 10 units" "$(jq_of '.metrics[0].new[0] | "\(.n) \(.units)"')" "20 10"
expect_eq "blocks: U of the block medians" "$(jq_of '.metrics[0].new[0].u')" "100"
expect_eq "blocks: exact p" "$(jq_of '.metrics[0].new[0].p * 1e10 | round')" "108251"

# CSV and markdown carry the same numbers
run $C --format csv "$TMP/xbase.json" "$TMP/xnew.json"
expect_eq "csv row" "$(printf '%s\n' "$OUT" | sed -n 2p)" \
	"t,ns,lower,$TMP/xnew.json,mean95,1.5,4.5,200.0000,-200.0000,9,0.1,0,0,0"
run $C --format markdown "$TMP/xbase.json" "$TMP/xnew.json"
expect_eq "markdown row" "$(printf '%s\n' "$OUT" | sed -n 3p)" "| t | ns | 1.5000 | 4.5000 | -200.00% | 0.1 |"

# Bad input: one line, exit 2
cmp_bad() {
	run $C "$TMP/xbase.json" "$2"
	expect_eq "bad $1: exit 2" "$RC" 2
	expect_eq "bad $1: one line" "$ERR" "$3"
}
printf 'not json' >"$TMP/notjson.json"
cmp_bad "not JSON" "$TMP/notjson.json" \
	"straddle: $TMP/notjson.json: not a result file: '[' or '{' expected near 'not' (line 1)"
printf '{"schema":2,"metrics":[]}' >"$TMP/schema2.json"
cmp_bad "schema 2" "$TMP/schema2.json" "straddle: $TMP/schema2.json: schema 2; this straddle reads schema 1"
printf '{"schema":1,"command":"bench"}' >"$TMP/nometrics.json"
cmp_bad "no metrics" "$TMP/nometrics.json" "straddle: $TMP/nometrics.json: no \"metrics\" in a bench result"
printf '{"schema":1,"metrics":[{"unit":"ns","direction":"lower","samples":[1]}]}' >"$TMP/noname.json"
cmp_bad "no name" "$TMP/noname.json" "straddle: $TMP/noname.json: metric 0 has no name"
printf '{"schema":1,"metrics":[{"name":"t","unit":"ns","direction":"lower","samples":[1,"x"]}]}' >"$TMP/badsample.json"
cmp_bad "bad sample" "$TMP/badsample.json" "straddle: $TMP/badsample.json: metric 0 (t): sample 1 is not a number"
printf '{"schema":1,"metrics":[{"name":"t","unit":"ns","samples":[1]}]}' >"$TMP/nodir.json"
cmp_bad "no direction" "$TMP/nodir.json" "straddle: $TMP/nodir.json: metric 0 (t): direction is not \"lower\" or \"higher\""
cmp_file other 6.1 '{"name":"u","unit":"ns","direction":"lower","samples":[1]}'
cmp_bad "nothing in common" "$TMP/other.json" \
	"straddle: $TMP/other.json: no metric in common with $TMP/xbase.json (a bench result, this a bench one)"
cmp_bad "missing file" "$TMP/nonexistent.json" \
	"straddle: $TMP/nonexistent.json: not a result file: unable to open $TMP/nonexistent.json: No such file or directory (line -1)"
run $C "$TMP/xbase.json"
expect_eq "one file: exit 2" "$RC" 2
run $C --style nope "$TMP/xbase.json" "$TMP/xnew.json"
expect_eq "bad style: exit 2" "$RC" 2
run $C --threshold 150% "$TMP/xbase.json" "$TMP/xnew.json"
expect_eq "bad threshold: exit 2" "$RC" 2
