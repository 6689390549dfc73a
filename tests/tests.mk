# Tests: cmocka unit tests (tests/unit/*.c, one binary each) and command
# tests (tests/cmd/*.sh) on assembled fixtures (tests/fixtures/), all run
# against the AddressSanitizer + UBSan build.

X86_FIX_SRC   := $(wildcard tests/fixtures/x86/*.S)
ARM_FIX_SRC   := $(wildcard tests/fixtures/arm64/*.S)
FIX           := $(B)/fixtures
X86_FIX       := $(patsubst tests/fixtures/x86/%.S,$(FIX)/x86/%,$(X86_FIX_SRC)) \
                 $(patsubst tests/fixtures/x86/%.S,$(FIX)/x86/%.o,$(X86_FIX_SRC))
ARM_FIX       := $(patsubst tests/fixtures/arm64/%.S,$(FIX)/arm64/%,$(ARM_FIX_SRC))
UNIT_SRC      := $(wildcard tests/unit/*.c)
UNIT_BIN      := $(patsubst tests/unit/%.c,$(S)/tests/%,$(UNIT_SRC))

# x86 fixtures: assembled (the .o is itself a relocatable fixture) and
# linked with .text at 0x401000, so every address in them is known.
$(FIX)/x86/%.o: tests/fixtures/x86/%.S
	@mkdir -p $(dir $@)
	gcc -c -o $@ $<

$(FIX)/x86/%: $(FIX)/x86/%.o
	ld -o $@ -e 0x401000 -Ttext=0x401000 --build-id=none $<

$(FIX)/arm64/%.o: tests/fixtures/arm64/%.S
	@mkdir -p $(dir $@)
	aarch64-linux-gnu-gcc -c -o $@ $<

$(FIX)/arm64/%: $(FIX)/arm64/%.o
	aarch64-linux-gnu-ld -o $@ -e 0x400000 -Ttext=0x400000 --build-id=none $<

-include tests/fixtures/extra.mk
-include tests/fixtures/kernel/kernel.mk
include tests/place/place.mk
include tests/ab/ab.mk
-include tests/fixtures/diff/diff.mk
-include tests/fixtures/record/record.mk
-include tests/fixtures/sarif/sarif.mk
-include tests/tools/tools.mk
include tests/truth/truth.mk

fixtures: $(X86_FIX) $(ARM_FIX) $(EXTRA_FIX)

# cmocka hands every test a `void **state` most do not use: the one place
# an unused parameter is allowed.
$(S)/tests/%: tests/unit/%.c $(S)/libstraddle.a $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -Wno-unused-parameter $(DEFS) $(SANFLAGS) -Isrc -o $@ $< $(S)/libstraddle.a $(LIBS) -lcmocka

# test_sched reads LLVM's models through libstraddle-sched.so, which the
# test binaries find through the test hook (base.h) rather than beside
# themselves.
unit: $(UNIT_BIN) fixtures $(B)/libstraddle-sched.so
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; \
		FIXTURES=$(FIX) STRADDLE_TEST_SCHED_LIBRARY=$(abspath $(B)/libstraddle-sched.so) $$t; done

test: $(S)/straddle $(B)/straddle $(B)/libstraddle-place.so $(B)/libstraddle-sched.so fixtures unit $(TOOLS_BIN)
	@STRADDLE=$(S)/straddle PLAIN=$(B)/straddle FIXTURES=$(FIX) TOOLS=$(S)/tools sh tests/cmd/run.sh $(T)

# The real race of a file truncated while read, timing-dependent, so not in make test: a large
# library truncated while scan reads it (tests/stress/truncate_race.sh).
stress: $(B)/straddle
	sh tests/stress/truncate_race.sh $(B)/straddle

.PHONY: stress

# doc/report.md's screenshots of `straddle report` (doc/img/report-KIND.png),
# made as tests/cmd/t_browser.sh sees the page: one section of each kind.
screenshots: $(B)/straddle fixtures
	sh scripts/screenshots.sh $(B)/straddle $(FIX) doc/img

.PHONY: screenshots

check: deps
	$(MAKE) check-layers
	$(MAKE) check-test-hooks
	$(MAKE) test

-include tests/kernels.mk

# Fixture objects are kept: some are fixtures themselves, and keeping them
# spares a rebuild.
.SECONDARY:
