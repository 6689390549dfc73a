#!/bin/sh
# same_output.sh OLD NEW [FIXTURES]: two builds of straddle (OLD and NEW are
# build directories, each its straddle with its libraries beside it) run
# the same commands, and what each printed and wrote is compared byte for
# byte: every command's text, markdown, CSV, JSON, SARIF and HTML on the
# test fixtures (FIXTURES, default build/fixtures: `make fixtures`) and on
# this machine's C library and vDSO. A restructuring of the code must
# leave this at "0 differ".
#
# Two kinds of case:
#  - exact: the output of the same input. What differs from one run to the
#    next of one build is removed first: a document's "time" and the
#    wall-clock fields a page prints from it (none: the page shows the
#    file's own time). The result files of the measuring commands (sweep,
#    place, prove, bench, record) are made once, by OLD, and both builds
#    read, report and compare those same files.
#  - measured: a measuring command's own text, run by each build. Its
#    figures differ run to run, so they are masked (mask_figures): the
#    words and the lines must agree. A weaker check than exact's, for
#    what only a run can print; the files those runs write are exact
#    cases' inputs.
#
# Prints one line a case that differs (and its diff, first lines), then
# "N cases, N differ"; exit 1 when any differs. KEEP=DIR keeps the outputs;
# ALLOW="CASE ..." names cases whose difference is intended (a help text
# rewritten, a refusal's words): they are shown and counted apart.
set -u
OLD=$(cd "$1" && pwd)/straddle
NEW=$(cd "$2" && pwd)/straddle
FIX=$(cd "${3:-build/fixtures}" && pwd)
T=$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures
export STRADDLE_LLVM_MCA=in-process COLUMNS=120 LC_ALL=C
W=${KEEP:-$(mktemp -d)}
mkdir -p "$W/old" "$W/new" "$W/in" "$W/run"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$W"' EXIT
X=$FIX/x86
KV=$FIX/kernel/kvmlinux
P=$FIX/place
LIBC=$(ldd /bin/true | sed -n 's|.*=> \(/[^ ]*libc\.so[^ ]*\).*|\1|p')
cases=0
differ=0
allowed=0

# Documents' times and the seconds a run took: not the code's.
strip_times() {
	sed -E -e 's/"time": ?"[0-9TZ:-]+"/"time":"T"/g' \
		-e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/T/g'
}

# A measurement's words: every number N (its sign too), a temporary
# directory's name X, a verdict that turns on the figures left out (a
# "slow" mark, a p's "inconclusive", the "-" of the arm others are
# judged against, prove's measured verdict and the model's agreement,
# a note on what the figures showed, record's word on too few samples:
# the rate it chose turns on a sample's measured cost), blanks one blank,
# lines in order (rows sort by figures).
mask_figures() {
	strip_times | sed -E -e 's/straddle-([a-z]+)\.[A-Za-z0-9]{6}/straddle-\1.X/g' \
		-e 's/[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/N/g' -e 's/[-+]N/N/g' -e 's/N(,N)+/N/g' \
		-e 's/\(p N: [^)]*\)/(p N)/g' \
		-e 's/(^|[ \t])(slow|-)([ \t]|$)/\1\3/g' -e 's/(^|[ \t])(slow|-)([ \t]|$)/\1\3/g' \
		-e 's/(^|[ \t])(costs|nothing|inconclusive|agree|DISAGREE|slower at best)([ \t]|$)/\1\3/g' \
		-e 's/ conclusively.*$/ conclusively/' \
		-e 's/[ \t]+/ /g' -e '/^note: /d' -e '/: only N samples: /d' | sort
}

# run_as WHICH NAME ARGS...: the build WHICH (old or new) runs ARGS in
# $W/run, @OUT@ naming its output file; stdout, stderr, the exit status
# and that file are kept as $W/WHICH/NAME.*.
run_as() {
	which=$1 name=$2
	shift 2
	bin=$OLD
	[ "$which" = new ] && bin=$NEW
	rm -rf "$W/run" && mkdir -p "$W/run"
	args=""
	for arg in "$@"; do
		arg=$(printf '%s' "$arg" | sed "s|@OUT@|$W/run/out|g")
		args="$args '$(printf '%s' "$arg" | sed "s/'/'\\\\''/g")'"
	done
	(cd "$W/run" && eval "env ${ENVS:-} \"$bin\" $args" >"$W/$which/$name.stdout" \
		2>"$W/$which/$name.stderr")
	echo $? >"$W/$which/$name.rc"
	[ -e "$W/run/out" ] && cp -r "$W/run/out" "$W/$which/$name.file"
	return 0
}

# compare NAME FILTER: the two builds' outputs of one case, through FILTER.
compare() {
	name=$1 filter=$2
	cases=$((cases + 1))
	bad=""
	parts="stdout stderr rc file"
	# a measurement's file holds its samples: its own exact cases read one
	[ "$filter" = mask_figures ] && parts="stdout stderr rc"
	for part in $parts; do
		o=$W/old/$name.$part n=$W/new/$name.$part
		[ -e "$o" ] || [ -e "$n" ] || continue
		if [ -d "$o" ]; then
			o=$(find "$o" -type f | sort | xargs cat)
			n=$(find "$n" -type f 2>/dev/null | sort | xargs cat)
			[ "$(printf '%s' "$o" | $filter)" = "$(printf '%s' "$n" | $filter)" ] && continue
		elif [ -e "$o" ] && [ -e "$n" ] &&
			[ "$($filter <"$o"; echo .)" = "$($filter <"$n"; echo .)" ]; then
			continue
		fi
		bad="$bad $part"
	done
	[ -z "$bad" ] && return 0
	case " ${ALLOW:-} " in
	*" $name "*) allowed=$((allowed + 1)); echo "DIFFERS, AS INTENDED, $name:$bad" ;;
	*) differ=$((differ + 1)); echo "DIFFERS $name:$bad" ;;
	esac
	for part in $bad; do
		[ -f "$W/old/$name.$part" ] && [ -f "$W/new/$name.$part" ] &&
			diff "$W/old/$name.$part" "$W/new/$name.$part" | head -10
	done
}

# exact NAME ARGS...: both builds run ARGS, compared with times removed.
exact() {
	name=$1
	shift
	run_as old "$name" "$@"
	run_as new "$name" "$@"
	compare "$name" strip_times
}

# measured NAME ARGS...: both builds run ARGS, their figures masked.
measured() {
	name=$1
	shift
	run_as old "$name" "$@"
	run_as new "$name" "$@"
	compare "$name" mask_figures
}

# made NAME ARGS...: OLD makes an input of the exact cases, $W/in/NAME.
made() {
	mk=$1
	shift
	run_as old "made-$mk" "$@"
	cp -r "$W/old/made-$mk.file" "$W/in/$mk" 2>/dev/null ||
		cp "$W/old/made-$mk.stdout" "$W/in/$mk"
	rm -rf "$W/old/made-$mk".*
}

# ---- the commands' own words ----
exact usage --help
exact version --version
exact man --man
for c in scan diff merge kernels sweep place prove ab record bench compare calibrate report uarch; do
	exact "help-$c" "$c" --help
done
exact no-command bogus
exact bad-option scan --bogus
exact bad-uarch scan --uarch nosuch "$X/seed000_after"

# ---- scan ----
for u in generic-x86 zen1 skylake goldencove all; do
	exact "scan-000-$u" scan --all --uarch "$u" "$X/seed000_before"
	exact "scan-000-$u-json" scan --json --all --uarch "$u" "$X/seed000_before"
	exact "scan-000-$u-sarif" scan --format sarif --uarch "$u" "$X/seed000_before"
done
for f in $(cd "$X" && ls | grep -v '\.'); do
	exact "scan-$f" scan --all --uarch skylake,goldencove,zen4 "$X/$f"
	exact "scan-$f-json" scan --json --all --uarch skylake,goldencove,zen4 "$X/$f"
	exact "scan-$f-sarif" scan --format sarif --source-root "$FIX" --uarch skylake,zen4 "$X/$f"
done
for f in bigloop pieces spans seed002 switch; do
	exact "scan-arm64-$f" scan --all --uarch all "$FIX/arm64/$f"
	exact "scan-arm64-$f-json" scan --json --all --uarch all "$FIX/arm64/$f"
done
exact scan-mca-none scan --all --llvm-mca none --uarch zen5 "$X/branches"
exact scan-dir scan --uarch zen3 "$X"
exact scan-libc scan --uarch all "$LIBC"
exact scan-libc-limit scan --limit 0 --uarch goldencove "$LIBC"
exact scan-libc-json scan --json --all --uarch goldencove,zen4 "$LIBC"
exact scan-libc-sarif scan --format sarif --uarch goldencove "$LIBC"
exact scan-libc-func scan --all --func 'mem*' --uarch zen4 "$LIBC"
exact scan-vdso scan --all vdso
exact scan-vdso-json scan --json --all vdso
exact scan-kernel scan --all --uarch goldencove "$KV"
exact scan-fail-on scan --fail-on any --uarch zen1 "$X/seed000_before"
sed "s|/FIXTURES|$FIX|" tests/fixtures/record/hotcold.perf-script >"$W/in/hotcold.txt"
exact scan-perf-script scan --uarch zen1 --perf-script "$W/in/hotcold.txt" "$X/hotcold"
exact scan-perf-script-json scan --json --uarch zen1 --perf-script "$W/in/hotcold.txt" "$X/hotcold"

# ---- diff ----
D="$X/diff000_before $X/diff000_after"
for fmt in text markdown json sarif; do
	exact "diff-000-$fmt" diff --format "$fmt" --uarch zen1 $D
	exact "diff-000-fixed-$fmt" diff --format "$fmt" --uarch all "$X/diff000_after" "$X/diff000_fixed"
	exact "diff-perf-$fmt" diff --format "$fmt" --uarch zen1 --perf-script "$W/in/hotcold.txt" \
		"$X/hotcold" "$X/hotcold"
done
for pair in diff003_old:diff003_new diff_cold_old:diff_cold_new diff_coldpart_old:diff_coldpart_new \
	diff_every_old:diff_every_new diff_loops_old:diff_loops_new diff_moved_old:diff_moved_new \
	hotcold:hotcold_new seed000_before:seed000_after; do
	po=${pair%%:*} pn=${pair#*:}
	exact "diff-$po" diff --all --uarch zen1,skylake,goldencove "$X/$po" "$X/$pn"
	exact "diff-$po-md" diff --format markdown --uarch zen1,skylake,goldencove "$X/$po" "$X/$pn"
	exact "diff-$po-json" diff --json --uarch zen1,skylake,goldencove "$X/$po" "$X/$pn"
	exact "diff-$po-sarif" diff --format sarif --uarch zen1,skylake,goldencove "$X/$po" "$X/$pn"
done
exact diff-kernel diff --uarch goldencove "$KV" "$FIX/kernel/kvmlinux-new"
exact diff-libc diff --uarch goldencove "$LIBC" "$LIBC"
exact diff-dirs-json diff --json --uarch zen1 "$FIX/x86" "$FIX/arm64"
exact diff-fail-on diff --fail-on branch-crosses-window --uarch zen1 $D

# ---- merge ----
for k in 0 1 2; do
	made "shard-$k.json" scan --json --shard "$k/3" --uarch zen4 "$X"
	made "shard-$k.sarif" scan --format sarif --shard "$k/3" --uarch zen4 "$X"
done
exact merge-json merge @OUT@ "$W/in/shard-0.json" "$W/in/shard-1.json" "$W/in/shard-2.json"
exact merge-sarif merge @OUT@ "$W/in/shard-0.sarif" "$W/in/shard-1.sarif" "$W/in/shard-2.sarif"

# ---- kernels and uarch ----
exact kernels kernels
exact kernels-json kernels --json
exact kernels-one kernels clear_movq_imm
exact kernels-check kernels --check
for f in clear_user_original rep_movs_alternative __put_user_2; do
	exact "kroutine-$f" kernels --file "$KV" --func "$f"
	exact "kroutine-$f-json" kernels --json --file "$KV" --func "$f"
done
exact uarch uarch
exact uarch-json uarch --json
for u in zen1 zen5 skylake goldencove neoverse-n1 generic-x86 hip08; do
	exact "uarch-$u" uarch "$u"
done
ENVS=COLUMNS=60
exact uarch-narrow uarch
exact uarch-narrow-zen5 uarch zen5
ENVS=

# ---- calibrate, from recorded experiments ----
# (cal, not n: compare's part names are o and n)
for c in "$T"/calibrate/*.json; do
	cal=$(basename "$c" .json)
	exact "calibrate-$cal" calibrate --from "$c" -o @OUT@
	exact "calibrate-$cal-plots" calibrate --from "$c" -o "$W/in/plots-$cal.json" --plot @OUT@
	made "calibrate-$cal.json" calibrate --from "$c" -o @OUT@
done

# ---- the measuring commands: each build's own words ----
measured sweep sweep --offsets 0..3 --size 256 --time 0.3 --min-rounds 2 --uarch goldencove,zen4 \
	clear_movq_imm clear_rep_stosb
measured sweep-csv sweep --offsets 5 --size 64 --time 0.2 --min-rounds 2 --csv clear_rep_stosb
measured sweep-routine sweep --file "$KV" --func clear_user_original --offsets 0..1 --time 0.2 \
	--min-rounds 2
measured place place --func work --offsets 0..3 --runs 2 -- "$P/moved-pie" 10
measured place-verbose place --func work --offsets 0,5 --runs 2 --verbose -- "$P/moved-pie" 10
measured prove prove --uarch goldencove --runs 2 --top 1 -- "$P/clear" 2000000
AB="--metric metric.([0-9]+) --no-output-check --align-all 64"
measured ab ab --runs 5 $AB -- "$FIX/ab/twin-a" clear-at -- "$FIX/ab/twin-b" clear-at
measured bench bench pread-zero read1 --duration 0.05 --runs 2
measured record record -o @OUT@ -- "$X/hotcold" a b
measured diff-measure diff --no-source --uarch goldencove --measure --measure-time 0.1 "$KV" \
	"$FIX/kernel/kvmlinux-new"

# ---- result files made once, read by both ----
made sweep.json sweep --offsets 0..7 --size 256 --time 0.3 --min-rounds 2 --uarch goldencove,zen4 \
	-o @OUT@ clear_movq_imm clear_rep_stosb
made sweep2.json sweep --offsets 0..7 --size 256 --time 0.3 --min-rounds 2 --uarch goldencove \
	-o @OUT@ clear_movq_imm clear_rep_stosb
made place.json place --func work --offsets 0..7 --runs 3 -o @OUT@ -- "$P/moved-pie" 10
made place-random.json place --file "$P/libmoved.so" --func '*' --offsets random --runs 4 \
	--metric '^([0-9]+) ' -o @OUT@ -- "$P/moved-lib" 10
made ab.json ab --runs 6 $AB -o @OUT@ -- "$FIX/ab/twin-a" clear-at -- "$FIX/ab/twin-b" clear-at
made prove.json prove --uarch goldencove --runs 3 --top 1 -o @OUT@ -- "$P/clear" 2000000
made bench-a.json bench pread-zero read1 gettime --duration 0.05 --runs 3 -o @OUT@
made bench-b.json bench pread-zero read1 gettime --duration 0.05 --runs 3 -o @OUT@
made record.json record --uarch zen1 -o @OUT@ -- "$X/hotcold" a b
made scan.json scan --json --uarch zen4,skylake "$X/branches"
made hot.json scan --json --uarch zen1 --perf-script "$W/in/hotcold.txt" "$X/hotcold"
made diff.json diff --json --uarch zen1 --no-source $D
made diff-dirs.json diff --json --uarch zen1 "$FIX/x86" "$FIX/arm64"
made compare.json compare --format json "$T/compare/base.json" "$T/compare/slow.json"
I=$W/in
CF=$T/compare

exact scan-hot scan --uarch zen1 --hot "$I/record.json" "$X/hotcold"
exact scan-hot-json scan --json --uarch zen1 --hot "$I/record.json" "$X/hotcold"
exact diff-hot diff --uarch zen1 --hot "$I/record.json" "$X/hotcold" "$X/hotcold"
exact diff-hot-md diff --format markdown --uarch zen1 --hot "$I/record.json" "$X/hotcold" "$X/hotcold"
for fmt in text markdown csv json; do
	exact "compare-bench-$fmt" compare --format "$fmt" "$I/bench-a.json" "$I/bench-b.json"
	exact "compare-sweep-$fmt" compare --format "$fmt" "$I/sweep.json" "$I/sweep2.json"
	exact "compare-place-$fmt" compare --format "$fmt" "$I/place.json" "$I/place.json"
	exact "compare-ab-$fmt" compare --format "$fmt" "$I/ab.json" "$I/ab.json"
	exact "compare-fix-$fmt" compare --format "$fmt" "$CF/base.json" "$CF/slow.json" "$CF/slow1.json"
done
exact compare-verbose compare --verbose "$CF/base.json" "$CF/slow.json" "$CF/steady.json"
exact compare-drift compare --drift "$CF/fast" "$CF/base.json" "$CF/slow.json"
exact compare-dirs compare "$CF/fast" "$CF/slow"
exact compare-noise compare --layout-noise "$I/place-random.json" "$CF/base.json" "$CF/slow.json"
for k in scan hot diff diff-dirs record sweep place place-random ab prove bench-a compare; do
	exact "report-$k" report -o @OUT@ "$I/$k.json"
done
exact report-calibrate report -o @OUT@ "$I/calibrate-zen5-quick.json"
exact report-fixtures report -o @OUT@ "$T/report/sweep.json" "$T/report/prove.json" \
	"$CF/base.json" "$CF/slow.json" "$CF/slow1.json"
exact report-all report -o @OUT@ "$I/scan.json" "$I/hot.json" "$I/diff.json" "$I/record.json" \
	"$I/sweep.json" "$I/place.json" "$I/prove.json" "$I/bench-a.json" "$I/bench-b.json" \
	"$I/calibrate-zen5-backend.json" "$I/compare.json"
exact report-bad report -o @OUT@ "$W/in/hotcold.txt"

echo "$cases cases, $differ differ${ALLOW:+ ($allowed differ as intended)}"
[ "$differ" -eq 0 ]
