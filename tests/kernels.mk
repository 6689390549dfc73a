# The kernels' fault contract outside the straddle binary: kcheck
# (tests/tools/kcheck_main.c) linked with only src/base, src/arena and
# src/kernels, built natively without sanitizers and cross-built for
# AArch64 (static, run under qemu-aarch64 by tests/cmd/t_kernels.sh).
# Both go beside the other test tools; `make test` builds them through
# KERNEL_TESTS, added to its prerequisites here (this file is included
# after the test rule, whose prerequisite list is expanded when read). The
# sanitized kcheck_main of tests/tools/tools.mk serves the crash tests.

KCHECK_C     := tests/tools/kcheck_main.c src/base/base.c src/arena/arena.c \
                $(filter-out src/kernels/routine.c src/kernels/emulate.c,$(wildcard src/kernels/*.c))
KCHECK_DEPS  := $(KCHECK_C) $(HEADERS) $(KERNEL_ASM_H)
A64_ASM      := $(wildcard src/kernels/aarch64/*.S)

KERNEL_TESTS := $(S)/tools/kcheck-native
ifeq ($(shell uname -m),x86_64)
KERNEL_TESTS += $(S)/tools/kcheck-aarch64
endif

test: $(KERNEL_TESTS) $(KROUTINE_A64)

$(S)/tools/kcheck-native: $(KCHECK_DEPS) $(KERNEL_ASM)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) -O2 -g -Isrc -o $@ $(KCHECK_C) $(KERNEL_ASM) -lpthread

$(S)/tools/kcheck-aarch64: $(KCHECK_DEPS) $(A64_ASM)
	@mkdir -p $(dir $@)
	aarch64-linux-gnu-gcc $(WARN) $(DEFS) -O2 -static -Isrc -o $@ $(KCHECK_C) $(A64_ASM) \
		-lpthread

# calibrate's refusal of an emulator, cross-built (tests/tools/native_main.c).
NATIVE_C := tests/tools/native_main.c src/measure/native.c src/measure/clock.c src/base/base.c
ifeq ($(shell uname -m),x86_64)
test: $(S)/tools/native-aarch64
endif

$(S)/tools/native-aarch64: $(NATIVE_C) $(HEADERS)
	@mkdir -p $(dir $@)
	aarch64-linux-gnu-gcc $(WARN) $(DEFS) -O2 -static -Isrc -o $@ $(NATIVE_C) -lm
