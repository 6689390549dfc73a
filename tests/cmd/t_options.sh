# One option table per command: getopt's list,
# --help and the manual page come from it, so an option in one is in all;
# --fail-on "" is an error in scan and diff alike.

G000="$FIXTURES/x86/seed000_after"

# --fail-on "" or ",": one line, exit 2, nothing scanned (it once turned
# scan's gate off and meant "any" to diff).
for args in "scan --fail-on= $G000" "diff --fail-on= $G000 $G000"; do
	run "$STRADDLE" $args
	expect_eq "$args: exit 2" "$RC" 2
	expect_eq "$args: the line" "$ERR" "straddle: --fail-on: '' names no rule (RULE,... or any)"
	expect_eq "$args: nothing on stdout" "$OUT" ""
done
run "$STRADDLE" scan --fail-on , "$G000"
expect_eq "scan --fail-on ,: the line" "$ERR" "straddle: --fail-on: ',' names no rule (RULE,... or any)"
run "$STRADDLE" diff --fail-on "" "$G000" "$G000"
expect_eq "diff --fail-on '': exit 2" "$RC" 2
# diff without --fail-on still gates on any rule; diff of a file with itself: 0
run "$STRADDLE" diff "$G000" "$G000"
expect_eq "diff, no --fail-on, same file: exit 0" "$RC" 0

# Every command's help ends its options with -h, --help; each long option
# in --help is one getopt knows: a flag then --help exits 0, an option with a
# value alone says it needs one.
for c in scan diff kernels sweep bench compare uarch record; do
	run "$STRADDLE" $c --help
	expect_eq "$c --help: exit 0" "$RC" 0
	expect_eq "$c --help: -h, --help listed once" "$(printf '%s\n' "$OUT" | grep -c '^  -h, --help  *this help$')" 1
	printf '%s\n' "$OUT" | sed -n 's/^  \(-., \)\{0,1\}--\([a-z-]*\)\( [^ ]\)\{0,1\}.*/\2\3/p' >"$TMP/opts"
	while read -r o value; do
		[ "$o" = help ] && continue
		if [ -n "$value" ]; then
			run "$STRADDLE" $c "--$o"
			expect_eq "$c --$o: needs a value" "$ERR" "straddle: $c: option '--$o' needs a value (see 'straddle $c --help')"
		else
			run "$STRADDLE" $c "--$o" --help
			expect_eq "$c --$o: a flag getopt knows" "$RC:$ERR" "0:"
		fi
	done <"$TMP/opts"
done
run "$STRADDLE" uarch --jason
expect_eq "uarch --jason: refused" "$ERR" "straddle: uarch: unknown option '--jason' (see 'straddle uarch --help')"
# -o is short only in sweep and bench, as before
run "$STRADDLE" sweep --out x.json clear_movq_imm
expect_eq "sweep --out: unknown" "$ERR" "straddle: sweep: unknown option '--out' (see 'straddle sweep --help')"
run "$STRADDLE" sweep --help
expect_eq "sweep --help: -o" "$(printf '%s\n' "$OUT" | grep -c "^  -o FILE.json  ")" 1
run "$STRADDLE" sweep -o
expect_eq "sweep -o without a value" "$ERR" "straddle: sweep: option '-o' needs a value (see 'straddle sweep --help')"
# a bad value names the option as the user wrote it in --help
run "$STRADDLE" sweep --min-rounds 0 clear_movq_imm
expect_eq "sweep --min-rounds 0" "$ERR" "straddle: --min-rounds: '0' is not a number from 1 to 1000000"
run "$STRADDLE" compare --alpha 0.9 a b
expect_eq "compare --alpha 0.9" "$ERR" "straddle: --alpha: '0.9' is not from 1e-07% to 50%"
