# straddle sweep: usage errors (exit 2, one line) and the shape of a short
# run's result file. Never timing: only counts, names and invariants.
sw_err() {
	name=$1
	shift
	run "$STRADDLE" sweep "$@"
	expect_eq "sweep $name: exit 2" "$RC" 2
	expect_eq "sweep $name: one line on stderr" "$(printf '%s\n' "$ERR" | grep -c .)" 1
	expect_eq "sweep $name: the line" "$ERR" "$SW_WANT"
}

SW_WANT="straddle: nope: no such kernel on this x86_64 host (see 'straddle kernels')"
sw_err "unknown kernel" nope
SW_WANT="straddle: sweep: name at least one kernel (see 'straddle kernels'), or a kernel image's routine with --file and --func"
sw_err "no kernel"
SW_WANT="straddle: --offsets: '10..5': need 0 <= A <= B <= 4095 and 1 <= STEP <= 4095"
sw_err "offsets reversed" --offsets 10..5 clear_movq_imm
SW_WANT="straddle: --offsets: '0..4096': need 0 <= A <= B <= 4095 and 1 <= STEP <= 4095"
sw_err "offsets past a page" --offsets 0..4096 clear_movq_imm
SW_WANT="straddle: --offsets: '0..8:0': need 0 <= A <= B <= 4095 and 1 <= STEP <= 4095"
sw_err "offset step 0" --offsets 0..8:0 clear_movq_imm
SW_WANT="straddle: --offsets: 'x..3' is not A..B[:STEP] or A"
sw_err "offsets garbage" --offsets x..3 clear_movq_imm
SW_WANT="straddle: --size: '0': a call clears or copies 1 byte to 1 GiB"
sw_err "size 0" --size 0 clear_movq_imm
SW_WANT="straddle: --size: '2G': a call clears or copies 1 byte to 1 GiB"
sw_err "size huge" --size 2G clear_movq_imm
SW_WANT="straddle: --size: '12Q' is not a size in bytes (K, M, G suffixes)"
sw_err "size garbage" --size 12Q clear_movq_imm
SW_WANT="straddle: --precision: '0' is not from 0.0001% to 50%"
sw_err "precision 0" --precision 0 clear_movq_imm
SW_WANT="straddle: --time: 'soon' is not a time in seconds (like 10 or 0.5s), at most a day"
sw_err "time garbage" --time soon clear_movq_imm
run "$STRADDLE" sweep --offsets 0..1024 clear_movq_imm clear_movq_reg
expect_eq "sweep too many placements: exit 2" "$RC" 2
expect_eq "sweep too many placements: the line" "$ERR" "straddle: sweep: more than 1024 kernel placements at once"

# A short run: 4 offsets of one kernel and libc's memset (measured once).
run "$STRADDLE" sweep --offsets 0..3 --size 256 --time 0.3 --min-rounds 2 --uarch goldencove \
	-o "$TMP/sw.json" --plot "$TMP/sw.svg" clear_movq_imm memset
expect_eq "sweep short run: exit 0" "$RC" 0
expect_eq "sweep short run: variants" "$(jq -r '[.metrics[].name] | join(",")' "$TMP/sw.json")" \
	"clear_movq_imm@0,clear_movq_imm@1,clear_movq_imm@2,clear_movq_imm@3,memset@0"
expect_eq "sweep short run: one sample per round each" \
	"$(jq -r '[.metrics[].samples | length] | unique | length' "$TMP/sw.json")" 1
expect_eq "sweep short run: as many samples as rounds" \
	"$(jq -r '(.metrics[0].samples | length) == .sweep.rounds' "$TMP/sw.json")" true
expect_eq "sweep short run: floor is the nearest-rank 10th percentile of the samples" \
	"$(jq -r '[.metrics[] | (.samples | sort) as $s | $s[(($s | length) * 0.1 | ceil) - 1] == .floor] | all' "$TMP/sw.json")" true
expect_eq "sweep short run: floor CI brackets the floor" \
	"$(jq -r '[.metrics[] | .floor_ci[0] <= .floor and .floor <= .floor_ci[1]] | all' "$TMP/sw.json")" true
expect_eq "sweep short run: ratio is of floors" \
	"$(jq -r '([.metrics[0:4][] | .floor] | min) as $b | [.metrics[0:4][] | ((.floor / $b) - .ratio) as $d | $d < 1e-9 and $d > -1e-9] | all' "$TMP/sw.json")" true
# each half's floor against the best's same half; slow only
# where both halves are materially slower too
expect_eq "sweep short run: half ratios are of the halves' floors" \
	"$(jq -r '(.metrics[0:4] | min_by(.floor)) as $b | ($b.samples | length / 2 | floor) as $h |
		def fl: sort | .[((length * 0.1) | ceil) - 1];
		[.metrics[0:4][] | [(.samples[:$h] | fl) / ($b.samples[:$h] | fl), (.samples[$h:] | fl) / ($b.samples[$h:] | fl)] as $r |
		($r[0] - .half_ratios[0]) as $d0 | ($r[1] - .half_ratios[1]) as $d1 |
		$d0 < 1e-9 and $d0 > -1e-9 and $d1 < 1e-9 and $d1 > -1e-9] | all' "$TMP/sw.json")" true
expect_eq "sweep short run: slow in both halves" \
	"$(jq -r '[.metrics[] | select(.slow) | .half_ratios | min >= 1.05] | all' "$TMP/sw.json")" true
expect_eq "sweep short run: the stopping rule's minimums recorded" \
	"$(jq -r '"\(.sweep.min_rounds) \(.sweep.min_time_s)"' "$TMP/sw.json")" "2 0.25"
expect_eq "sweep short run: units" "$(jq -r '[.metrics[] | "\(.unit)/\(.direction)"] | unique | join(",")' "$TMP/sw.json")" "ns/lower"
expect_eq "sweep short run: one best per kernel" \
	"$(jq -r '[.metrics[] | select(.ratio == 1)] | length' "$TMP/sw.json")" 2
expect_eq "sweep short run: loop offsets (+17)" "$(jq -r '[.metrics[0:4][] | .loop_offset] | join(",")' "$TMP/sw.json")" "17,18,19,20"
# goldencove: loop [17, 32) at offset 0 fits; from 1 it crosses 32, a fetch
# window, but 4 instructions run from the loop buffer: no prediction anywhere.
expect_eq "sweep short run: predictions" "$(jq -r '[.metrics[0:4][] | .predicted | length] | join(",")' "$TMP/sw.json")" "0,0,0,0"
expect_eq "sweep short run: machine recorded" "$(jq -r '.machine | has("vendor") and has("kernel") and has("microcode")' "$TMP/sw.json")" true
expect_eq "sweep short run: stopped by" "$(jq -r '.sweep.stopped_by | test("^(time|precision)$")' "$TMP/sw.json")" true
expect_eq "sweep short run: plot is SVG" "$(head -c 4 "$TMP/sw.svg")" "<svg"
expect_eq "sweep short run: one table row per variant" \
	"$(printf '%s\n' "$OUT" | grep -cE '^ +[0-3] +(1[789]|20) ')" 4

run "$STRADDLE" sweep --offsets 5 --size 64 --time 0.2 --min-rounds 2 --csv clear_rep_stosb
expect_eq "sweep --csv: header" "$(printf '%s\n' "$OUT" | head -n 1)" \
	"kernel,offset,loop_offset,samples,median_ns,ci_lo_ns,ci_hi_ns,floor_ns,floor_lo_ns,floor_hi_ns,gbps,ratio,p,slow,model,predicted"
expect_eq "sweep --csv: one row" "$(printf '%s\n' "$OUT" | tail -n +2 | cut -d, -f1,2,3,12,14)" \
	"clear_rep_stosb,5,10,1.0000,0"
