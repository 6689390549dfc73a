#!/bin/sh
# Seeds for fuzz_results and fuzz_dwarf (fuzz/fuzz.mk):
#   fuzz/make_seeds_extra.sh FUZZDIR STRADDLE
# FUZZDIR/seeds-results: result files of each of the seven kinds (a short
# sweep, bench fault-write, a scan's and a diff's JSON, a record, a
# calibrate profile, a compare, an ab), a perf script, and broken copies (cut, a
# number made a string, schema 2). FUZZDIR/seeds-dwarf: small programs built with -g as
# gcc's DWARF 5, DWARF 4 and clang's, each also stripped of .text (what a
# separate debug file is: sections NOBITS, only the DWARF and symbols).
set -eu
dir=$1
straddle=$2
r="$dir/seeds-results"
d="$dir/seeds-dwarf"
rm -rf "$r" "$d"
mkdir -p "$r" "$d"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$straddle" sweep --offsets 0..1 --time 0.1 --min-rounds 2 -o "$r/sweep.json" clear_movq_imm >/dev/null
"$straddle" bench fault-write --dir "$work" -o "$r/bench.json" >/dev/null || true
"$straddle" scan --json --no-source /bin/true >"$r/scan.json"
# the other kinds a page shows (a corpus of all seven)
"$straddle" diff --json /bin/true /bin/false >"$r/diff.json" || true
"$straddle" record -o "$r/record.json" -- /bin/true 2>/dev/null || true
cp tests/fixtures/calibrate/zen5-quick.json "$r/calibrate.json"
cp tests/fixtures/report/prove.json "$r/prove.json"
[ -f "$r/sweep.json" ] && "$straddle" compare --format json "$r/sweep.json" "$r/sweep.json" >"$r/compare.json" || true
"$straddle" ab --runs 2 --no-layout -o "$r/ab.json" -- /bin/true -- /bin/true >/dev/null || true
cp tests/fixtures/record/hotcold.perf-script "$r/hotcold.perf-script"
for f in sweep bench record calibrate diff prove ab; do
	[ -f "$r/$f.json" ] || continue
	head -c 700 "$r/$f.json" >"$r/$f-cut.json"
	sed 's/"schema": *1/"schema": 2/' "$r/$f.json" >"$r/$f-schema2.json"
	sed '0,/\(-\{0,1\}[0-9][0-9]*\.[0-9][0-9]*\)/s//"\1"/' "$r/$f.json" >"$r/$f-string.json"
done

cat >"$work/p.c" <<'C'
static int table[64];
int loop(int n) { int s = 0; for (int i = 0; i < n; i++) s += table[i & 63] * i; return s; }
int main(int argc, char **argv) { (void)argv; return loop(argc * 1000); }
C
gcc -g -O2 -o "$d/gcc-dwarf5" "$work/p.c"
gcc -gdwarf-4 -O1 -o "$d/gcc-dwarf4" "$work/p.c"
clang -g -O2 -o "$d/clang" "$work/p.c" 2>/dev/null || true
for f in "$d"/*; do
	objcopy --only-keep-debug "$f" "$f.debug"
done
ls "$r" "$d" | wc -l
