# `make fuzz`: the libFuzzer harness over the whole scan path (bad
# input), run for FUZZ_SECONDS on a seed corpus of real and broken ELF
# files made here. Everything is built with clang: libFuzzer needs clang's
# coverage instrumentation, so the library is compiled again, with
# -fsanitize=fuzzer-no-link and ASan+UBSan, into build/fuzz/obj. A crash,
# a sanitizer report or a leak stops the run with a non-zero status and
# leaves the input in build/fuzz/artifacts/.
#
#   make fuzz                 60 s
#   make fuzz FUZZ_SECONDS=600
#   build/fuzz/fuzz_scan build/fuzz/artifacts/crash-...   replay one input

FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
F            := $(B)/fuzz
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_FLAGS   := -O1 -g -fno-omit-frame-pointer $(FUZZ_SAN)
FUZZ_WARN    := $(filter-out -Werror,$(WARN))

$(F)/obj/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_WARN) $(DEFS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

# Assembly (the Makefile's KERNEL_ASM, if any) needs no instrumentation.
$(F)/obj/%.o: src/%.S $(KERNEL_ASM_H)
	@mkdir -p $(dir $@)
	$(CC) $(DEFS) -g -c -o $@ $<

$(F)/libstraddle.a: $(patsubst src/%.c,$(F)/obj/%.o,$(LIB_SRC)) \
		    $(patsubst src/%.S,$(F)/obj/%.o,$(KERNEL_ASM))
	@rm -f $@
	ar rcs $@ $^

$(F)/fuzz_scan: fuzz/fuzz_scan.c $(F)/libstraddle.a $(HEADERS)
	$(FUZZ_CC) $(FUZZ_WARN) $(DEFS) $(FUZZ_FLAGS) -fsanitize=fuzzer -Isrc \
		-o $@ $< $(F)/libstraddle.a $(LIBS)

# Result files as compare reads them, and the DWARF of separate debug
# files: one harness each, the same instrumented library.
$(F)/fuzz_%: fuzz/fuzz_%.c $(F)/libstraddle.a $(HEADERS)
	$(FUZZ_CC) $(FUZZ_WARN) $(DEFS) $(FUZZ_FLAGS) -fsanitize=fuzzer -Isrc \
		-o $@ $< $(F)/libstraddle.a $(LIBS)

# Seeds: result files of a short sweep and bench fault-write, a scan's
# JSON (not a result file: refused), and hand-broken copies; for DWARF,
# small programs compiled with -g (gcc's DWARF 5, clang's, and -gdwarf-4).
fuzz-seeds-extra: $(B)/straddle
	sh fuzz/make_seeds_extra.sh $(F) $(B)/straddle

fuzz-results: $(F)/fuzz_results fuzz-seeds-extra
	@mkdir -p $(F)/corpus-results $(F)/artifacts
	UBSAN_OPTIONS=print_stacktrace=1 \
	$(F)/fuzz_results -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix=$(F)/artifacts/ \
		$(F)/corpus-results $(F)/seeds-results

# Every reader of result files: the bytes as any of the seven
# kinds for report's page, as a record for --hot, as perf script text; the
# seeds one file of each kind (make_seeds_extra.sh) and broken copies.
fuzz-report: $(F)/fuzz_report fuzz-seeds-extra
	@mkdir -p $(F)/corpus-report $(F)/artifacts
	UBSAN_OPTIONS=print_stacktrace=1 \
	$(F)/fuzz_report -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix=$(F)/artifacts/ \
		$(F)/corpus-report $(F)/seeds-results

fuzz-dwarf: $(F)/fuzz_dwarf fuzz-seeds-extra
	@mkdir -p $(F)/corpus-dwarf $(F)/artifacts
	UBSAN_OPTIONS=print_stacktrace=1 \
	$(F)/fuzz_dwarf -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix=$(F)/artifacts/ \
		$(F)/corpus-dwarf $(F)/seeds-dwarf

.PHONY: fuzz-results fuzz-report fuzz-dwarf fuzz-seeds-extra

# The seeds are made afresh on every run (a second or so); what the
# fuzzer finds is kept in build/fuzz/corpus across runs.
fuzz: $(F)/fuzz_scan $(B)/straddle
	sh fuzz/make_corpus.sh $(F)/seeds $(B)/straddle
	@mkdir -p $(F)/corpus $(F)/artifacts
	UBSAN_OPTIONS=print_stacktrace=1 \
	$(F)/fuzz_scan -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix=$(F)/artifacts/ \
		$(F)/corpus $(F)/seeds
