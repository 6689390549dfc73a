# straddle diff judges every function: new and removed ones,
# ones renamed by the compiler or stripped of their names, and why each
# hazard is new. Expected values are worked out in the fixtures' comments;
# zen1: 16 B fetch window, 64 B uop window and line; skylake: 32 B JCC rule.
X=$FIXTURES/x86
D="$STRADDLE diff --uarch zen1 --no-source"

# a new function with a straddling loop, a removed one, a renamed local,
# padding symbols
run $D --json $X/diff_every_old $X/diff_every_new
expect_eq "every: exit 1 (the new function's hazards)" "$RC" 1
expect_eq "every: fresh's loop, new" \
	"$(jq_of '[.loops[]|select(.cause=="new")|"\(.function) \(.new.start) \(.new.bytes) \([.added[]|"\(.rule)@\(.window)"]|join("+"))"]|join(",")')" \
	"fresh 0x4010ba 11 loop-straddles-window@16+loop-straddles-window@64"
expect_eq "every: gone's loop, removed with its hazards" \
	"$(jq_of '[.loops[]|select(.cause=="removed")|"\(.function) \(.old.start) \(.new) \(.removed|length)"]|join(",")')" \
	"gone 0x40107a null 2"
expect_eq "every: the functions new and removed" \
	"$(jq_of '[.functions[]|"\(.name) \(.cause) \(.old_addr) \(.new_addr)"]|join(",")')" \
	"gone removed 0x401040 null,fresh new null 0x401080"
expect_eq "every: foo.constprop.0 -> foo.constprop.1 matched by base name" \
	"$(jq_of '[.renamed[]|"\(.old) \(.new) \(.by)"]|join(",")')" \
	"foo.constprop.0 foo.constprop.1 base-name"
expect_eq "every: summary" \
	"$(jq_of '.summary|"\(.new_hazards) \(.fixed_hazards) \(.functions_matched) \(.functions_unchanged) \(.functions_renamed) \(.functions_only_old) \(.functions_only_new)"')" \
	"2 2 2 2 1 1 1"
expect_eq "every: by cause" "$(jq_of '.summary|"\(.new_by_cause.new) \(.new_by_cause.changed) \(.new_by_cause.moved) \(.fixed_by_cause.removed)"')" "2 0 0 2"
expect_eq "every: matched by" "$(jq_of '.summary.matched_by|"\(.name) \(."base-name") \(.shape) \(."nearest-shape") \(.order)"')" "1 1 0 0 0"

run $D --all $X/diff_every_old $X/diff_every_new
# fresh's 11-byte loop at 0x4010ba: .p2align 3 -> 0x4010c0 (+6) fits here,
# but 11 B from 8 mod 16 cross a 16 B window: .p2align 4 holds in any build.
expect_eq "every text: the new function's rows, worst first" \
	"$(printf '%s\n' "$OUT" | grep '^[a-z]* *fresh' | tr -s ' ' | tr '\n' ';')" \
	"medium fresh new - -> 0x4010ba - - -> 11 16,64 - -> 2/1,2/1 loop-straddles-window zen1 <=2.00x .p2align 4 (+6 B); .p2align 3 (+6 B) holds only here;"
expect_eq "every text: renamed" "$(printf '%s\n' "$OUT" | grep '^renamed')" \
	"renamed foo.constprop.0 -> foo.constprop.1 (by base-name)"
expect_eq "every text: one side only, no padding symbol" \
	"$(printf '%s\n' "$OUT" | grep '^only in' | tr '\n' ';')" "only in old: gone;only in new: fresh;"
expect_eq "every text: summary" "$(printf '%s\n' "$OUT" | tail -n 1)" \
	"1 new hazards (0 changed, 0 moved, 1 new), 1 fixed (0 changed, 0 moved, 1 removed); 0 loops resized, 1 added, 1 removed; 2 functions unchanged of 2 matched (1 renamed), 1 only in old, 1 only in new"

# --cause: what gates
run $D --cause changed,moved $X/diff_every_old $X/diff_every_new
expect_eq "every --cause changed,moved: exit 0" "$RC" 0
run $D --cause new $X/diff_every_old $X/diff_every_new
expect_eq "every --cause new: exit 1" "$RC" 1
run $D --cause removed $X/diff_every_old $X/diff_every_new
expect_eq "--cause removed: exit 2 (gains no hazard)" "$RC" 2
expect_eq "--cause removed: one line" "$ERR" "straddle: --cause: unknown cause 'removed'"

# code inserted before an unchanged loop: the loop moved
run $D --json $X/diff_moved_old $X/diff_moved_new
expect_eq "moved: exit 1" "$RC" 1
expect_eq "moved: the loop" \
	"$(jq_of '[.loops[]|"\(.cause) \(.old.start) \(.new.start) \(.new.bytes) \([.added[]|"\(.rule)@\(.window)"]|join("+"))"]|join(",")')" \
	"moved 0x401020 0x401026 11 loop-straddles-window@16"
expect_eq "moved: by cause" "$(jq_of '.summary.new_by_cause|"\(.changed) \(.moved) \(.new)"')" "0 1 0"
run $D --cause changed,new $X/diff_moved_old $X/diff_moved_new
expect_eq "moved --cause changed,new: exit 0" "$RC" 0

# seed 000, the loop that grew in place: changed
run $D --json $X/diff000_before $X/diff000_after
expect_eq "seed000 grew: exit 1" "$RC" 1
expect_eq "seed000 grew: cause changed" "$(jq_of '[.loops[]|.cause]|join(",")')" "changed"
run $D --cause moved,new $X/diff000_before $X/diff000_after
expect_eq "seed000 grew --cause moved,new: exit 0" "$RC" 0

# seed 000, the loop replaced by a new function: new
run $STRADDLE diff --uarch zen1,skylake --no-source --json $X/diff000_before $X/diff000_stos
expect_eq "seed000 replaced: exit 1" "$RC" 1
expect_eq "seed000 replaced: __clear_user's loop removed" \
	"$(jq_of '[.loops[]|select(.function=="__clear_user")|"\(.cause) \(.old.start)"]|join(",")')" "removed 0x401034"
expect_eq "seed000 replaced: rep_stos_alternative's hazards, new" \
	"$(jq_of '[.loops[]|select(.function=="rep_stos_alternative")|.cause as $c|.new.start as $s|.added[]|"\($c) \($s) \(.rule)@\(.window) \(.profile)"]|join(",")')" \
	"new 0x401036 branch-ends-window@32 skylake,new 0x401060 loop-straddles-window@64 zen1,new 0x401060 loop-straddles-window@64 skylake"
run $STRADDLE diff --uarch zen1,skylake --no-source --func rep_stos_alternative $X/diff000_before $X/diff000_stos
expect_eq "seed000 replaced --func rep_stos_alternative: exit 1" "$RC" 1
expect_eq "seed000 replaced --func: summary" "$(printf '%s\n' "$OUT" | tail -n 1)" \
	"2 new hazards (0 changed, 0 moved, 2 new), 0 fixed (0 changed, 0 moved, 0 removed); 0 loops resized, 3 added, 0 removed; 0 functions unchanged of 0 matched (0 renamed), 0 only in old, 1 only in new"

# stripped: the locals are fde@ names, reordered: matched by shape
S=$FIXTURES/so
run $D --json $S/stripped.so $S/reordered-stripped.so
expect_eq "fde reordered: exit 0" "$RC" 0
expect_eq "fde reordered: matched by shape" "$(jq_of '[.renamed[]|"\(.old) \(.new) \(.by)"]|join(",")')" \
	"fde@0x2040 fde@0x2080 shape,fde@0x20c0 fde@0x2040 shape"
expect_eq "fde reordered: none on one side" "$(jq_of '.summary|"\(.functions_matched) \(.functions_only_old) \(.functions_only_new)"')" "3 0 0"
expect_eq "fde reordered: local_clear moved, its loop's hazards kept" \
	"$(jq_of '[.functions[]|"\(.name) \(.cause) \(.old_addr) \(.new_addr)"]|join(",")'),$(jq_of '.loops|length')" \
	"fde@0x2080 moved 0x2040 0x2080,0"

# cold code: ranked last, left out by --section hot
run $D $X/diff_cold_old $X/diff_cold_new
expect_eq "cold: exit 1" "$RC" 1
expect_eq "cold: hot first, then cold by severity" \
	"$(printf '%s\n' "$OUT" | grep -E '^(low|medium) ' | awk '{print $1 "/" $2}' | tr '\n' ' ')" \
	"low/walk medium/walk.cold medium/setup_walk "
run $D --section hot $X/diff_cold_old $X/diff_cold_new
expect_eq "cold --section hot: exit 1 (walk)" "$RC" 1
expect_eq "cold --section hot: summary" "$(printf '%s\n' "$OUT" | tail -n 1)" \
	"1 new hazards (0 changed, 1 moved, 0 new), 0 fixed (0 changed, 0 moved, 0 removed); 0 loops resized, 0 added, 0 removed; 0 functions unchanged of 3 matched (0 renamed), 0 only in old, 0 only in new; 2 cold left out"
run $D --section cold $X/diff_cold_old $X/diff_cold_new
expect_eq "--section cold: exit 2" "$RC" 2

# markdown for a review comment
run $D --format markdown --limit 1 $X/diff_every_old $X/diff_every_new
expect_eq "markdown: exit 1" "$RC" 1
expect_eq "markdown: verdict" "$(printf '%s\n' "$OUT" | sed -n 3p)" \
	"**The gate fails**: a new hazard of a selected rule and cause."
expect_eq "markdown: the worst new row" "$(printf '%s\n' "$OUT" | grep -A4 '^\*\*New' | tail -n 1)" \
	"| medium | \`fresh\` | new | - -> 0x4010ba | - | - -> 11 | 16,64 | - -> 2/1,2/1 | loop-straddles-window | zen1 | <=2.00x | \`.p2align 4 (+6 B); .p2align 3 (+6 B) holds only here\` |"
expect_eq "markdown: rows cut at --limit" "$(printf '%s\n' "$OUT" | grep -c '^| \(low\|medium\|high\) ')" 2
run $D --format yaml $X/diff_every_old $X/diff_every_new
expect_eq "--format yaml: exit 2" "$RC" 2

# a cold part and its parent share a base name: the parent is the rename
run $D --all --json $X/diff_coldpart_old $X/diff_coldpart_new
expect_eq "cold part: exit 0" "$RC" 0
expect_eq "cold part: bar -> bar.constprop.0" "$(jq_of '[.renamed[]|"\(.old) \(.new) \(.by)"]|join(",")')" \
	"bar bar.constprop.0 base-name"
expect_eq "cold part: bar.cold removed, bar changed (entry alignment 64 -> 4096)" "$(jq_of '[.functions[]|"\(.name) \(.cause)"]|join(",")')" "bar.cold removed,bar.constprop.0 changed"
