# straddle: `make` builds build/straddle; `make run` and `make check` first
# install what is missing (scripts/deps.sh), then run or test everything.

CC       ?= gcc
CFLAGS   ?= -O2 -g
WARN     := -std=c17 -Wall -Wextra -Werror -Wshadow
DEFS     := -D_GNU_SOURCE
LIBS     := -lZydis -lZycore -lcapstone -ldw -lelf -larchive -ljansson -lpthread -lm -ldl -lstdc++
SANFLAGS := -DSTRADDLE_TEST_HOOKS -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# Layers bottom-up; a layer's files may include only the headers of the
# layers before it.
LAYERS   := base elf inputs decode cfg sched model arena relocate kernels stats measure workloads results report options self
# relocate/preload.c is not part of the library: it is the preload library
# that runs inside the user's program (libstraddle-place.so below).
PRELOAD_SRC := src/relocate/preload.c src/relocate/poke.c src/relocate/replay.c
PRELOAD_H := src/relocate/plan.h src/relocate/poke.h src/relocate/replay.h
LIB_SRC  := $(filter-out $(PRELOAD_SRC),$(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c)))
CMD_SRC  := $(wildcard src/cmd/*.c)
HEADERS  := $(wildcard src/*/*.h)

B        := build
S        := build/san

PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR   := $(PREFIX)/bin
MAN1DIR  := $(PREFIX)/share/man/man1
LIBEXECDIR := $(PREFIX)/libexec/straddle

.PHONY: all run check test deps fuzz bench clean fixtures unit install check-layers check-test-hooks \
	kernel-proofs

all: $(B)/straddle $(B)/straddle.1 $(B)/libstraddle-place.so $(B)/libstraddle-sched.so

# An AArch64 kernel image's routine runs in this program under qemu-aarch64
# (src/kernels/emulate.c): static, cross-built from base, arena and the
# kernels (not the image reader: it runs what straddle sends it), beside
# straddle. Only on an x86-64 host, the one that emulates, with the cross
# compiler (scripts/deps.sh installs it; without, straddle says it is missing).
ifeq ($(shell uname -m),x86_64)
ifneq ($(shell command -v aarch64-linux-gnu-gcc 2>/dev/null),)
KROUTINE_A64 := $(B)/straddle-kroutine-aarch64
all: $(KROUTINE_A64)
endif
endif
KROUTINE_A64_C := src/kernels/aarch64/runner.c src/base/base.c src/arena/arena.c \
	$(filter-out src/kernels/routine.c src/kernels/emulate.c,$(wildcard src/kernels/*.c))
KROUTINE_A64_S := $(wildcard src/kernels/aarch64/*.S)

$(B)/straddle-kroutine-aarch64: $(KROUTINE_A64_C) $(KROUTINE_A64_S) $(HEADERS) $(KERNEL_ASM_H)
	@mkdir -p $(dir $@)
	aarch64-linux-gnu-gcc $(WARN) $(DEFS) -O2 -static -Isrc -o $@ $(KROUTINE_A64_C) \
		$(KROUTINE_A64_S) -lpthread

# Each object depends on the headers it includes, as the compiler saw them
# (-MMD writes obj/x.d beside obj/x.o; -MP keeps a deleted header from
# breaking the build).
DEPFLAGS := -MMD -MP

$(B)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(DEPFLAGS) $(CFLAGS) -c -o $@ $<

$(S)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(DEPFLAGS) $(SANFLAGS) -c -o $@ $<

# The kernels' assembly, for the host's architecture only (src/kernels/).
KERNEL_ASM := $(wildcard src/kernels/$(shell uname -m)/*.S)
KERNEL_ASM_H := $(wildcard src/kernels/*.h src/kernels/*/*.h)

$(B)/obj/%.o: src/%.S
	@mkdir -p $(dir $@)
	$(CC) $(DEFS) $(DEPFLAGS) -g -c -o $@ $<

$(S)/obj/%.o: src/%.S
	@mkdir -p $(dir $@)
	$(CC) $(DEFS) $(DEPFLAGS) -g -c -o $@ $<

-include $(shell find $(B) -name '*.d' 2>/dev/null)

$(B)/libstraddle.a: $(patsubst src/%.S,$(B)/obj/%.o,$(KERNEL_ASM))
$(S)/libstraddle.a: $(patsubst src/%.S,$(S)/obj/%.o,$(KERNEL_ASM))

$(B)/libstraddle.a: $(patsubst src/%.c,$(B)/obj/%.o,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

$(S)/libstraddle.a: $(patsubst src/%.c,$(S)/obj/%.o,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

$(B)/straddle: $(patsubst src/%.c,$(B)/obj/%.o,$(CMD_SRC)) $(B)/libstraddle.a
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

$(S)/straddle: $(patsubst src/%.c,$(S)/obj/%.o,$(CMD_SRC)) $(S)/libstraddle.a
	$(CC) $(SANFLAGS) -o $@ $^ $(LIBS)

# The preload library of `straddle place`: on its own, never sanitized (it
# is loaded into the user's unsanitized program), no libstraddle in it.
# No stack protector: its canary is read through the thread pointer, whose
# page a replay's probe may have taken away (replay.c).
$(B)/libstraddle-place.so: $(PRELOAD_SRC) $(PRELOAD_H)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) -O2 -g -fPIC -shared -fvisibility=hidden -fno-stack-protector -o $@ \
		$(PRELOAD_SRC) -ldl

# The cost model's back end (src/sched/llvm.cpp): LLVM 19's disassemblers,
# scheduling models and llvm-mca's library, linked in statically (only the
# X86 and AArch64 parts: 8 MB resident where all of libLLVM took 48 MB),
# in a library of its own that straddle loads when it first prices a
# loop, so that straddle itself starts without it (its loops are then
# priced by their bounds). Not sanitized: build/san/straddle loads this
# one (base.h, beside_self).
LLVM_CONFIG ?= llvm-config-19
SCHED_LLVM := x86desc x86disassembler x86info x86targetmca aarch64desc aarch64disassembler \
	aarch64info mca mc mcdisassembler support
SCHED_CXXFLAGS = $(shell $(LLVM_CONFIG) --cxxflags | sed 's/-I/-isystem /')
SCHED_LDLIBS = -L$(shell $(LLVM_CONFIG) --libdir) $(shell $(LLVM_CONFIG) --link-static --libs $(SCHED_LLVM)) \
	-lz -lrt -ldl -lm
$(B)/libstraddle-sched.so: src/sched/llvm.cpp src/sched/abi.h
	@mkdir -p $(dir $@)
	$(CXX) $(SCHED_CXXFLAGS) -Wall -Wextra -Werror -O2 -fPIC -shared -o $@ $< \
		-Wl,--gc-sections -Wl,--exclude-libs,ALL -Wl,--no-undefined $(SCHED_LDLIBS)

# The manual page is made from the commands' option tables (src/options/help.c),
# so it says what --help says.
$(B)/straddle.1: $(B)/straddle
	$(B)/straddle --man >$@.tmp && mv $@.tmp $@

install: $(B)/straddle $(B)/straddle.1 $(B)/libstraddle-place.so $(B)/libstraddle-sched.so $(KROUTINE_A64)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(LIBEXECDIR)
	install -m 0644 $(B)/libstraddle-place.so $(DESTDIR)$(LIBEXECDIR)/libstraddle-place.so
	install -m 0644 $(B)/libstraddle-sched.so $(DESTDIR)$(LIBEXECDIR)/libstraddle-sched.so
	$(if $(KROUTINE_A64),install -m 0755 $(KROUTINE_A64) $(DESTDIR)$(LIBEXECDIR)/)
	install -m 0755 $(B)/straddle $(DESTDIR)$(BINDIR)/straddle
	install -m 0644 $(B)/straddle.1 $(DESTDIR)$(MAN1DIR)/straddle.1

deps:
	@scripts/deps.sh

# A lower layer must not use a symbol a higher one defines, nor include a
# higher layer's header or another layer's internal.h: nm over the objects and the #include lines of the sources,
# against LAYERS' order (cmd on top).
check-layers: $(patsubst src/%.c,$(B)/obj/%.o,$(LIB_SRC) $(CMD_SRC))
	@# an object whose source moved or went would be judged as its old layer's
	@find $(B)/obj -name '*.o' | while read -r o; do s=src/$${o#$(B)/obj/}; \
		[ -e "$${s%.o}.c" ] || [ -e "$${s%.o}.S" ] || rm -f "$$o"; done
	@sh scripts/check_layers.sh $(B)/obj $(LAYERS) cmd
	@sh scripts/check_includes.sh src $(LAYERS) cmd
	@sh scripts/check_headers.sh src

# What make install ships obeys no test hook: they exist only in build/san
# (SANFLAGS' -DSTRADDLE_TEST_HOOKS; base.h's test_hook). A source that
# reads a STRADDLE_TEST_ variable outside the test build puts its name in
# the binary (a getenv literal, or test_hook's "STRADDLE_TEST_%s"), which
# the check finds; the preload library is shipped too.
check-test-hooks: $(B)/straddle $(B)/libstraddle-place.so
	@sh scripts/check_test_hooks.sh $(B)/straddle $(B)/libstraddle-place.so

# The main job on a built-in default: this machine's vDSO and C library,
# then seed 000's loop measured at every offset of a line, then the same
# loop in a user program found by record + scan --hot and moved by place
# (straddle prove): what its placement costs it, beside the prediction.
# It ends with one page of what it ran (straddle report): the scan's JSON,
# the sweep's, the place's and the prove's result files, kept beside it in
# build/.
run: deps
	$(MAKE) all
	$(B)/straddle uarch
	$(B)/straddle scan --limit 25
	$(B)/straddle scan --json >$(B)/run-scan.json
	$(B)/straddle sweep --time 10 -o $(B)/run-sweep.json clear_movq_imm
	$(MAKE) $(B)/demo/clear
	$(B)/straddle prove --runs 10 --keep $(B)/run-prove -o $(B)/run-prove.json -- $(B)/demo/clear 2000000
	$(B)/straddle report -o $(B)/report.html $(B)/run-scan.json $(B)/run-sweep.json \
		$(B)/run-prove/place-1.json $(B)/run-prove.json
	@echo "The report of this run: $(abspath $(B)/report.html)"

# The bundled program `make run` ends with: seed 000's loop across a line
# in a user program (tests/place/clear.c), moved by `straddle place`.
$(B)/demo/clear: tests/place/clear.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wl,--build-id -o $@ $<

# Four loops (front end, chain, divide, stores) in one program,
# for `straddle prove -- build/demo/bounds KIND N` (doc/prove.md).
$(B)/demo/bounds: tests/place/bounds.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wl,--build-id -o $@ $<

# Debian's real 6.1 and 6.12 user-copy routines, their fault contract run
# on their own bytes, and two routines of 6.1's modules (scripts/kernel_proofs.sh). The debug kernels stay out
# of the repository and of make check: fetched once into KERNEL_CACHE.
KERNEL_CACHE ?= $(HOME)/.cache/straddle/kernels

kernel-proofs: $(B)/straddle $(S)/tools/kmodule_proof
	@sh scripts/kernel_proofs.sh $(B)/straddle $(KERNEL_CACHE) $(S)/tools/kmodule_proof

include tests/tests.mk
include fuzz/fuzz.mk
include bench/bench.mk

clean:
	rm -rf build
