# The place fixture (tests/place/moved.c) three ways: a PIE, a
# fixed-address executable, and a shared object with its main; and the
# bundled program of `make run` (fill.c). Included by tests/tests.mk.
PLACE := $(FIX)/place
PLACE_FIX := $(PLACE)/moved-pie $(PLACE)/moved-nopie $(PLACE)/libmoved.so $(PLACE)/moved-lib \
	$(PLACE)/fill $(PLACE)/static $(PLACE)/moved-dl $(PLACE)/clear

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
$(PLACE)/fill: tests/place/fill.c
	@mkdir -p $(dir $@)
	gcc -O2 -fno-tree-vectorize -g -Wl,--build-id -o $@ $<
$(PLACE)/static: tests/place/fill.c
	@mkdir -p $(dir $@)
	gcc -O2 -static -Wl,--build-id -o $@ $<

EXTRA_FIX += $(PLACE_FIX)
