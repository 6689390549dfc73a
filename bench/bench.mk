# `make bench`: the speed and memory figures on libLLVM-14.so.1 (see
# bench/bench.sh): scan against a bare Zydis decode, against objdump -d,
# -j 1 against -j 2, and peak memory against the file size. Not a test:
# it prints figures and the goals they meet or miss.
#   make bench BENCH_RUNS=5 BENCH_FILE=/path/to/other.so

$(B)/bench/zydis_walk: bench/zydis_walk.c $(B)/libstraddle.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(CFLAGS) -Isrc -o $@ $< $(B)/libstraddle.a $(LIBS)

$(B)/bench/measure: bench/measure.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(CFLAGS) -o $@ $<

bench: $(B)/straddle $(B)/bench/zydis_walk $(B)/bench/measure
	@sh bench/bench.sh $(B)

# diff against scanning both; the sweep's findings and
# the arena's overhead. `make bench` runs every part.
bench-scan: $(B)/straddle $(B)/bench/zydis_walk $(B)/bench/measure
	@sh bench/bench.sh $(B)

bench-diff: $(B)/straddle $(B)/bench/measure
	@sh bench/diff.sh $(B)

bench-sweep: $(B)/straddle
	@sh bench/sweep.sh $(B)

bench: bench-diff bench-sweep

# The A/A false-positive rate of compare on bench's own runs.
bench-aa: $(B)/straddle
	@sh bench/aa.sh $(B)

bench: bench-aa

# Calibrate, then every x86-64 kernel swept and judged by the
# built-in and the calibrated profile (the held-out table of the README).
bench-calibrate: $(B)/straddle
	@sh bench/calibrate.sh $(B)
# The cost of watching, a CPU-bound program under straddle record.
$(B)/bench/spin: bench/spin.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) -O2 -o $@ $<

bench-record: $(B)/straddle $(B)/bench/spin
	@sh bench/record.sh $(B)

bench: bench-record

# Place's start-up cost with 1,200 functions moved, its power on
# a known 2% effect within 60 s, and the control's cost.
bench-place: $(B)/straddle $(B)/libstraddle-place.so
	@sh bench/place.sh $(B)

bench: bench-place

# The in-process back end (src/sched/) against llvm-mca's simulation of
# the same instructions: make bench-agree (bench/agree.sh).
$(B)/bench/sched_agree: bench/sched_agree.c $(B)/libstraddle.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(CFLAGS) -Isrc -o $@ $< $(B)/libstraddle.a $(LIBS)

# The cost model on a kernel: scan --uarch all and diff of four profiles
# against the same with --llvm-mca none (bench/kernel.sh).
bench-kernel: $(B)/straddle $(B)/libstraddle-sched.so $(B)/bench/measure
	@sh bench/kernel.sh $(B)

# The in-process back end's agreement with llvm-mca's simulation, two
# Intel and two AMD models (bench/agree.sh).
bench-agree: $(B)/bench/sched_agree $(B)/libstraddle-sched.so
	@sh bench/agree.sh $(B)

bench: bench-kernel bench-agree
