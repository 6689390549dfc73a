# straddle ab's fixtures (tests/ab/twin.c), built to known differences:
# twin-a and twin-b differ only by the padding in front of hot (its loop
# at offset 27 of its line in a, 51 in b: across the line); twin-w is a
# with 3% more work in chain; twin-static is a, static (nothing moves).
# Included by tests/tests.mk.
AB := $(FIX)/ab
AB_FIX := $(AB)/twin-a $(AB)/twin-b $(AB)/twin-w $(AB)/twin-static

$(AB)/twin-a: tests/ab/twin.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -DPAD=8 -Wl,--build-id -o $@ $<
$(AB)/twin-b: tests/ab/twin.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -DPAD=32 -Wl,--build-id -o $@ $<
$(AB)/twin-w: tests/ab/twin.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -DPAD=8 -DWORK=103 -Wl,--build-id -o $@ $<
$(AB)/twin-static: tests/ab/twin.c
	@mkdir -p $(dir $@)
	gcc -O2 -g -static -DPAD=8 -DTWIN_STATIC -Wl,--build-id -o $@ $<

EXTRA_FIX += $(AB_FIX)
