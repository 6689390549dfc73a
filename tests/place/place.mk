# The place fixture (tests/place/moved.c) three ways: a PIE, a
# fixed-address executable, and a shared object with its main; and the
# bundled program of `make run` (fill.c). Included by tests/tests.mk.
PLACE := $(FIX)/place
PLACE_FIX := $(PLACE)/moved-pie $(PLACE)/moved-nopie $(PLACE)/libmoved.so $(PLACE)/moved-lib \
	$(PLACE)/fill $(PLACE)/static $(PLACE)/moved-dl $(PLACE)/clear $(PLACE)/bounds \
	$(PLACE)/throw $(PLACE)/moved-threads $(PLACE)/libinner.so $(PLACE)/unwind-shared \
	$(PLACE)/jit $(PLACE)/count $(PLACE)/replay

$(PLACE)/moved-pie: tests/place/moved.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -fpie -pie -Wl,--build-id -o $@ $<
$(PLACE)/moved-nopie: tests/place/moved.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -fno-pic -no-pie -Wl,--build-id -o $@ $<
$(PLACE)/libmoved.so: tests/place/moved.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -fPIC -shared -DWORK_LIB -Wl,--build-id -o $@ $<
$(PLACE)/moved-lib: tests/place/moved_main.c $(PLACE)/libmoved.so
	gcc -O2 -g -o $@ $< -L$(PLACE) -lmoved -Wl,-rpath,'$$ORIGIN'
$(PLACE)/moved-dl: tests/place/moved_dl.c $(PLACE)/libmoved.so
	gcc -O2 -g -o $@ $< -ldl
$(PLACE)/clear: tests/place/clear.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -Wl,--build-id -o $@ $<
$(PLACE)/bounds: tests/place/bounds.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -Wl,--build-id -o $@ $<
# C++: an exception thrown through moved frames (tests/cmd/t_place_cxx.sh)
$(PLACE)/throw: tests/place/throw.cc
	@mkdir -p $(dir $@)
	g++ -O2 -g -Wl,--build-id -o $@ $<
# the late patch under four threads (tests/cmd/t_place_threads.sh); libinner.so's
# work has a branch into its first five bytes
$(PLACE)/moved-threads: tests/place/moved_threads.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -Wl,--build-id -o $@ $< -ldl -lpthread
$(PLACE)/libinner.so: tests/place/inner.S
	@mkdir -p $(dir $@)
	gcc -shared -Wl,--build-id -o $@ $<
$(PLACE)/unwind-shared: tests/place/shared_main.c tests/place/unwind_shared.S
	@mkdir -p $(dir $@)
	gcc -O2 -Wl,--build-id -o $@ $^
# prove's records that cannot tell: code made at run time, a program
# that stops early when its output goes to /dev/null (tests/cmd/t_prove.sh)
$(PLACE)/jit: tests/place/jit.c
	@mkdir -p $(dir $@)
	gcc -O2 -Wl,--build-id -o $@ $<
$(PLACE)/count: tests/place/count.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -Wl,--build-id -o $@ $<
# place --replay's loops (tests/cmd/t_replay.sh): one loop a function
$(PLACE)/replay: tests/place/replay.c
	@mkdir -p $(dir $@)
	gcc -O2 -fno-tree-vectorize -g -Wl,--build-id -o $@ $< -lpthread
$(PLACE)/fill: tests/place/fill.c
	@mkdir -p $(dir $@)
	gcc -O2 -fno-tree-vectorize -g -Wl,--build-id -o $@ $<
$(PLACE)/static: tests/place/fill.c
	@mkdir -p $(dir $@)
	gcc -O2 -static -Wl,--build-id -o $@ $<

# AArch64 (tests/cmd/t_place_arm64.sh, under qemu-user): the fixture as a
# PIE and as a shared object with its main, and the preload library. GCC
# makes the switch a table only from 4 cases on with the threshold given,
# and would hoist the table's adrp out of the loop, where decode's walk
# back from the br (along one path, not across the back edge) does not
# find it: the jump would stay unresolved and `work` refused.
A64_PLACE := $(PLACE)/arm64
A64_CC := aarch64-linux-gnu-gcc -O2 -g --param case-values-threshold=4 -fno-move-loop-invariants
PLACE_FIX += $(A64_PLACE)/moved-pie $(A64_PLACE)/libmoved.so $(A64_PLACE)/moved-lib \
	$(A64_PLACE)/libc_work $(A64_PLACE)/libm_work $(A64_PLACE)/shapes \
	$(B)/arm64/libstraddle-place.so

$(A64_PLACE)/moved-pie: tests/place/moved.c
	@mkdir -p $(dir $@)
	$(A64_CC) -fpie -pie -Wl,--build-id -o $@ $<
$(A64_PLACE)/libmoved.so: tests/place/moved.c
	@mkdir -p $(dir $@)
	$(A64_CC) -fPIC -shared -DWORK_LIB -Wl,--build-id -o $@ $<
$(A64_PLACE)/moved-lib: tests/place/moved_main.c $(A64_PLACE)/libmoved.so
	$(A64_CC) -o $@ $< -L$(A64_PLACE) -lmoved -Wl,-rpath,'$$ORIGIN'
$(A64_PLACE)/shapes: tests/place/a64_shapes_main.c tests/place/a64_shapes.S
	@mkdir -p $(dir $@)
	$(A64_CC) -fpie -pie -Wl,--build-id -o $@ $^
$(A64_PLACE)/libc_work: tests/place/libc_work.c
	@mkdir -p $(dir $@)
	$(A64_CC) -o $@ $<
$(A64_PLACE)/libm_work: tests/place/libm_work.c
	@mkdir -p $(dir $@)
	$(A64_CC) -o $@ $< -lm
$(B)/arm64/libstraddle-place.so: $(PRELOAD_SRC) $(PRELOAD_H)
	@mkdir -p $(dir $@)
	aarch64-linux-gnu-gcc $(WARN) $(DEFS) -O2 -g -fPIC -shared -fvisibility=hidden -o $@ $(PRELOAD_SRC) -ldl

EXTRA_FIX += $(PLACE_FIX)
