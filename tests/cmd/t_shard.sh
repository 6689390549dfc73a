# --shard K/N and straddle merge (src/inputs/shard.c, src/results/merge.c):
# shards of a scan and of a diff, in JSON and SARIF, merged equal the run
# unsharded byte for byte (but for the JSON's time); GNU parallel's
# recipes of doc/merge.md over local slots and over ssh; and the shards a
# merge refuses.
X=$FIXTURES/x86
M="--uarch zen1"
V="python3 tests/sarif/validate.py"

untimed() { sed '/^ "time":"/d' "$1"; }

# operands: a tree of every x86 fixture (ELF and not), a package, a file,
# and one that does not exist (an error each shard that takes it reports)
mkdir -p "$TMP/tree" "$TMP/pkg/DEBIAN" "$TMP/pkg/usr/lib"
cp "$X"/* "$TMP/tree/"
cp "$X/pieces" "$X/diff000_after" "$FIXTURES/sarif/gcc_loop" "$TMP/pkg/usr/lib/"
printf 'Package: t\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@example.org>\nDescription: t\n' \
	>"$TMP/pkg/DEBIAN/control"
dpkg-deb --root-owner-group -b "$TMP/pkg" "$TMP/t.deb" >/dev/null
OPS="$TMP/tree $TMP/t.deb $FIXTURES/sarif/moved_a $TMP/missing"

run $STRADDLE scan $M --json $OPS
printf '%s\n' "$OUT" >"$TMP/whole.json"
expect_eq "whole scan: exit 2 (one operand is missing)" "$RC" 2
NFILES=$(jq '.files | length' "$TMP/whole.json")
expect_eq "whole scan: files, the tree's ELF files (x86/*, x86/*.o), 3 of the package, 1" \
	"$NFILES" "$(($(ls "$X" | wc -l) + 3 + 1))"
for k in 0 1 2 3; do
	$STRADDLE scan $M --json --shard $k/4 $OPS >"$TMP/s$k.json" 2>/dev/null
	expect_eq "shard $k/4: its place and units in its head" \
		"$(jq -c '.shard | [.index, .count, .units_total]' "$TMP/s$k.json")" "[$k,4,$(($(ls "$X" | wc -l) + 3))]"
done
expect_eq "every file in one shard only" \
	"$(jq -r '.files[].path' "$TMP"/s?.json | sort | uniq -d | wc -l) $(jq -r '.files[].path' "$TMP"/s?.json | wc -l)" \
	"0 $NFILES"
expect_eq "the shards' units add up to the run's" \
	"$(jq -s 'map(.shard.units) | add' "$TMP"/s?.json)" "$(($(ls "$X" | wc -l) + 3))"
run $STRADDLE merge "$TMP/merged.json" "$TMP/s2.json" "$TMP/s0.json" "$TMP/s3.json" "$TMP/s1.json"
expect_eq "merge of 4 shards, in any order: exit 0, quiet" "$RC|$ERR|$OUT" "0||"
untimed "$TMP/whole.json" >"$TMP/w"
expect_eq "merged = whole, byte for byte but for the time" \
	"$(untimed "$TMP/merged.json" | cmp - "$TMP/w" && echo same)" same
expect_eq "the time is the only line apart" \
	"$(diff "$TMP/merged.json" "$TMP/whole.json" | grep -c '^[<>]') $(diff "$TMP/merged.json" "$TMP/whole.json" | grep '^[<>]' | grep -vc '^[<>]  "time":"')" \
	"$(diff "$TMP/merged.json" "$TMP/whole.json" | grep -c '^[<>]') 0"
expect_eq "merged: the error of the missing operand, once" \
	"$(jq -c '.errors | map([.path, .input])' "$TMP/merged.json")" "[[\"$TMP/missing\",3]]"
# shards of other machines (a farm's hosts): each one's machine kept
sed 's/^\( "machine":{.*\)"model":[0-9]*,/\1"model":1,/' "$TMP/s3.json" >"$TMP/s3m.json"
run $STRADDLE merge - "$TMP/s0.json" "$TMP/s1.json" "$TMP/s2.json" "$TMP/s3m.json"
expect_eq "shards of two machines: shard_machines, each shard's model" \
	"$RC $(jq_of '[.shard_machines[].model] | "\(.[3]) \(.[0] == .[1] and .[1] == .[2])"') $(jq_of '.machine.model == .shard_machines[0].model')" \
	"0 1 true true"
run $STRADDLE merge - "$TMP/s0.json" "$TMP/s1.json" "$TMP/s2.json" "$TMP/s3.json"
expect_eq "merge to standard output: the same bytes" "$(printf '%s\n' "$OUT")" "$(cat "$TMP/merged.json")"
run $STRADDLE scan $M --json --shard 0/1 $OPS
printf '%s\n' "$OUT" >"$TMP/one.json"
run $STRADDLE merge "$TMP/one1.json" "$TMP/one.json"
expect_eq "one shard of one: merged = whole" "$(untimed "$TMP/one1.json" | cmp - "$TMP/w" && echo same)" same

# SARIF: one run, results in the run's order; valid against the schema
run $STRADDLE scan $M --format sarif $OPS
printf '%s\n' "$OUT" >"$TMP/whole.sarif"
for k in 0 1 2; do
	$STRADDLE scan $M --format sarif --shard $k/3 $OPS >"$TMP/s$k.sarif" 2>/dev/null
done
expect_eq "sarif shards: each has its results" \
	"$(for k in 0 1 2; do jq '.runs[0].results | length > 0' "$TMP/s$k.sarif"; done | sort -u)" true
run $STRADDLE merge "$TMP/merged.sarif" "$TMP/s1.sarif" "$TMP/s2.sarif" "$TMP/s0.sarif"
expect_eq "sarif merged = whole, byte for byte" \
	"$RC $(cmp "$TMP/merged.sarif" "$TMP/whole.sarif" && echo same)" "0 same"
run $V "$TMP/merged.sarif"
expect_eq "sarif merged: valid SARIF 2.1.0" "$OUT" "1 valid"
expect_eq "sarif merged: one run, its notification, not successful" \
	"$(jq -c '[(.runs | length), .runs[0].invocations[0].executionSuccessful, [.runs[0].invocations[0].toolExecutionNotifications[].properties.file]]' "$TMP/merged.sarif")" \
	"[1,false,[\"$TMP/missing\"]]"

# diff of two trees: pairs, their lists, summary and gate merged
mkdir -p "$TMP/old" "$TMP/new"
cp "$X"/* "$TMP/old/"
cp "$X"/* "$TMP/new/"
cp "$X/diff000_before" "$TMP/old/diff000_after"
cp "$X/diff_moved_old" "$TMP/new/diff_moved_new"
rm "$TMP/new/pieces" "$TMP/old/loops"
run $STRADDLE diff $M --json "$TMP/old" "$TMP/new"
printf '%s\n' "$OUT" >"$TMP/dwhole.json"
expect_eq "diff whole: exit 1, two pairs changed, one file on each side only" \
	"$RC $(jq -c '[[.pairs[] | select(.summary.new_hazards + .summary.fixed_hazards > 0) | .member], .only_old, .only_new, .gate.fails]' "$TMP/dwhole.json")" \
	'1 [["diff000_after","diff_moved_new"],["pieces"],["loops"],true]'
for k in 0 1 2 3; do
	$STRADDLE diff $M --json --shard $k/4 "$TMP/old" "$TMP/new" >"$TMP/d$k.json"
done
run $STRADDLE merge "$TMP/dmerged.json" "$TMP/d3.json" "$TMP/d1.json" "$TMP/d0.json" "$TMP/d2.json"
untimed "$TMP/dwhole.json" >"$TMP/dw"
expect_eq "diff merged = whole, byte for byte but for the time" \
	"$RC $(untimed "$TMP/dmerged.json" | cmp - "$TMP/dw" && echo same)" "0 same"
# the page of the merged diff: the run's gate, then each file that changed
run $STRADDLE report -o "$TMP/d.html" "$TMP/dmerged.json"
expect_eq "report of the merged diff: the files that changed, by their path inside" \
	"$RC $(grep -o '<h3 class="path">[^<]*</h3>' "$TMP/d.html" | sed 's/<[^>]*>//g' | tr '\n' ' ')" \
	"0 diff000_after diff_moved_new "
expect_eq "report of the merged diff: the gate and the file on one side" \
	"$(grep -c 'The gate fails (exit status 1): 1 new hazard row of a selected rule' "$TMP/d.html") $(grep -A1 'Only in the old build (1 files)' "$TMP/d.html" | grep -c '>pieces<')" \
	"1 1"
run $STRADDLE diff $M --format sarif "$TMP/old" "$TMP/new"
printf '%s\n' "$OUT" >"$TMP/dwhole.sarif"
for k in 0 1; do
	$STRADDLE diff $M --format sarif --shard $k/2 "$TMP/old" "$TMP/new" >"$TMP/d$k.sarif"
done
run $STRADDLE merge "$TMP/dmerged.sarif" "$TMP/d0.sarif" "$TMP/d1.sarif"
expect_eq "diff sarif merged = whole" "$RC $(cmp "$TMP/dmerged.sarif" "$TMP/dwhole.sarif" && echo same)" \
	"0 same"

# pairs that fail, on either side: their errors in the pairs' order (by the
# path inside, not by the side's path: a_old/ sorts before b_new/)
mkdir -p "$TMP/a_old" "$TMP/b_new"
for i in 1 2 3 4 5 6; do
	cp "$X/pieces" "$TMP/a_old/x$i"
	cp "$X/pieces" "$TMP/b_new/x$i"
done
for i in 1 3 5; do cp "$FIXTURES/malformed/shoff-eof" "$TMP/b_new/x$i"; done
for i in 2 4 6; do cp "$FIXTURES/malformed/shoff-eof" "$TMP/a_old/x$i"; done
for f in json sarif; do
	$STRADDLE diff $M --format $f "$TMP/a_old" "$TMP/b_new" >"$TMP/ewhole.$f" 2>/dev/null
	for k in 0 1; do
		$STRADDLE diff $M --format $f --shard $k/2 "$TMP/a_old" "$TMP/b_new" >"$TMP/e$k.$f" 2>/dev/null
	done
	run $STRADDLE merge "$TMP/emerged.$f" "$TMP/e1.$f" "$TMP/e0.$f"
	untimed "$TMP/ewhole.$f" >"$TMP/ew"
	expect_eq "diff $f with errors on both sides: merged = whole" \
		"$RC $(untimed "$TMP/emerged.$f" | cmp - "$TMP/ew" && echo same)" "0 same"
done
expect_eq "the errors: one a pair, in the pairs' order, each shard some" \
	"$(jq -c '[.errors[] | .member]' "$TMP/emerged.json") $(jq '.errors | length > 0' "$TMP/e0.json") $(jq '.errors | length > 0' "$TMP/e1.json")" \
	'["x1","x2","x3","x4","x5","x6"] true true'

# doc/merge.md's recipes: GNU parallel over 2 local slots, and over two
# ssh hosts (the transport stood in for by a script that runs the
# command here, as ssh would there; what parallel sends is unchanged)
export HOME="$TMP"      # parallel keeps its state in ~/.parallel
# parallel writes the command a remote login shell runs in the language
# of $SHELL; without one (a CI container) it sends an empty command
export SHELL=/bin/sh
mkdir -p "$TMP/par"
run parallel -j2 --halt now,fail=1 --results "$TMP/par/shard-{}" \
	$STRADDLE scan $M --json --shard {}/4 "$TMP/tree" "$TMP/t.deb" ::: 0 1 2 3
expect_eq "parallel -j2: exit 0" "$RC" 0
$STRADDLE scan $M --json "$TMP/tree" "$TMP/t.deb" | untimed /dev/stdin >"$TMP/pw"
run $STRADDLE merge "$TMP/par.json" "$TMP/par/shard-0" "$TMP/par/shard-1" "$TMP/par/shard-2" "$TMP/par/shard-3"
expect_eq "parallel -j2: merged = the run unsharded" \
	"$RC $(untimed "$TMP/par.json" | cmp - "$TMP/pw" && echo same)" "0 same"
cat >"$TMP/ssh" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do case \$1 in -*) shift ;; *) break ;; esac; done
echo "\$1" >>"$TMP/hosts"
shift
[ "\$1" = "--" ] && shift
exec sh -c "\$*"
EOF
chmod +x "$TMP/ssh"
mkdir -p "$TMP/remote"
run parallel --ssh "$TMP/ssh" -S 2/build1,2/build2 --halt now,fail=1 --results "$TMP/remote/shard-{}" \
	$STRADDLE scan $M --json --shard {}/4 "$TMP/tree" "$TMP/t.deb" ::: 0 1 2 3
expect_eq "parallel --sshlogin: exit 0, both hosts ran shards" \
	"$RC $(sort -u "$TMP/hosts" | tr '\n' ' ')" "0 build1 build2 "
run $STRADDLE merge "$TMP/remote.json" "$TMP/remote/shard-0" "$TMP/remote/shard-1" \
	"$TMP/remote/shard-2" "$TMP/remote/shard-3"
expect_eq "parallel --sshlogin: merged = the run unsharded" \
	"$RC $(untimed "$TMP/remote.json" | cmp - "$TMP/pw" && echo same)" "0 same"

# refused: one line naming the file, exit 2, OUT not written (an OUT
# already there left as it was)
echo before >"$TMP/out.json"
refused() {
	run $STRADDLE merge "$TMP/out.json" "$@"
	expect_eq "$DESC: exit 2, one line, OUT as it was" "$RC|$ERR|$(cat "$TMP/out.json")" \
		"2|straddle: $WHY|before"
}
head -n 40 "$TMP/s1.json" >"$TMP/cut1.json"
DESC="a shard cut at a line" WHY="$TMP/cut1.json: truncated: it ends inside an element (a shard cut short)"
refused "$TMP/s0.json" "$TMP/cut1.json" "$TMP/s2.json" "$TMP/s3.json"
head -c 10000 "$TMP/s1.json" >"$TMP/cut2.json"
DESC="a shard cut mid-line" WHY="$TMP/cut2.json: truncated: it ends inside an element (a shard cut short)"
refused "$TMP/s0.json" "$TMP/cut2.json" "$TMP/s2.json" "$TMP/s3.json"
sed '$d' "$TMP/s1.json" >"$TMP/cut3.json"
DESC="a shard without its last line" WHY="$TMP/cut3.json: truncated: it ends before the document does (a shard cut short)"
refused "$TMP/s0.json" "$TMP/cut3.json" "$TMP/s2.json" "$TMP/s3.json"
sed 's/^ "tool_version":"[^"]*"/ "tool_version":"0.0.1"/' "$TMP/s1.json" >"$TMP/old1.json"
DESC="another straddle version" WHY="$TMP/old1.json: written by straddle 0.0.1, but $TMP/s0.json by straddle $($STRADDLE --version | awk 'NR == 1 { print $2 }')"
refused "$TMP/s0.json" "$TMP/old1.json" "$TMP/s2.json" "$TMP/s3.json"
$STRADDLE scan --uarch zen2 --json --shard 1/4 $OPS >"$TMP/zen2.json" 2>/dev/null
DESC="other profiles" WHY="$TMP/zen2.json: its profiles are [\"zen2\"], but those of $TMP/s0.json [\"zen1\"]"
refused "$TMP/s0.json" "$TMP/zen2.json" "$TMP/s2.json" "$TMP/s3.json"
$STRADDLE scan $M --json --shard 1/4 "$TMP/tree" >"$TMP/other.json"
DESC="another run's shard" WHY="$TMP/other.json: its command line is not that of $TMP/s0.json (but for --shard)"
refused "$TMP/s0.json" "$TMP/other.json" "$TMP/s2.json" "$TMP/s3.json"
DESC="a shard missing" WHY="shard 2/4 is missing"
refused "$TMP/s0.json" "$TMP/s1.json" "$TMP/s3.json"
DESC="a shard twice" WHY="$TMP/s1.json and $TMP/s1.json are both shard 1/4"
refused "$TMP/s0.json" "$TMP/s1.json" "$TMP/s1.json" "$TMP/s3.json"
DESC="a run unsharded" WHY="$TMP/whole.json: not a shard (its run had no --shard K/N)"
refused "$TMP/s0.json" "$TMP/whole.json"
DESC="JSON and SARIF" WHY="$TMP/s1.sarif: SARIF, but $TMP/s0.json is JSON"
refused "$TMP/s0.json" "$TMP/s1.sarif"
DESC="a scan's shard and a diff's" WHY="$TMP/d1.json: a diff document, but $TMP/s0.json is a scan one"
refused "$TMP/s0.json" "$TMP/d1.json" "$TMP/s2.json" "$TMP/s3.json"
head -c 3000 "$TMP/s1.sarif" >"$TMP/cut.sarif"
DESC="a SARIF shard cut short" WHY="$TMP/cut.sarif: not JSON (line 1: premature end of input near '$(tail -c 1 "$TMP/cut.sarif")'): a shard cut short?"
run $STRADDLE merge "$TMP/out.json" "$TMP/s0.sarif" "$TMP/cut.sarif" "$TMP/s2.sarif"
expect_eq "$DESC: exit 2, OUT as it was" "$RC|$(cat "$TMP/out.json")" "2|before"
expect_eq "$DESC: one line naming it" "$(printf '%s\n' "$ERR" | wc -l) $(printf '%s\n' "$ERR" | cut -d: -f2,3)" \
	"1  $TMP/cut.sarif: not JSON (line 1"
printf 'not JSON\n' >"$TMP/text"
DESC="a file that is no document" WHY="$TMP/text: not a straddle document"
refused "$TMP/text"
