# straddle diff on fixtures whose layouts are known (tests/fixtures/x86/diff*.S,
# tests/fixtures/diff/). Expected values are worked out in the fixtures'
# comments; zen1: 16 B fetch window, 64 B uop window and line.
X=$FIXTURES/x86
D="$STRADDLE diff --uarch zen1 --no-source"

# seed 000: before -> after, the 10-byte loop becomes 15 and spans 0x401040
run $D --json $X/diff000_before $X/diff000_after
expect_eq "seed000 before->after: exit 1 (new hazard)" "$RC" 1
expect_eq "seed000 before->after: loop matched" "$(jq_of '.loops|length')" 1
expect_eq "seed000 before->after: function" "$(jq_of '.loops[0].function')" "__clear_user"
expect_eq "seed000 before->after: old range" "$(jq_of '.loops[0].old|"\(.start) \(.end) \(.bytes)"')" "0x401034 0x40103e 10"
expect_eq "seed000 before->after: new range" "$(jq_of '.loops[0].new|"\(.start) \(.end) \(.bytes)"')" "0x401034 0x401043 15"
expect_eq "seed000 before->after: 16 B windows old" "$(jq_of '.loops[0].old.windows["16"]|"\(.touched)/\(.best)"')" "1/1"
expect_eq "seed000 before->after: 16 B windows new" "$(jq_of '.loops[0].new.windows["16"]|"\(.touched)/\(.best)"')" "2/1"
expect_eq "seed000 before->after: 64 B windows new" "$(jq_of '.loops[0].new.windows["64"]|"\(.touched)/\(.best)"')" "2/1"
expect_eq "seed000 before->after: added" "$(jq_of '[.loops[0].added[]|"\(.rule)@\(.window) fix \(.fix.align)+\(.fix.pad)"]|join(",")')" \
	"loop-straddles-window@16 fix 16+12,loop-straddles-window@64 fix 16+12"
expect_eq "seed000 before->after: removed" "$(jq_of '.loops[0].removed|length')" 0
expect_eq "seed000 before->after: summary" "$(jq_of '.summary|"\(.new_hazards) \(.fixed_hazards) \(.loops_resized) \(.functions_matched)"')" "2 0 1 1"

run $D $X/diff000_before $X/diff000_after
expect_eq "seed000 text: exit 1" "$RC" 1
expect_eq "seed000 text: one row for the loop, its windows, the source column" \
	"$(printf '%s\n' "$OUT" | grep -m1 '^medium' | tr -s ' ')" \
	"medium __clear_user changed 0x401034 -> 0x401034 - 10 -> 15 16,64 1/1,1/1 -> 2/1,2/1 loop-straddles-window zen1 <=2.00x .p2align 4 (+12 B)"
expect_eq "seed000 text: summary (rows: the 16 and 64 B hazards are one)" "$(printf '%s\n' "$OUT" | tail -n 1)" \
	"1 new hazards (1 changed, 0 moved, 0 new), 0 fixed (0 changed, 0 moved, 0 removed); 1 loops resized, 0 added, 0 removed; 0 functions unchanged of 1 matched (0 renamed), 0 only in old, 0 only in new"

# after -> fixed (.align 16): the hazards are listed as fixed, exit 0
run $D --json $X/diff000_after $X/diff000_fixed
expect_eq "seed000 after->fixed: exit 0" "$RC" 0
expect_eq "seed000 after->fixed: new start" "$(jq_of '.loops[0].new.start')" "0x401040"
expect_eq "seed000 after->fixed: removed" "$(jq_of '[.loops[0].removed[]|"\(.rule)@\(.window)"]|join(",")')" \
	"loop-straddles-window@16,loop-straddles-window@64"
expect_eq "seed000 after->fixed: summary" "$(jq_of '.summary|"\(.new_hazards) \(.fixed_hazards)"')" "0 2"

# --fail-on selects the rules that fail the gate
run $D --fail-on entry-misaligned $X/diff000_before $X/diff000_after
expect_eq "seed000 --fail-on entry-misaligned: exit 0" "$RC" 0
run $D --fail-on loop-straddles-window $X/diff000_before $X/diff000_after
expect_eq "seed000 --fail-on loop-straddles-window: exit 1" "$RC" 1

# seed 003: 30 bytes added before clock_gettime_fast: 0x401040 -> 0x40105e
run $D --json $X/diff003_old $X/diff003_new
expect_eq "seed003: exit 1" "$RC" 1
expect_eq "seed003: function entry" \
	"$(jq_of '.functions[]|select(.name=="clock_gettime_fast")|"\(.old_addr) \(.new_addr) \(.old_entry_align) \(.new_entry_align)"')" \
	"0x401040 0x40105e 64 2"
expect_eq "seed003: entry-misaligned gained, fix .p2align 6 + 34" \
	"$(jq_of '.functions[]|select(.name=="clock_gettime_fast")|.added[]|"\(.rule)@\(.window) \(.fix.align)+\(.fix.pad)"')" \
	"entry-misaligned@64 64+34"
expect_eq "seed003: no loop" "$(jq_of '.loops|length')" 0

# a build against itself
run $D $X/diff000_after $X/diff000_after
expect_eq "same build: exit 0" "$RC" 0
expect_eq "same build: no layout change" "$(printf '%s\n' "$OUT" | tail -n 1)" "no layout change (1 functions)"

# two local functions named helper: the second one's loop moved across a line
run $D --json $FIXTURES/diff/locals_old $FIXTURES/diff/locals_new
expect_eq "locals: exit 1" "$RC" 1
expect_eq "locals: the second helper's loop" "$(jq_of '[.loops[]|"\(.function) \(.old.start) \(.new.start) \(.added|length)"]|join(",")')" \
	"helper 0x401050 0x40107a 2"
expect_eq "locals: both helpers matched, one unchanged" "$(jq_of '.summary|"\(.functions_matched) \(.functions_unchanged)"')" "2 1"

# a loop removed (A, which spanned the line) and one added (C, which does)
run $D --json $X/diff_loops_old $X/diff_loops_new
expect_eq "loops: exit 1" "$RC" 1
expect_eq "loops: removed A" "$(jq_of '[.loops[]|select(.new==null)|"\(.old.start) \(.removed|length)"]|join(",")')" "0x40103a 2"
expect_eq "loops: added C" "$(jq_of '[.loops[]|select(.old==null)|"\(.new.start) \(.new.bytes) \(.added|length)"]|join(",")')" "0x40107c 9 2"
expect_eq "loops: B unchanged, not listed" "$(jq_of '[.loops[]|select(.old!=null and .new!=null)]|length')" 0
expect_eq "loops: summary" "$(jq_of '.summary|"\(.loops_added) \(.loops_removed) \(.new_hazards) \(.fixed_hazards)"')" "1 1 2 2"

# a function renamed, its code the same: matched by shape, listed as renamed
run $D --all $X/diff000_before $X/seed000_before
expect_eq "renamed: exit 0" "$RC" 0
expect_eq "renamed: the pair" "$(printf '%s\n' "$OUT" | grep '^renamed')" \
	"renamed __clear_user -> clear_user_before (by shape)"
expect_eq "renamed: none only on one side" "$(printf '%s\n' "$OUT" | grep -c '^only in')" 0

# bad input
run $D $X/diff000_before $FIXTURES/arm64/seed002
expect_eq "arch mismatch: exit 2" "$RC" 2
expect_eq "arch mismatch: one line" "$ERR" "straddle: $FIXTURES/arm64/seed002: is aarch64 but $X/diff000_before is x86_64: nothing to compare"
run $D $X/diff000_before
expect_eq "one file: exit 2" "$RC" 2
expect_eq "one file: one line" "$(printf '%s\n' "$ERR" | wc -l)" 1
run $D $X/diff000_before /nonexistent/new
expect_eq "missing file: exit 2" "$RC" 2
expect_eq "missing file: one line" "$ERR" "straddle: /nonexistent/new: cannot open: No such file or directory"
run $D --fail-on nope $X/diff000_before $X/diff000_after
expect_eq "bad --fail-on: exit 2" "$RC" 2
run $STRADDLE diff --help
expect_eq "diff --help: exit 0" "$RC" 0

# one row per loop and rule over several profiles, one fix each
run $STRADDLE diff --uarch skylake,zen5,goldencove --no-source $X/diff000_before $X/diff000_after
expect_eq "three profiles: two rows, the JCC rule and the straddle" \
	"$(printf '%s\n' "$OUT" | grep -E '^(high|medium|low)' | tr -s ' ' | tr '\n' ';')" \
	"high __clear_user changed 0x401034 -> 0x401034 - 10 -> 15 32,64 1/1,1/1 -> 2/1,2/1 branch-crosses-window skylake,goldencove <=2.00x .p2align 3 (+4 B);medium __clear_user changed 0x401034 -> 0x401034 - 10 -> 15 16,32,64 1/1,1/1,1/1 -> 2/1,2/1,2/1 loop-straddles-window skylake,zen5,goldencove <=2.00x .p2align 4 (+12 B);"
expect_eq "three profiles: the summary counts rows" "$(printf '%s\n' "$OUT" | tail -n 1 | cut -d, -f1)" \
	"2 new hazards (2 changed"
run $STRADDLE diff --uarch skylake,zen5,goldencove --json $X/diff000_before $X/diff000_after
expect_eq "three profiles: the JSON still has every profile's hazard" "$(jq_of '.loops[0].added|length')" 7

# the source column in text and markdown (a build with DWARF lines)
SF=$FIXTURES/sarif
gcc -O2 -g -falign-loops=8 -DPAD=2 -c -o "$TMP/aligned.o" tests/fixtures/sarif/loop.c
ld -o "$TMP/aligned" -e 0x401000 -Ttext=0x401000 --build-id=none "$TMP/aligned.o"
run $STRADDLE diff --uarch zen1 "$TMP/aligned" $SF/gcc_loop
expect_eq "source column: text" "$(printf '%s\n' "$OUT" | grep '^low' | tr -s ' ')" \
	"low count moved 0x401010 -> 0x40100c loop.c:21 21 -> 21 16 2/2 -> 3/2 loop-straddles-window zen1 <=1.50x .p2align 3 (+4 B); GCC: -falign-loops=8 for the unit (this unit: -falign-loops=1)"
run $STRADDLE diff --uarch zen1 --format markdown "$TMP/aligned" $SF/gcc_loop
expect_eq "source column: markdown" "$(printf '%s\n' "$OUT" | grep '^| low')" \
	"| low | \`count\` | moved | 0x401010 -> 0x40100c | loop.c:21 | 21 -> 21 | 16 | 2/2 -> 3/2 | loop-straddles-window | zen1 | <=1.50x | \`.p2align 3 (+4 B); GCC: -falign-loops=8 for the unit (this unit: -falign-loops=1)\` |"
run $STRADDLE diff --uarch zen1 --no-source "$TMP/aligned" $SF/gcc_loop
expect_eq "source column: --no-source" "$(printf '%s\n' "$OUT" | grep '^low' | tr -s ' ' | cut -d' ' -f7)" "-"

# --func that matches no function in either file: exit 2, as scan
run $STRADDLE diff --uarch zen1 --func nosuch $X/diff000_before $X/diff000_after
expect_eq "diff --func nosuch: exit 2" "$RC" 2
expect_eq "diff --func nosuch: one line" "$ERR" \
	"straddle: --func: 'nosuch' matches no function in $X/diff000_before or $X/diff000_after"
expect_eq "diff --func nosuch: nothing on stdout" "$OUT" ""
run $STRADDLE diff --uarch zen1 --func '__clear*' $X/diff000_before $X/diff000_after
expect_eq "diff --func matching: the gate as before" "$RC" 1
