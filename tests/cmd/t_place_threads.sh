# straddle place's late patch under threads: libmoved.so loaded where the
# preload library does not see it (dlmopen), four threads calling its
# `work`, then any dlopen makes the preload library move `work` while they
# run (tests/place/moved_threads.c), as Linux's text_poke_bp writes code:
# an int3 first, the rest, then the first byte, every thread serialized in
# between. A thousand times: every call right, every run moved live, the
# copy running after. Then a function whose entry bytes hold a branch
# target: refused loud when threads run, moved when none does.
P=$FIXTURES/place
PRELOAD=$(dirname "$PLAIN")/libstraddle-place.so

expect_eq "moved_threads, unmoved: every call right" "$("$P/moved-threads" "$P/libmoved.so")" right

"$TOOLS/place_plan" "$P/libmoved.so" work 7 "$TMP/work.plan" >/dev/null
: >"$TMP/report"
: >"$TMP/outs"
: >"$TMP/log"
i=0
while [ $i -lt 1000 ]; do
	FIXTURE_LOG=$TMP/log STRADDLE_PLACE_FD=3 LD_PRELOAD=$PRELOAD STRADDLE_PLAN=$TMP/work.plan \
		"$P/moved-threads" "$P/libmoved.so" 3>>"$TMP/report" >>"$TMP/outs" 2>&1
	echo "rc $?" >>"$TMP/outs"
	i=$((i + 1))
done
# the maps the runs made, named in their reports, removed: nothing is left in /tmp
for pid in $(awk '$1 == "applied" && $7 == 1 { print $6 }' "$TMP/report"); do
	rm -f "/tmp/perf-$pid.map"
done
expect_eq "late patch x1000: every run exit 0, every call right" \
	"$(sort "$TMP/outs" | uniq -c | sed 's/^ *//' | tr '\n' ' ')" "1000 rc 0 1000 right "
expect_eq "late patch x1000: each run moved work while other threads ran" \
	"$(awk '$1 == "applied" && $8 == 1' "$TMP/report" | wc -l)" 1000
expect_eq "late patch x1000: the last call of each ran the copy" "$(grep -c '^moved$' "$TMP/log")" 1000

# through place: each arm's runs the same
run "$STRADDLE" place --file "$P/libmoved.so" --func work --offsets 0..3 --runs 3 -o "$TMP/threads.json" \
	-- "$P/moved-threads" "$P/libmoved.so"
expect_eq "place, late patch under threads: exit 0" "$RC" 0
expect_eq "place, late patch under threads: identical in every run" \
	"$(jq -r '"\(.output_check.runs) \(.output_check.identical) \(.metrics | length) \(.place.rounds)"' "$TMP/threads.json")" \
	"16 16 5 3"

# work's loop starts 2 bytes into it, inside its entry jump's 5 bytes
"$TOOLS/place_plan" "$P/libinner.so" work 0 "$TMP/inner.plan" >/dev/null
LD_PRELOAD=$PRELOAD STRADDLE_PLAN=$TMP/inner.plan "$P/moved-threads" "$P/libinner.so" >"$TMP/out" 2>"$TMP/err"
expect_eq "late patch, a branch into the entry's bytes, threads running: exit 125, said" \
	"$? $(cat "$TMP/err")" \
	"125 straddle-place: $P/libinner.so: the function at $(printf '%#x' 0x$(nm "$P/libinner.so" | awk '$3 == "work" {print $1}')) has a branch into the bytes its entry jump takes: it cannot be moved while other threads run"
sh -c 'echo $$ >"$0"; exec env LD_PRELOAD="$1" STRADDLE_PLAN="$2" "$3" 100 "$4"' "$TMP/pid" "$PRELOAD" \
	"$TMP/inner.plan" "$P/moved-dl" "$P/libinner.so" >"$TMP/out" 2>&1
expect_eq "late patch, a branch into the entry's bytes, one thread: moved, right" "$? $(cat "$TMP/out")" "0 300"
rm -f "/tmp/perf-$(cat "$TMP/pid").map"
