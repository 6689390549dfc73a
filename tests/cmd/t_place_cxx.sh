# straddle place on C++: an exception thrown through moved frames (the
# thrower, a frame whose destructor runs, a catch that rethrows, the
# catcher; tests/place/throw.cc) at every offset of a line, libstdc++
# moved whole under it, gdb's backtrace through a copy, C++ names as
# people read them, and a function whose unwind data a copy cannot be
# given refused.
P=$FIXTURES/place
STDCXX=/usr/lib/x86_64-linux-gnu/libstdc++.so.6
WANT=$("$P/throw" 1000)

expect_eq "throw.cc as built: every exception caught, every destructor run, backtrace() walked" \
	"$WANT" "2155091 927500 walked"

# every function of the fixture named hot_* (demangled: hot_leaf(long), and
# GCC's cold parts: hot_leaf(long) [clone .cold]) at every offset
NHOT=$(nm -C "$P/throw" | grep -c ' [Tt] hot_')
rm -f "$TMP/log"
FIXTURE_LOG=$TMP/log run "$STRADDLE" place --func 'hot_*' --offsets 0..63 --runs 2 -o "$TMP/throw.json" \
	-- "$P/throw" 1000
expect_eq "place throw.cc: exit 0" "$RC" 0
OUT=$(cat "$TMP/throw.json")
expect_eq "place throw.cc: every hot_ function moved, none refused" \
	"$(jq_of '"\(.moved.functions) \(.moved.refused)"')" "$NHOT {}"
# 2 first unmoved runs + 2 rounds of (unmoved + control + 64 offsets):
# several functions, so no arm is the control's own offset
expect_eq "place throw.cc: output and status identical in every run" \
	"$(jq_of '"\(.output_check.runs) \(.output_check.identical)"')" "133 133"
expect_eq "place throw.cc: runs whose thrower ran the original" "$(grep -c '^in place$' "$TMP/log")" 4
expect_eq "place throw.cc: runs whose thrower ran a copy" "$(grep -c '^moved$' "$TMP/log")" 130
expect_eq "place throw.cc: every offset once" \
	"$(jq_of '[.metrics[] | select(.arm != "unmoved" and .arm != "control") | .arm] | unique | length')" 64

# libstdc++ whole, at random offsets, under the throwing program: the
# exceptions' own machinery (__cxa_throw, the personality routine) moved
run "$STRADDLE" place --file "$STDCXX" --func '*' --offsets random --runs 2 -o "$TMP/stdcxx.json" \
	-- "$P/throw" 1000
expect_eq "place libstdc++ whole: exit 0" "$RC" 0
OUT=$(cat "$TMP/stdcxx.json")
expect_eq "place libstdc++ whole: identical in every run" \
	"$(jq_of '"\(.output_check.runs) \(.output_check.runs == .output_check.identical)"')" "7 true"
expect_eq "place libstdc++ whole: its functions moved, none refused for its unwind data" \
	"$(jq_of '.moved.functions > 4000 and .moved.refused["unwind data a copy cannot be given"] == null')" true

# gdb names a moved frame (the preload library gives it the copies through
# gdb's JIT interface): the same frames as the unmoved program, at the
# copies' addresses
"$TOOLS/place_plan" "$P/throw" 'hot_*' 17 "$TMP/throw.plan" >/dev/null
# gdb's bt at the first throw in $TMP/bt; the program's perf map removed
# (tests leave nothing in /tmp)
gdb_run() {
	gdb -nx -batch "$@" -ex 'break __cxa_throw' -ex run -ex bt -ex 'info inferiors' \
		--args "$P/throw" 10 >"$TMP/bt" 2>/dev/null
	rm -f "/tmp/perf-$(sed -n 's/.* process \([0-9]*\) .*/\1/p' "$TMP/bt").map"
}
# frame, address, name up to its parameters or the debug info's arguments
gdb_bt() {
	gdb_run "$@"
	grep '^#[1-4] ' "$TMP/bt" | sed 's/^#\([0-9]\)  *\(0x[0-9a-f]*\) in \([^ (]*\).*/\1 \2 \3/'
}
BT0=$(gdb_bt)
BT1=$(gdb_bt -ex "set environment LD_PRELOAD=$(dirname "$PLAIN")/libstraddle-place.so" \
	-ex "set environment STRADDLE_PLAN=$TMP/throw.plan")
grep -c '^#[2-4] .* in hot_[a-z]*(long) ()$' "$TMP/bt" >"$TMP/named"
expect_eq "gdb bt, unmoved: the thrower's callers" "$(printf '%s\n' "$BT0" | cut -d' ' -f3 | tr '\n' ' ')" \
	"hot_leaf hot_middle hot_rethrow hot_catcher "
expect_eq "gdb bt, moved: the same frames named" "$(printf '%s\n' "$BT1" | cut -d' ' -f3 | tr '\n' ' ')" \
	"hot_leaf hot_middle hot_rethrow hot_catcher "
expect_eq "gdb bt, moved: each frame at another address (the copy's)" \
	"$(printf '%s\n%s\n' "$BT0" "$BT1" | awk '{ a[$1] = a[$1] " " $2 } END { n = 0; for (k in a) { split(a[k], v, " "); n += v[1] != v[2] } print n }')" 4
# named by the copies' symbols (demangled by gdb), not the file's debug info
expect_eq "gdb bt, moved: the names are the copies' own" "$(cat "$TMP/named")" 3

# C++ names as people read them: scan prints them demangled, its JSON has
# the symbol beside; --func matches either and the name without its
# parameters, a GCC clone not the function itself
run "$PLAIN" scan --all --json --func 'hot_middle' "$P/throw"
expect_eq "scan --func hot_middle: the function, demangled, and its symbol" \
	"$(jq_of '[.files[0].functions[] | "\(.name)=\(.symbol)"] | join(" ")')" "hot_middle(long)=_Z10hot_middlel"
run "$PLAIN" scan --all --json --func '_Z10hot_middlel' "$P/throw"
expect_eq "scan --func by its symbol" "$(jq_of '[.files[0].functions[].name] | join(" ")')" "hot_middle(long)"
run "$PLAIN" scan --all --json --func 'hot_middle*' "$P/throw"
expect_eq "scan --func hot_middle*: the function and its cold part" \
	"$(jq_of '[.files[0].functions[].name] | sort | join(",")')" "hot_middle(long),hot_middle(long) [clone .cold]"
run "$PLAIN" scan --all --func 'hot_catcher' "$P/throw"
expect_eq "scan's text: demangled" "$(printf '%s\n' "$OUT" | grep -c 'hot_catcher(long)')" 1

# two functions under one FDE (hand-written assembly): a copy of either
# would take half of its unwind data, so neither moves
run "$STRADDLE" place --func part_a --offsets 0 -- "$P/unwind-shared"
expect_eq "place part_a (one FDE with part_b): refused, exit 2" "$RC $ERR" \
	"2 straddle: part_a: cannot be moved: unwind data a copy cannot be given (at $(printf '%#x' 0x$(nm "$P/unwind-shared" | awk '$3 == "part_a" {print $1}')))"
