# `make bench`: the Performance figures of issue 2 on libLLVM-14.so.1 (see
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
