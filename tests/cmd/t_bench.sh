# straddle bench: usage errors (exit 2, one line), fault-write's counts,
# the result file's metrics (names, units, directions, exact numbers), and
# an interrupted run that leaves no file, task or result behind. Never
# timing: every run is tiny (--duration 0.05).
be_err() {
	name=$1
	shift
	run "$STRADDLE" bench "$@"
	expect_eq "bench $name: exit 2" "$RC" 2
	expect_eq "bench $name: one line on stderr" "$(printf '%s\n' "$ERR" | grep -c .)" 1
	expect_eq "bench $name: the line" "$ERR" "$BE_WANT"
	expect_eq "bench $name: nothing on stdout" "$OUT" ""
}

BE_WANT="straddle: nope: no such workload (pread-zero, read-zero, gettime, fault-write, read1, poll2)"
be_err "unknown workload" pread-zero nope
BE_WANT="straddle: --duration: '0' is not a time in seconds (like 10 or 0.5s), at most a day"
be_err "duration 0" --duration 0
BE_WANT="straddle: --duration: 'soon' is not a time in seconds (like 10 or 0.5s), at most a day"
be_err "duration garbage" --duration soon
BE_WANT="straddle: --runs: '0' is not a number from 1 to 100"
be_err "runs 0" --runs 0
BE_WANT="straddle: --align: '4096' is not a number from 0 to 4095"
be_err "align a page" --align 4096
BE_WANT="straddle: --warmup: '-1' is not a number from 0 to 1000"
be_err "warmup negative" --warmup -1
BE_WANT="straddle: --tasks: '0' is not a list of task counts from 1 to 1024 (like 1,2,4 or 1-4)"
be_err "tasks 0" --tasks 0
BE_WANT="straddle: --tasks: '3-1' is not a list of task counts from 1 to 1024 (like 1,2,4 or 1-4)"
be_err "tasks reversed" --tasks 3-1
BE_WANT="straddle: --tasks: '1,x' is not a list of task counts from 1 to 1024 (like 1,2,4 or 1-4)"
be_err "tasks garbage" --tasks 1,x
BE_WANT="straddle: --tasks: '2000' is not a list of task counts from 1 to 1024 (like 1,2,4 or 1-4)"
be_err "tasks too many" --tasks 2000
BE_WANT="straddle: --dir: '$TMP/nodir': No such file or directory"
be_err "dir missing" --dir "$TMP/nodir"
: >"$TMP/plain"
BE_WANT="straddle: --dir: '$TMP/plain' is not a directory"
be_err "dir is a file" --dir "$TMP/plain"
# a path of 300+ characters is named whole, not cut at a buffer's size
LONG=$TMP/$(printf 'd%.0s' $(seq 1 150))/$(printf 'e%.0s' $(seq 1 150))
BE_WANT="straddle: --dir: '$LONG': No such file or directory"
be_err "dir missing, a 300+ character path: whole" --dir "$LONG"
BE_WANT="straddle: --mode: 'fibers' is not processes, threads or both"
be_err "mode garbage" --mode fibers
BE_WANT="straddle: bench: unknown option '--bogus' (see 'straddle bench --help')"
be_err "unknown option" --bogus
BE_WANT="straddle: bench: option '--duration' needs a value (see 'straddle bench --help')"
be_err "missing value" --duration

# A workload that cannot run: exit 2, one line naming it and the reason.
run env TMPDIR="$TMP/nodir" "$STRADDLE" bench read1 --duration 0.05
expect_eq "bench no temporary directory: exit 2" "$RC" 2
expect_eq "bench no temporary directory: the line" "$ERR" \
	"straddle: read1: cannot create a temporary file in $TMP/nodir: No such file or directory"

run "$STRADDLE" bench --help
expect_eq "bench --help: exit 0" "$RC" 0
expect_eq "bench --help: usage" "$(printf '%s\n' "$OUT" | head -n 1)" "usage: straddle bench [WORKLOAD...] [OPTIONS]"
expect_eq "bench --help: every workload listed" "$(printf '%s\n' "$OUT" | grep -cE '^  (pread-zero|read-zero|gettime|fault-write|read1|poll2) ')" 6

# fault-write: seed 001's counts, exact, on this kernel.
mkdir "$TMP/bd"
run "$STRADDLE" bench fault-write --dir "$TMP/bd" -o "$TMP/fw.json"
expect_eq "bench fault-write: exit 0" "$RC" 0
expect_eq "bench fault-write: PASS" "$(printf '%s\n' "$OUT" | head -n 1 | cut -d' ' -f2)" "PASS"
expect_eq "bench fault-write: counts" \
	"$(jq -r '.workloads["fault-write"].runs[0] | [.write.returned, .write.short_by, .read.returned, .read.short_by, .write.pass, .read.pass] | join(",")' "$TMP/fw.json")" \
	"66,64,66,64,true,true"
expect_eq "bench fault-write: no metrics" "$(jq '.metrics | length' "$TMP/fw.json")" 0
expect_eq "bench fault-write: nothing left in --dir" "$(ls -A "$TMP/bd")" ""

# The batch-timed workloads: their exact metrics, ns and ticks, lower.
run "$STRADDLE" bench pread-zero read-zero gettime --duration 0.05 -o "$TMP/b.json"
expect_eq "bench batch: exit 0" "$RC" 0
if [ "$(uname -m)" = x86_64 ]; then
	BE_COLD=",gettime.cold.monotonic,gettime.cold.realtime,gettime.cold.boottime"
	BE_UNITS="ns/lower,ticks/lower"
else
	BE_COLD=""
	BE_UNITS="ns/lower"
fi
expect_eq "bench batch: metric names" "$(jq -r '[.metrics[].name] | join(",")' "$TMP/b.json")" \
	"pread_z1k,pread_z10k,pread_z100k,pread_zw100k,read_z1k,read_z10k,read_z100k,read_zw100k,gettime.hot.monotonic,gettime.hot.realtime,gettime.hot.boottime$BE_COLD"
expect_eq "bench batch: units" "$(jq -r '[.metrics[] | "\(.unit)/\(.direction)"] | unique | join(",")' "$TMP/b.json")" "$BE_UNITS"
expect_eq "bench batch: samples non-empty, n matches" \
	"$(jq -r '[.metrics[] | ([.runs[].samples | length] | min) > 0 and ([.runs[].samples | length] | add) == .n] | all' "$TMP/b.json")" true
expect_eq "bench batch: 3 runs by default" "$(jq -r '[.bench.runs, (.runs | length), ([.metrics[].runs | length] | unique | join("+"))] | join(",")' "$TMP/b.json")" "3,3,3"
expect_eq "bench batch: each run's machine state" \
	"$(jq -r '[.runs[].state | has("load") and has("steal_pct") and has("others_pct") and (.clocksource | length > 0)] | all' "$TMP/b.json")" true
expect_eq "bench batch: each run's pinned CPU" "$(jq -r '[.runs[].pinned | keys | join("+")] | unique | join(",")' "$TMP/b.json")" "$([ "$(uname -m)" = x86_64 ] && echo gettime.cold+)gettime.hot+pread-zero+read-zero"
expect_eq "bench batch: the batch is the median of 5 calibrations" \
	"$(jq -r '[.metrics[] | select(.calibrations) | .calls_per_sample == (.calibrations | sort | .[2]) and (.calibrations | length) == 5] | all' "$TMP/b.json")" true
expect_eq "bench batch: the one batch size is the workload's" \
	"$(jq -r '[.workloads["pread-zero"].sizes[].calls_per_sample] == [.metrics[] | select(.workload == "pread-zero") | .calls_per_sample]' "$TMP/b.json")" true
expect_eq "bench batch: statistics, median for times" "$(jq -r '[.metrics[].statistic] | unique | join(",")' "$TMP/b.json")" median
expect_eq "bench batch: summary fields" \
	"$(jq -r '[.metrics[] | has("median") and has("mean95") and has("stddev") and has("cv") and has("min")] | all' "$TMP/b.json")" true
expect_eq "bench batch: a mode for cold ticks only" \
	"$(jq -r '[.metrics[] | has("mode") == (.unit == "ticks")] | all' "$TMP/b.json")" true
expect_eq "bench batch: head" "$(jq -r '[.schema, .command, (.machine | has("kernel") and has("vendor"))] | join(",")' "$TMP/b.json")" "1,bench,true"
expect_eq "bench batch: libMicro sizes" "$(jq -r '[.workloads["pread-zero"].sizes[].bytes] | join(",")' "$TMP/b.json")" "1024,10240,102400,102400"
expect_eq "bench batch: -w on zw100k only" "$(jq -r '[.workloads["read-zero"].sizes[] | "\(.name)=\(.store_each_page)"] | join(",")' "$TMP/b.json")" \
	"read_z1k=false,read_z10k=false,read_z100k=false,read_zw100k=true"
expect_eq "bench batch: buffers at a page start" "$(jq -r '[.bench.align, (.workloads["pread-zero"].sizes[].buffer_page_offset)] | join(",")' "$TMP/b.json")" "0,0,0,0,0"
"$STRADDLE" bench pread-zero --duration 0.02 --runs 1 --align 144 -o "$TMP/al.json" >/dev/null
expect_eq "bench --align 144: recorded, every buffer there" \
	"$(jq -r '[.bench.align, (.workloads["pread-zero"].sizes[].buffer_page_offset)] | join(",")' "$TMP/al.json")" "144,144,144,144,144"
expect_eq "bench batch: the vDSO's own function" "$(jq -r '.workloads.gettime.function | test("^__(vdso|kernel)_clock_gettime$")' "$TMP/b.json")" true
expect_eq "bench batch: one table row per metric" "$(printf '%s\n' "$OUT" | grep -cE '^(pread|read)_z|^gettime\.')" \
	"$(jq '.metrics | length' "$TMP/b.json")"

# read1 and poll2 at 1 and 3 tasks (3 > 2 CPUs: pinned modulo), twice:
# 2 tests x (2 modes x 2 counts + 2 per-task means), 2 samples each.
mkdir "$TMP/wd"
run "$STRADDLE" bench read1 poll2 --duration 0.05 --warmup 0 --tasks 3,1 --runs 2 \
	--dir "$TMP/wd" -o "$TMP/w.json"
expect_eq "bench scale: exit 0" "$RC" 0
expect_eq "bench scale: metric names" "$(jq -r '[.metrics[].name] | join(",")' "$TMP/w.json")" \
	"read1.processes.ops_per_sec.tasks=1,read1.threads.ops_per_sec.tasks=1,read1.processes.ops_per_sec.tasks=3,read1.threads.ops_per_sec.tasks=3,read1.per_process_ops,read1.per_thread_ops,poll2.processes.ops_per_sec.tasks=1,poll2.threads.ops_per_sec.tasks=1,poll2.processes.ops_per_sec.tasks=3,poll2.threads.ops_per_sec.tasks=3,poll2.per_process_ops,poll2.per_thread_ops"
expect_eq "bench scale: ops/s, higher" "$(jq -r '[.metrics[] | "\(.unit)/\(.direction)"] | unique | join(",")' "$TMP/w.json")" "ops/s/higher"
expect_eq "bench scale: one sample per run" "$(jq -r '[.metrics[] | [(.runs | length), (.runs[].samples | length)]] | unique | map(join("+")) | join(",")' "$TMP/w.json")" "2+1+1"
expect_eq "bench scale: the mean for rates" "$(jq -r '[.metrics[].statistic] | unique | join(",")' "$TMP/w.json")" mean
expect_eq "bench scale: settings" "$(jq -r '.workloads.poll2 | [.files_per_task, (.tasks | join("+")), .warmup_intervals, .measured_intervals] | join(",")' "$TMP/w.json")" "128,1+3,0,1"
expect_eq "bench scale: mean95 of ops/s keeps the highest" \
	"$(jq -r '[.metrics[] | .mean95 == ([.runs[].samples[]] | max)] | all' "$TMP/w.json")" true
expect_eq "bench scale: runs recorded" "$(jq -r '.bench.runs' "$TMP/w.json")" 2
expect_eq "bench scale: nothing left in --dir" "$(ls -A "$TMP/wd")" ""

# Interrupted: SIGINT while read1's tasks run (processes, then threads).
# bench kills and reaps them and dies of the signal; no temporary file in
# --dir, no result file, no task left.
# be_running MODE PID: read1's two tasks are there (processes: two
# children; threads: the main thread and two more).
be_running() {
	if [ "$1" = processes ]; then
		[ "$(ps -o pid= --ppid "$2" | wc -l)" -ge 2 ]
	else
		[ "$(ls /proc/"$2"/task 2>/dev/null | wc -l)" -ge 3 ]
	fi
}

be_interrupt() {
	mode=$1
	mkdir "$TMP/int_$mode"
	"$STRADDLE" bench read1 --mode $mode --duration 60 --tasks 2 --dir "$TMP/int_$mode" \
		-o "$TMP/int_$mode.json" >/dev/null 2>"$TMP/int_$mode.err" &
	pid=$!
	tries=0
	until be_running "$mode" $pid || [ $tries -ge 200 ]; do
		sleep 0.05
		tries=$((tries + 1))
	done
	kids=$(ps -o pid= --ppid $pid | tr -d ' ')
	sleep 0.3
	kill -INT $pid
	wait $pid
	rc=$?
	expect_eq "bench interrupted ($mode): reached the tasks" "$([ $tries -lt 200 ] && echo yes)" yes
	expect_eq "bench interrupted ($mode): dies of SIGINT" "$rc" 130
	expect_eq "bench interrupted ($mode): no file left in --dir" "$(ls -A "$TMP/int_$mode")" ""
	expect_eq "bench interrupted ($mode): no result file" "$(ls "$TMP" | grep -c "^int_$mode.json")" 0
	left=0
	for k in $kids; do
		[ -d /proc/$k ] && left=$((left + 1))
	done
	expect_eq "bench interrupted ($mode): no task left" "$left" 0
	expect_eq "bench interrupted ($mode): stderr quiet" "$(cat "$TMP/int_$mode.err")" ""
}
be_interrupt processes
be_interrupt threads

run "$STRADDLE" bench read1 --mode threads --duration 0.05 --warmup 0 --tasks 1 -o "$TMP/t.json"
# one task: no per_thread_ops, which would be tasks=1's samples again
expect_eq "bench --mode threads: threads only, each metric once" \
	"$(jq -r '[.metrics[].name] | join(",")' "$TMP/t.json")" "read1.threads.ops_per_sec.tasks=1"

# --invocations: bench as a user runs it, each invocation a process of its
# own; --versus alternates A B A B with side B's options added.
BE_WANT="straddle: --versus: alternates invocations: give --invocations N too"
be_err "versus alone" --versus '--align 64'
BE_WANT="straddle: --invocations: writes a directory of result files: give -o DIR"
be_err "invocations without -o" --invocations 2
BE_WANT="straddle: --invocations: '1' is not a number from 2 to 100"
be_err "invocations 1" --invocations 1 -o "$TMP/inv1"
mkdir "$TMP/there"
BE_WANT="straddle: $TMP/there: is a directory, not a regular file: not replaced"
be_err "invocations into an existing directory" --invocations 2 -o "$TMP/there"
: >"$TMP/there.json"
BE_WANT="straddle: $TMP/there.json: exists; --invocations makes the directory itself"
be_err "invocations onto an existing file" --invocations 2 -o "$TMP/there.json"
BE_WANT="straddle: --versus: '-o': -o, --invocations and --versus are bench's to give"
be_err "versus with -o" --invocations 2 --versus '--align 64 -o x' -o "$TMP/inv2"
BE_WANT="straddle: --versus: '--invocations=3': -o, --invocations and --versus are bench's to give"
be_err "versus with --invocations" --invocations 2 --versus '--invocations=3' -o "$TMP/inv2"

run "$STRADDLE" bench pread-zero --duration 0.02 --runs 2 --invocations 2 --versus ' --align  144 ' \
	-o "$TMP/inv"
expect_eq "bench --invocations: exit 0" "$RC" 0
expect_eq "bench --invocations: the files, nothing partial" \
	"$(cd "$TMP" && find inv* | sort | tr '\n' ' ')" "inv inv/a inv/a/01.json inv/a/02.json inv/b inv/b/01.json inv/b/02.json "
expect_eq "bench --invocations: each side's settings" \
	"$(for f in a/01 b/01 a/02 b/02; do jq -r '"\(.bench.align)/\(.bench.runs)/\(.runs | length)"' "$TMP/inv/$f.json"; done | tr '\n' ' ')" \
	"0/2/2 144/2/2 0/2/2 144/2/2 "
expect_eq "bench --invocations: alternated A B A B" \
	"$(for f in a/01 b/01 a/02 b/02; do jq -r '"\(.drift.order)/\(.drift.of)"' "$TMP/inv/$f.json"; done | tr '\n' ' ')" \
	"1/4 2/4 3/4 4/4 "
expect_eq "bench --invocations: the drift record" \
	"$(jq -c '.drift | [.invocations, .side, .versus, (.band_pct | keys)]' "$TMP/inv/b/02.json")" \
	'[2,"b"," --align  144 ",["pread_z100k","pread_z10k","pread_z1k","pread_zw100k"]]'
expect_eq "bench --invocations: each file's command line, with its own final path" \
	"$(jq -r '.command_line | join(" ")' "$TMP/inv/b/02.json")" \
	"bench --runs=2 --align=0 --warmup=2 --dir=${TMPDIR:-/tmp} --mode=both --duration=0.02 --align 144 -o $TMP/inv/b/02.json pread-zero"
expect_eq "bench --invocations: A's record names no versus" "$(jq -c '.drift.versus' "$TMP/inv/a/01.json")" null
# the band, from the raw samples: each invocation's mean of its runs'
# medians, 100 (max - min) / mean over the invocations
BE_BAND=$(jq -s -r '
	def median: sort | length as $n | if $n % 2 == 1 then .[($n - 1) / 2] else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;
	[.[] | .metrics[] | select(.name == "pread_z1k") | [.runs[].samples | median] | add / length]
	| 100 * (max - min) / (add / length) * 1e6 | round' "$TMP/inv/a/01.json" "$TMP/inv/a/02.json")
expect_eq "bench --invocations: pread_z1k's band, exact" \
	"$(jq '.drift.band_pct.pread_z1k.median * 1e6 | round' "$TMP/inv/a/02.json")" "$BE_BAND"
expect_eq "bench --invocations: what it said" "$(printf '%s\n' "$OUT" | tail -n 1)" \
	"written: $TMP/inv/a and $TMP/inv/b; compare $TMP/inv/a $TMP/inv/b tests invocation against invocation"
# side a's band is kept for this host (its A/A invocations: B's options
# differ), with the machine it was measured on: the same numbers
BE_KEPT=$XDG_DATA_HOME/straddle/drift/$(uname -n | sed 's/[^A-Za-z0-9._-]/_/g').json
expect_eq "bench --invocations: the band kept for this host, said" \
	"$(printf '%s\n' "$OUT" | grep -c "^the band is kept for this host: $BE_KEPT$")" 1
expect_eq "bench --invocations: the band kept, side a's" \
	"$(jq -c '[.command, (.metrics | keys), (.metrics.pread_z1k | .invocations, (.band_pct.median * 1e6 | round))]' "$BE_KEPT")" \
	"[\"drift\",[\"pread_z100k\",\"pread_z10k\",\"pread_z1k\",\"pread_zw100k\"],2,$BE_BAND]"
expect_eq "bench --invocations: the band kept, its machine the files'" \
	"$(jq -c .machine "$BE_KEPT")" "$(jq -c .machine "$TMP/inv/a/01.json")"
# compare takes the recorded band for a BASE of one invocation: the same
# number compare --drift DIR/a computes
run "$STRADDLE" compare --format json "$TMP/inv/a/01.json" "$TMP/inv/b/01.json"
BE_REC=$(jq_of '[.metrics[].new[0].drift_pct * 1e6 | round] | join(",")')
run "$STRADDLE" compare --drift "$TMP/inv/a" --format json "$TMP/inv/a/01.json" "$TMP/inv/b/01.json"
expect_eq "bench --invocations: compare's drift is the recorded band" "$BE_REC" \
	"$(jq_of '[.metrics[].new[0].drift_pct * 1e6 | round] | join(",")')"

# a side B that cannot run: exit 2, one line, nothing left behind
run "$STRADDLE" bench pread-zero --duration 0.02 --runs 1 --invocations 2 --versus '--align 5000' \
	-o "$TMP/invbad"
expect_eq "bench --invocations, B refused: exit 2" "$RC" 2
expect_eq "bench --invocations, B refused: the line" "$ERR" \
	"straddle: bench: invocation 1 (b) ended with exit 2: straddle: --align: '5000' is not a number from 0 to 4095"
expect_eq "bench --invocations, B refused: nothing left" "$(ls "$TMP" | grep -c '^invbad')" 0
# fault-write alone has no metrics: its invocations, no band
run "$STRADDLE" bench fault-write --dir "$TMP/bd" --invocations 2 -o "$TMP/invfw"
expect_eq "bench --invocations fault-write: exit 0, no band" \
	"$RC $(ls "$TMP/invfw/a" | tr '\n' ' ')$(jq -r 'has("drift")' "$TMP/invfw/a/02.json")" "0 01.json 02.json false"
expect_eq "bench --invocations fault-write: said" "$(printf '%s\n' "$OUT" | head -n 1)" \
	"a: 2 invocations; no metrics, no band"
